"""A reader for gettext catalogues (.po and .pot), for scripts/catalogue: entries with their
comments, context, singular and plural ids and translations, as GNU gettext writes them."""

import re


class Entry:
    """One message: `msgctxt`, `msgid`, `msgid_plural` (or None), `msgstr` (a list: one
    string, or one per plural form), its `comments` ("#." lines), `flags` ("#," lines) and the
    line it starts on."""

    def __init__(self, line):
        self.line = line
        self.comments = []
        self.flags = set()
        self.msgctxt = None
        self.msgid = None
        self.msgid_plural = None
        self.msgstr = {}

    @property
    def key(self):
        return self.msgctxt

    @property
    def forms(self):
        """The translation's forms in order ([] when untranslated)."""
        if not self.msgstr:
            return []
        return [self.msgstr.get(index, "") for index in range(max(self.msgstr) + 1)]


class POError(Exception):
    pass


ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


def _string(text, path, number):
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise POError("%s:%d: expected a quoted string, found %s" % (path, number, text))
    body = text[1:-1]
    out = ""
    index = 0
    while index < len(body):
        character = body[index]
        if character == "\\":
            if index + 1 >= len(body) or body[index + 1] not in ESCAPES:
                raise POError("%s:%d: unknown escape in %s" % (path, number, text))
            out += ESCAPES[body[index + 1]]
            index += 2
        elif character == '"':
            raise POError("%s:%d: an unescaped quote in %s" % (path, number, text))
        else:
            out += character
            index += 1
    return out


def read(path):
    """(header fields, entries) of the catalogue at `path`; the header is the entry with an
    empty msgid, its fields ("Plural-Forms", "Language", ...) as a dict."""
    entries = []
    entry = None
    field = None
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped:
            if entry is not None and entry.msgid is not None:
                entries.append(entry)
                entry = None
            field = None
            continue
        if entry is None or (entry.msgid is not None and stripped.startswith("#")):
            if entry is not None and entry.msgid is not None:
                entries.append(entry)
            entry = Entry(number)
            field = None
        if stripped.startswith("#~"):
            raise POError("%s:%d: an obsolete entry (#~): delete it" % (path, number))
        if stripped.startswith("#."):
            entry.comments.append(stripped[2:].strip())
            continue
        if stripped.startswith("#,"):
            entry.flags.update(flag.strip() for flag in stripped[2:].split(","))
            continue
        if stripped.startswith("#"):
            continue
        match = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(.*)$", stripped)
        if match:
            keyword, index, rest = match.group(1), match.group(2), match.group(3)
            value = _string(rest, path, number)
            if keyword == "msgctxt":
                entry.msgctxt = value
                field = ("msgctxt", None)
            elif keyword == "msgid":
                entry.msgid = value
                field = ("msgid", None)
            elif keyword == "msgid_plural":
                entry.msgid_plural = value
                field = ("msgid_plural", None)
            else:
                position = int(index) if index is not None else 0
                entry.msgstr[position] = value
                field = ("msgstr", position)
            continue
        if stripped.startswith('"') and field is not None:
            value = _string(stripped, path, number)
            name, position = field
            if name == "msgstr":
                entry.msgstr[position] += value
            else:
                setattr(entry, name, getattr(entry, name) + value)
            continue
        raise POError("%s:%d: cannot read %r" % (path, number, line))
    if entry is not None and entry.msgid is not None:
        entries.append(entry)
    header = {}
    if entries and entries[0].msgid == "" and entries[0].msgctxt is None:
        for line in entries[0].forms[0].split("\n") if entries[0].forms else []:
            if ":" in line:
                name, value = line.split(":", 1)
                header[name.strip()] = value.strip()
        entries = entries[1:]
    return header, entries


def quote(text):
    """`text` as a .po string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'
