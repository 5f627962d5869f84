#!/usr/bin/env python3
"""Builds the US National Weather Service (api.weather.gov) fixtures in nws/.

Constructed, not recorded: nothing at api.weather.gov is reachable from where they were made.
The shapes follow the API's documentation (https://www.weather.gov/documentation/services-web-api
and the OpenAPI description at https://api.weather.gov/openapi.json) as summarised in issue 21;
the values are made up but consistent. Tampa, FL (27.9506, -82.4572), Thursday 2026-11-26,
from 14:00 EST. Deterministic, stdlib only:

    python3 Fixtures/weather/generate_nws.py
"""
import datetime as dt
import json
import math
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nws")
EST = dt.timezone(dt.timedelta(hours=-5))
UTC = dt.timezone.utc
API = "https://api.weather.gov"
GRID = API + "/gridpoints/TBW/71,98"
START = dt.datetime(2026, 11, 26, 14, 0, tzinfo=EST)
CONTEXT = ["https://geojson.org/geojson-ld/geojson-context.jsonld",
           {"@version": "1.1", "wx": "https://api.weather.gov/ontology#", "@vocab": "https://api.weather.gov/ontology#"}]


def write(name, obj):
    os.makedirs(HERE, exist_ok=True)
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as fh:
        fh.write(json.dumps(obj, indent=4, ensure_ascii=False) + "\n")


def q(unit, value, qc=None):
    out = {"unitCode": "wmoUnit:" + unit, "value": value}
    if qc:
        out["qualityControl"] = qc
    return out


def iso(t):
    return t.isoformat()


def temperature_f(t):
    """A diurnal curve: 64 °F at 6:00, 80 °F at 15:00; the Saturday front 6 °F cooler."""
    hours = t.hour + t.minute / 60
    base = 72 - (6 if t.date() >= dt.date(2026, 11, 28) else 0)
    return round(base + 8 * math.sin((hours - 9) / 24 * 2 * math.pi))


def sky(t, day):
    """(shortForecast, icon code, chance): rain on Friday 27 Nov afternoon, storms that evening."""
    if t.date() == dt.date(2026, 11, 27) and 12 <= t.hour < 18:
        return "Showers And Thunderstorms Likely", "tsra", 60
    if t.date() == dt.date(2026, 11, 27) and 18 <= t.hour < 22:
        return "Chance Rain Showers", "rain_showers", 40
    if t.hour % 7 == 0:
        return ("Partly Sunny" if day else "Partly Cloudy"), "sct", 10
    return ("Sunny" if day else "Clear"), ("skc" if day else "few"), 2


def icon(day, code, chance):
    suffix = f",{chance}" if chance >= 20 else ""
    return f"{API}/icons/land/{'day' if day else 'night'}/{code}{suffix}?size=small"


def points():
    return {
        "@context": CONTEXT, "id": API + "/points/27.9506,-82.4572", "type": "Feature",
        "geometry": {"type": "Point", "coordinates": [-82.4572, 27.9506]},
        "properties": {
            "@id": API + "/points/27.9506,-82.4572", "@type": "wx:Point", "cwa": "TBW",
            "forecastOffice": API + "/offices/TBW", "gridId": "TBW", "gridX": 71, "gridY": 98,
            "forecast": GRID + "/forecast", "forecastHourly": GRID + "/forecast/hourly",
            "forecastGridData": GRID, "observationStations": GRID + "/stations",
            "relativeLocation": {
                "type": "Feature", "geometry": {"type": "Point", "coordinates": [-82.458444, 27.947423]},
                "properties": {"city": "Tampa", "state": "FL", "distance": q("m", 412.8), "bearing": q("degree_(angle)", 346)}},
            "forecastZone": API + "/zones/forecast/FLZ251", "county": API + "/zones/county/FLC057",
            "fireWeatherZone": API + "/zones/fire/FLZ251", "timeZone": "America/New_York", "radarStation": "KTBW"}}


def hourly():
    periods = []
    for n in range(48):  # the service sends 156; 48 are enough for the hourly view and today
        t = START + dt.timedelta(hours=n)
        day = 7 <= t.hour < 18
        words, code, chance = sky(t, day)
        wind = 5 + (n * 7) % 9
        periods.append({
            "number": n + 1, "name": "", "startTime": iso(t), "endTime": iso(t + dt.timedelta(hours=1)),
            "isDaytime": day, "temperature": temperature_f(t), "temperatureUnit": "F", "temperatureTrend": "",
            "probabilityOfPrecipitation": q("percent", chance), "dewpoint": q("degC", 15.6),
            "relativeHumidity": q("percent", 55 + (n * 5) % 35),
            "windSpeed": f"{wind} mph", "windDirection": ["NE", "ENE", "E", "SE", "S", "SW", "W", "NW", "N"][n % 9],
            "icon": icon(day, code, chance), "shortForecast": words, "detailedForecast": ""})
    return {"@context": CONTEXT, "type": "Feature", "geometry": grid_polygon(),
            "properties": {"units": "us", "forecastGenerator": "HourlyForecastGenerator",
                           "generatedAt": "2026-11-26T19:02:11+00:00", "updateTime": "2026-11-26T18:48:35+00:00",
                           "validTimes": "2026-11-26T13:00:00+00:00/P7DT12H", "elevation": q("m", 6.096),
                           "periods": periods}}


def grid_polygon():
    return {"type": "Polygon", "coordinates": [[[-82.4676, 27.9587], [-82.4628, 27.9375], [-82.4388, 27.9417],
                                                 [-82.4436, 27.9629], [-82.4676, 27.9587]]]}


def twelve_hour():
    names = ["This Afternoon", "Tonight", "Friday", "Friday Night", "Saturday", "Saturday Night", "Sunday",
             "Sunday Night", "Monday", "Monday Night", "Tuesday", "Tuesday Night", "Wednesday", "Wednesday Night"]
    periods = []
    t = START
    for n, name in enumerate(names):
        day = n % 2 == 0
        end = (t.replace(hour=18) if day else (t + dt.timedelta(days=1)).replace(hour=6))
        probe = t + (end - t) / 2
        words, code, chance = sky(probe.replace(hour=14) if day else probe, day)
        if name == "Friday":
            words, code, chance = "Showers And Thunderstorms Likely", "tsra", 60
        temps = [temperature_f(t + dt.timedelta(hours=h)) for h in range(int((end - t).total_seconds() // 3600))]
        periods.append({
            "number": n + 1, "name": name, "startTime": iso(t), "endTime": iso(end), "isDaytime": day,
            "temperature": max(temps) if day else min(temps), "temperatureUnit": "F", "temperatureTrend": "",
            "probabilityOfPrecipitation": q("percent", chance if chance >= 10 else None),
            "windSpeed": "5 to 10 mph" if day else "5 mph", "windDirection": "NE",
            "icon": icon(day, code, chance), "shortForecast": words,
            "detailedForecast": f"{words}, with a {'high' if day else 'low'} near {max(temps) if day else min(temps)}."})
        t = end
    return {"@context": CONTEXT, "type": "Feature", "geometry": grid_polygon(),
            "properties": {"units": "us", "forecastGenerator": "BaselineForecastGenerator",
                           "generatedAt": "2026-11-26T19:02:11+00:00", "updateTime": "2026-11-26T18:48:35+00:00",
                           "validTimes": "2026-11-26T13:00:00+00:00/P7DT12H", "elevation": q("m", 6.096),
                           "periods": periods}}


def station(ident, name, lon, lat):
    return {"id": API + "/stations/" + ident, "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [lon, lat]},
            "properties": {"@id": API + "/stations/" + ident, "@type": "wx:ObservationStation",
                           "elevation": q("m", 5.7912), "stationIdentifier": ident, "name": name,
                           "timeZone": "America/New_York", "forecast": API + "/zones/forecast/FLZ251",
                           "county": API + "/zones/county/FLC057", "fireWeatherZone": API + "/zones/fire/FLZ251"}}


def stations():
    features = [station("KTPA", "Tampa International Airport", -82.53306, 27.96194),
                station("KVDF", "Tampa Executive Airport", -82.34528, 28.01389),
                station("KPIE", "St. Petersburg-Clearwater International Airport", -82.68778, 27.91028)]
    return {"@context": CONTEXT, "type": "FeatureCollection", "features": features,
            "observationStations": [f["id"] for f in features], "pagination": {"next": GRID + "/stations?cursor=x"}}


def observation():
    when = "2026-11-26T18:53:00+00:00"
    return {"@context": CONTEXT, "id": API + "/stations/KTPA/observations/" + when, "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [-82.53, 27.96]},
            "properties": {
                "@id": API + "/stations/KTPA/observations/" + when, "@type": "wx:ObservationStation",
                "elevation": q("m", 6), "station": API + "/stations/KTPA", "stationId": "KTPA",
                "stationName": "Tampa International Airport", "timestamp": when,
                "rawMessage": "KTPA 261853Z 04008KT 10SM SCT035 26/16 A3002 RMK AO2 SLP165 T02560156",
                "textDescription": "Partly Cloudy", "icon": API + "/icons/land/day/sct?size=medium",
                "presentWeather": [], "temperature": q("degC", 25.6, "V"), "dewpoint": q("degC", 15.6, "V"),
                "windDirection": q("degree_(angle)", 40, "V"), "windSpeed": q("km_h-1", 14.76, "V"),
                "windGust": q("km_h-1", None, "Z"), "barometricPressure": q("Pa", 101660, "V"),
                "seaLevelPressure": q("Pa", 101650, "V"), "visibility": q("m", 16090, "C"),
                "maxTemperatureLast24Hours": q("degC", None), "minTemperatureLast24Hours": q("degC", None),
                "precipitationLastHour": q("mm", None, "Z"), "precipitationLast3Hours": q("mm", None, "Z"),
                "precipitationLast6Hours": q("mm", None, "Z"), "relativeHumidity": q("percent", 53.7, "V"),
                "windChill": q("degC", None, "V"), "heatIndex": q("degC", 25.9, "V"),
                "cloudLayers": [{"base": q("m", 1070), "amount": "SCT"}]}}


def alert(ident, event, severity, urgency, onset, ends, expires, headline, description, instruction, status="Actual"):
    return {"id": API + "/alerts/" + ident, "type": "Feature", "geometry": None,
            "properties": {"@id": API + "/alerts/" + ident, "@type": "wx:Alert", "id": ident,
                           "areaDesc": "Hillsborough, FL; Pasco, FL", "geocode": {"SAME": ["012057", "012101"], "UGC": ["FLC057", "FLC101"]},
                           "affectedZones": [API + "/zones/county/FLC057", API + "/zones/county/FLC101"],
                           "references": [], "sent": onset, "effective": onset, "onset": onset, "expires": expires,
                           "ends": ends, "status": status, "messageType": "Alert", "category": "Met",
                           "severity": severity, "certainty": "Likely", "urgency": urgency, "event": event,
                           "sender": "w-nws.webmaster@noaa.gov", "senderName": "NWS Tampa Bay Ruskin FL",
                           "headline": headline, "description": description, "instruction": instruction,
                           "response": "Avoid", "parameters": {"AWIPSidentifier": ["FLWTBW"], "NWSheadline": [event.upper()]}}}


def alerts():
    flood = alert(
        "urn:oid:2.49.0.1.840.0.5e1f0c2d9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d.001.1", "Flood Warning", "Severe", "Immediate",
        "2026-11-26T09:12:00-05:00", "2026-11-28T14:00:00-05:00", "2026-11-27T09:15:00-05:00",
        "Flood Warning issued November 26 at 9:12AM EST until November 28 at 2:00PM EST by NWS Tampa Bay Ruskin FL",
        "...The Flood Warning continues for the following rivers in Florida...\n\nHillsborough River at Zephyrhills.\n\n"
        "* WHAT...Minor flooding is occurring and is forecast to continue.\n\n"
        "* WHERE...Hillsborough River at Zephyrhills.\n\n"
        "* WHEN...Until Saturday afternoon.\n\n"
        "* IMPACTS...At 9.0 feet, water affects low-lying roads near Hillsborough River State Park.",
        "Turn around, don't drown when encountering flooded roads. Most flood deaths occur in vehicles.")
    test = alert(
        "urn:oid:2.49.0.1.840.0.0000000000000000000000000000000000000000.001.1", "Test Message", "Unknown", "Unknown",
        "2026-11-26T10:00:00-05:00", None, "2026-11-26T23:00:00-05:00",
        "Test Message issued November 26 at 10:00AM EST by NWS Tampa Bay Ruskin FL",
        "This is a test message.", None, status="Test")
    return {"@context": CONTEXT, "type": "FeatureCollection", "features": [flood, test],
            "title": "Current watches, warnings, and advisories for 27.95 N, 82.46 W", "updated": "2026-11-26T14:12:00+00:00"}


def problem(kind, title, status, detail):
    return {"correlationId": "3a1f4c2b", "title": title, "type": API + "/problems/" + kind, "status": status,
            "detail": detail, "instance": API + "/requests/3a1f4c2b"}


def main():
    write("points-tampa.json", points())
    write("forecast-hourly-tampa.json", hourly())
    write("forecast-tampa.json", twelve_hour())
    write("stations-tampa.json", stations())
    write("observation-latest-ktpa.json", observation())
    write("alerts-tampa.json", alerts())
    # One complete recording, as the cache stores it and --weather-replay reads it: every answer
    # of one run and when they were had (issue 35 C18).
    write("tampa-recording.json", {"fetched_at": "2026-11-26T19:05:00Z", "points": points(),
                                   "forecast_hourly": hourly(), "forecast": twelve_hour(),
                                   "observation": observation(), "alerts": alerts()})
    write("alerts-none.json", {"@context": CONTEXT, "type": "FeatureCollection", "features": [],
                               "title": "Current watches, warnings, and advisories for 27.95 N, 82.46 W",
                               "updated": "2026-11-26T14:12:00+00:00"})
    write("problem-404-invalid-point.json", problem("InvalidPoint", "Data Unavailable For Requested Point", 404,
                                                     "Unable to provide data for requested point 51.5074,-0.1278"))
    write("problem-503-grid-expired.json", problem("ForecastGridExpired", "Forecast Grid Expired", 503,
                                                    "The requested forecast grid was issued 2026-11-19T08:04:33+00:00 and has expired."))
    write("problem-500-unexpected.json", problem("UnexpectedProblem", "Unexpected Problem", 500,
                                                  "An unexpected problem has occurred."))
    for name in os.listdir(HERE):
        with open(os.path.join(HERE, name), encoding="utf-8") as fh:
            json.load(fh)


if __name__ == "__main__":
    main()
