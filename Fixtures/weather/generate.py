#!/usr/bin/env python3
"""Deterministic generator for the weather HTTP-body fixtures in this folder.

These bodies are CONSTRUCTED from the documented / observed response formats of
Open-Meteo (/v1/forecast) and OpenWeatherMap (/data/2.5/weather, /data/2.5/forecast).
They are not live recordings.  See README.md for the source of every shape decision.

Run from anywhere:   python3 Fixtures/weather/generate.py
Output is byte-for-byte reproducible (fixed seeds, no clock, no network).
Only the Python standard library is used.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
OM_DIR = os.path.join(HERE, "open-meteo")
OWM_DIR = os.path.join(HERE, "openweathermap")
MISC_DIR = os.path.join(HERE, "misc")

UTC = dt.timezone.utc

# --------------------------------------------------------------------------------------
# Solar geometry (Wikipedia "Sunrise equation", good to ~1-2 minutes)
# --------------------------------------------------------------------------------------


def sun_rise_set_utc(day: dt.date, lat: float, lon: float):
    """Return (sunrise, sunset) as aware UTC datetimes for the local solar day `day`,
    or the string 'polar_night' / 'polar_day'."""
    n = (day - dt.date(2000, 1, 1)).days  # days since J2000 (noon)
    j_star = n - lon / 360.0
    m = math.radians((357.5291 + 0.98560028 * j_star) % 360)
    c = 1.9148 * math.sin(m) + 0.02 * math.sin(2 * m) + 0.0003 * math.sin(3 * m)
    lam = math.radians((math.degrees(m) + c + 180 + 102.9372) % 360)
    j_transit = 2451545.0 + j_star + 0.0053 * math.sin(m) - 0.0069 * math.sin(2 * lam)
    sin_d = math.sin(lam) * math.sin(math.radians(23.4397))
    cos_d = math.cos(math.asin(sin_d))
    phi = math.radians(lat)
    cos_w0 = (math.sin(math.radians(-0.833)) - math.sin(phi) * sin_d) / (math.cos(phi) * cos_d)
    if cos_w0 > 1:
        return "polar_night"
    if cos_w0 < -1:
        return "polar_day"
    w0 = math.degrees(math.acos(cos_w0))

    def to_dt(j):
        return dt.datetime.fromtimestamp(round((j - 2440587.5) * 86400), UTC)

    return to_dt(j_transit - w0 / 360), to_dt(j_transit + w0 / 360)


# --------------------------------------------------------------------------------------
# Open-Meteo number formatting
# Open-Meteo prints every value of a variable with a fixed number of decimals that
# depends on the unit (openmeteo_sdk_Unit.significantDigits), e.g. 0.00 mm, 24140.00 m,
# 1018.4 hPa, 3.60 m/s, 0.012 inch.  NaN (missing) is printed as null.
# --------------------------------------------------------------------------------------

DECIMALS = {
    "°C": 1, "°F": 1, "km/h": 1, "mp/h": 1, "kn": 1, "m/s": 2,
    "mm": 2, "cm": 2, "inch": 3, "ft": 3, "m": 2,
    "%": 0, "hPa": 1, "°": 0, "wmo code": 0, "": 0,
    # The UV index is dimensionless like is_day (unit ""), but printed with 2 decimals.
    "uv": 2,
}
UV_VARS = ("uv_index", "uv_index_max")


def om_num(value, unit: str) -> str:
    if value is None:
        return "null"
    d = DECIMALS[unit]
    if d == 0:
        return str(int(round(value)))
    s = f"{value:.{d}f}"
    if s.startswith("-") and float(s) == 0:
        s = s[1:]
    return s


def om_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def om_object(pairs) -> str:
    return "{" + ",".join(f"{om_str(k)}:{v}" for k, v in pairs) + "}"


def om_float(x: float) -> str:
    """Shortest repr of a float32 the way Swift prints Float (e.g. 27.947239)."""
    return repr(float(f"{x:.7g}"))


# --------------------------------------------------------------------------------------
# Physics-ish helpers
# --------------------------------------------------------------------------------------


def diurnal_fraction(hour: float) -> float:
    """0 at ~06:30 local (min), 1 at ~15:00 local (max), smooth in between."""
    h = hour % 24
    if 6.5 <= h <= 15:
        return 0.5 - 0.5 * math.cos(math.pi * (h - 6.5) / 8.5)
    # cooling branch 15:00 -> 06:30 next day (15.5 h)
    t = (h - 15) % 24
    return 0.5 + 0.5 * math.cos(math.pi * t / 15.5)


def apparent_temperature(t_c: float, rh: float, wind_ms: float) -> float:
    """Steadman-style apparent temperature (the formula family Open-Meteo uses)."""
    e = rh / 100.0 * 6.105 * math.exp(17.27 * t_c / (237.7 + t_c))
    return t_c + 0.33 * e - 0.70 * wind_ms - 4.0


def c_to_f(c):
    return None if c is None else c * 9 / 5 + 32


def ms_to_mph(v):
    return None if v is None else v * 2.237  # factor used by Open-Meteo


def mm_to_inch(v):
    return None if v is None else v / 25.4


def cm_to_inch(v):
    return None if v is None else v / 2.54


def m_to_ft(v):
    return None if v is None else v * 3.280839895


# WMO code severity order used to pick the daily code (Open-Meteo reports the most
# significant code of the day; higher number ~ more significant for our purposes).
def daily_code(codes):
    vals = [c for c in codes if c is not None]
    return max(vals) if vals else None


# --------------------------------------------------------------------------------------
# Open-Meteo body builder
# --------------------------------------------------------------------------------------

CURRENT_VARS = ["temperature_2m", "relative_humidity_2m", "apparent_temperature", "is_day",
                "precipitation", "rain", "showers", "snowfall", "weather_code", "cloud_cover",
                "pressure_msl", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m",
                "visibility", "uv_index"]
HOURLY_VARS = ["temperature_2m", "apparent_temperature", "precipitation_probability",
               "precipitation", "weather_code", "wind_speed_10m", "wind_direction_10m", "is_day",
               "uv_index"]
DAILY_VARS = ["weather_code", "temperature_2m_max", "temperature_2m_min", "precipitation_sum",
              "precipitation_probability_max", "wind_speed_10m_max", "sunrise", "sunset",
              "uv_index_max"]


def units_for(system: str):
    if system == "metric":  # &wind_speed_unit=ms
        t, w, p, s, v = "°C", "m/s", "mm", "cm", "m"
    else:  # &temperature_unit=fahrenheit&wind_speed_unit=mph&precipitation_unit=inch
        t, w, p, s, v = "°F", "mp/h", "inch", "inch", "ft"
    current = {"time": "iso8601", "interval": "seconds", "temperature_2m": t,
               "relative_humidity_2m": "%", "apparent_temperature": t, "is_day": "",
               "precipitation": p, "rain": p, "showers": p, "snowfall": s,
               "weather_code": "wmo code", "cloud_cover": "%", "pressure_msl": "hPa",
               "wind_speed_10m": w, "wind_direction_10m": "°", "wind_gusts_10m": w,
               "visibility": v, "uv_index": ""}
    hourly = {"time": "iso8601", "temperature_2m": t, "apparent_temperature": t,
              "precipitation_probability": "%", "precipitation": p, "weather_code": "wmo code",
              "wind_speed_10m": w, "wind_direction_10m": "°", "is_day": "", "uv_index": ""}
    daily = {"time": "iso8601", "weather_code": "wmo code", "temperature_2m_max": t,
             "temperature_2m_min": t, "precipitation_sum": p,
             "precipitation_probability_max": "%", "wind_speed_10m_max": w,
             "sunrise": "iso8601", "sunset": "iso8601", "uv_index_max": ""}
    return current, hourly, daily


def convert(var: str, value, system: str):
    """Convert an SI value (°C, m/s, mm, cm, m) to the requested unit system."""
    if system == "metric" or value is None:
        return value
    if var in ("temperature_2m", "apparent_temperature", "temperature_2m_max",
               "temperature_2m_min"):
        return c_to_f(value)
    if var in ("wind_speed_10m", "wind_gusts_10m", "wind_speed_10m_max"):
        return ms_to_mph(value)
    if var in ("precipitation", "rain", "showers", "precipitation_sum"):
        return mm_to_inch(value)
    if var == "snowfall":
        return cm_to_inch(value)
    if var == "visibility":
        return m_to_ft(value)
    return value


def iso_minute(d: dt.datetime) -> str:
    return d.strftime("%Y-%m-%dT%H:%M")


def build_open_meteo(cfg) -> str:
    """cfg: dict describing location, time and a weather scenario.  All internal values
    are SI (°C, m/s, mm, cm, m) and converted at the end."""
    rng = random.Random(cfg["seed"])
    off = cfg["utc_offset_seconds"]
    tz = dt.timezone(dt.timedelta(seconds=off))
    start_local = dt.datetime.combine(cfg["start_date"], dt.time(0, 0))  # naive local
    n_hours = 168
    times = [start_local + dt.timedelta(hours=i) for i in range(n_hours)]
    days = [cfg["start_date"] + dt.timedelta(days=d) for d in range(7)]

    # --- sun -----------------------------------------------------------------------
    sun = {}
    for d in days:
        r = sun_rise_set_utc(d, cfg["lat"], cfg["lon"])
        if isinstance(r, str):
            sun[d] = r
        else:
            rise, set_ = (x.astimezone(tz).replace(tzinfo=None) for x in r)
            sun[d] = (rise, set_)

    def is_day(t_local: dt.datetime) -> int:
        s = sun[t_local.date()] if t_local.date() in sun else None
        if s == "polar_night":
            return 0
        if s == "polar_day":
            return 1
        rise, set_ = s
        return 1 if rise < t_local < set_ else 0

    # --- hourly series (SI) ---------------------------------------------------------
    scen = cfg["scenario"]
    H = {v: [] for v in HOURLY_VARS}
    rh_series, cloud_series, gust_series, vis_series = [], [], [], []
    rain_series, shower_series, snow_series, pres_series = [], [], [], []
    for i, t in enumerate(times):
        dayi = i // 24
        tmin, tmax = scen["tmin"][dayi], scen["tmax"][dayi]
        # blend toward next day's min after midnight so the curve is continuous
        frac = diurnal_fraction(t.hour)
        if t.hour < 7 and dayi > 0:
            prev_max = scen["tmax"][dayi - 1]
            tmax_eff = prev_max
        else:
            tmax_eff = tmax
        temp = tmin + (tmax_eff - tmin) * frac + rng.uniform(-0.25, 0.25)
        ev = scen["hourly_event"](i, t, rng)  # dict with code, precip etc.
        temp += ev.get("temp_adj", 0.0)
        wind = max(0.3, scen["wind_base"][dayi] * (0.75 + 0.45 * frac) + rng.uniform(-0.4, 0.4)
                   + ev.get("wind_adj", 0.0))
        wdir = (scen["wind_dir"][dayi] + rng.uniform(-18, 18)) % 360
        rh = min(100, max(15, scen["rh_base"][dayi] - 25 * frac + ev.get("rh_adj", 0)
                          + rng.uniform(-3, 3)))
        rain = ev.get("rain", 0.0)
        showers = ev.get("showers", 0.0)
        snow_cm = ev.get("snow_cm", 0.0)
        precip = rain + showers + snow_cm / 0.7  # snowfall cm ~ water mm * 0.7
        H["temperature_2m"].append(temp)
        H["apparent_temperature"].append(apparent_temperature(temp, rh, wind))
        H["precipitation_probability"].append(ev.get("pop", 0))
        H["precipitation"].append(precip)
        H["weather_code"].append(ev["code"])
        H["wind_speed_10m"].append(wind)
        H["wind_direction_10m"].append(wdir)
        H["is_day"].append(is_day(t))
        rh_series.append(rh)
        cloud_series.append(ev.get("cloud", 10))
        gust_series.append(wind * 1.6 + rng.uniform(0.2, 1.2))
        vis_series.append(ev.get("vis", 24140.0))
        rain_series.append(rain)
        shower_series.append(showers)
        snow_series.append(snow_cm)
        pres_series.append(scen["pressure"][dayi] + rng.uniform(-0.6, 0.6))

    # --- UV index: the day's clear-sky peak on a sine of the daylight, dimmed by cloud (no
    # random numbers drawn, so the other values stay as they were) ----------------------
    for i, t in enumerate(times):
        s = sun[t.date()]
        uv = 0.0
        if not isinstance(s, str) and s[0] < t < s[1]:
            share = (t - s[0]).total_seconds() / (s[1] - s[0]).total_seconds()
            uv = scen["uv_peak"] * math.sin(math.pi * share) ** 2 * (1 - 0.55 * cloud_series[i] / 100)
        H["uv_index"].append(uv)

    # --- optional nulls (data gaps) --------------------------------------------------
    for var, idxs in cfg.get("hourly_nulls", {}).items():
        for j in idxs:
            H[var][j] = None
            if var == "temperature_2m":
                H["apparent_temperature"][j] = None

    # --- daily aggregates (derived from hourly so everything is consistent) ----------
    D = {v: [] for v in DAILY_VARS}
    for di, d in enumerate(days):
        sl = slice(di * 24, di * 24 + 24)
        temps = [x for x in H["temperature_2m"][sl] if x is not None]
        D["weather_code"].append(daily_code(H["weather_code"][sl]))
        D["temperature_2m_max"].append(max(temps) if temps else None)
        D["temperature_2m_min"].append(min(temps) if temps else None)
        D["precipitation_sum"].append(sum(H["precipitation"][sl]))
        D["precipitation_probability_max"].append(max(H["precipitation_probability"][sl]))
        D["wind_speed_10m_max"].append(max(H["wind_speed_10m"][sl]))
        D["uv_index_max"].append(max(H["uv_index"][sl]))
        s = sun[d]
        if isinstance(s, str):
            # Open-Meteo since PR #844 (June 2024): polar night -> rise == set == local
            # midnight of that day; polar day -> rise = 00:00, set = next day 00:00.
            midnight = dt.datetime.combine(d, dt.time(0, 0))
            D["sunrise"].append(iso_minute(midnight))
            D["sunset"].append(iso_minute(midnight if s == "polar_night"
                                          else midnight + dt.timedelta(days=1)))
        else:
            D["sunrise"].append(iso_minute(s[0]))
            D["sunset"].append(iso_minute(s[1]))
    for var, idxs in cfg.get("daily_nulls", {}).items():
        for j in idxs:
            D[var][j] = None

    # --- current (interpolated at the 15-minute slot) --------------------------------
    ct = cfg["current_time"]  # naive local
    k = int((ct - start_local).total_seconds() // 3600)
    f = ((ct - start_local).total_seconds() % 3600) / 3600

    def lerp(series):
        a = series[k]
        b = series[min(k + 1, n_hours - 1)]
        if a is None or b is None:
            return a
        return a + (b - a) * f

    C = {
        "temperature_2m": lerp(H["temperature_2m"]),
        "relative_humidity_2m": lerp(rh_series),
        "is_day": is_day(ct),
        "rain": rain_series[k] / 4 if rain_series[k] else 0.0,
        "showers": shower_series[k] / 4 if shower_series[k] else 0.0,
        "snowfall": snow_series[k] / 4 if snow_series[k] else 0.0,
        "weather_code": H["weather_code"][k],
        "cloud_cover": cloud_series[k],
        "pressure_msl": pres_series[k],
        "wind_speed_10m": lerp(H["wind_speed_10m"]),
        "wind_direction_10m": H["wind_direction_10m"][k],
        "wind_gusts_10m": lerp(gust_series),
        "visibility": vis_series[k],
        "uv_index": lerp(H["uv_index"]),
    }
    C["precipitation"] = C["rain"] + C["showers"] + C["snowfall"] / 0.7
    C["apparent_temperature"] = apparent_temperature(C["temperature_2m"],
                                                     C["relative_humidity_2m"],
                                                     C["wind_speed_10m"])
    C.update(cfg.get("current_override", {}))

    # --- serialise -------------------------------------------------------------------
    sysname = cfg["units"]
    cu, hu, du = units_for(sysname)
    current_pairs = [("time", om_str(iso_minute(ct))), ("interval", "900")]
    for v in CURRENT_VARS:
        current_pairs.append((v, om_num(convert(v, C[v], sysname), "uv" if v in UV_VARS else cu[v])))
    hourly_pairs = [("time", "[" + ",".join(om_str(iso_minute(t)) for t in times) + "]")]
    for v in HOURLY_VARS:
        hourly_pairs.append((v, "[" + ",".join(om_num(convert(v, x, sysname), "uv" if v in UV_VARS else hu[v])
                                               for x in H[v]) + "]"))
    daily_pairs = [("time", "[" + ",".join(om_str(d.isoformat()) for d in days) + "]")]
    for v in DAILY_VARS:
        if v in ("sunrise", "sunset"):
            daily_pairs.append((v, "[" + ",".join(om_str(x) for x in D[v]) + "]"))
        else:
            daily_pairs.append((v, "[" + ",".join(om_num(convert(v, x, sysname), "uv" if v in UV_VARS else du[v])
                                                   for x in D[v]) + "]"))
    body = om_object([
        ("latitude", om_float(cfg["grid_lat"])),
        ("longitude", om_float(cfg["grid_lon"])),
        ("generationtime_ms", repr(cfg["generationtime_ms"])),
        ("utc_offset_seconds", str(off)),
        ("timezone", om_str(cfg["timezone"])),
        ("timezone_abbreviation", om_str(cfg["timezone_abbreviation"])),
        ("elevation", f"{cfg['elevation']:.1f}"),
        ("current_units", om_object([(k2, om_str(v2)) for k2, v2 in cu.items()])),
        ("current", om_object(current_pairs)),
        ("hourly_units", om_object([(k2, om_str(v2)) for k2, v2 in hu.items()])),
        ("hourly", om_object(hourly_pairs)),
        ("daily_units", om_object([(k2, om_str(v2)) for k2, v2 in du.items()])),
        ("daily", om_object(daily_pairs)),
    ])
    return body


# ---------------------------- scenarios ----------------------------------------------


def tampa_event(i, t, rng):
    """Mostly clear; a weak front on day 4 (index 3) brings showers in the afternoon."""
    day, h = i // 24, t.hour
    if day == 3 and 13 <= h <= 18:
        return {"code": 80 if h != 15 else 81, "showers": [0.4, 1.2, 3.1, 1.6, 0.6, 0.2][h - 13],
                "pop": [45, 60, 75, 70, 55, 35][h - 13], "cloud": 85, "vis": 14000.0,
                "rh_adj": 20, "temp_adj": -2.0}
    if day == 3 and (10 <= h <= 12 or 19 <= h <= 21):
        return {"code": 3, "pop": 25, "cloud": 95}
    if day == 4 and h < 9:
        return {"code": 2, "pop": 10, "cloud": 50}
    if day == 0 and 12 <= h <= 17:
        return {"code": 1, "pop": 0, "cloud": 20}
    if 10 <= h <= 17:
        return {"code": [0, 1, 2][(i * 7) % 3], "pop": [0, 0, 3][(i * 5) % 3], "cloud": 15}
    return {"code": [0, 0, 1][(i * 11) % 3], "pop": 0, "cloud": 5}


def denver_event(i, t, rng):
    """Light snow on day 1 04:00-16:00, a second brief band day 3 night; otherwise fair."""
    day, h = i // 24, t.hour
    if day == 0 and 4 <= h <= 16:
        amt = [0.10, 0.20, 0.30, 0.35, 0.40, 0.45, 0.50, 0.45, 0.40, 0.30, 0.20, 0.15, 0.10][h - 4]
        return {"code": 73 if h == 8 else 71, "snow_cm": amt, "pop": 70 + (h % 3) * 5,
                "cloud": 100, "vis": 2400.0 if amt >= 0.3 else 5200.0, "rh_adj": 20,
                "temp_adj": -1.0}
    if day == 0 and 17 <= h <= 20:
        return {"code": 3, "pop": 20, "cloud": 90}
    if day == 2 and 20 <= h <= 23:
        return {"code": 71, "snow_cm": 0.12, "pop": 45, "cloud": 100, "vis": 6000.0}
    if day == 3 and h < 3:
        return {"code": 71, "snow_cm": 0.08, "pop": 35, "cloud": 95, "vis": 8000.0}
    if 9 <= h <= 16:
        return {"code": [1, 2, 0][(i * 5) % 3], "pop": [0, 5, 0][i % 3], "cloud": 25}
    return {"code": [0, 1][i % 2], "pop": 0, "cloud": 10}


def melbourne_event(i, t, rng):
    """Showers overnight at the start (current), showery day 1, fine midweek, change day 6."""
    day, h = i // 24, t.hour
    if day == 0 and h <= 6:
        return {"code": 80 if h not in (1, 2) else 81,
                "showers": [0.6, 1.4, 1.1, 0.5, 0.3, 0.2, 0.1][h],
                "pop": [70, 80, 75, 65, 55, 50, 45][h], "cloud": 95, "vis": 12000.0,
                "rh_adj": 15}
    if day == 0 and 7 <= h <= 17:
        return {"code": 80 if h % 3 == 0 else 3, "showers": 0.3 if h % 3 == 0 else 0.0,
                "pop": 40, "cloud": 80}
    if day == 5 and 14 <= h <= 20:
        return {"code": 95 if h == 16 else 80, "showers": [0.5, 1.5, 4.2, 2.0, 0.8, 0.3, 0.1][h - 14],
                "pop": [50, 65, 80, 70, 55, 40, 30][h - 14], "cloud": 90, "vis": 9000.0,
                "temp_adj": -3.0, "wind_adj": 3.0}
    if 10 <= h <= 18:
        return {"code": [1, 2, 2, 3][(i * 3) % 4], "pop": [5, 10, 0][i % 3], "cloud": 40}
    return {"code": [0, 1, 2][(i * 7) % 3], "pop": 0, "cloud": 20}


def polar_event(i, t, rng):
    """Arctic sea ice in polar night: overcast, occasional light snow."""
    day, h = i // 24, t.hour
    if day in (1, 4) and 6 <= h <= 14:
        return {"code": 71 if h % 4 else 73, "snow_cm": 0.05, "pop": 40, "cloud": 100,
                "vis": 4000.0}
    return {"code": [3, 3, 2][(i * 5) % 3], "pop": 0, "cloud": 90, "vis": 18000.0}


def open_meteo_configs():
    tampa = {
        "name": "tampa-metric.json", "seed": 2701, "units": "metric",
        "lat": 27.95, "lon": -82.46, "grid_lat": 27.947239, "grid_lon": -82.45838,
        "elevation": 9.0, "generationtime_ms": 0.2849102020263672,
        "utc_offset_seconds": -18000, "timezone": "America/New_York",
        "timezone_abbreviation": "EST",
        "start_date": dt.date(2026, 11, 22), "current_time": dt.datetime(2026, 11, 22, 14, 15),
        "scenario": {
            "tmin": [18.2, 18.9, 19.6, 20.4, 17.1, 15.8, 16.5],
            "tmax": [27.1, 27.6, 28.0, 26.2, 24.4, 24.9, 25.8],
            "wind_base": [4.2, 3.8, 3.4, 4.9, 5.3, 4.1, 3.3],
            "wind_dir": [45, 55, 70, 190, 20, 35, 60],   # NE today
            "rh_base": [88, 86, 85, 90, 80, 78, 82],
            "pressure": [1018.4, 1017.6, 1016.2, 1012.8, 1019.9, 1021.3, 1019.0],
            "uv_peak": 6.3,
            "hourly_event": tampa_event,
        },
    }
    denver = {
        "name": "denver-imperial.json", "seed": 3904, "units": "imperial",
        "lat": 39.74, "lon": -104.99, "grid_lat": 39.73915, "grid_lon": -104.98469,
        "elevation": 1609.0, "generationtime_ms": 0.5540847778320312,
        "utc_offset_seconds": -25200, "timezone": "America/Denver",
        # Recent live responses carry "GMT-7"-style abbreviations (see README).
        "timezone_abbreviation": "GMT-7",
        "start_date": dt.date(2026, 11, 22), "current_time": dt.datetime(2026, 11, 22, 10, 30),
        "scenario": {
            "tmin": [-5.8, -9.1, -6.2, -7.4, -3.0, -1.2, 0.4],
            "tmax": [-1.6, 3.4, 6.1, 4.0, 9.8, 12.6, 13.9],
            "wind_base": [3.6, 2.4, 2.9, 3.4, 2.6, 3.1, 4.0],
            "wind_dir": [20, 340, 200, 15, 230, 250, 270],
            "rh_base": [95, 80, 70, 85, 60, 50, 45],
            "pressure": [1024.1, 1028.9, 1021.7, 1025.5, 1016.3, 1012.0, 1010.6],
            "uv_peak": 3.4,
            "hourly_event": denver_event,
        },
        "current_override": {"cloud_cover": 100},
    }
    melbourne = {
        "name": "melbourne-au-metric.json", "seed": 3781, "units": "metric",
        "lat": -37.81, "lon": 144.96, "grid_lat": -37.8, "grid_lon": 144.97,
        "elevation": 31.0, "generationtime_ms": 0.17893314361572266,
        "utc_offset_seconds": 39600, "timezone": "Australia/Melbourne",
        "timezone_abbreviation": "AEDT",
        # 00:45 local on the 23rd == 13:45 UTC on the 22nd -> local date != UTC date.
        "start_date": dt.date(2026, 11, 23), "current_time": dt.datetime(2026, 11, 23, 0, 45),
        "scenario": {
            "tmin": [12.6, 11.4, 12.9, 14.8, 16.3, 17.9, 13.2],
            "tmax": [17.8, 19.6, 23.4, 27.1, 30.2, 28.4, 19.9],
            "wind_base": [5.8, 4.6, 3.9, 4.4, 5.6, 6.4, 7.1],
            "wind_dir": [220, 200, 160, 350, 10, 330, 230],
            "rh_base": [92, 85, 78, 70, 60, 62, 85],
            "pressure": [1009.6, 1014.2, 1017.8, 1015.1, 1010.4, 1004.9, 1011.7],
            "uv_peak": 12.4,
            "hourly_event": melbourne_event,
        },
    }
    polar = {
        "name": "nulls.json", "seed": 8990, "units": "metric",
        "lat": 89.9, "lon": 0.0, "grid_lat": 89.9, "grid_lon": 0.0,
        "elevation": 0.0, "generationtime_ms": 0.36406517028808594,
        "utc_offset_seconds": 0, "timezone": "GMT", "timezone_abbreviation": "GMT",
        "start_date": dt.date(2026, 11, 22), "current_time": dt.datetime(2026, 11, 22, 19, 15),
        "scenario": {
            "tmin": [-29.8, -31.2, -27.5, -26.1, -28.9, -32.4, -30.6],
            "tmax": [-26.9, -27.7, -24.8, -23.9, -25.1, -28.8, -27.2],
            "wind_base": [5.1, 6.3, 4.4, 3.7, 6.8, 5.5, 4.9],
            "wind_dir": [110, 95, 140, 180, 60, 75, 100],
            "rh_base": [98, 97, 99, 98, 97, 96, 98],
            "pressure": [1011.8, 1008.3, 1013.6, 1016.0, 1006.9, 1012.2, 1014.7],
            "uv_peak": 0.0,
            "hourly_event": polar_event,
        },
        # gaps: two isolated hours + the model horizon running out at the end
        "hourly_nulls": {
            "temperature_2m": [45, 46] + list(range(160, 168)),
            "weather_code": [100] + list(range(160, 168)),
        },
        "daily_nulls": {"temperature_2m_max": [6]},
        "current_override": {"visibility": None, "wind_gusts_10m": None,
                             "wind_direction_10m": None},
    }
    return [tampa, denver, melbourne, polar]


# --------------------------------------------------------------------------------------
# OpenWeatherMap body builders
# --------------------------------------------------------------------------------------


def owm_clean(x):
    """OWM prints integral numbers without a fraction (e.g. "pop":0, "temp_kf":0)."""
    if isinstance(x, float):
        if x == int(x):
            return int(x)
        return x
    if isinstance(x, dict):
        return {k: owm_clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [owm_clean(v) for v in x]
    return x


def owm_dump(obj) -> str:
    return json.dumps(owm_clean(obj), separators=(",", ":"), ensure_ascii=False)


def unix(d: dt.datetime) -> int:
    return int(d.timestamp())


OWM_WEATHER = {
    800: ("Clear", "clear sky", "01"), 801: ("Clouds", "few clouds", "02"),
    802: ("Clouds", "scattered clouds", "03"), 803: ("Clouds", "broken clouds", "04"),
    804: ("Clouds", "overcast clouds", "04"), 500: ("Rain", "light rain", "10"),
    501: ("Rain", "moderate rain", "10"), 520: ("Rain", "light intensity shower rain", "09"),
    600: ("Snow", "light snow", "13"), 601: ("Snow", "snow", "13"),
    616: ("Snow", "rain and snow", "13"),
}


def owm_weather(code: int, day: bool):
    main, desc, icon = OWM_WEATHER[code]
    return [{"id": code, "main": main, "description": desc, "icon": icon + ("d" if day else "n")}]


def owm_sun(lat, lon, day: dt.date):
    r = sun_rise_set_utc(day, lat, lon)
    return unix(r[0]), unix(r[1])


def build_owm_forecast(cfg) -> str:
    rng = random.Random(cfg["seed"])
    start = cfg["first_dt"]
    lst = []
    for i in range(40):
        t = start + dt.timedelta(hours=3 * i)
        local_h = (t + dt.timedelta(seconds=cfg["timezone"])).hour
        rise_set = sun_rise_set_utc((t + dt.timedelta(seconds=cfg["timezone"])).date(),
                                    cfg["lat"], cfg["lon"])
        day = rise_set[0] <= t <= rise_set[1]
        frac = diurnal_fraction(local_h + 1.5)
        dayi = min(4, i // 8)
        temp_c = cfg["tmin"][dayi] + (cfg["tmax"][dayi] - cfg["tmin"][dayi]) * frac \
            + rng.uniform(-0.3, 0.3)
        ev = cfg["event"](i, day, rng)
        temp_c += ev.get("temp_adj", 0.0)
        wind_ms = max(0.4, cfg["wind"][dayi] * (0.8 + 0.4 * frac) + rng.uniform(-0.5, 0.5))
        hum = int(min(100, max(20, cfg["hum"][dayi] - 30 * frac + ev.get("hum_adj", 0)
                               + rng.uniform(-3, 3))))
        press = int(round(cfg["press"][dayi] + rng.uniform(-1.4, 1.4)))
        if cfg["units"] == "imperial":
            conv_t = lambda c: c * 9 / 5 + 32  # noqa: E731
            conv_w = lambda v: v * 2.23694  # noqa: E731
        else:
            conv_t = lambda c: c  # noqa: E731
            conv_w = lambda v: v  # noqa: E731
        feels = apparent_temperature(temp_c, hum, wind_ms)
        # temp_kf: "internal parameter"; non-zero for the first ~day, 0 afterwards
        kf = round(rng.uniform(-1.3, 2.6), 2) if i < 7 else 0
        kf_t = kf * (9 / 5 if cfg["units"] == "imperial" else 1)
        tt = round(conv_t(temp_c), 2)
        entry = {
            "dt": unix(t),
            "main": {
                "temp": tt,
                "feels_like": round(conv_t(feels), 2),
                # as in the documented example: kf<0 -> max = temp - kf; kf>0 -> min = temp - kf
                "temp_min": round(tt - kf_t, 2) if kf > 0 else tt,
                "temp_max": round(tt - kf_t, 2) if kf < 0 else tt,
                "pressure": press,
                "sea_level": press,
                "grnd_level": press - cfg["grnd_drop"],
                "humidity": hum,
                "temp_kf": round(kf_t, 2),
            },
            "weather": owm_weather(ev["id"], day),
            "clouds": {"all": ev.get("clouds", 10)},
            "wind": {"speed": round(conv_w(wind_ms), 2),
                     "deg": int((cfg["wind_deg"][dayi] + rng.uniform(-25, 25)) % 360),
                     "gust": round(conv_w(wind_ms * 1.5 + rng.uniform(0.2, 1.5)), 2)},
            "visibility": ev.get("visibility", 10000),
            "pop": ev.get("pop", 0),
        }
        for k in ("rain", "snow"):
            if k in ev:
                entry[k] = ev[k] if ev[k] is None else {"3h": ev[k]}
        entry["sys"] = {"pod": "d" if day else "n"}
        entry["dt_txt"] = t.strftime("%Y-%m-%d %H:%M:%S")
        lst.append(entry)
    rise, set_ = owm_sun(cfg["lat"], cfg["lon"], cfg["city_sun_date"])
    body = {
        "cod": "200", "message": 0, "cnt": 40, "list": lst,
        "city": {"id": cfg["city_id"], "name": cfg["city_name"],
                 "coord": {"lat": cfg["lat"], "lon": cfg["lon"]}, "country": cfg["country"],
                 "population": cfg["population"], "timezone": cfg["timezone"],
                 "sunrise": rise, "sunset": set_},
    }
    return owm_dump(body)


def tampa_fc_event(i, day, rng):
    # i=0 is 2026-11-22 21:00 UTC (16:00 EST).  Front on local day 4 afternoon
    # (2026-11-25 ~18:00-24:00 UTC -> i = 23..25).
    if i in (23, 24):
        return {"id": 500, "clouds": 90, "pop": [0.62, 0.71][i - 23], "rain": [0.84, 1.37][i - 23],
                "visibility": 10000, "hum_adj": 15, "temp_adj": -1.5}
    if i in (22, 25):
        return {"id": 804, "clouds": 92, "pop": 0.28}
    if i == 26:
        return {"id": 803, "clouds": 70, "pop": 0.12}
    return {"id": [800, 800, 801, 802][(i * 3) % 4],
            "clouds": {800: 3, 801: 18, 802: 40}[[800, 800, 801, 802][(i * 3) % 4]],
            "pop": 0}


def denver_fc_event(i, day, rng):
    # i=0 is 2026-11-22 18:00 UTC (11:00 MST), during the snow.
    if i <= 2:
        return {"id": [601, 600, 600][i], "clouds": 100, "pop": [1, 0.96, 0.74][i],
                "snow": [1.84, 0.92, 0.31][i], "visibility": [1900, 4200, 8000][i],
                "hum_adj": 20}
    if i == 3:
        return {"id": 804, "clouds": 96, "pop": 0.31}
    if i in (15, 16):  # 2026-11-24 15:00-18:00 UTC: rain/snow mix then rain
        return {"id": [616, 500][i - 15], "clouds": 100, "pop": [0.58, 0.66][i - 15],
                "rain": [0.41, 0.77][i - 15], **({"snow": 0.22} if i == 15 else {}),
                "hum_adj": 25, "temp_adj": [0.0, -3.0][i - 15]}
    if i == 17:
        # Defensive case: key present with JSON null.
        return {"id": 804, "clouds": 98, "pop": 0.2, "rain": None, "hum_adj": 20}
    if i in (27, 28):
        return {"id": 600, "clouds": 100, "pop": [0.44, 0.52][i - 27], "snow": [0.27, 0.45][i - 27],
                "visibility": 9000, "temp_adj": -2.0}
    if i in (33, 34):
        return {"id": 500, "clouds": 88, "pop": [0.34, 0.4][i - 33], "rain": [0.18, 0.29][i - 33],
                "hum_adj": 35, "temp_adj": -4.0}
    code = [800, 801, 802, 800][(i * 5) % 4]
    return {"id": code, "clouds": {800: 0, 801: 20, 802: 45}[code],
            "pop": [0, 0, 0.04][i % 3]}


# --------------------------------------------------------------------------------------
# main
# --------------------------------------------------------------------------------------


def write(path: str, text: str):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def main():
    # ---------------- Open-Meteo ----------------
    bodies = {}
    for cfg in open_meteo_configs():
        body = build_open_meteo(cfg)
        bodies[cfg["name"]] = body
        write(os.path.join(OM_DIR, cfg["name"]), body)

    # Error bodies.  Reason strings are taken verbatim from the server source
    # (ForecastApiError.reason) and from the documentation "Errors" section.
    write(os.path.join(OM_DIR, "error-400.json"),
          '{"error":true,"reason":"Latitude must be in range of -90 to 90°. Given: 91.0."}')
    write(os.path.join(OM_DIR, "error-400-invalid-variable.json"),
          '{"error":true,"reason":"Cannot initialize WeatherVariable from invalid String value '
          'tempeture_2m for key hourly"}')

    # ---------------- OpenWeatherMap ----------------
    tampa_lat, tampa_lon = 27.9475, -82.4584
    t_rise, t_set = owm_sun(tampa_lat, tampa_lon, dt.date(2026, 11, 22))
    now = dt.datetime(2026, 11, 22, 19, 14, 38, tzinfo=UTC)  # 14:14:38 EST
    weather_tampa = {
        "coord": {"lon": tampa_lon, "lat": tampa_lat},
        "weather": owm_weather(801, True),
        "base": "stations",
        "main": {"temp": 26.43, "feels_like": 26.43, "temp_min": 25.52, "temp_max": 27.21,
                 "pressure": 1018, "humidity": 54, "sea_level": 1018, "grnd_level": 1017},
        "visibility": 10000,
        "wind": {"speed": 4.63, "deg": 50, "gust": 6.69},
        "clouds": {"all": 20},
        "dt": unix(now),
        "sys": {"type": 2, "id": 2004470, "country": "US", "sunrise": t_rise, "sunset": t_set},
        "timezone": -18000, "id": 4174757, "name": "Tampa", "cod": 200,
    }
    write(os.path.join(OWM_DIR, "weather-tampa-metric.json"), owm_dump(weather_tampa))

    write(os.path.join(OWM_DIR, "forecast-tampa-metric.json"), build_owm_forecast({
        "seed": 4174757, "units": "metric", "lat": tampa_lat, "lon": tampa_lon,
        "first_dt": dt.datetime(2026, 11, 22, 21, 0, tzinfo=UTC), "timezone": -18000,
        "tmin": [18.4, 19.1, 19.8, 17.0, 15.9], "tmax": [27.0, 27.5, 26.0, 24.3, 24.8],
        "wind": [4.4, 3.9, 4.8, 5.2, 4.0], "wind_deg": [50, 65, 190, 25, 40],
        "hum": [88, 86, 90, 80, 78], "press": [1018, 1017, 1013, 1020, 1021], "grnd_drop": 1,
        "event": tampa_fc_event, "city_id": 4174757, "city_name": "Tampa", "country": "US",
        "population": 335709, "city_sun_date": dt.date(2026, 11, 22),
    }))

    # Rain 1h: the documented Zocca example, moved to 2026-11-22 and re-valued.
    z_lat, z_lon = 44.34, 10.99
    z_rise, z_set = owm_sun(z_lat, z_lon, dt.date(2026, 11, 22))
    weather_rain = {
        "coord": {"lon": z_lon, "lat": z_lat},
        "weather": owm_weather(501, True),
        "base": "stations",
        "main": {"temp": 8.21, "feels_like": 5.94, "temp_min": 7.48, "temp_max": 9.02,
                 "pressure": 1006, "humidity": 93, "sea_level": 1006, "grnd_level": 928},
        "visibility": 6500,
        "wind": {"speed": 3.58, "deg": 204, "gust": 8.94},
        "rain": {"1h": 2.73},
        "clouds": {"all": 100},
        "dt": unix(dt.datetime(2026, 11, 22, 12, 41, 7, tzinfo=UTC)),
        "sys": {"type": 2, "id": 2075663, "country": "IT", "sunrise": z_rise, "sunset": z_set},
        "timezone": 3600, "id": 3163858, "name": "Zocca", "cod": 200,
    }
    write(os.path.join(OWM_DIR, "weather-rain-1h.json"), owm_dump(weather_rain))

    # Snow 3h, imperial, Denver; wind without gust, no rain key.
    d_lat, d_lon = 39.7392, -104.9847
    d_rise, d_set = owm_sun(d_lat, d_lon, dt.date(2026, 11, 22))
    weather_snow = {
        "coord": {"lon": d_lon, "lat": d_lat},
        "weather": owm_weather(600, True),
        "base": "stations",
        "main": {"temp": 27.36, "feels_like": 19.02, "temp_min": 25.9, "temp_max": 28.74,
                 "pressure": 1024, "humidity": 92, "sea_level": 1024, "grnd_level": 837},
        "visibility": 3219,
        "wind": {"speed": 8.05, "deg": 20},
        "snow": {"3h": 1.2},
        "clouds": {"all": 100},
        "dt": unix(dt.datetime(2026, 11, 22, 17, 31, 52, tzinfo=UTC)),
        "sys": {"type": 2, "id": 2004334, "country": "US", "sunrise": d_rise, "sunset": d_set},
        "timezone": -25200, "id": 5419384, "name": "Denver", "cod": 200,
    }
    write(os.path.join(OWM_DIR, "weather-snow-3h-imperial.json"), owm_dump(weather_snow))

    # Polar: shape of real captures at open-ocean/Arctic points: sys only has
    # sunrise/sunset = 0, id 0, name "".  Additionally (defensive) no visibility and no
    # wind.deg.
    weather_polar = {
        "coord": {"lon": 0, "lat": 89.9},
        "weather": owm_weather(804, False),
        "base": "stations",
        "main": {"temp": -27.62, "feels_like": -34.62, "temp_min": -27.62, "temp_max": -27.62,
                 "pressure": 1012, "humidity": 97, "sea_level": 1012, "grnd_level": 1012},
        "wind": {"speed": 4.12, "gust": 5.31},
        "clouds": {"all": 93},
        "dt": unix(dt.datetime(2026, 11, 22, 19, 12, 3, tzinfo=UTC)),
        "sys": {"sunrise": 0, "sunset": 0},
        "timezone": 0, "id": 0, "name": "", "cod": 200,
    }
    write(os.path.join(OWM_DIR, "weather-polar.json"), owm_dump(weather_polar))

    write(os.path.join(OWM_DIR, "forecast-imperial.json"), build_owm_forecast({
        "seed": 5419384, "units": "imperial", "lat": d_lat, "lon": d_lon,
        "first_dt": dt.datetime(2026, 11, 22, 18, 0, tzinfo=UTC), "timezone": -25200,
        "tmin": [-6.0, -8.8, -5.9, -7.0, -2.8], "tmax": [-1.8, 3.6, 6.3, 4.2, 9.6],
        "wind": [3.5, 2.5, 3.0, 3.3, 2.7], "wind_deg": [20, 340, 200, 15, 230],
        "hum": [95, 80, 72, 84, 62], "press": [1024, 1029, 1022, 1025, 1016], "grnd_drop": 187,
        "event": denver_fc_event, "city_id": 5419384, "city_name": "Denver", "country": "US",
        "population": 600158, "city_sun_date": dt.date(2026, 11, 22),
    }))

    write(os.path.join(OWM_DIR, "error-401.json"),
          '{"cod":401, "message": "Invalid API key. Please see '
          'https://openweathermap.org/faq#error401 for more info."}')
    write(os.path.join(OWM_DIR, "error-404.json"), '{"cod":"404","message":"city not found"}')
    write(os.path.join(OWM_DIR, "error-429.json"),
          '{"cod":429,"message":"Your account is temporary blocked due to exceeding of '
          'requests limitation of your subscription type. Please choose the proper '
          'subscription http://openweathermap.org/price"}')

    # ---------------- misc ----------------
    tampa = bodies["tampa-metric.json"]
    cut = int(len(tampa) * 0.6)
    # move forward to just after a decimal point inside a number: "24." is not a valid
    # JSON token, so the cut is guaranteed to be mid-token.
    while not (tampa[cut - 1] == "." and tampa[cut - 2].isdigit()):
        cut += 1
    write(os.path.join(MISC_DIR, "truncated.json"), tampa[:cut])

    write(os.path.join(MISC_DIR, "captive-portal.html"), CAPTIVE_PORTAL)


CAPTIVE_PORTAL = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Harbor Point Hotel - Guest Wi-Fi</title>
<style>
  body { font-family: Helvetica, Arial, sans-serif; background: #f3f5f7; margin: 0; }
  .box { max-width: 420px; margin: 40px auto; background: #fff; padding: 24px;
         border-radius: 8px; box-shadow: 0 1px 4px rgba(0,0,0,.15); }
  h1 { font-size: 20px; margin-top: 0; }
  label { display: block; margin: 12px 0 4px; font-size: 14px; }
  input[type=text] { width: 100%; padding: 8px; box-sizing: border-box; }
  button { margin-top: 16px; width: 100%; padding: 10px; background: #0a5c8c; color: #fff;
           border: 0; border-radius: 4px; font-size: 16px; }
  small { color: #666; }
</style>
</head>
<body>
<div class="box">
  <h1>Welcome to Harbor Point Hotel Guest Wi-Fi</h1>
  <p>To connect to the internet, please enter your room number and last name.</p>
  <form method="post" action="/login.php">
    <input type="hidden" name="redirect" value="http://api.open-meteo.com/v1/forecast">
    <label for="room">Room number</label>
    <input type="text" id="room" name="room" autocomplete="off">
    <label for="lastname">Last name</label>
    <input type="text" id="lastname" name="lastname" autocomplete="family-name">
    <p><input type="checkbox" id="tos" name="tos" value="1">
       <label for="tos" style="display:inline">I accept the <a href="/terms.html">Terms of Use</a></label></p>
    <button type="submit">Connect</button>
  </form>
  <p><small>Need help? Dial 0 from your room phone. Complimentary access: 24 hours, 2 devices.</small></p>
</div>
</body>
</html>
"""


def check():
    """Every .json (except the deliberately broken truncated.json) must parse, and every
    Open-Meteo hourly/daily section must have equal-length arrays matching its *_units."""
    for folder in (OM_DIR, OWM_DIR, MISC_DIR):
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            if name == "truncated.json":
                try:
                    json.loads(text)
                except json.JSONDecodeError:
                    continue
                raise SystemExit(f"{path} unexpectedly parses")
            body = json.loads(text)
            if folder == OM_DIR and "hourly" in body:
                for section, n in (("hourly", 168), ("daily", 7)):
                    lengths = {k: len(v) for k, v in body[section].items()}
                    assert set(lengths.values()) == {n}, (path, section, lengths)
                    assert set(body[section]) == set(body[section + "_units"]), (path, section)
                assert set(body["current"]) == set(body["current_units"]), path
    print("all fixtures OK")


if __name__ == "__main__":
    main()
    check()
