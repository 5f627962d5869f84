import HereWeatherPlaces

/// Whether a MeteoAlarm warning's areas hold a point.
///
/// MeteoAlarm's geocode table (the areas' shapes) is not shipped: its terms for
/// redistribution could not be confirmed (docs/weather.md). So:
/// - an area with a polygon holds the point when the point is inside it;
/// - an area without one holds it when its name (`areaDesc`, diacritics and case folded, words
///   such as "region", "county" or "Kreis" set aside) is the name of the point's first-level
///   region or of a place within `townRadius` of the point, in the offline place data
///   ("Gospic region" is Gospić's).
/// Anything else is not local. A name that matches a town across a regional border within a
/// few kilometres can still match: the names are all the feed gives.
enum MeteoAlarmMatch {
    /// How far from the point a town whose name an area bears may lie.
    static let townRadius = 30_000.0

    /// The point and the folded names around it.
    struct Point {
        var coordinate: Coordinate
        var names: Set<String>

        init(_ coordinate: Coordinate) {
            self.coordinate = coordinate
            var names = Set<String>()
            let places = PlaceIndex.places(latitude: coordinate.latitude, longitude: coordinate.longitude, within: townRadius)
            for place in places { names.insert(NameFold.core(place.name)) }
            if let region = PlaceIndex.nearest(latitude: coordinate.latitude, longitude: coordinate.longitude)?.region {
                names.insert(NameFold.core(region))
            }
            names.remove("")
            self.names = names
        }

        init(coordinate: Coordinate, names: Set<String>) {
            self.coordinate = coordinate
            self.names = names
        }
    }

    static func matches(_ areas: [CAPMessage.Area], _ point: Point) -> Bool {
        areas.contains { matches($0, point) }
    }

    static func matches(_ area: CAPMessage.Area, _ point: Point) -> Bool {
        if !area.polygons.isEmpty {
            return area.polygons.contains { CAPDecoder.contains($0, point.coordinate) }
        }
        let name = NameFold.core(area.description)
        return !name.isEmpty && point.names.contains(name)
    }
}

/// Names folded for comparison: lower case, Latin diacritics removed ("Gospić" → "gospic"),
/// punctuation as spaces, and the words that say what kind of area it is dropped.
enum NameFold {
    static let kindWords: Set<String> = [
        "region", "county", "province", "district", "area", "municipality", "city", "of", "the",
        "kreis", "landkreis", "stadt", "bezirk", "zupanija", "okrug", "opcina", "grad", "regija",
        "departement", "provincia", "comarca", "comune", "gemeente", "provincie", "kommune", "fylke",
        "lan", "maakunta", "megye", "voivodeship", "wojewodztwo", "powiat", "kraj", "okres", "judetul",
    ]

    static func core(_ text: String) -> String {
        fold(text).split(separator: " ").filter { !kindWords.contains(String($0)) }.joined(separator: " ")
    }

    /// Lower case, without diacritics, letters and digits only (others as spaces).
    static func fold(_ text: String) -> String {
        var folded = ""
        for character in text.lowercased() {
            if let plain = plain[character] {
                folded += plain
            } else if character.isLetter || character.isNumber {
                folded.append(character)
            } else {
                folded += " "
            }
        }
        return folded.split(separator: " ").joined(separator: " ")
    }

    static let plain: [Character: String] = {
        let groups: [(String, String)] = [
            ("áàâäãåāăą", "a"), ("çćčĉċ", "c"), ("ďđ", "d"), ("éèêëēėęěĕ", "e"), ("ğĝġģ", "g"), ("ĥħ", "h"),
            ("íìîïīįıĭ", "i"), ("ĵ", "j"), ("ķ", "k"), ("łĺľļŀ", "l"), ("ñńňņ", "n"), ("óòôöõøōőŏ", "o"),
            ("řŕŗ", "r"), ("śšşșŝ", "s"), ("ťţțŧ", "t"), ("úùûüūůűųŭ", "u"), ("ýÿŷ", "y"), ("źžż", "z"),
            ("ß", "ss"), ("æ", "ae"), ("œ", "oe"), ("þ", "th"), ("ð", "d"),
        ]
        var table: [Character: String] = [:]
        for (letters, plain) in groups { for letter in letters { table[letter] = plain } }
        return table
    }()
}
