"""CLDR data for scripts/catalogue: locale conventions and plural rules, read from the XML of
Debian's unicode-cldr-core (CLDR 41, /usr/share/unicode/cldr/common; Unicode licence).

Only the standard library: xml.etree for the files, a small parser for plural rules.
"""

import os
import re
import xml.etree.ElementTree as ET

ROOT = os.environ.get("CLDR_ROOT", "/usr/share/unicode/cldr/common")


class CLDRMissing(Exception):
    """CLDR's XML is not installed."""


def _parse(path):
    if not os.path.exists(path):
        raise CLDRMissing(path)
    return ET.parse(path).getroot()


class Locales:
    """Values of CLDR locales, with CLDR's inheritance: a locale's parent (parentLocales, else
    the name without its last part), then root; and aliases (root's stand-alone names and
    narrow day periods point at others), which restart the look-up at the first locale."""

    def __init__(self, root=ROOT):
        self.root = root
        self.files = {}
        supplemental = _parse(os.path.join(root, "supplemental", "supplementalData.xml"))
        self.parents = {}
        for parent in supplemental.iter("parentLocale"):
            for locale in parent.get("locales").split():
                self.parents[locale] = parent.get("parent")
        self.supplemental = supplemental

    def file(self, locale):
        if locale not in self.files:
            path = os.path.join(self.root, "main", locale + ".xml")
            self.files[locale] = _parse(path) if os.path.exists(path) else None
        return self.files[locale]

    def chain(self, locale):
        chain = [locale]
        while chain[-1] != "root":
            current = chain[-1]
            chain.append(self.parents.get(current) or (current.rsplit("_", 1)[0] if "_" in current else "root"))
        return chain

    @staticmethod
    def steps(path):
        """'a/b[@type='x']' as [('a', {}), ('b', {'type': 'x'})]."""
        found = []
        for part in re.findall(r"[^/\[]+(?:\[[^\]]*\])*", path):
            tag = part.split("[", 1)[0]
            attributes = dict(re.findall(r"@(\w+)='([^']*)'", part))
            found.append((tag, attributes))
        return found

    @staticmethod
    def _child(node, tag, attributes):
        for child in node:
            if child.tag != tag or child.get("alt") is not None:
                continue
            if all(child.get(key) == value for key, value in attributes.items()):
                return child
        return None

    def value(self, locale, path):
        """The text at `path` (steps below <ldml>) for `locale`; None when no locale has it."""
        steps = self.steps(path) if isinstance(path, str) else path
        for _ in range(20):
            redirected = None
            for name in self.chain(locale):
                node = self.file(name)
                if node is None:
                    continue
                for depth, (tag, attributes) in enumerate(steps):
                    node = self._child(node, tag, attributes)
                    if node is None:
                        break
                    alias = node.find("alias")
                    if alias is not None:
                        redirected = self._resolve(steps[:depth + 1], alias.get("path")) + steps[depth + 1:]
                        break
                if redirected is not None:
                    break
                if node is not None and node.text is not None and node.text.strip():
                    return node.text
            if redirected is None:
                return None
            steps = redirected
        raise ValueError("alias loop at " + str(path))

    def _resolve(self, base, relative):
        steps = list(base)
        for part in self.steps(relative):
            if part[0] == "..":
                steps.pop()
            else:
                steps.append(part)
        return steps


# Locale conventions -------------------------------------------------------------------------

GREGORIAN = "dates/calendars/calendar[@type='gregorian']"
WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]


def pattern_fields(pattern):
    """A CLDR date pattern as pieces: ('text', literal) or ('field', letters)."""
    pieces = []
    index = 0
    while index < len(pattern):
        character = pattern[index]
        if character == "'":
            end = pattern.find("'", index + 1)
            if end == index + 1:
                pieces.append(("text", "'"))
                index += 2
                continue
            end = len(pattern) if end < 0 else end
            pieces.append(("text", pattern[index + 1:end].replace("''", "'")))
            index = end + 1
        elif character.isascii() and character.isalpha():
            end = index
            while end < len(pattern) and pattern[end] == character:
                end += 1
            pieces.append(("field", pattern[index:end]))
            index = end
        else:
            pieces.append(("text", character))
            index += 1
    return pieces


# The fields here-weather draws, in its own template syntax ({E}, {d}, ...).
DATE_FIELDS = {"E": "E", "EE": "E", "EEE": "E", "EEEE": "E", "c": "E", "cc": "E", "ccc": "E", "cccc": "E",
               "d": "d", "dd": "dd", "M": "M", "MM": "MM", "L": "M", "LL": "MM",
               "MMM": "MMM", "LLL": "MMM", "MMMM": "MMM", "LLLL": "MMM"}
TIME_FIELDS = {"H": "H", "HH": "HH", "h": "h", "hh": "hh", "K": "K", "KK": "KK", "k": "k", "kk": "kk",
               "m": "mm", "mm": "mm", "a": "a"}


def template(pattern, fields):
    """A pattern in the template syntax: fields in braces, literal braces impossible."""
    out = ""
    for kind, text in pattern_fields(pattern):
        if kind == "text":
            if "{" in text or "}" in text or "\n" in text:
                raise ValueError("unexpected literal in pattern " + pattern)
            out += text
        elif text in fields:
            out += "{" + fields[text] + "}"
        else:
            raise ValueError("field %s of pattern %r is not drawn" % (text, pattern))
    return out


def conventions(cldr, locale):
    """The conventions here-weather draws for `locale`: numbers, the day label, the clock."""
    def value(path):
        found = cldr.value(locale, path)
        if found is None:
            raise ValueError("%s has no %s" % (locale, path))
        return found

    numbers = "numbers/symbols[@numberSystem='latn']/"
    percent = value("numbers/percentFormats[@numberSystem='latn']/percentFormatLength/percentFormat/pattern")
    percent = percent.split(";")[0]
    number = re.search(r"[#0,.]+", percent)
    day_pattern = value(GREGORIAN + "/dateTimeFormats/availableFormats/dateFormatItem[@id='MMMEd']")
    fields = [text for kind, text in pattern_fields(day_pattern) if kind == "field"]

    def names(letter, standalone, kind, types):
        """The names the pattern's field asks for: its context (E, M format; c, L
        stand-alone) and width (3 letters abbreviated, 4 wide)."""
        field = next((text for text in fields if text[0] in (letter, standalone)), letter * 3)
        context = "stand-alone" if field[0] == standalone else "format"
        width = "wide" if len(field) == 4 else "abbreviated"
        return [value(GREGORIAN + "/%ss/%sContext[@type='%s']/%sWidth[@type='%s']/%s[@type='%s']"
                      % (kind, kind, context, kind, width, kind, name)) for name in types]
    weekdays = names("E", "c", "day", WEEKDAYS)
    months = names("M", "L", "month", [str(month) for month in range(1, 13)])
    periods = GREGORIAN + "/dayPeriods/dayPeriodContext[@type='format']/dayPeriodWidth[@type='%s']/dayPeriod[@type='%s']"
    return {
        "decimal": value(numbers + "decimal"),
        "minus": value(numbers + "minusSign"),
        "percent": percent[:number.start()] + "{n}" + percent[number.end():],
        "day": template(day_pattern, DATE_FIELDS),
        "weekdays": weekdays,
        "months": months,
        "clock24": template(value(GREGORIAN + "/dateTimeFormats/availableFormats/dateFormatItem[@id='Hm']"), TIME_FIELDS),
        "clock12": template(value(GREGORIAN + "/dateTimeFormats/availableFormats/dateFormatItem[@id='hm']"), TIME_FIELDS),
        "am": value(periods % ("abbreviated", "am")),
        "pm": value(periods % ("abbreviated", "pm")),
        "amShort": value(periods % ("narrow", "am")),
        "pmShort": value(periods % ("narrow", "pm")),
        "countries": ["%s:%s" % (code, value("localeDisplayNames/territories/territory[@type='%s']" % code))
                      for code in WARNING_COUNTRIES],
    }


# The countries whose official warnings here-weather shows by name (MeteoAlarm's, with
# Norway and Germany): "N more warnings elsewhere in the country (Croatia)".
WARNING_COUNTRIES = ["AT", "BA", "BE", "BG", "CH", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GB", "GR", "HR",
                     "HU", "IE", "IL", "IS", "IT", "LT", "LU", "LV", "MD", "ME", "MK", "MT", "NL", "NO", "PL", "PT",
                     "RO", "RS", "SE", "SI", "SK", "UA"]


def language_name(cldr, locale, code):
    """The language's name in itself ("Deutsch", "português europeu"), as CLDR writes it: the
    name of its CLDR locale where CLDR has one (pt_PT), else the language's name with the
    country's ("português (Brasil)", "中文（中国）") for a code with a country."""
    def named(language):
        return cldr.value(locale, "localeDisplayNames/languages/language[@type='%s']" % language)
    language = code.replace("-", "_")
    found = (named(locale) if "_" in locale else None) or named(language)
    if found:
        return found
    base = named(language.split("_")[0])
    if "_" not in language:
        return base
    country = cldr.value(locale, "localeDisplayNames/territories/territory[@type='%s']" % language.split("_")[1])
    pattern = cldr.value(locale, "localeDisplayNames/localeDisplayPattern/localePattern")
    return pattern.replace("{0}", base).replace("{1}", country) if country and pattern else base


def imperial_territories(cldr):
    """Territories whose measurement system is not metric: CLDR's "US" and "UK" systems, without
    Great Britain (Celsius and millimetres of rain: here-weather has no mixed system)."""
    found = set()
    for system in cldr.supplemental.iter("measurementSystem"):
        if system.get("category") is None and system.get("type") in ("US", "UK"):
            found.update(system.get("territories").split())
    return sorted(found - {"GB"})


def twelve_hour_territories(cldr):
    """Territories whose preferred clock is 12-hour (timeData: preferred "h" or "K")."""
    found = set()
    for hours in cldr.supplemental.iter("hours"):
        if hours.get("preferred") in ("h", "K"):
            found.update(region for region in hours.get("regions").split() if re.fullmatch(r"[A-Z]{2}", region))
    return sorted(found)


# Plural rules -------------------------------------------------------------------------------

CATEGORIES = ["zero", "one", "two", "few", "many", "other"]
# here-weather counts whole things (minutes, hours, days, access points): integers only, so v, w,
# f, t, c and e are 0 and n = i.
OPERANDS_ZERO = set("vwftce")


def plural_rules(root=ROOT):
    """{locale: [(category, condition)]} from plurals.xml (cardinal rules)."""
    tree = _parse(os.path.join(root, "supplemental", "plurals.xml"))
    rules = {}
    for group in tree.iter("pluralRules"):
        entries = []
        for rule in group.iter("pluralRule"):
            condition = (rule.text or "").split("@")[0].strip()
            entries.append((rule.get("count"), condition))
        for locale in group.get("locales").split():
            rules[locale] = entries
    return rules


def _relation_parts(relation):
    match = re.fullmatch(r"\s*([nivwftce])\s*(?:%\s*(\d+))?\s*(!=|=)\s*([0-9.,\s]+)\s*", relation)
    if not match:
        raise ValueError("cannot read plural relation %r" % relation)
    operand, modulus, operator, values = match.groups()
    ranges = []
    for item in values.split(","):
        item = item.strip()
        if ".." in item:
            low, high = item.split("..")
            ranges.append((int(low), int(high)))
        else:
            ranges.append((int(item), int(item)))
    return operand, int(modulus) if modulus else None, operator, ranges


def _relation(relation):
    """A relation as (python evaluator, Swift text, C text); constants folded."""
    operand, modulus, operator, ranges = _relation_parts(relation)
    if operand in OPERANDS_ZERO:
        holds = any(low <= 0 <= high for low, high in ranges)
        result = holds if operator == "=" else not holds
        return (lambda n, r=result: r), ("true" if result else "false"), ("1" if result else "0")
    swift_value = "n % " + str(modulus) if modulus else "n"
    c_value = "n%" + str(modulus) if modulus else "n"
    swift_parts, c_parts = [], []
    for low, high in ranges:
        if low == high:
            swift_parts.append("%s == %d" % (swift_value, low))
            c_parts.append("%s==%d" % (c_value, low))
        else:
            swift_parts.append("(%d...%d).contains(%s)" % (low, high, swift_value))
            c_parts.append("(%s>=%d && %s<=%d)" % (c_value, low, c_value, high))
    swift = " || ".join(swift_parts)
    c = " || ".join(c_parts)
    if len(ranges) > 1:
        swift, c = "(" + swift + ")", "(" + c + ")"
    if operator == "!=":
        swift, c = "!(" + swift + ")", "!(" + c + ")"

    def evaluate(n):
        value = n % modulus if modulus else n
        inside = any(low <= value <= high for low, high in ranges)
        return inside if operator == "=" else not inside
    return evaluate, swift, c


def _condition(condition):
    """A whole condition (or of ands) as (evaluator, Swift, C), constants folded."""
    if not condition:
        return (lambda n: True), "true", "1"
    ors = []
    for conjunction in condition.split(" or "):
        parts = [_relation(relation) for relation in conjunction.split(" and ")]
        if any(swift == "false" for _, swift, _ in parts):
            continue
        parts = [part for part in parts if part[1] != "true"]
        ors.append(parts)
    if not ors:
        return (lambda n: False), "false", "0"
    if any(not parts for parts in ors):
        return (lambda n: True), "true", "1"
    swift = " || ".join("(" + " && ".join(part[1] for part in parts) + ")" if len(parts) > 1 else parts[0][1]
                        for parts in ors)
    c = " || ".join("(" + " && ".join(part[2] for part in parts) + ")" if len(parts) > 1 else parts[0][2]
                    for parts in ors)
    return (lambda n: any(all(part[0](n) for part in parts) for parts in ors)), swift, c


# The counts looked at: every rule here-weather's languages have is decided by n % 10, n % 100
# or small values, so 0..9999 shows every category a count can reach; rules that need a
# million (French "many" is for millions: "un million de minutes") are left out.
COUNT_SAMPLE = range(10_000)


class PluralRule:
    """A language's plural forms for whole numbers: the categories in CLDR's order that some
    count reaches, a Swift expression and a gettext Plural-Forms header."""

    def __init__(self, entries):
        parsed = {category: _condition(condition) for category, condition in entries}
        ordered = [category for category in CATEGORIES if category in parsed]

        def category_of(n):
            for category in ordered:
                if category != "other" and parsed[category][0](n):
                    return category
            return "other"
        self.category_of = category_of
        found = {}
        for n in COUNT_SAMPLE:
            found.setdefault(category_of(n), []).append(n)
        self.categories = [category for category in ordered if category in found]
        self.examples = {category: found[category][:4] for category in self.categories}
        # A form may leave the number out when it stands for one, and at most zero besides ("an
        # hour", French "l'heure"): never for Russian "one" (1, 21, 31, ...).
        self.single = {category: set(found[category]) <= {0, 1} for category in self.categories}
        swift_parts, c_parts = [], []
        for index, category in enumerate(self.categories[:-1]):
            _, swift, c = parsed[category]
            swift_parts.append("if %s { return %d };" % (swift, index))
            c_parts.append("%s ? %d : " % (c, index))
        self.swift = " ".join(swift_parts + ["return %d" % (len(self.categories) - 1)])
        self.header = "nplurals=%d; plural=%s;" % (
            len(self.categories), "(" + "".join(c_parts) + str(len(self.categories) - 1) + ")" if c_parts else "0")

    def index(self, n):
        category = self.category_of(n)
        return self.categories.index(category) if category in self.categories else len(self.categories) - 1


def plural_rule(rules, locale):
    """The rule for `locale` (pt_PT has its own), else its language's, else "other" only."""
    for name in (locale, locale.split("_")[0]):
        if name in rules:
            return PluralRule(rules[name])
    return PluralRule([("other", "")])
