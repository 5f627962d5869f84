#!/usr/bin/env python3
"""Builds the MET Norway, Pirate Weather and OpenWeatherMap One Call 3.0 fixtures.

Deterministic, stdlib only. The shapes follow the sources cited in each folder's README;
the values are made up but consistent (a diurnal temperature curve, precipitation only
under rain/snow symbols, day/night variants by the sun). Run:

    python3 Fixtures/weather/generate_services.py
"""
import datetime as dt
import json
import math
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
UTC = dt.timezone.utc


def write(path, text):
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as fh:
        fh.write(text)


def dump(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def r1(x):
    return round(x, 1)


def unix(d):
    return int(d.timestamp())


def diurnal(hour_local, low, high):
    """Minimum near 06:30, maximum near 15:00 local time."""
    phase = math.cos((hour_local - 15.0) / 24.0 * 2 * math.pi)
    return low + (high - low) * (phase + 1) / 2


# ---------------------------------------------------------------- MET Norway (compact)

def is_day_oslo(t):
    # Oslo in late November: sunrise ~08:20, sunset ~15:20 local (UTC+1).
    local = t + dt.timedelta(hours=1)
    return 8.3 <= local.hour + local.minute / 60 < 15.3


def metno_symbol(t, base):
    variant = "_day" if is_day_oslo(t) else "_night"
    if base in ("cloudy", "fog", "rain", "lightrain", "heavyrain", "snow", "lightsnow", "sleet",
                "heavysnow", "lightsleet", "rainandthunder", "heavysleet"):
        return base
    return base + variant


def metno_weather(t):
    """The scenario: a showery day, a cold clear night, snow on the 24th, then fair."""
    hours = (t - dt.datetime(2026, 11, 22, 10, tzinfo=UTC)).total_seconds() / 3600
    if hours < 6:
        return "lightrainshowers", 0.3
    if hours < 8:
        return "lightssleetshowersandthunder", 0.6
    if hours < 12:
        return "cloudy", 0.0
    if hours < 24:
        return "clearsky", 0.0
    if hours < 36:
        return "partlycloudy", 0.0
    if 42 <= hours < 54:
        return "lightsnow" if hours < 48 else "snow", 0.4 if hours < 48 else 1.1
    if hours < 60:
        return "cloudy", 0.0
    if hours < 100:
        return "fair", 0.0
    if hours < 130:
        return "rain", 1.5
    return "partlycloudy", 0.0


def metno_uv(t):
    """The complete product's clear-sky UV index: Oslo's late-November sun, from 07:20 to
    14:20 UTC, peaking at 0.4 (no random numbers drawn: the other values stay as they were)."""
    hours = t.hour + t.minute / 60 - (7 + 20 / 60)
    if not 0 < hours < 7:
        return 0.0
    return r1(0.4 * math.sin(math.pi * hours / 7) ** 2)


def build_metno():
    rng = random.Random(2026_11_22)
    start = dt.datetime(2026, 11, 22, 10, tzinfo=UTC)
    times = [start + dt.timedelta(hours=h) for h in range(61)]
    last = times[-1]
    # Then 6-hourly at 00/06/12/18 UTC for about 9 days in all.
    t = last + dt.timedelta(hours=(6 - last.hour % 6) % 6 or 6)
    while t < start + dt.timedelta(days=9, hours=14):
        times.append(t)
        t += dt.timedelta(hours=6)
    series = []
    for index, t in enumerate(times):
        local_hour = (t.hour + 1) % 24
        day = (t - start).days
        low, high = [(-2, 4), (-6, 1), (-4, 0), (-1, 3), (0, 5), (1, 6), (-1, 4), (-3, 2), (-2, 3), (-2, 3)][day]
        temp = r1(diurnal(local_hour, low, high) + rng.uniform(-0.4, 0.4))
        base, amount = metno_weather(t)
        details = {
            "air_pressure_at_sea_level": r1(1008 + 6 * math.sin(index / 9) + rng.uniform(-0.5, 0.5)),
            "air_temperature": temp,
            "cloud_area_fraction": r1(0 if base in ("clearsky",) else 12.5 if base == "fair" else
                                      45.3 if base == "partlycloudy" else rng.uniform(85, 100)),
            "relative_humidity": r1(rng.uniform(70, 96)),
            "ultraviolet_index_clear_sky": metno_uv(t),
            "wind_from_direction": r1((200 + 40 * math.sin(index / 7)) % 360),
            "wind_speed": r1(2.5 + 2 * abs(math.sin(index / 5)) + rng.uniform(0, 0.6)),
        }
        data = {"instant": {"details": details}}
        hourly = index + 1 < len(times) and (times[index + 1] - t) == dt.timedelta(hours=1)
        symbol = metno_symbol(t, base)
        if index < len(times) - 2:
            data["next_12_hours"] = {"summary": {"symbol_code": symbol}, "details": {}}
        if hourly:
            data["next_1_hours"] = {"summary": {"symbol_code": symbol},
                                    "details": {"precipitation_amount": round(amount, 1)}}
        if index < len(times) - 1:
            six = sum(metno_weather(t + dt.timedelta(hours=k))[1] for k in range(6))
            data["next_6_hours"] = {"summary": {"symbol_code": symbol},
                                    "details": {"precipitation_amount": round(six, 1)}}
        series.append({"time": t.strftime("%Y-%m-%dT%H:%M:%SZ"), "data": data})
    body = {
        "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [10.75, 59.91, 8]},
        "properties": {
            "meta": {
                "updated_at": "2026-11-22T09:41:17Z",
                "units": {
                    "air_pressure_at_sea_level": "hPa",
                    "air_temperature": "celsius",
                    "cloud_area_fraction": "%",
                    "precipitation_amount": "mm",
                    "relative_humidity": "%",
                    "ultraviolet_index_clear_sky": "1",
                    "wind_from_direction": "degrees",
                    "wind_speed": "m/s",
                },
            },
            "timeseries": series,
        },
    }
    write("metno/oslo-compact.json", dump(body))
    write("metno/error-403.html", METNO_403)
    write("metno/error-400.html", METNO_400)


METNO_403 = """<html>
<head><title>403 Forbidden</title></head>
<body>
<h1>403 Forbidden</h1>
<p>Missing or invalid User-Agent header. Please identify your application according to our Terms of Service: https://api.met.no/doc/TermsOfService</p>
</body>
</html>
"""

METNO_400 = """<html>
<head><title>400 Bad Request</title></head>
<body>
<h1>400 Bad Request</h1>
<p>Latitude 91 must be between -90 and 90</p>
</body>
</html>
"""


# ---------------------------------------------------------------- Pirate Weather (Dark Sky)

def build_pirate(name, lat, lon, offset_h, units, now, daily_lows_highs, icon_for, alerts):
    rng = random.Random(name)
    us = units == "us"

    def temp(c):
        return round(c * 9 / 5 + 32, 2) if us else round(c, 2)

    def speed(ms):
        return round(ms / 0.44704, 2) if us else round(ms, 2)

    def rate(mm):
        return round(mm / 25.4, 4) if us else round(mm, 4)

    def point(t, hourly=True):
        local = t + dt.timedelta(hours=offset_h)
        day = (local.date() - (now + dt.timedelta(hours=offset_h)).date()).days
        low, high = daily_lows_highs[min(day, len(daily_lows_highs) - 1)]
        c = diurnal(local.hour + local.minute / 60, low, high)
        icon, mm, kind = icon_for(t)
        sun_up = 7 <= local.hour < 17
        if icon in ("clear", "partly-cloudy"):
            icon += "-day" if sun_up else "-night"
        wind = 3 + 2 * abs(math.sin(t.timestamp() / 20000)) + rng.uniform(0, 0.5)
        return {
            "time": unix(t),
            "summary": SUMMARIES.get(icon.replace("-day", "").replace("-night", ""), "Clear"),
            "icon": icon,
            "precipIntensity": rate(mm),
            "precipProbability": round(0.8 if mm > 0 else rng.uniform(0, 0.1), 2),
            "precipIntensityError": round(mm / 5, 4) if not us else round(mm / 127, 4),
            "precipAccumulation": (round(mm / 25.4, 4) if us else round(mm / 10, 4)) if hourly else None,
            "precipType": kind if mm > 0 else "none",
            "temperature": temp(c),
            "apparentTemperature": temp(c - 1.5),
            "dewPoint": temp(c - 6),
            "humidity": round(rng.uniform(0.55, 0.9), 2),
            "pressure": round(1014 + rng.uniform(-3, 3), 2),
            "windSpeed": speed(wind),
            "windGust": speed(wind * 1.6),
            "windBearing": int(40 + rng.uniform(-15, 15)),
            "cloudCover": round(0.1 if "clear" in icon else 0.45 if "partly" in icon else 0.95, 2),
            "uvIndex": round(3 * max(0, math.sin((local.hour - 7) / 10 * math.pi)), 2),
            "visibility": round(10 / 1.609344, 2) if us else 10.0 if mm == 0 else 4.5,
            "ozone": round(280 + rng.uniform(0, 20), 2),
        }

    current = point(now)
    del current["precipAccumulation"]
    current["nearestStormDistance"] = 0
    current["nearestStormBearing"] = 0
    current["time"] = unix(now)
    start = now.replace(minute=0, second=0)
    hourly = [point(start + dt.timedelta(hours=h)) for h in range(48)]
    local_midnight = (now + dt.timedelta(hours=offset_h)).replace(hour=0, minute=0, second=0)
    daily = []
    for d in range(8):
        day_start = local_midnight + dt.timedelta(days=d) - dt.timedelta(hours=offset_h)
        low, high = daily_lows_highs[min(d, len(daily_lows_highs) - 1)]
        icon, mm, kind = icon_for(day_start + dt.timedelta(hours=12))
        if icon in ("clear", "partly-cloudy"):
            icon += "-day"
        total_mm = mm * 6
        daily.append({
            "time": unix(day_start),
            "summary": SUMMARIES.get(icon.replace("-day", ""), "Clear") + " throughout the day.",
            "icon": icon,
            "sunriseTime": unix(day_start + dt.timedelta(hours=6, minutes=56)),
            "sunsetTime": unix(day_start + dt.timedelta(hours=17, minutes=35)),
            "moonPhase": round((0.05 + d * 0.034) % 1, 2),
            "precipIntensity": rate(total_mm / 24),
            "precipIntensityMax": rate(mm),
            "precipIntensityMaxTime": unix(day_start + dt.timedelta(hours=14)),
            "precipProbability": 0.85 if mm > 0 else 0.05,
            "precipAccumulation": round(total_mm / 25.4, 4) if us else round(total_mm / 10, 4),
            "precipType": kind if mm > 0 else "none",
            "temperatureHigh": temp(high),
            "temperatureHighTime": unix(day_start + dt.timedelta(hours=15)),
            "temperatureLow": temp(low + 1),
            "temperatureLowTime": unix(day_start + dt.timedelta(hours=30)),
            "apparentTemperatureHigh": temp(high - 1),
            "apparentTemperatureLow": temp(low - 1),
            "dewPoint": temp(low - 3),
            "humidity": 0.7,
            "pressure": 1014.2,
            "windSpeed": speed(4.1 + d * 0.2),
            "windGust": speed(7.3 + d * 0.2),
            "windBearing": 45,
            "cloudCover": 0.4,
            "uvIndex": 4.1,
            "visibility": round(10 / 1.609344, 2) if us else 10.0,
            "temperatureMin": temp(low),
            "temperatureMinTime": unix(day_start + dt.timedelta(hours=7)),
            "temperatureMax": temp(high),
            "temperatureMaxTime": unix(day_start + dt.timedelta(hours=15)),
        })
    for h in hourly:
        if h["precipAccumulation"] is None:
            del h["precipAccumulation"]
    body = {
        "latitude": lat,
        "longitude": lon,
        "timezone": "America/New_York" if offset_h == -5 else "America/Denver",
        "offset": float(offset_h),
        "elevation": 8 if offset_h == -5 else 1609,
        "currently": current,
        "hourly": {"summary": "Partly cloudy until tomorrow.", "icon": "partly-cloudy-day", "data": hourly},
        "daily": {"summary": "Rain on Wednesday.", "icon": "rain", "data": daily},
        "alerts": alerts,
        "flags": {
            "sources": ["ETOPO1", "gfs", "gefs", "nbm", "hrrr_0-18", "hrrr_18-48"],
            "sourceTimes": {"hrrr_0-18": "2026-11-22 17Z", "nbm": "2026-11-22 16Z", "gfs": "2026-11-22 12Z",
                            "gefs": "2026-11-22 12Z"},
            "nearest-station": 0,
            "units": units,
            "version": "V2.8.4",
        },
    }
    return dump(body)


SUMMARIES = {
    "clear": "Clear", "partly-cloudy": "Partly Cloudy", "cloudy": "Overcast", "rain": "Rain",
    "snow": "Snow", "sleet": "Sleet", "fog": "Foggy", "wind": "Breezy", "thunderstorm": "Thunderstorms",
    "light-snow": "Light Snow",
}


def tampa_icon(t):
    local = t - dt.timedelta(hours=5)
    if local.date() == dt.date(2026, 11, 25) and 12 <= local.hour < 18:
        return "rain", 1.2, "rain"
    if local.date() == dt.date(2026, 11, 22) and local.hour >= 21:
        return "cloudy", 0.0, "none"
    return "partly-cloudy" if local.hour % 5 == 0 else "clear", 0.0, "none"


def denver_icon(t):
    local = t - dt.timedelta(hours=7)
    if local.date() == dt.date(2026, 11, 22) and local.hour < 17:
        return "snow", 0.8, "snow"
    if local.date() == dt.date(2026, 11, 23):
        return "wind", 0.0, "none"
    return "clear", 0.0, "none"


TAMPA_ALERTS = [
    {
        "title": "Small Craft Advisory issued November 22 at 9:49AM EST until November 23 at 4:00AM EST by NWS Tampa Bay Ruskin FL",
        "regions": ["Tampa Bay waters", "Coastal waters from Tarpon Springs to Suwannee River FL out 20 NM"],
        "severity": "Minor",
        "time": 1795358940,
        "expires": 1795424400,
        "description": "* WHAT...Northeast winds 15 to 20 kt with gusts up to 25 kt and seas 3 to 5 ft.  * WHERE...Tampa Bay waters.  * WHEN...Until 4 AM EST Monday.  * IMPACTS...Conditions will be hazardous to small craft.",
        "uri": "https://alerts.weather.gov/search?id=urn:oid:2.49.0.1.840.0.0a1b2c3d4e5f60718293a4b5c6d7e8f901234567.001.1",
    },
    {
        "title": "Rip Current Statement issued November 22 at 3:12AM EST until November 23 at 7:00PM EST by NWS Tampa Bay Ruskin FL",
        "regions": ["Coastal Pinellas"],
        "severity": "Moderate",
        "time": 1795335120,
        "expires": 1795478400,
        "description": "* WHAT...Dangerous rip currents.  * WHERE...Coastal Pinellas County.",
        "uri": "https://alerts.weather.gov/search?id=urn:oid:2.49.0.1.840.0.f00dfeed0123456789abcdef0123456789abcdef.001.1",
    },
]


def build_pirate_all():
    now = dt.datetime(2026, 11, 22, 19, 15, 4, tzinfo=UTC)
    write("pirateweather/tampa-si.json",
          build_pirate("tampa", 27.95, -82.46, -5, "si", now,
                       [(19.5, 27.4), (18.9, 26.8), (19.6, 27.9), (20.4, 25.1), (18.2, 24.6), (17.5, 25.0),
                        (18.0, 26.1), (18.8, 26.6)], tampa_icon, TAMPA_ALERTS))
    body = build_pirate("denver", 39.74, -104.99, -7, "us", dt.datetime(2026, 11, 22, 17, 30, 11, tzinfo=UTC),
                        [(-6.1, -2.3), (-8.4, 3.0), (-5.2, 7.9), (-3.0, 10.4), (-2.1, 11.8), (-1.5, 9.0),
                         (-3.3, 6.6), (-4.0, 5.5)], denver_icon, [])
    obj = json.loads(body)
    del obj["alerts"]  # Pirate Weather omits the block when no alert is in force.
    write("pirateweather/denver-us.json", dump(obj))
    write("pirateweather/error-400.json", dump({"detail": "Invalid Location Specification"}))
    write("pirateweather/error-401.txt", "Kong Error Invalid authentication credentials.")
    write("pirateweather/error-404.json", dump({"message": "no Route matched with those values"}))
    write("pirateweather/error-429.txt", "Kong Error API rate limit exceeded.")


# ---------------------------------------------------------------- One Call 3.0

OWM_WEATHER = {
    800: ("Clear", "clear sky", "01"), 801: ("Clouds", "few clouds", "02"), 802: ("Clouds", "scattered clouds", "03"),
    804: ("Clouds", "overcast clouds", "04"), 500: ("Rain", "light rain", "10"), 501: ("Rain", "moderate rain", "10"),
}


def owm_weather(code, day):
    main, description, icon = OWM_WEATHER[code]
    return [{"id": code, "main": main, "description": description, "icon": icon + ("d" if day else "n")}]


def build_onecall():
    rng = random.Random("onecall")
    offset = -18000
    now = dt.datetime(2026, 11, 22, 19, 14, 38, tzinfo=UTC)
    sunrise = dt.datetime(2026, 11, 22, 11, 56, 57, tzinfo=UTC)
    sunset = dt.datetime(2026, 11, 22, 22, 35, 21, tzinfo=UTC)

    def local(t):
        return t + dt.timedelta(seconds=offset)

    def code_for(t):
        lt = local(t)
        if lt.date() == dt.date(2026, 11, 25) and 12 <= lt.hour < 18:
            return 501 if lt.hour == 14 else 500
        return 801 if lt.hour % 4 == 0 else 800

    def is_day(t):
        lt = local(t)
        return 7 <= lt.hour < 17 or (lt.hour == 17 and lt.minute < 35)

    current = {
        "dt": unix(now), "sunrise": unix(sunrise), "sunset": unix(sunset), "temp": 26.43, "feels_like": 26.43,
        "pressure": 1015, "humidity": 61, "dew_point": 18.2, "uvi": 3.12, "clouds": 20, "visibility": 10000,
        "wind_speed": 4.63, "wind_deg": 50, "wind_gust": 7.2, "weather": owm_weather(801, True),
    }
    hourly = []
    start = now.replace(minute=0, second=0)
    for h in range(48):
        t = start + dt.timedelta(hours=h)
        lt = local(t)
        code = code_for(t)
        temp = round(diurnal(lt.hour, 19.0, 27.2) + rng.uniform(-0.3, 0.3), 2)
        entry = {
            "dt": unix(t), "temp": temp, "feels_like": round(temp + 0.3, 2), "pressure": 1015, "humidity": 60 + h % 20,
            "dew_point": round(temp - 7, 2), "uvi": 0 if not is_day(t) else 2.5, "clouds": 20 if code == 801 else 0,
            "visibility": 10000, "wind_speed": round(3.5 + rng.uniform(0, 1.5), 2), "wind_deg": 40 + h % 30,
            "wind_gust": round(6 + rng.uniform(0, 2), 2), "weather": owm_weather(code, is_day(t)),
            "pop": 0 if code >= 800 else 0.82,
        }
        if code < 600:
            entry["rain"] = {"1h": 1.37 if code == 501 else 0.42}
        hourly.append(entry)
    daily = []
    for d in range(8):
        noon_local = dt.datetime(2026, 11, 22 + d, 12, tzinfo=UTC) - dt.timedelta(seconds=offset)
        code = code_for(noon_local + dt.timedelta(hours=2))
        entry = {
            "dt": unix(noon_local), "sunrise": unix(sunrise + dt.timedelta(days=d, minutes=d)),
            "sunset": unix(sunset + dt.timedelta(days=d, seconds=-20 * d)),
            "moonrise": unix(noon_local + dt.timedelta(hours=2, minutes=50 * d)),
            "moonset": unix(noon_local + dt.timedelta(hours=14, minutes=50 * d)),
            "moon_phase": round(0.05 + 0.034 * d, 2),
            "summary": "Expect a day of partly cloudy with rain" if code < 600 else "There will be clear sky today",
            "temp": {"day": 26.1, "min": round(19.0 + d * 0.2, 2), "max": round(27.2 - d * 0.3, 2), "night": 20.4,
                     "eve": 23.8, "morn": 19.6},
            "feels_like": {"day": 26.2, "night": 20.5, "eve": 24.0, "morn": 19.7},
            "pressure": 1015, "humidity": 62, "dew_point": 18.3, "wind_speed": round(5.1 + d * 0.1, 2),
            "wind_deg": 45, "wind_gust": 8.4, "weather": owm_weather(code, True), "clouds": 20,
            "pop": 0.86 if code < 600 else 0.04, "uvi": 4.6,
        }
        if code < 600:
            entry["rain"] = 7.1
        daily.append(entry)
    alerts = [
        {
            "sender_name": "NWS Tampa Bay Ruskin FL",
            "event": "Small Craft Advisory",
            "start": 1795358940,
            "end": 1795424400,
            "description": "* WHAT...Northeast winds 15 to 20 kt with gusts up to 25 kt and seas 3 to 5 ft.\n* WHERE...Tampa Bay waters.\n* WHEN...Until 4 AM EST Monday.",
            "tags": ["Marine"],
        },
        {
            "sender_name": "NWS Tampa Bay Ruskin FL",
            "event": "Rip Current Statement",
            "start": 1795335120,
            "end": 1795478400,
            "description": "* WHAT...Dangerous rip currents.\n* WHERE...Coastal Pinellas County.",
            "tags": [],
        },
    ]
    body = {"lat": 27.95, "lon": -82.46, "timezone": "America/New_York", "timezone_offset": offset,
            "current": current, "hourly": hourly, "daily": daily, "alerts": alerts}
    write("openweathermap/onecall-tampa-metric.json", dump(body))
    # One Call bodies before 2020 had no `timezone_offset`: the same body without it.
    del body["timezone_offset"]
    write("openweathermap/onecall-2020-no-offset.json", dump(body))
    write("openweathermap/error-401-onecall.json",
          '{"cod":401, "message": "Please note that using One Call 3.0 requires a separate subscription to the One Call by Call plan. Learn more here https://openweathermap.org/price. If you have a valid subscription to the One Call by Call plan, but still receive this error, then please see https://openweathermap.org/faq#error401 for more info."}')


def check():
    for folder in ("metno", "pirateweather"):
        for name in sorted(os.listdir(os.path.join(HERE, folder))):
            if name.endswith(".json"):
                with open(os.path.join(HERE, folder, name), encoding="utf-8") as fh:
                    json.load(fh)
    with open(os.path.join(HERE, "openweathermap/onecall-tampa-metric.json"), encoding="utf-8") as fh:
        body = json.load(fh)
        assert len(body["hourly"]) == 48 and len(body["daily"]) == 8
    with open(os.path.join(HERE, "metno/oslo-compact.json"), encoding="utf-8") as fh:
        series = json.load(fh)["properties"]["timeseries"]
        assert all("next_1_hours" in s["data"] for s in series[:60])
        assert "next_1_hours" not in series[-1]["data"]
    print("service fixtures OK")


if __name__ == "__main__":
    build_metno()
    build_pirate_all()
    build_onecall()
    check()
