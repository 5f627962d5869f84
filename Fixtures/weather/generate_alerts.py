#!/usr/bin/env python3
"""Writes the official-warnings fixtures in Fixtures/weather/alerts/ (issue 34).

Constructed, not recorded: none of the services is reachable from where these were made.
Each body follows the service's documented format (see alerts/README.md for where each
field's shape comes from). Deterministic, stdlib only. Run from anywhere:

    python3 Fixtures/weather/generate_alerts.py
"""
import json
import os

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "alerts")


def write(name, value):
    with open(os.path.join(HERE, name), "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, indent=2)
        f.write("\n")


# MET Norway MetAlerts 2.0, current.json for a point near Bergen (60.39, 5.32).
def metalerts(lang):
    english = lang == "en"
    gale = {
        "type": "Feature",
        "geometry": {"type": "Polygon", "coordinates": [[[4.5, 60.0], [5.6, 60.0], [5.6, 60.8], [4.5, 60.8], [4.5, 60.0]]]},
        "properties": {
            "area": "Hordaland coast" if english else "Kyststrekningen Hordaland",
            "awarenessResponse": "Be aware" if english else "Følg med",
            "awarenessSeriousness": "Some danger" if english else "Utfordrende situasjon",
            "awareness_level": "2; yellow; Moderate",
            "awareness_type": "1; Wind",
            "certainty": "Likely",
            "consequences": "Difficult conditions at sea." if english else "Vanskelige forhold på sjøen.",
            "contact": "https://www.met.no/kontakt-oss",
            "county": [],
            "description": "Southwest gale force 8 expected." if english else "Sørvest stiv kuling 15 m/s ventes.",
            "event": "gale",
            "eventAwarenessName": "Gale" if english else "Kuling",
            "eventEndingTime": "2026-11-29T06:00:00+00:00",
            "geographicDomain": "marine",
            "id": "2.49.0.1.578.0.20261128080000.001",
            "instruction": "",
            "resources": [],
            "riskMatrixColor": "Yellow",
            "severity": "Moderate",
            "status": "Actual",
            "title": ("Gale, yellow level, Hordaland coast, 28 November 06:00 UTC to 29 November 06:00 UTC."
                      if english else "Kuling, gult nivå, Kyststrekningen Hordaland, 28 november 06:00 UTC til 29 november 06:00 UTC."),
            "triggerLevel": "15m/s",
            "type": "Alert",
            "web": "https://www.met.no/vaer-og-klima/ekstremvaervarsler-og-andre-farevarsler",
        },
        "when": {"interval": ["2026-11-28T06:00:00+00:00", "2026-11-29T06:00:00+00:00"]},
    }
    rain = json.loads(json.dumps(gale))
    p = rain["properties"]
    p.update({
        "area": "Bergen" if english else "Bergen", "awareness_level": "3; orange; Severe", "awareness_type": "10; Rain",
        "event": "rain", "eventAwarenessName": "Rain" if english else "Regn", "geographicDomain": "land",
        "id": "2.49.0.1.578.0.20261128080000.002", "severity": "Severe", "riskMatrixColor": "Orange",
        "consequences": "Flooding of roads." if english else "Oversvømmelse av veier.",
        "description": "Heavy rain, 80 mm in 24 hours." if english else "Mye regn, 80 mm på 24 timer.",
        "title": ("Rain, orange level, Bergen, 28 November 12:00 UTC to 29 November 00:00 UTC."
                  if english else "Regn, oransje nivå, Bergen, 28 november 12:00 UTC til 29 november 00:00 UTC."),
        "instruction": "Clear drains." if english else "Rens sluk.",
    })
    rain["when"] = {"interval": ["2026-11-28T12:00:00+00:00", "2026-11-29T00:00:00+00:00"]}
    cancelled = json.loads(json.dumps(gale))
    cancelled["properties"].update({"id": "2.49.0.1.578.0.20261127080000.009", "type": "Cancel",
                                    "eventAwarenessName": "Snow" if english else "Snø", "event": "snow"})
    return {"type": "FeatureCollection", "features": [gale, rain, cancelled],
            "lang": lang, "lastChange": "2026-11-28T08:00:00+00:00"}


def empty_collection():
    return {"type": "FeatureCollection", "features": []}


# DWD GeoServer WFS, dwd:Warnungen_Gemeinden, GeoJSON for a point in Munich (48.137, 11.575).
def dwd_feature(identifier, event, ec_ii, group, severity, onset, expires, headline, description, msgtype="Alert"):
    return {
        "type": "Feature",
        "id": "Warnungen_Gemeinden.%s" % identifier[-6:],
        "geometry": None,
        "geometry_name": "THE_GEOM",
        "properties": {
            "AREADESC": "Stadt München", "NAME": "Stadt München", "WARNCELLID": 809162000,
            "IDENTIFIER": identifier, "SENDER": "opendata@dwd.de", "SENT": "2026-11-28T05:00:00Z",
            "STATUS": "Actual", "MSGTYPE": msgtype, "SOURCE": None, "SCOPE": "Public", "CODE": None,
            "LANGUAGE": "de-DE", "CATEGORY": "Met", "EVENT": event, "RESPONSETYPE": "Prepare",
            "URGENCY": "Immediate", "SEVERITY": severity, "CERTAINTY": "Likely",
            "EC_PROFILE": "2.1.11", "EC_LICENSE": "© GeoBasis-DE / BKG 2024 (Daten verändert)",
            "EC_II": ec_ii, "EC_GROUP": group, "EC_AREA_COLOR": "255 153 0",
            "EFFECTIVE": "2026-11-28T05:00:00Z", "ONSET": onset, "EXPIRES": expires,
            "SENDERNAME": "DWD / Nationales Warnzentrum Offenbach", "HEADLINE": headline,
            "DESCRIPTION": description, "INSTRUCTION": "ACHTUNG! Hinweis auf mögliche Gefahren.",
            "WEB": "https://www.wettergefahren.de", "CONTACT": "Deutscher Wetterdienst",
            "PARAMETERNAME": "Böen;Windrichtung", "PARAMETERVALUE": "55-85 [km/h];West", "ALTITUDE": 0, "CEILING": 9842.5197,
        },
    }


def dwd_munich():
    gust = dwd_feature("2.49.0.0.276.0.DWD.PVW.1795834800000.a1", "STURMBÖEN", "52", "WIND", "Moderate",
                       "2026-11-28T06:00:00Z", "2026-11-28T20:00:00Z", "Amtliche WARNUNG vor STURMBÖEN",
                       "Es treten Sturmböen mit Geschwindigkeiten um 75 km/h aus westlicher Richtung auf.")
    # The same warning again, as the layer gives it for each part of a municipality.
    again = json.loads(json.dumps(gust))
    frost = dwd_feature("2.49.0.0.276.0.DWD.PVW.1795834800000.b2", "FROST", "22", "FROST", "Minor",
                        "2026-11-28T18:00:00Z", "2026-11-29T08:00:00Z", "Amtliche WARNUNG vor FROST",
                        "Es tritt leichter Frost um -3 °C auf.")
    cancel = dwd_feature("2.49.0.0.276.0.DWD.PVW.1795834800000.c3", "GLÄTTE", "84", "GLAZE", "Minor",
                         "2026-11-28T06:00:00Z", "2026-11-28T12:00:00Z", "Amtliche WARNUNG vor GLÄTTE",
                         "Aufgehoben.", msgtype="Cancel")
    return {"type": "FeatureCollection", "features": [gust, again, frost, cancel], "totalFeatures": 4,
            "numberMatched": 4, "numberReturned": 4, "timeStamp": "2026-11-28T11:50:00.000Z",
            "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::4326"}}}


def dwd_none():
    return {"type": "FeatureCollection", "features": [], "totalFeatures": 0, "numberMatched": 0,
            "numberReturned": 0, "timeStamp": "2026-11-28T11:50:00.000Z",
            "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:EPSG::4326"}}}


# MeteoAlarm, /api/v1/warnings/feeds-croatia: DHMZ's warnings, each in Croatian and English.
SENDER = "dhmz@cirus.dhz.hr"


def cap(identifier, sent, area, emma, level, kind, event_hr, event_en, onset, expires, msgtype="Alert",
        references=None, polygon=None):
    number, colour, severity = level
    kind_number, kind_name = kind

    def info(lang, event, headline, description):
        area_object = {"areaDesc": area, "geocode": [{"valueName": "EMMA_ID", "value": emma}]}
        if polygon:
            area_object["polygon"] = [polygon]
        return {
            "language": lang, "category": ["Met"], "event": event, "responseType": ["Monitor"],
            "urgency": "Future", "severity": severity, "certainty": "Likely",
            "effective": sent, "onset": onset, "expires": expires, "senderName": "DHMZ Državni hidrometeorološki zavod",
            "headline": headline, "description": description, "instruction": "",
            "web": "https://meteo.hr/upozorenja.php", "contact": "meteo.hr",
            "parameter": [{"valueName": "awareness_level", "value": "%d; %s; %s" % (number, colour, severity)},
                          {"valueName": "awareness_type", "value": "%d; %s" % (kind_number, kind_name)}],
            "area": [area_object],
        }

    alert = {
        "identifier": identifier, "sender": SENDER, "sent": sent, "status": "Actual", "msgType": msgtype,
        "scope": "Public",
        "info": [
            info("hr-HR", event_hr, "%s za %s" % (event_hr, area), "Opis upozorenja: %s." % event_hr.lower()),
            info("en-GB", event_en, "%s for %s" % (event_en, area), "Warning: %s." % event_en.lower()),
        ],
    }
    if references:
        alert["references"] = references
    return {"alert": alert, "uuid": identifier.split(".")[-1]}


YELLOW, ORANGE, RED = (2, "yellow", "Moderate"), (3, "orange", "Severe"), (4, "red", "Extreme")
WIND, RAIN, THUNDER, COASTAL = (1, "Wind"), (10, "Rain"), (3, "Thunderstorm"), (7, "Coastal event")
DAY = ("2026-11-28T06:00:00+01:00", "2026-11-29T06:00:00+01:00")


def meteoalarm_croatia():
    sent = "2026-11-28T05:00:00+01:00"
    warnings = [
        # Local at Gospić (44.5461, 15.3747): its region by name.
        cap("2.49.0.0.191.0.HR.261128050000.101", sent, "Gospić region", "HR005", ORANGE, WIND,
            "Narančasto upozorenje za vjetar", "Orange wind warning", *DAY),
        # Another region's: never local at Gospić.
        cap("2.49.0.0.191.0.HR.261128050000.102", sent, "Split region", "HR008", YELLOW, RAIN,
            "Žuto upozorenje za kišu", "Yellow rain warning", *DAY),
        # Expired (the feed keeps it): not shown.
        cap("2.49.0.0.191.0.HR.261128050000.103", sent, "Gospić region", "HR005", YELLOW, THUNDER,
            "Žuto upozorenje za grmljavinu", "Yellow thunderstorm warning",
            "2026-11-28T00:00:00+01:00", "2026-11-28T10:00:00+01:00"),
        # Zagreb: yellow, then updated to orange: only the update stands.
        cap("2.49.0.0.191.0.HR.261128040000.104", "2026-11-28T04:00:00+01:00", "Zagreb region", "HR001", YELLOW, WIND,
            "Žuto upozorenje za vjetar", "Yellow wind warning", *DAY),
        cap("2.49.0.0.191.0.HR.261128050000.105", sent, "Zagreb region", "HR001", ORANGE, WIND,
            "Narančasto upozorenje za vjetar", "Orange wind warning", *DAY, msgtype="Update",
            references="%s,2.49.0.0.191.0.HR.261128040000.104,2026-11-28T04:00:00+01:00" % SENDER),
        # Cancelled: neither it nor what it cancels is shown.
        cap("2.49.0.0.191.0.HR.261128030000.106", "2026-11-28T03:00:00+01:00", "Gospić region", "HR005", RED, RAIN,
            "Crveno upozorenje za kišu", "Red rain warning", *DAY),
        cap("2.49.0.0.191.0.HR.261128050000.107", sent, "Gospić region", "HR005", RED, RAIN,
            "Crveno upozorenje za kišu", "Red rain warning", *DAY, msgtype="Cancel",
            references="%s,2.49.0.0.191.0.HR.261128030000.106,2026-11-28T03:00:00+01:00" % SENDER),
        # Red, elsewhere: "up to red".
        cap("2.49.0.0.191.0.HR.261128050000.108", sent, "Dubrovnik region", "HR010", RED, WIND,
            "Crveno upozorenje za vjetar", "Red wind warning", *DAY),
        # A polygon over the Velebit channel, which holds the point at sea off Karlobag
        # (44.53, 15.05) and not Gospić: matched by the polygon alone.
        cap("2.49.0.0.191.0.HR.261128050000.109", sent, "Velebit channel", "HR805", YELLOW, COASTAL,
            "Žuto upozorenje za obalne pojave", "Yellow coastal event warning", *DAY,
            polygon="44.40,14.90 44.70,14.90 44.70,15.15 44.40,15.15 44.40,14.90"),
    ]
    return {"warnings": warnings}


def main():
    os.makedirs(HERE, exist_ok=True)
    write("metalerts-bergen-en.json", metalerts("en"))
    write("metalerts-bergen-no.json", metalerts("no"))
    write("metalerts-none.json", empty_collection())
    write("dwd-munich.json", dwd_munich())
    write("dwd-none.json", dwd_none())
    write("meteoalarm-croatia.json", meteoalarm_croatia())
    write("meteoalarm-empty.json", {"warnings": []})


if __name__ == "__main__":
    main()
