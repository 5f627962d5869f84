#!/usr/bin/env python3
"""Deterministic generator for the NMEA 0183 test fixtures in this directory.

Standard library only.  Run from anywhere:

    python3 Fixtures/nmea/generate.py            # (re)write every *.nmea file
    python3 Fixtures/nmea/generate.py --facts    # also print the facts as JSON
    python3 Fixtures/nmea/generate.py --check    # regenerate in memory, compare
                                                 # with the files on disk

The fixtures are CONSTRUCTED, not recorded from a receiver.  Sentence layouts
follow gpsd's "NMEA Revealed" (www/NMEA.adoc in the gpsd repository) and the
u-blox 8/M8 receiver description (UBX-13003221); see README.md for details.

Every run produces byte-identical output: no clock, no environment, and the
only pseudo-randomness is random.Random(seed).random() with fixed seeds
(the Mersenne Twister sequence of random() is stable across CPython versions).
"""

import datetime as dt
import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EARTH_R = 6371008.8          # mean Earth radius, metres (flat-step integration)
KNOT = 1852.0 / 3600.0       # m/s per knot
CRLF = b"\r\n"
LF = b"\n"


# --------------------------------------------------------------------------
# low-level formatting
# --------------------------------------------------------------------------

def checksum(body):
    """XOR of every byte between '$' and '*' (body excludes both)."""
    x = 0
    for c in body.encode("ascii"):
        x ^= c
    return "%02X" % x


def sentence(body):
    """'$' + body + '*' + two upper-case hex digits (no line ending)."""
    return "$%s*%s" % (body, checksum(body))


def _ddmm(value, deg_digits, decimals):
    """Format abs(value) degrees as d..dmm.mmmmm using integer arithmetic so
    that minutes never round up to 60."""
    scale = 10 ** decimals
    units = int(round(abs(value) * 60 * scale))
    deg, rem = divmod(units, 60 * scale)
    mins, frac = divmod(rem, scale)
    return "%0*d%02d.%0*d" % (deg_digits, deg, mins, decimals, frac)


def fmt_lat(lat, decimals=5):
    return _ddmm(lat, 2, decimals), ("N" if lat >= 0 else "S")


def fmt_lon(lon, decimals=5):
    return _ddmm(lon, 3, decimals), ("E" if lon >= 0 else "W")


def printed_deg(value, decimals=5):
    """The decimal-degree value a correct parser recovers from the printed
    field (what tests should assert), rounded to 9 places."""
    scale = 10 ** decimals
    units = int(round(abs(value) * 60 * scale))
    v = units / (60.0 * scale)
    return round(math.copysign(v, value), 9)


def fmt_time(t, decimals=2):
    if decimals == 0:
        return t.strftime("%H%M%S")
    frac = t.microsecond / 1e6
    return t.strftime("%H%M%S") + ("%.*f" % (decimals, frac))[1:]


def fmt_date(t):
    return t.strftime("%d%m%y")


def f1(x):
    return "%.1f" % x


def f2(x):
    return "%.2f" % x


# --------------------------------------------------------------------------
# geometry / motion
# --------------------------------------------------------------------------

def step(lat, lon, speed_ms, course_deg, dt_s):
    d = speed_ms * dt_s
    c = math.radians(course_deg)
    dlat = d * math.cos(c) / EARTH_R
    dlon = d * math.sin(c) / (EARTH_R * math.cos(math.radians(lat)))
    return lat + math.degrees(dlat), lon + math.degrees(dlon)


def haversine(lat1, lon1, lat2, lon2):
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp = p2 - p1
    dl = math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_R * math.asin(math.sqrt(a))


def offset_m(lat, lon, north_m, east_m):
    dlat = math.degrees(north_m / EARTH_R)
    dlon = math.degrees(east_m / (EARTH_R * math.cos(math.radians(lat))))
    return lat + dlat, lon + dlon


# --------------------------------------------------------------------------
# satellites
# --------------------------------------------------------------------------

class Sat(object):
    def __init__(self, prn, el0, az0, el_rate, snr_base):
        self.prn = prn
        self.el0 = el0
        self.az0 = az0
        self.el_rate = el_rate        # degrees per second
        self.snr_base = snr_base

    def el(self, t):
        return int(round(max(1.0, min(89.0, self.el0 + self.el_rate * t))))

    def az(self, t):
        return int(round(self.az0 + 0.004 * t)) % 360


def make_sky(seed, prns, el_lo=6, el_hi=84):
    rnd = random.Random(seed)
    sats = []
    n = len(prns)
    for i, prn in enumerate(prns):
        el = el_lo + (el_hi - el_lo) * ((i + 0.5) / n) + (rnd.random() - 0.5) * 6
        az = (i * 137.5 + rnd.random() * 40) % 360
        rate = (rnd.random() - 0.5) * 0.016      # about +-0.5 deg/min
        snr = 28 + el * 0.22 + rnd.random() * 4
        sats.append(Sat(prn, el, az, rate, snr))
    sats.sort(key=lambda s: s.prn)
    return sats


def snr_of(sat, t, rnd, scale=1.0):
    v = (sat.snr_base + (rnd.random() - 0.5) * 3) * scale
    return int(round(max(8, min(52, v))))


def best_sats(sats, t, n):
    """The n highest satellites, returned in PRN order."""
    ranked = sorted(sats, key=lambda s: (-s.el(t), s.prn))[:n]
    return sorted(ranked, key=lambda s: s.prn)


HDOP_BY_USED = {3: 4.10, 4: 2.60, 5: 1.90, 6: 1.45, 7: 1.20, 8: 1.02,
                9: 0.94, 10: 0.88, 11: 0.82, 12: 0.78}


def dops(n_used, wobble=0.0):
    if n_used >= 12:
        h = 0.78 - min(0.3, 0.02 * (n_used - 12))
    else:
        h = HDOP_BY_USED[n_used]
    h = h * (1.0 + wobble)
    p = h * (1.75 if n_used > 3 else 1.05)
    v = math.sqrt(max(0.0, p * p - h * h))
    return p, h, v


# --------------------------------------------------------------------------
# sentence builders
# --------------------------------------------------------------------------

def gga(talker, t, lat, lon, quality, nsat, hdop, alt, sep, tdec=2, pdec=5,
        empty_pos=False, hdop_fmt=f2, nsat_cap=None, alt_empty=False):
    if empty_pos:
        la, ns, lo, ew = "", "", "", ""
    else:
        la, ns = fmt_lat(lat, pdec)
        lo, ew = fmt_lon(lon, pdec)
    if nsat_cap is not None:
        nsat = min(nsat, nsat_cap)
    hd = "" if hdop is None else hdop_fmt(hdop)
    if alt is None or alt_empty:
        alt_s, alt_u = "", ""
        sep_s, sep_u = "", ""
    else:
        alt_s, alt_u = f1(alt), "M"
        sep_s, sep_u = f1(sep), "M"
    return sentence("%sGGA,%s,%s,%s,%s,%s,%d,%02d,%s,%s,%s,%s,%s,," % (
        talker, fmt_time(t, tdec), la, ns, lo, ew, quality, nsat, hd,
        alt_s, alt_u, sep_s, sep_u))


def rmc(talker, t, status, lat, lon, sog_kn, cog, mode=None, nav_status=None,
        tdec=2, pdec=5, empty_pos=False, sog_fmt=None):
    if empty_pos:
        la, ns, lo, ew = "", "", "", ""
    else:
        la, ns = fmt_lat(lat, pdec)
        lo, ew = fmt_lon(lon, pdec)
    if sog_fmt is None:
        sog_fmt = lambda v: "%.3f" % v
    sog = "" if sog_kn is None else sog_fmt(sog_kn)
    cg = "" if cog is None else f2(cog)
    body = "%sRMC,%s,%s,%s,%s,%s,%s,%s,%s,%s,," % (
        talker, fmt_time(t, tdec), status, la, ns, lo, ew, sog, cg, fmt_date(t))
    if mode is not None:
        body += "," + mode
    if nav_status is not None:
        body += "," + nav_status
    return sentence(body)


def gsa(talker, fix, prns, pdop, hdop, vdop, system_id=None, sel="A"):
    ids = ["%02d" % p for p in prns[:12]]
    ids += [""] * (12 - len(ids))
    if fix == 1:
        tail = "99.99,99.99,99.99" if pdop is None else "%s,%s,%s" % (f2(pdop), f2(hdop), f2(vdop))
    else:
        tail = "%s,%s,%s" % (f2(pdop), f2(hdop), f2(vdop))
    body = "%sGSA,%s,%d,%s,%s" % (talker, sel, fix, ",".join(ids), tail)
    if system_id is not None:
        body += ",%d" % system_id
    return sentence(body)


def gsv(talker, entries, signal_id=None):
    """entries: list of (prn, el, az, snr-or-None).  el/az may be None."""
    out = []
    n = len(entries)
    total = max(1, (n + 3) // 4)
    for k in range(total):
        chunk = entries[4 * k:4 * k + 4]
        parts = ["%sGSV" % talker, str(total), str(k + 1), "%02d" % n]
        for prn, el, az, snr in chunk:
            parts.append("%02d" % prn)
            parts.append("" if el is None else "%02d" % el)
            parts.append("" if az is None else "%03d" % az)
            parts.append("" if snr is None else "%02d" % snr)
        if signal_id is not None:
            parts.append("%X" % signal_id)
        out.append(sentence(",".join(parts)))
    return out


def gst(talker, t, rms, lat_sd, lon_sd, alt_sd, major=None, minor=None,
        orient=None, tdec=2):
    def o(v):
        return "" if v is None else f1(v)
    return sentence("%sGST,%s,%s,%s,%s,%s,%s,%s,%s" % (
        talker, fmt_time(t, tdec), f1(rms), o(major), o(minor), o(orient),
        f1(lat_sd), f1(lon_sd), f1(alt_sd)))


def gll(talker, t, lat, lon, status, mode=None, tdec=2, pdec=5):
    la, ns = fmt_lat(lat, pdec)
    lo, ew = fmt_lon(lon, pdec)
    body = "%sGLL,%s,%s,%s,%s,%s,%s" % (talker, la, ns, lo, ew, fmt_time(t, tdec), status)
    if mode is not None:
        body += "," + mode
    return sentence(body)


def vtg(talker, cog, sog_kn, mode="A"):
    cg = "" if cog is None else f2(cog)
    return sentence("%sVTG,%s,T,,M,%.3f,N,%.3f,K,%s" % (
        talker, cg, sog_kn, sog_kn * 1.852, mode))


def gns(talker, t, lat, lon, modes, nsat, hdop, alt, sep, nav_status="V",
        tdec=2, pdec=5):
    la, ns = fmt_lat(lat, pdec)
    lo, ew = fmt_lon(lon, pdec)
    return sentence("%sGNS,%s,%s,%s,%s,%s,%s,%02d,%s,%s,%s,,,%s" % (
        talker, fmt_time(t, tdec), la, ns, lo, ew, modes, nsat, f2(hdop),
        f1(alt), f1(sep), nav_status))


def zda(talker, t, tdec=2):
    return sentence("%sZDA,%s,%02d,%02d,%04d,00,00" % (
        talker, fmt_time(t, tdec), t.day, t.month, t.year))


def error_ellipse(major, minor, orient_deg):
    """lat/lon 1-sigma implied by an error ellipse (orientation from north)."""
    th = math.radians(orient_deg)
    lat = math.sqrt((major * math.cos(th)) ** 2 + (minor * math.sin(th)) ** 2)
    lon = math.sqrt((major * math.sin(th)) ** 2 + (minor * math.cos(th)) ** 2)
    return lat, lon


# --------------------------------------------------------------------------
# fixture writer
# --------------------------------------------------------------------------

class Fixture(object):
    def __init__(self, name):
        self.name = name
        self.lines = []          # list of bytes, each including its ending
        self.facts = {}
        self.notes = []          # (line number, text) for documented lines

    def add(self, s, eol=CRLF):
        if isinstance(s, str):
            s = s.encode("ascii")
        self.lines.append(s + eol)

    def addall(self, ss, eol=CRLF):
        for s in ss:
            self.add(s, eol)

    def note(self, text):
        """Annotate the line that was added last."""
        self.notes.append((len(self.lines), text))

    def data(self):
        return b"".join(self.lines)


def fix_fact(t, lat, lon, pdec=5):
    return {"time": t.strftime("%Y-%m-%dT%H:%M:%S.") + "%02dZ" % (t.microsecond // 10000),
            "lat": round(printed_deg(lat, pdec), 6),
            "lon": round(printed_deg(lon, pdec), 6)}


# --------------------------------------------------------------------------
# 1. cold-start
# --------------------------------------------------------------------------

def build_cold_start():
    fx = Fixture("cold-start.nmea")
    rnd = random.Random(101)
    t0 = dt.datetime(2026, 11, 22, 14, 5, 0)
    stale = (28.538336, -81.379234, 27.4, -30.2)        # Orlando, last session
    true_lat, true_lon, alt, sep = 27.950575, -82.457178, 11.6, -28.4   # Tampa
    sky = make_sky(11, [2, 5, 10, 12, 13, 15, 18, 23, 25, 29, 31], el_lo=8)
    # order in which satellites are acquired (el-sorted, high first)
    acq = sorted(sky, key=lambda s: -s.el(0))[:9]
    n_void, n_2d, n_3d = 20, 3, 40
    visible_sched = [0, 0, 1, 2, 2, 3, 4, 4, 5, 6, 6, 7, 7, 8, 8, 9, 9, 9, 9, 9]
    first_fix = None
    valid = 0
    gst_samples = {}
    prev = None
    for i in range(n_void + n_2d + n_3d):
        t = t0 + dt.timedelta(seconds=i)
        if i < n_void:
            nvis = visible_sched[i]
        else:
            nvis = 9
        vis = sorted(acq[:nvis], key=lambda s: s.prn)
        entries = []
        for s in vis:
            idx = acq.index(s)
            appear = min(j for j in range(n_void) if visible_sched[j] > idx)
            if i < n_void and i - appear < 2:
                snr = None                 # listed (almanac) but not yet tracked
            else:
                snr = snr_of(s, i, rnd, 0.85 if i < n_void else 1.0)
            entries.append((s.prn, s.el(i), s.az(i), snr))
        if i < n_void:
            la, lo, al, sp = stale
            fx.add(gga("GP", t, la, lo, 0, 0, 99.99, al, sp))
            fx.add(gsa("GP", 1, [], None, None, None))
            fx.addall(gsv("GP", entries))
            fx.add(rmc("GP", t, "V", la, lo, 0.0, None, mode="N"))
            prev = None
            continue
        k = i - n_void
        if k < n_2d:
            used = best_sats(vis, i, 3)
            fixdim = 2
            sigma = None
        else:
            j = k - n_2d
            nused = 4 if j < 3 else 5 if j < 8 else 6 if j < 15 else 7 if j < 25 else 8
            used = best_sats(vis, i, nused)
            fixdim = 3
            sigma = 4.0 + 21.0 * math.exp(-j / 9.0)      # ~25 m -> ~4 m
        n = len(used)
        pdop, hdop, vdop = dops(n, 0.02 * math.sin(i))
        # position error shrinks with the solution; a stationary receiver
        # (slowly rotating offset, so the implied speed stays below ~1 m/s)
        err = (sigma if sigma else 30.0) * 0.3
        lat, lon = offset_m(true_lat, true_lon, err * math.cos(i * 0.06),
                            err * 0.8 * math.sin(i * 0.06))
        if prev is None:
            sog, cog = 0.0, None
        else:
            d = haversine(prev[0], prev[1], lat, lon)
            sog = d / KNOT
            cog = None if d < 0.5 else (math.degrees(math.atan2(
                (lon - prev[1]) * math.cos(math.radians(lat)), lat - prev[0])) % 360)
        prev = (lat, lon)
        if fixdim == 2:
            fx.add(gga("GP", t, lat, lon, 1, n, hdop, None, None, alt_empty=True))
        else:
            fx.add(gga("GP", t, lat, lon, 1, n, hdop, alt + err * 0.5 * math.sin(i), sep))
        fx.add(gsa("GP", fixdim, [s.prn for s in used], pdop, hdop, vdop))
        fx.addall(gsv("GP", entries))
        fx.add(rmc("GP", t, "A", lat, lon, sog, cog, mode="A"))
        if fixdim == 3:
            orient = 20.0 + 5 * math.sin(i / 7.0)
            major, minor = sigma * 1.10, sigma * 0.78
            lsd, osd = error_ellipse(major, minor, orient)
            fx.add(gst("GP", t, sigma * 0.9, lsd, osd, sigma * 1.7,
                       major, minor, orient))
            gst_samples[fmt_time(t)] = {"lat_sd": float(f1(lsd)), "lon_sd": float(f1(osd)),
                                        "alt_sd": float(f1(sigma * 1.7)),
                                        "major": float(f1(major)), "minor": float(f1(minor))}
        valid += 1
        if first_fix is None:
            first_fix = fix_fact(t, lat, lon)
            first_fix["mode"] = 2
        if k == n_2d:
            fx.facts["first_3d_fix"] = dict(fix_fact(t, lat, lon), mode=3)
        last = dict(fix_fact(t, lat, lon), mode=3)
    keys = sorted(gst_samples)
    fx.facts.update({
        "epochs": n_void + n_2d + n_3d, "void_epochs": n_void,
        "stale_position_in_void_epochs": {"lat": round(printed_deg(stale[0]), 6),
                                          "lon": round(printed_deg(stale[1]), 6)},
        "fix_2d_epochs": n_2d, "fix_3d_epochs": n_3d, "valid_epochs": valid,
        "first_fix": first_fix, "last_fix": last,
        "true_position": {"lat": true_lat, "lon": true_lon},
        "gst_first": {keys[0]: gst_samples[keys[0]]},
        "gst_10th": {keys[9]: gst_samples[keys[9]]},
        "gst_last": {keys[-1]: gst_samples[keys[-1]]},
        "sats_in_view_max": 9,
    })
    return fx


# --------------------------------------------------------------------------
# 2. drive (crosses UTC midnight)
# --------------------------------------------------------------------------

def drive_profile(n):
    """Per-second (speed m/s, course deg) for a ~50 km/h drive in Tampa:
    north on N Florida Ave, a red light, a right turn, then east."""
    out = []
    for s in range(n):
        if s < 150:
            v, c = 13.9, 0.4
        elif s < 157:                       # braking for a red light
            v, c = 13.9 * (157 - s) / 7.0, 0.4
        elif s < 175:                       # stopped
            v, c = 0.0, 0.4
        elif s < 183:                       # pulling away
            v, c = 13.9 * (s - 175) / 8.0, 0.4
        elif s < 240:
            v, c = 13.9, 0.4
        elif s < 246:                       # slowing for the right turn
            v, c = 13.9 - (s - 240) * 1.3, 0.4
        elif s < 254:                       # the turn itself
            v, c = 6.1, 0.4 + (s - 246 + 1) * (89.6 / 8.0)
        elif s < 262:
            v, c = 6.1 + (s - 254) * 0.975, 90.0
        else:
            v, c = 13.9 + 0.3 * math.sin(s / 11.0), 90.0
        out.append((max(0.0, v), c))
    return out


def build_drive():
    fx = Fixture("drive.nmea")
    rnd = random.Random(202)
    t0 = dt.datetime(2026, 11, 21, 23, 57, 0)
    n = 370                                          # 23:57:00 .. 00:03:09
    lat, lon = 27.951420, -82.459010                 # N Florida Ave, Tampa
    sky = make_sky(22, [1, 3, 6, 11, 14, 17, 19, 22, 24, 28, 32], el_lo=10)
    prof = drive_profile(n)
    facts_pos = []
    dist = 0.0
    for i in range(n):
        t = t0 + dt.timedelta(seconds=i)
        v, c = prof[i]
        if i > 0:
            pv, pc = prof[i - 1]
            nlat, nlon = step(lat, lon, (v + pv) / 2.0, (c + pc) / 2.0, 1.0)
            dist += haversine(lat, lon, nlat, nlon)
            lat, lon = nlat, nlon
        used = best_sats(sky, i, 8)
        pdop, hdop, vdop = dops(8, 0.05 * math.sin(i / 13.0))
        alt = 12.0 + 2.0 * math.sin(i / 60.0)
        sog = v / KNOT
        cog = c if v > 0.3 else None
        fx.add(rmc("GP", t, "A", lat, lon, sog, cog, mode="A"))
        fx.add(vtg("GP", cog, sog))
        fx.add(gga("GP", t, lat, lon, 1, 8, hdop, alt, -28.5))
        fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
        entries = [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky]
        fx.addall(gsv("GP", entries))
        fx.add(gll("GP", t, lat, lon, "A", "A"))
        maj = 4.6 + 0.8 * math.sin(i / 17.0)
        mnr = 2.9 + 0.4 * math.cos(i / 23.0)
        lsd, osd = error_ellipse(maj, mnr, 35.0)
        fx.add(gst("GP", t, 6.5 + math.sin(i / 9.0), lsd, osd, maj * 1.5))
        facts_pos.append((t, lat, lon))
    fx.facts.update({
        "epochs": n, "valid_epochs": n,
        "first_fix": dict(fix_fact(*facts_pos[0]), mode=3),
        "last_before_midnight": fix_fact(*facts_pos[179]),
        "first_after_midnight": fix_fact(*facts_pos[180]),
        "last_fix": dict(fix_fact(*facts_pos[-1]), mode=3),
        "rmc_dates": ["211126 for 23:57:00-23:59:59 (180 epochs)",
                      "221126 for 00:00:00-00:03:09 (190 epochs)"],
        "distance_m_approx": round(dist, 1),
        "stopped_epochs": "23:59:37-23:59:54 (speed 0, course empty)",
        "sats_used": 8, "sats_in_view": len(sky),
        "gst_sigma_range_m": "lat/lon 1-sigma between ~2.8 and ~5.0",
    })
    return fx


def build_moving():
    """drive.nmea's first 40 s, shifted 256 m north along its own course: the
    car starts 143 m south of 2 decimals' cell edge (27.955) and crosses it
    after 11 s, so the weather's cell changes once (27.95 -> 27.96, -82.46
    both) within a minute of log time."""
    fx = Fixture("moving.nmea")
    rnd = random.Random(202)
    t0 = dt.datetime(2026, 11, 21, 23, 57, 0)
    n = 40
    lat, lon = offset_m(27.951420, -82.459010, 256.0, 0.0)
    sky = make_sky(22, [1, 3, 6, 11, 14, 17, 19, 22, 24, 28, 32], el_lo=10)
    prof = drive_profile(n)
    facts_pos = []
    for i in range(n):
        t = t0 + dt.timedelta(seconds=i)
        v, c = prof[i]
        if i > 0:
            pv, pc = prof[i - 1]
            lat, lon = step(lat, lon, (v + pv) / 2.0, (c + pc) / 2.0, 1.0)
        used = best_sats(sky, i, 8)
        pdop, hdop, vdop = dops(8, 0.05 * math.sin(i / 13.0))
        alt = 12.0 + 2.0 * math.sin(i / 60.0)
        sog = v / KNOT
        cog = c if v > 0.3 else None
        fx.add(rmc("GP", t, "A", lat, lon, sog, cog, mode="A"))
        fx.add(vtg("GP", cog, sog))
        fx.add(gga("GP", t, lat, lon, 1, 8, hdop, alt, -28.5))
        fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
        entries = [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky]
        fx.addall(gsv("GP", entries))
        fx.add(gll("GP", t, lat, lon, "A", "A"))
        maj = 4.6 + 0.8 * math.sin(i / 17.0)
        mnr = 2.9 + 0.4 * math.cos(i / 23.0)
        lsd, osd = error_ellipse(maj, mnr, 35.0)
        fx.add(gst("GP", t, 6.5 + math.sin(i / 9.0), lsd, osd, maj * 1.5))
        facts_pos.append((t, lat, lon))
    first_out = next(i for i, (_, la, _) in enumerate(facts_pos) if round(la, 2) != round(facts_pos[0][1], 2))
    fx.facts.update({
        "epochs": n, "valid_epochs": n,
        "first_fix": dict(fix_fact(*facts_pos[0]), mode=3),
        "last_in_first_cell": fix_fact(*facts_pos[first_out - 1]),
        "first_in_second_cell": fix_fact(*facts_pos[first_out]),
        "last_fix": dict(fix_fact(*facts_pos[-1]), mode=3),
        "cells_at_2_decimals": [[round(facts_pos[0][1], 2), round(facts_pos[0][2], 2)],
                                [round(facts_pos[-1][1], 2), round(facts_pos[-1][2], 2)]],
    })
    return fx


# --------------------------------------------------------------------------
# 3. fix-lost (tunnel)
# --------------------------------------------------------------------------

def build_fix_lost():
    fx = Fixture("fix-lost.nmea")
    rnd = random.Random(303)
    t0 = dt.datetime(2026, 11, 22, 15, 20, 0)
    lat, lon = 27.941300, -82.470200
    v, c = 11.1, 92.0                                # ~40 km/h, east
    sky = make_sky(33, [2, 4, 9, 12, 16, 20, 25, 26, 29, 31], el_lo=12)
    first = last_good = first_after = None
    valid = 0
    for i in range(80):
        t = t0 + dt.timedelta(seconds=i)
        if i > 0:
            lat, lon = step(lat, lon, v, c, 1.0)     # the car keeps moving
        lost = 30 <= i < 60
        if lost:
            la, lo = last_good[1], last_good[2]
            fx.add(gga("GP", t, la, lo, 0, 0, 99.99, None, None, alt_empty=True))
            fx.add(gsa("GP", 1, [], None, None, None))
            entries = [(s.prn, s.el(i), s.az(i), None) for s in sky]
            fx.addall(gsv("GP", entries))
            fx.add(rmc("GP", t, "V", la, lo, 0.0, None, mode="N"))
            continue
        used = best_sats(sky, i, 7)
        pdop, hdop, vdop = dops(7, 0.04 * math.sin(i / 5.0))
        fx.add(gga("GP", t, lat, lon, 1, 7, hdop, 8.0 + 0.05 * i, -28.6))
        lsd, osd = 3.4 + 0.3 * math.sin(i / 4.0), 2.8 + 0.3 * math.cos(i / 4.0)
        fx.add(gst("GP", t, 5.1, lsd, osd, 5.9, lsd * 1.1, osd * 0.9, 12.0))
        fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
        entries = [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky]
        fx.addall(gsv("GP", entries))
        fx.add(rmc("GP", t, "A", lat, lon, v / KNOT, c, mode="A"))
        valid += 1
        if first is None:
            first = fix_fact(t, lat, lon)
        if i < 30:
            last_good = (t, lat, lon)
        if i == 60:
            first_after = fix_fact(t, lat, lon)
        last = fix_fact(t, lat, lon)
    fx.facts.update({
        "epochs": 80, "valid_epochs": valid, "void_epochs": 30,
        "first_fix": dict(first, mode=3),
        "last_fix_before_loss": fix_fact(*last_good),
        "void_span": "15:20:30-15:20:59 (RMC V / GGA 0 carry the 15:20:29 position)",
        "first_fix_after_loss": dict(first_after, mode=3),
        "gap_distance_m": round(haversine(last_good[1], last_good[2],
                                          printed_deg(first_after["lat"]), printed_deg(first_after["lon"])), 1),
        "last_fix": last,
        "speed_kn": round(v / KNOT, 3), "course": c,
    })
    return fx


# --------------------------------------------------------------------------
# 4. bad-checksums
# --------------------------------------------------------------------------

def corrupt(s):
    """Same sentence with its checksum deliberately wrong (+1 mod 256)."""
    body, cs = s[1:].split("*")
    return "$%s*%02X" % (body, (int(cs, 16) + 1) & 0xFF)


def junk_bytes():
    """All byte values 0x00-0xFF except LF, CR and '$', deterministically
    shuffled.  Bytes that start binary packets other parsers may recognise
    are kept away from each other by the shuffle check below."""
    vals = [b for b in range(256) if b not in (0x0A, 0x0D, 0x24)]
    rnd = random.Random(404)
    for _ in range(100):
        # Fisher-Yates with random() only (stable across Python versions)
        for k in range(len(vals) - 1, 0, -1):
            j = int(rnd.random() * (k + 1))
            vals[k], vals[j] = vals[j], vals[k]
        pairs = set(zip(vals, vals[1:]))
        # avoid UBX (B5 62), SiRF (A0 A2), RTCM3 (D3 00) and "!A" (AIVDM) starts
        if not pairs & {(0xB5, 0x62), (0xA0, 0xA2), (0xD3, 0x00), (0x21, 0x41)}:
            break
    return bytes(vals)


def build_bad_checksums():
    fx = Fixture("bad-checksums.nmea")
    rnd = random.Random(505)
    t0 = dt.datetime(2026, 11, 22, 16, 10, 0)
    lat, lon = 27.964200, -82.451800                  # Tampa Heights, walking
    v, c = 1.35, 15.0
    sky = make_sky(44, [3, 6, 8, 14, 17, 19, 22, 24, 30], el_lo=12)
    valid_epochs = []
    no_fix_epochs = []
    for i in range(30):
        t = t0 + dt.timedelta(seconds=i)
        if i > 0:
            lat, lon = step(lat, lon, v, c, 1.0)
        used = best_sats(sky, i, 7)
        pdop, hdop, vdop = dops(7)
        g = gga("GP", t, lat, lon, 1, 7, hdop, 14.2, -28.5)
        a = gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop)
        r = rmc("GP", t, "A", lat, lon, v / KNOT, c, mode="A")
        eol = LF if i in (3, 4, 5, 17, 18, 26) else CRLF   # mixed line endings
        good_pos = True
        if i == 2:
            # wrong checksum + Null Island position, BEFORE the real GGA
            fx.add(corrupt(gga("GP", t, 0.0, 0.0, 1, 7, hdop, 0.0, 0.0)), eol)
            fx.note("BAD checksum (GGA, lat 0 lon 0) - must be dropped")
        if i == 6:
            fx.add(b"")
            fx.note("blank line")
        if i == 7:
            fx.add("hello from a confused serial port")
            fx.note("garbage text line")
        if i == 12:
            # this epoch has NO valid position sentence at all
            fx.add(g[:31], eol)
            fx.note("TRUNCATED GGA (cut inside the longitude field, no '*')")
            fx.add(a, eol)
            fx.add(corrupt(rmc("GP", t, "A", 48.858370, 2.294481, 0.0, None, mode="A")), eol)
            fx.note("BAD checksum (RMC, Paris 48.858370 2.294481) - must be dropped")
            no_fix_epochs.append(fmt_time(t))
            good_pos = False
        elif i == 21:
            # no valid position sentence either: GGA cut after '*', RMC void-looking junk
            fx.add(g[:-2], eol)
            fx.note("TRUNCATED GGA (ends with '*', checksum digits missing)")
            fx.add(a, eol)
            fx.add(r[:30] + "*4", eol)
            fx.note("TRUNCATED RMC (cut inside latitude, '*' followed by one hex digit)")
            no_fix_epochs.append(fmt_time(t))
            good_pos = False
        else:
            if i == 9:
                fx.add(g.split("*")[0], eol)
                fx.note("GGA WITHOUT checksum (valid; accept as gpsd does)")
            elif i == 15:
                fx.add(g, eol)
                fx.add(b"$GPGGA,161015.00,2758.2" + b"\x00\x00")   # NULs then CRLF
                fx.note("TRUNCATED GGA followed by two NUL bytes")
            else:
                fx.add(g, eol)
            fx.add(a, eol)
            if i == 9:
                fx.add(r.split("*")[0], eol)
                fx.note("RMC WITHOUT checksum (valid; accept as gpsd does)")
            elif i == 24:
                fx.add(corrupt(rmc("GP", t, "A", -33.856784, 151.215297, 5.0, 90.0, mode="A")), eol)
                fx.note("BAD checksum (RMC, Sydney) - must be dropped")
                fx.add(r, eol)
            else:
                fx.add(r, eol)
        if i % 5 == 0:
            entries = [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky]
            fx.addall(gsv("GP", entries), eol)
        if i == 10:
            fx.add(junk_bytes())
            fx.note("BINARY JUNK: 253 bytes (every value 0x00-0xFF except 0x0A, 0x0D, "
                    "0x24), then CRLF")
        if i == 13:
            la, ns = fmt_lat(lat)
            lo, ew = fmt_lon(lon)
            pubx = sentence("PUBX,00,%s,%s,%s,%s,%s,%s,G3,3.1,4.6,%.3f,%.2f,0.000,,%s,%s,%s,7,0,0" % (
                fmt_time(t), _ddmm(lat, 2, 6), ns, _ddmm(lon, 3, 6), ew, "-14.300",
                v * 3.6, c, f2(hdop), f2(vdop), f2(1.1)))
            fx.add(pubx, eol)
            fx.note("$PUBX,00 u-blox proprietary position (correct checksum, same "
                    "position as this epoch; ignoring it is fine)")
        if i == 16:
            fx.add(corrupt(gga("GP", t, 51.500729, -0.124625, 1, 9, 0.9, 20.0, 45.0)), eol)
            fx.note("BAD checksum (GGA, London) - must be dropped")
        if i == 19:
            long_body = ("GPGGA,%s,0000.00000,N,00000.00000,E,1,12,0.50,0.0,M,0.0,M,,"
                         % fmt_time(t))
            pad = 2000 - 1 - len(long_body) - 3
            line = "$" + long_body + "0" * pad + "*7E"
            assert len(line) == 2000
            fx.add(line, eol)
            fx.note("2000-CHARACTER line: GGA-shaped, Null Island, padded with '0', "
                    "wrong checksum, far over the 82-byte limit - must be dropped")
        if i == 22:
            fx.add("GPGGA,%s,2757.00000,N,08227.00000,W,1,07,1.20,14.2,M,-28.5,M,,*00" % fmt_time(t), eol)
            fx.note("garbage: sentence without leading '$' - must be dropped")
            fx.add("$$$$$$$$", eol)
            fx.note("garbage: dollars only")
        if i == 27:
            fx.add("$GPRMC,161027.00,A,2758.0", eol)
            fx.note("TRUNCATED RMC (cut inside latitude, no '*')")
        if good_pos:
            valid_epochs.append((t, lat, lon))
    fx.facts.update({
        "epochs": 30, "valid_fix_epochs": len(valid_epochs),
        "epochs_without_valid_position": no_fix_epochs,
        "first_fix": dict(fix_fact(*valid_epochs[0]), mode=3),
        "last_fix": dict(fix_fact(*valid_epochs[-1]), mode=3),
        "bbox_of_all_valid_positions": {
            "lat_min": min(round(printed_deg(p[1]), 6) for p in valid_epochs),
            "lat_max": max(round(printed_deg(p[1]), 6) for p in valid_epochs),
            "lon_min": min(round(printed_deg(p[2]), 6) for p in valid_epochs),
            "lon_max": max(round(printed_deg(p[2]), 6) for p in valid_epochs)},
        "walk": "1.35 m/s, course 15 deg, 7 sats used, HDOP 1.20",
    })
    return fx


# --------------------------------------------------------------------------
# 5. multi-constellation (NMEA 4.10 + QZSS GQ talker)
# --------------------------------------------------------------------------

def build_multi():
    fx = Fixture("multi-constellation.nmea")
    rnd = random.Random(606)
    t0 = dt.datetime(2026, 11, 22, 10, 30, 0)
    lat, lon = 52.520008, 13.404954                  # Berlin, Alexanderplatz area
    v, c = 1.4, 75.0
    gps = make_sky(61, [2, 5, 7, 9, 13, 16, 20, 27, 30], el_lo=8)
    glo = make_sky(62, [65, 66, 72, 73, 80, 81, 88], el_lo=10)      # NMEA ids 65-96
    # Galileo and BeiDou ids kept <= 32: gpsd 3.22 files GAGSV/GBGSV ids
    # 33-64 under SBAS (see README)
    gal = make_sky(63, [3, 5, 8, 13, 15, 21, 26], el_lo=9)          # Galileo
    bds = make_sky(64, [6, 14, 19, 20, 29, 32], el_lo=11)           # BeiDou
    qzs = make_sky(65, [2, 3], el_lo=4, el_hi=14)                   # QZSS, low in Europe
    systems = [("GP", gps, 7, 1, 1), ("GL", glo, 5, 2, 1), ("GA", gal, 5, 3, 7),
               ("GB", bds, 4, 4, 1)]
    first = None
    for i in range(30):
        t = t0 + dt.timedelta(seconds=i)
        if i > 0:
            lat, lon = step(lat, lon, v, c, 1.0)
        used = {tk: best_sats(sky, i, n) for tk, sky, n, _, _ in systems}
        ntot = sum(len(u) for u in used.values())
        pdop, hdop, vdop = dops(ntot)
        alt, sep = 36.4, 39.6
        fx.add(rmc("GN", t, "A", lat, lon, v / KNOT, c, mode="A", nav_status="V"))
        fx.add(gga("GN", t, lat, lon, 1, ntot, hdop, alt, sep, nsat_cap=12))
        fx.add(gns("GN", t, lat, lon, "AAAAN", ntot, hdop, alt, sep, "V"))
        for tk, sky, n, sysid, sig in systems:
            fx.add(gsa("GN", 3, [s.prn for s in used[tk]], pdop, hdop, vdop, system_id=sysid))
        for tk, sky, n, sysid, sig in systems:
            talker = tk
            if tk == "GB" and i == 17:
                talker = "BD"                         # one BD-talker variant
            entries = [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky]
            fx.addall(gsv(talker, entries, signal_id=sig))
            if talker == "BD":
                fx.note("BeiDou GSV with the older BD talker (same satellites as GB)")
        qe = [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd, 0.8)) for s in qzs]
        fx.addall(gsv("GQ", qe, signal_id=1))
        lsd, osd = 1.9 + 0.2 * math.sin(i / 5.0), 1.6 + 0.2 * math.cos(i / 5.0)
        fx.add(gst("GN", t, 11.0, lsd, osd, 3.1))
        if first is None:
            first = fix_fact(t, lat, lon)
        last = fix_fact(t, lat, lon)
    fx.facts.update({
        "epochs": 30, "valid_epochs": 30,
        "first_fix": dict(first, mode=3), "last_fix": last,
        "sats_used": {"GPS": 7, "GLONASS": 5, "Galileo": 5, "BeiDou": 4, "QZSS": 0,
                      "total": 21},
        "sats_in_view": {"GPS": len(gps), "GLONASS": len(glo), "Galileo": len(gal),
                         "BeiDou": len(bds), "QZSS": len(qzs),
                         "total": len(gps) + len(glo) + len(gal) + len(bds) + len(qzs)},
        "gga_numsv_field": "12 (u-blox caps GGA at 12; GNS carries 21)",
        "bd_talker_epoch": "10:30:17 uses $BDGSV instead of $GBGSV",
    })
    return fx


# --------------------------------------------------------------------------
# 6. 10 Hz cyclist
# --------------------------------------------------------------------------

def build_10hz():
    fx = Fixture("10hz.nmea")
    rnd = random.Random(707)
    t0 = dt.datetime(2026, 11, 22, 8, 45, 0)
    lat, lon = 52.370216, 4.895168                   # Amsterdam centre
    sky_gp = make_sky(71, [1, 3, 8, 10, 14, 21, 22, 27, 32], el_lo=9)
    sky_gl = make_sky(72, [67, 68, 77, 78, 83, 84], el_lo=10)
    first = None
    n = 100
    for k in range(n):
        t = t0 + dt.timedelta(milliseconds=100 * k)
        tt = k / 10.0
        v = 5.0 + 0.4 * math.sin(tt / 2.0)           # ~18 km/h
        c = 200.0 + 4.0 * math.sin(tt / 3.0)
        if k > 0:
            lat, lon = step(lat, lon, v, c, 0.1)
        u_gp = best_sats(sky_gp, tt, 8)
        u_gl = best_sats(sky_gl, tt, 5)
        pdop, hdop, vdop = dops(13)
        fx.add(rmc("GN", t, "A", lat, lon, v / KNOT, c, mode="A"))
        fx.add(gga("GN", t, lat, lon, 1, 13, hdop, 1.8, 43.3, nsat_cap=12))
        if k % 10 == 0:
            # u-blox M8 default (NMEA 4.0): one GNGSA per system, no system id
            fx.add(gsa("GN", 3, [s.prn for s in u_gp], pdop, hdop, vdop))
            fx.add(gsa("GN", 3, [s.prn for s in u_gl], pdop, hdop, vdop))
            fx.addall(gsv("GP", [(s.prn, s.el(tt), s.az(tt), snr_of(s, tt, rnd)) for s in sky_gp]))
            fx.addall(gsv("GL", [(s.prn, s.el(tt), s.az(tt), snr_of(s, tt, rnd)) for s in sky_gl]))
        fx.add(gst("GN", t, 9.0, 2.1 + 0.1 * math.sin(k), 1.8 + 0.1 * math.cos(k), 3.6))
        if first is None:
            first = fix_fact(t, lat, lon)
        last = fix_fact(t, lat, lon)
    fx.facts.update({
        "epochs": n, "valid_epochs": n, "rate_hz": 10,
        "first_fix": dict(first, mode=3), "last_fix": last,
        "time_span": "08:45:00.00 .. 08:45:09.90",
        "gsa_gsv_epochs": "only at whole seconds (.00): 10 epochs",
        "sats_used": 13, "sats_in_view": len(sky_gp) + len(sky_gl),
    })
    return fx


# --------------------------------------------------------------------------
# 7. southern-eastern (Sydney, NMEA 2.3, with GLL)
# --------------------------------------------------------------------------

def build_southern_eastern():
    fx = Fixture("southern-eastern.nmea")
    rnd = random.Random(808)
    t0 = dt.datetime(2026, 11, 22, 3, 15, 0)
    lat, lon = -33.868820, 151.209290                # Sydney CBD
    v, c = 1.3, 350.0
    sky = make_sky(81, [4, 7, 8, 9, 16, 21, 26, 27, 31, 32], el_lo=10)
    first = None
    for i in range(30):
        t = t0 + dt.timedelta(seconds=i)
        if i > 0:
            lat, lon = step(lat, lon, v, c, 1.0)
        used = best_sats(sky, i, 8)
        pdop, hdop, vdop = dops(8)
        fx.add(gga("GP", t, lat, lon, 1, 8, hdop, 41.7, 22.4))
        fx.add(gll("GP", t, lat, lon, "A", "A"))
        fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
        fx.addall(gsv("GP", [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky]))
        fx.add(rmc("GP", t, "A", lat, lon, v / KNOT, c, mode="A"))
        fx.add(vtg("GP", c, v / KNOT))
        if first is None:
            first = fix_fact(t, lat, lon)
        last = fix_fact(t, lat, lon)
    fx.facts.update({"epochs": 30, "valid_epochs": 30,
                     "first_fix": dict(first, mode=3), "last_fix": last,
                     "hemispheres": "S/E", "sats_used": 8, "sats_in_view": len(sky)})
    return fx


# --------------------------------------------------------------------------
# 8. no-fix
# --------------------------------------------------------------------------

def build_no_fix():
    fx = Fixture("no-fix.nmea")
    rnd = random.Random(909)
    t0 = dt.datetime(2026, 11, 22, 12, 0, 0)
    sky = make_sky(91, [1, 6, 11, 14, 17, 19, 22, 28, 32], el_lo=7)
    for i in range(40):
        t = t0 + dt.timedelta(seconds=i)
        fx.add(gga("GP", t, 0, 0, 0, 0, None, None, None, empty_pos=True))
        fx.add(gsa("GP", 1, [], None, None, None))
        entries = []
        for k, s in enumerate(sky):
            # indoors: a few weak signals, the rest not tracked
            snr = snr_of(s, i, rnd, 0.55) if k % 3 == 0 else None
            entries.append((s.prn, s.el(i), s.az(i), snr))
        fx.addall(gsv("GP", entries))
        fx.add(rmc("GP", t, "V", 0, 0, None, None, mode="N", empty_pos=True))
    fx.facts.update({"epochs": 40, "valid_epochs": 0, "sats_in_view": 9,
                     "sats_used": 0,
                     "sats_with_snr": 3,
                     "time_span": "12:00:00 .. 12:00:39 on 2026-11-22"})
    return fx


# --------------------------------------------------------------------------
# 9. hdop-only (Denver)
# --------------------------------------------------------------------------

def build_hdop_only():
    fx = Fixture("hdop-only.nmea")
    rnd = random.Random(1001)
    t0 = dt.datetime(2026, 11, 22, 18, 40, 0)
    lat, lon = 39.739236, -104.990251                 # Denver, Civic Center
    sky = make_sky(101, [2, 5, 6, 12, 15, 19, 24, 25, 29, 31], el_lo=10)
    first = None
    hd = []
    for i in range(20):
        t = t0 + dt.timedelta(seconds=i)
        # stationary, sub-metre wander
        la, lo = offset_m(lat, lon, 0.6 * math.sin(i / 3.0), 0.4 * math.cos(i / 4.0))
        used = best_sats(sky, i, 8)
        pdop, hdop, vdop = dops(8, 0.15 + 0.03 * math.sin(i))
        fx.add(gga("GP", t, la, lo, 1, 8, hdop, 1609.3, -17.0))
        fx.add(rmc("GP", t, "A", la, lo, 0.05 + 0.02 * math.sin(i), None, mode="A"))
        fx.add(vtg("GP", None, 0.05 + 0.02 * math.sin(i)))
        fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
        fx.addall(gsv("GP", [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky]))
        hd.append(float(f2(hdop)))
        if first is None:
            first = fix_fact(t, la, lo)
        last = fix_fact(t, la, lo)
    fx.facts.update({"epochs": 20, "valid_epochs": 20, "gst_sentences": 0,
                     "first_fix": dict(first, mode=3), "last_fix": last,
                     "first_hdop": hd[0], "hdop_min": min(hd), "hdop_max": max(hd),
                     "altitude_msl": 1609.3, "geoid_sep": -17.0,
                     "sats_used": 8, "sats_in_view": len(sky)})
    return fx


# --------------------------------------------------------------------------
# 10. simulated
# --------------------------------------------------------------------------

def build_simulated():
    fx = Fixture("simulated.nmea")
    rnd = random.Random(1101)
    t0 = dt.datetime(2026, 11, 22, 17, 0, 0)
    lat, lon = 27.947700, -82.458600
    v, c = 8.0, 270.0
    sky = make_sky(111, [5, 7, 13, 15, 18, 20, 24, 29], el_lo=12)
    first = None
    for i in range(20):
        t = t0 + dt.timedelta(seconds=i)
        if i > 0:
            lat, lon = step(lat, lon, v, c, 1.0)
        used = best_sats(sky, i, 8)
        pdop, hdop, vdop = dops(8)
        fx.add(gga("GP", t, lat, lon, 8, 8, hdop, 5.0, -28.6))
        fx.add(rmc("GP", t, "A", lat, lon, v / KNOT, c, mode="S"))
        fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
        fx.addall(gsv("GP", [(s.prn, s.el(i), s.az(i), 45) for s in sky]))
        if first is None:
            first = fix_fact(t, lat, lon)
        last = fix_fact(t, lat, lon)
    fx.facts.update({"epochs": 20, "simulated_epochs": 20,
                     "first_fix": dict(first, mode=3), "last_fix": last,
                     "gga_quality": 8, "rmc_status": "A", "rmc_mode": "S"})
    return fx


# --------------------------------------------------------------------------
# 11. southern-western (Buenos Aires, NMEA 2.1 layout)
# --------------------------------------------------------------------------

def build_southern_western():
    fx = Fixture("southern-western.nmea")
    rnd = random.Random(1201)
    t0 = dt.datetime(2026, 11, 22, 19, 30, 0)
    lat, lon = -34.603722, -58.381592                 # Obelisco, Buenos Aires
    sky = make_sky(121, [3, 4, 9, 16, 26, 27, 28, 31], el_lo=12)
    first = None
    for i in range(10):
        t = t0 + dt.timedelta(seconds=i)
        la, lo = offset_m(lat, lon, 0.3 * math.sin(i), 0.3 * math.cos(i))
        used = best_sats(sky, i, 7)
        pdop, hdop, vdop = dops(7)
        fx.add(gga("GP", t, la, lo, 1, 7, hdop, 25.0, 15.2, hdop_fmt=f1))
        fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
        fx.add(rmc("GP", t, "A", la, lo, 0.0, None, sog_fmt=lambda x: "%.1f" % x))
        fx.addall(gsv("GP", [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky]))
        if first is None:
            first = fix_fact(t, la, lo)
        last = fix_fact(t, la, lo)
    fx.facts.update({"epochs": 10, "valid_epochs": 10,
                     "first_fix": dict(first, mode=3), "last_fix": last,
                     "hemispheres": "S/W", "rmc_fields": 11,
                     "sats_used": 7, "sats_in_view": len(sky)})
    return fx


# --------------------------------------------------------------------------
# 12. simulator-status-v (simulator sending RMC status V with mode S)
# --------------------------------------------------------------------------

def build_simulator_status_v():
    """A simulator that follows IEC 61162-1 to the letter: RMC status V (not a
    real fix) with FAA mode S, GGA quality 8.  It starts with one epoch before
    its scenario runs (GGA quality 0, no position), so a log's first epoch,
    which gpsd spends learning the cycle, holds no fix."""
    fx = Fixture("simulator-status-v.nmea")
    t0 = dt.datetime(2026, 11, 22, 17, 30, 0)
    lat, lon = 27.950600, -82.457200
    v, c = 6.0, 180.0
    sky = make_sky(131, [2, 6, 11, 17, 19, 22, 28, 30], el_lo=15)
    first = None
    for i in range(12):
        t = t0 + dt.timedelta(seconds=i)
        used = best_sats(sky, i, 8)
        pdop, hdop, vdop = dops(8)
        if i == 0:
            fx.add(gga("GP", t, 0, 0, 0, 0, None, None, None, empty_pos=True))
            fx.add(rmc("GP", t, "V", 0, 0, None, None, mode="N", empty_pos=True))
            fx.add(gsa("GP", 1, [], None, None, None))
            continue
        if i > 1:
            lat, lon = step(lat, lon, v, c, 1.0)
        fx.add(gga("GP", t, lat, lon, 8, 8, hdop, 12.0, -28.5))
        fx.add(rmc("GP", t, "V", lat, lon, v / KNOT, c, mode="S"))
        fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
        fx.addall(gsv("GP", [(s.prn, s.el(i), s.az(i), 45) for s in sky]))
        if first is None:
            first = fix_fact(t, lat, lon)
        last = fix_fact(t, lat, lon)
    fx.facts.update({"epochs": 12, "valid_epochs": 11, "simulated_epochs": 11,
                     "first_fix": dict(first, mode=3, status=8), "last_fix": last,
                     "gga_quality": 8, "rmc_status": "V", "rmc_mode": "S"})
    return fx


# --------------------------------------------------------------------------
# 13. zero-satellites (GGA quality 1 with 0 satellites used)
# --------------------------------------------------------------------------

def build_zero_satellites():
    """A receiver set to GGA, GSA, GSV and ZDA (no RMC), coasting on its last
    solution after a start: GGA says quality 1 but 0 satellites used, GSA
    mode 2 with no satellites.  Order ZDA, GGA, GSA, GSV: GGA is the last
    sentence with a time, so it ends gpsd's cycle."""
    fx = Fixture("zero-satellites.nmea")
    rnd = random.Random(1401)
    t0 = dt.datetime(2026, 11, 22, 18, 5, 0)
    lat, lon = 27.960100, -82.448300
    v, c = 9.0, 45.0
    sky = make_sky(141, [1, 3, 8, 10, 14, 21, 27, 32], el_lo=12)
    first = None
    valid = 0
    for i in range(20):
        t = t0 + dt.timedelta(seconds=i)
        if i > 0:
            lat, lon = step(lat, lon, v, c, 1.0)
        fx.add(zda("GP", t))
        if i < 6:
            # the old solution, dead-reckoned: an estimate, not a fix
            fx.add(gga("GP", t, lat, lon, 1, 0, 99.99, 20.0, -28.5))
            fx.add(gsa("GP", 2, [], 99.99, 99.99, 99.99))
            fx.addall(gsv("GP", [(s.prn, s.el(i), s.az(i), None) for s in sky]))
            continue
        used = best_sats(sky, i, 6)
        pdop, hdop, vdop = dops(6)
        fx.add(gga("GP", t, lat, lon, 1, 6, hdop, 20.0, -28.5))
        fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
        fx.addall(gsv("GP", [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky]))
        valid += 1
        if first is None:
            first = fix_fact(t, lat, lon)
        last = fix_fact(t, lat, lon)
    fx.facts.update({"epochs": 20, "valid_epochs": valid, "coasting_epochs": 6,
                     "first_fix": dict(first, mode=3), "last_fix": last})
    return fx


# --------------------------------------------------------------------------
# 14. mid-epoch (a capture that begins in the middle of an epoch)
# --------------------------------------------------------------------------

def build_mid_epoch():
    """A capture started while the receiver was talking (SiRF-like order GGA,
    GSA, RMC, GSV): it begins with the tail of a GSA line, then the RMC and
    GSV of the first epoch; that epoch's GGA and GSA were never captured."""
    fx = Fixture("mid-epoch.nmea")
    rnd = random.Random(1501)
    t0 = dt.datetime(2026, 11, 22, 19, 0, 0)
    lat, lon = 27.937500, -82.460800
    v, c = 1.4, 300.0
    sky = make_sky(151, [4, 5, 9, 12, 18, 23, 25, 31], el_lo=12)
    first = None
    for i in range(15):
        t = t0 + dt.timedelta(seconds=i)
        if i > 0:
            lat, lon = step(lat, lon, v, c, 1.0)
        used = best_sats(sky, i, 7)
        pdop, hdop, vdop = dops(7)
        epoch = [gga("GP", t, lat, lon, 1, 7, hdop, 6.0, -28.6),
                 gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop),
                 rmc("GP", t, "A", lat, lon, v / KNOT, c, mode="A")]
        epoch += gsv("GP", [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky])
        if i == 0:
            fx.add(epoch[1][-24:])
            fx.note("TRUNCATED: the tail of the first epoch's GSA, no '$'")
            epoch = epoch[2:]
        elif first is None:
            first = fix_fact(t, lat, lon)
        fx.addall(epoch)
        last = fix_fact(t, lat, lon)
    fx.facts.update({"epochs": 15, "valid_epochs": 14, "first_epoch": "RMC and GSV only",
                     "first_fix": dict(first, mode=3), "last_fix": last})
    return fx


# --------------------------------------------------------------------------
# 15. 10hz-gga-first (10 Hz, millisecond times, GGA before RMC)
# --------------------------------------------------------------------------

def build_10hz_gga_first():
    """A 10 Hz receiver that writes times to the millisecond (hhmmss.sss) and
    sends GGA before RMC, with GSA and GSV once a second. The log starts at
    12:59:59.700, so its epochs cross a whole second, a minute and an hour.
    gpsd learns from the first change of time that RMC ends the cycle, and
    reports every epoch from the second one on."""
    fx = Fixture("10hz-gga-first.nmea")
    rnd = random.Random(1601)
    t0 = dt.datetime(2026, 11, 22, 12, 59, 59, 700000)
    lat, lon = 48.858370, 2.294481                   # Paris, Champ de Mars
    sky = make_sky(161, [2, 5, 7, 13, 15, 18, 20, 24, 30], el_lo=10)
    n = 40
    first = None
    for k in range(n):
        t = t0 + dt.timedelta(milliseconds=100 * k)
        tt = k / 10.0
        v = 4.0 + 0.3 * math.sin(tt)
        c = 120.0 + 3.0 * math.cos(tt / 2.0)
        if k > 0:
            lat, lon = step(lat, lon, v, c, 0.1)
        used = best_sats(sky, tt, 8)
        pdop, hdop, vdop = dops(8)
        fx.add(gga("GP", t, lat, lon, 1, 8, hdop, 35.0, 44.6, tdec=3))
        fx.add(rmc("GP", t, "A", lat, lon, v / KNOT, c, mode="A", tdec=3))
        if t.microsecond == 0:
            fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
            fx.addall(gsv("GP", [(s.prn, s.el(tt), s.az(tt), snr_of(s, tt, rnd)) for s in sky]))
        if k == 1:
            first = fix_fact(t, lat, lon)
        last = fix_fact(t, lat, lon)
    fx.facts.update({"epochs": n, "valid_epochs": n, "rate_hz": 10,
                     "first_fix": dict(first, mode=3), "last_fix": last,
                     "first_fix_note": "gpsd's first report: the log's second epoch",
                     "time_span": "12:59:59.700 .. 13:00:03.600"})
    return fx


# --------------------------------------------------------------------------
# 16. rmc-first (RMC before GGA, the order changing within the log)
# --------------------------------------------------------------------------

def build_rmc_first():
    """A 1 Hz receiver that sends RMC before GGA (RMC, GGA, GSA, GSV), except
    that in epochs 6 and 7 its output buffer flushes GGA first. gpsd learns
    GGA as the cycle ender from the first change of time; after epoch 6 it
    also learns RMC, and reports those epochs twice."""
    fx = Fixture("rmc-first.nmea")
    rnd = random.Random(1701)
    t0 = dt.datetime(2026, 11, 22, 20, 10, 0)
    lat, lon = 27.771000, -82.638000                 # St. Petersburg, FL
    v, c = 6.0, 15.0
    sky = make_sky(171, [3, 6, 9, 11, 17, 19, 22, 28], el_lo=11)
    first = None
    n = 20
    for i in range(n):
        t = t0 + dt.timedelta(seconds=i)
        if i > 0:
            lat, lon = step(lat, lon, v, c, 1.0)
        used = best_sats(sky, i, 7)
        pdop, hdop, vdop = dops(7)
        r = rmc("GP", t, "A", lat, lon, v / KNOT, c, mode="A")
        g = gga("GP", t, lat, lon, 1, 7, hdop, 3.0, -29.8)
        fx.addall([g, r] if i in (6, 7) else [r, g])
        fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
        fx.addall(gsv("GP", [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky]))
        if i == 1:
            first = fix_fact(t, lat, lon)
        last = fix_fact(t, lat, lon)
    fx.facts.update({"epochs": n, "valid_epochs": n, "gga_first_epochs": [6, 7],
                     "first_fix": dict(first, mode=3), "last_fix": last,
                     "first_fix_note": "gpsd's first report: the log's second epoch"})
    return fx


# --------------------------------------------------------------------------
# 17. sounder (a fish finder / chart plotter: RMC first, with depth)
# --------------------------------------------------------------------------

def dbt(talker, depth_m):
    return sentence("%sDBT,%s,f,%s,M,%s,F" % (
        talker, f1(depth_m / 0.3048), f1(depth_m), f1(depth_m / 1.8288)))


def build_sounder():
    """A fish finder or chart plotter with its own GPS (Humminbird-like
    output): RMC, then the sounder's DBT (depth below transducer), then GGA,
    GSA and GSV. gpsd lets DBT continue the reporting cycle: from the first
    DBT on, every untimed sentence it decodes (DBT, GSA, GSV) reports the
    epoch in progress, so gpsd reports the log's first epoch too."""
    fx = Fixture("sounder.nmea")
    rnd = random.Random(1801)
    t0 = dt.datetime(2026, 11, 22, 21, 30, 0)
    lat, lon = 44.960000, -93.260000                 # Mississippi, Minneapolis
    v, c = 2.5, 170.0
    sky = make_sky(181, [1, 4, 8, 11, 16, 20, 23, 27], el_lo=12)
    first = None
    n = 15
    for i in range(n):
        t = t0 + dt.timedelta(seconds=i)
        if i > 0:
            lat, lon = step(lat, lon, v, c, 1.0)
        used = best_sats(sky, i, 7)
        pdop, hdop, vdop = dops(7)
        fx.add(rmc("GP", t, "A", lat, lon, v / KNOT, c, mode="A"))
        fx.add(dbt("SD", 6.0 + 0.5 * math.sin(i / 3.0)))
        fx.add(gga("GP", t, lat, lon, 1, 7, hdop, 210.0, -29.0))
        fx.add(gsa("GP", 3, [s.prn for s in used], pdop, hdop, vdop))
        fx.addall(gsv("GP", [(s.prn, s.el(i), s.az(i), snr_of(s, i, rnd)) for s in sky]))
        if first is None:
            first = fix_fact(t, lat, lon)
        last = fix_fact(t, lat, lon)
    fx.facts.update({"epochs": n, "valid_epochs": n,
                     "first_fix": dict(first, mode=3), "last_fix": last,
                     "first_fix_note": "gpsd reports the first epoch: DBT continues its cycle"})
    return fx


BUILDERS = [build_cold_start, build_drive, build_fix_lost, build_bad_checksums,
            build_multi, build_10hz, build_southern_eastern, build_no_fix,
            build_hdop_only, build_simulated, build_southern_western,
            build_simulator_status_v, build_zero_satellites, build_mid_epoch,
            build_10hz_gga_first, build_rmc_first, build_sounder, build_moving]


# --------------------------------------------------------------------------
# self-check of every well-formed sentence
# --------------------------------------------------------------------------

EXPECTED_FIELDS = {
    # sentence type -> allowed data-field counts (after the address field)
    "GGA": {14}, "RMC": {11, 12, 13}, "GSA": {17, 18}, "GST": {8},
    "GLL": {6, 7}, "VTG": {9}, "GNS": {12, 13}, "ZDA": {6}, "DBT": {6},
}


def self_check(fx):
    """Every line that looks like a complete sentence with a *valid*
    checksum must have the documented field count.  Returns problems."""
    problems = []
    for n, raw in enumerate(fx.lines, 1):
        line = raw.rstrip(b"\r\n")
        try:
            s = line.decode("ascii")
        except UnicodeDecodeError:
            continue
        if not s.startswith("$") or "*" not in s:
            continue
        body, cs = s[1:].rsplit("*", 1)
        if len(cs) != 2 or checksum(body) != cs:
            continue
        if len(s) > 82 and not body.startswith("PUBX"):
            problems.append((n, "longer than 82 chars"))
        fields = body.split(",")
        kind = fields[0][2:] if not fields[0].startswith("P") else fields[0]
        ndata = len(fields) - 1
        if kind in EXPECTED_FIELDS and ndata not in EXPECTED_FIELDS[kind]:
            if "TRUNCATED" in dict(fx.notes).get(n, ""):
                continue
            problems.append((n, "%s has %d fields" % (kind, ndata)))
        if kind == "GSV":
            sats = (ndata - 3) // 4
            extra = (ndata - 3) % 4
            if extra not in (0, 1) or sats > 4:
                problems.append((n, "GSV has %d fields" % ndata))
    return problems


def main(argv):
    facts = {}
    bad = False
    for b in BUILDERS:
        fx = b()
        data = fx.data()
        probs = self_check(fx)
        if probs:
            bad = True
            sys.stderr.write("%s: %r\n" % (fx.name, probs[:5]))
        path = os.path.join(HERE, fx.name)
        if "--check" in argv:
            with open(path, "rb") as f:
                if f.read() != data:
                    bad = True
                    sys.stderr.write("%s differs from generator output\n" % fx.name)
        else:
            with open(path, "wb") as f:
                f.write(data)
        fx.facts["lines"] = len(fx.lines)
        fx.facts["bytes"] = len(data)
        if fx.notes:
            fx.facts["annotated_lines"] = ["line %d: %s" % nt for nt in fx.notes]
        facts[fx.name] = fx.facts
    if "--facts" in argv:
        print(json.dumps(facts, indent=2, sort_keys=True))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
