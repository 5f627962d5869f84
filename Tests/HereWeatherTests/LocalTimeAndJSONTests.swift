import Foundation
import Testing
@testable import HereWeatherCore

@Suite struct LocalTimeAndJSONTests {
    // MARK: LocalTime formatting

    /// 2026-11-22 19:15:00 UTC: the Open-Meteo Tampa body's current time.
    static let tampaNow = Date(timeIntervalSince1970: 1_795_374_900)

    @Test func formatsWithNegativeOffset() {
        #expect(LocalTime.iso8601(Self.tampaNow, utcOffset: -18000) == "2026-11-22T14:15:00-05:00")
        let local = LocalTime(Self.tampaNow, utcOffset: -18000)
        #expect(local.dateString == "2026-11-22")
        #expect(local.clockString == "14:15")
        #expect(local == LocalTime(year: 2026, month: 11, day: 22, hour: 14, minute: 15, second: 0))
    }

    @Test func formatsWithPositiveOffsetAcrossMidnight() {
        // Melbourne, +11:00: 13:45 UTC on the 22nd is 00:45 on the 23rd.
        let date = Date(timeIntervalSince1970: 1_795_355_100)
        #expect(LocalTime.iso8601(date, utcOffset: 39600) == "2026-11-23T00:45:00+11:00")
        #expect(LocalTime(date, utcOffset: 39600).dateString == "2026-11-23")
        #expect(LocalTime(date, utcOffset: 0).dateString == "2026-11-22")
    }

    @Test func formatsWithZeroOffset() {
        #expect(LocalTime.iso8601(Self.tampaNow, utcOffset: 0) == "2026-11-22T19:15:00+00:00")
        #expect(LocalTime.iso8601(Date(timeIntervalSince1970: 0), utcOffset: 0) == "1970-01-01T00:00:00+00:00")
    }

    @Test func formatsHalfAndQuarterHourOffsets() {
        #expect(LocalTime.iso8601(Self.tampaNow, utcOffset: 19800) == "2026-11-23T00:45:00+05:30")   // India
        #expect(LocalTime.iso8601(Self.tampaNow, utcOffset: -12600) == "2026-11-22T15:45:00-03:30")  // Newfoundland
        #expect(LocalTime.iso8601(Self.tampaNow, utcOffset: 20700) == "2026-11-23T01:00:00+05:45")   // Nepal
        #expect(LocalTime.iso8601(Self.tampaNow, utcOffset: -34200) == "2026-11-22T09:45:00-09:30")  // Marquesas
    }

    @Test func formatsSecondsAndDropsFractions() {
        let date = Date(timeIntervalSince1970: 1_795_374_878.75)  // OWM Tampa dt + 0.75 s
        #expect(LocalTime.iso8601(date, utcOffset: -18000) == "2026-11-22T14:14:38-05:00")
    }

    @Test func datesBefore1970() {
        #expect(LocalTime.iso8601(Date(timeIntervalSince1970: -1), utcOffset: 0) == "1969-12-31T23:59:59+00:00")
        #expect(LocalTime.iso8601(Date(timeIntervalSince1970: -0.5), utcOffset: 0) == "1969-12-31T23:59:59+00:00")
        #expect(LocalTime.iso8601(Date(timeIntervalSince1970: 0), utcOffset: -18000) == "1969-12-31T19:00:00-05:00")
        // Apollo 11 landing: 1969-07-20 20:17:40 UTC.
        #expect(LocalTime.iso8601(Date(timeIntervalSince1970: -14_182_940), utcOffset: 0) == "1969-07-20T20:17:40+00:00")
        #expect(LocalTime(year: 1969, month: 7, day: 20, hour: 20, minute: 17, second: 40).date(utcOffset: 0)
                == Date(timeIntervalSince1970: -14_182_940))
        // 1900 was not a leap year.
        let lastOfFebruary1900 = Date(timeIntervalSince1970: -2_203_977_600)
        #expect(LocalTime(lastOfFebruary1900, utcOffset: 0).dateString == "1900-02-28")
        #expect(LocalTime(lastOfFebruary1900.addingTimeInterval(86400), utcOffset: 0).dateString == "1900-03-01")
    }

    @Test func leapDays() throws {
        let leapDay = Date(timeIntervalSince1970: 1_835_395_200)  // 2028-02-29 00:00 UTC
        #expect(LocalTime(year: 2028, month: 2, day: 29).date(utcOffset: 0) == leapDay)
        #expect(LocalTime(leapDay, utcOffset: 0).dateString == "2028-02-29")
        #expect(LocalTime(leapDay.addingTimeInterval(86400), utcOffset: 0).dateString == "2028-03-01")
        #expect(LocalTime(leapDay.addingTimeInterval(-1), utcOffset: 0).dateString == "2028-02-28")
        #expect(LocalTime(year: 2000, month: 2, day: 29).date(utcOffset: 0) == Date(timeIntervalSince1970: 951_782_400))
        let parsed = try #require(LocalTime(iso8601: "2028-02-29"))
        #expect(parsed.weekday == 2)  // Tuesday
    }

    @Test(arguments: [
        ("1970-01-01", 4), ("1969-12-31", 3), ("2000-01-01", 6), ("2026-11-22", 0),
        ("2026-11-28", 6), ("2028-02-29", 2), ("1900-03-01", 4), ("1969-07-20", 0),
    ])
    func weekdayOfKnownDates(_ date: String, _ weekday: Int) throws {
        let local = try #require(LocalTime(iso8601: date))
        #expect(local.weekday == weekday)
    }

    @Test func dayLabels() {
        #expect(Formatting.dayLabel("2026-11-22") == "Sun 22 Nov")
        #expect(Formatting.dayLabel("2028-02-29") == "Tue 29 Feb")
        #expect(Formatting.dayLabel("2026-12-05") == "Sat  5 Dec")
        #expect(Formatting.dayLabel("not a date") == "not a date")
    }

    // MARK: LocalTime parsing

    @Test func parsesISO8601Forms() throws {
        #expect(LocalTime(iso8601: "2026-11-22T14:15") == LocalTime(year: 2026, month: 11, day: 22, hour: 14, minute: 15))
        #expect(LocalTime(iso8601: "2026-11-22T14:15:30")
                == LocalTime(year: 2026, month: 11, day: 22, hour: 14, minute: 15, second: 30))
        #expect(LocalTime(iso8601: "2026-11-22") == LocalTime(year: 2026, month: 11, day: 22))
        let local = try #require(LocalTime(iso8601: "2026-11-22T14:15"))
        #expect(local.date(utcOffset: -18000) == Self.tampaNow)
    }

    @Test(arguments: [
        "2026-13-01", "abc", "2026-11-22T25:00", "", "2026-00-10", "2026-11-32", "2026-11-00",
        "2026-11-22T14", "2026-11-22T14:60", "2026-11-22T14:15:61", "2026-11-22T14:15:00:00",
        "2026-11", "2026-11-22T14:15Z", "2026-11-22T14:15:30+05:00", "twenty-six",
    ])
    func rejectsGarbage(_ text: String) {
        #expect(LocalTime(iso8601: text) == nil)
    }

    @Test(arguments: ["2026-02-30", "2026-04-31", "2027-02-29"])
    func rejectsDaysBeyondTheEndOfTheMonth(_ text: String) {
        // These name no calendar day; accepting them silently shifts into the next month.
        #expect(LocalTime(iso8601: text) == nil)
    }

    // MARK: JSONValue

    static let sample = #"""
    {"cod":"200","n":200.0,"f":200.5,"t":true,"fa":false,"zero":0,"one":1,"two":2,"nul":null,
     "arr":[1,"x"],"obj":{"k":"v"},"spaced":" 12 ","nan":"nan","inf":"inf","word":"abc"}
    """#

    @Test func numberAccessors() throws {
        let value = try JSONValue.parse(Data(Self.sample.utf8))
        #expect(value["cod"]?.int == 200)        // number as a string
        #expect(value["cod"]?.double == 200)
        #expect(value["cod"]?.string == "200")
        #expect(value["n"]?.int == 200)          // 200.0
        #expect(value["n"]?.string == nil)       // numbers are not strings
        #expect(value["f"]?.int == nil)
        #expect(value["f"]?.double == 200.5)
        #expect(value["spaced"]?.int == 12)
        #expect(value["nan"]?.double == nil)
        #expect(value["inf"]?.double == nil)
        #expect(value["word"]?.double == nil)
        #expect(value["t"]?.double == nil)
        #expect(value["nul"]?.double == nil)
        #expect(value["one"]?.double == 1)       // 1 stays a number, not a boolean
        #expect(value["zero"]?.int == 0)
    }

    @Test func boolAccessor() throws {
        let value = try JSONValue.parse(Data(Self.sample.utf8))
        #expect(value["t"]?.bool == true)
        #expect(value["fa"]?.bool == false)
        #expect(value["zero"]?.bool == false)
        #expect(value["one"]?.bool == true)
        #expect(value["two"]?.bool == nil)
        #expect(value["cod"]?.bool == nil)
        #expect(value["nul"]?.bool == nil)
    }

    @Test func structureAccessors() throws {
        let value = try JSONValue.parse(Data(Self.sample.utf8))
        #expect(value.isObject)
        #expect(value["missing"] == nil)
        #expect(value["missing"]?["deeper"] == nil)
        #expect(value["nul"] == .null)
        #expect(value["arr"]?[0]?.int == 1)
        #expect(value["arr"]?[1]?.string == "x")
        #expect(value["arr"]?[2] == nil)
        #expect(value["arr"]?[-1] == nil)
        #expect(value["arr"]?.array?.count == 2)
        #expect(value["arr"]?["k"] == nil)       // not an object
        #expect(value["obj"]?[0] == nil)         // not an array
        #expect(value["obj"]?["k"]?.string == "v")
        #expect(value["obj"]?.isObject == true)
        #expect(value["arr"]?.isObject == false)
        #expect(value["obj"]?.array == nil)
    }

    @Test func dateAccessor() throws {
        let value = try JSONValue.parse(Data(#"{"unix":1795374878,"local":"2026-11-22T14:15","bad":"soon"}"#.utf8))
        #expect(value["unix"]?.date(utcOffset: 3600) == Date(timeIntervalSince1970: 1_795_374_878))
        #expect(value["local"]?.date(utcOffset: -18000) == Self.tampaNow)
        #expect(value["bad"]?.date(utcOffset: 0) == nil)
    }

    @Test(arguments: ["", "<!DOCTYPE html><html></html>", #"{"a":"#, "{'a': 1}", "[1,2", "nope"])
    func parseOfNonJSONThrows(_ text: String) {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(Data(text.utf8)) }
    }

    @Test func parseOfFixturesThatAreNotJSON() {
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(Fixtures.data("weather/misc/truncated.json")) }
        #expect(throws: JSONValue.ParseError.self) { try JSONValue.parse(Fixtures.data("weather/misc/captive-portal.html")) }
    }

    @Test func parseOfTopLevelScalars() throws {
        #expect(try JSONValue.parse(Data("3.5".utf8)) == .number(3.5))
        #expect(try JSONValue.parse(Data("null".utf8)) == .null)
        #expect(try JSONValue.parse(Data(#""hi""#.utf8)) == .string("hi"))
        #expect(try JSONValue.parse(Data("[true, 0]".utf8)) == .array([.bool(true), .number(0)]))
    }

    // MARK: JSONOutput

    @Test func keyOrderIsKept() {
        let object = JSONOutput.object([("zebra", .number(1)), ("apple", .number(2)), ("mango", .number(3))])
        #expect(object.serialized() == #"{"zebra":1,"apple":2,"mango":3}"#)
        let nested = JSONOutput.object([("b", .object([("y", .null), ("x", .bool(true))])), ("a", .array([]))])
        #expect(nested.serialized() == #"{"b":{"y":null,"x":true},"a":[]}"#)
    }

    @Test func nulls() {
        #expect(JSONOutput.null.serialized() == "null")
        #expect(JSONOutput.number(nil as Double?).serialized() == "null")
        #expect(JSONOutput.number(Double.nan as Double?).serialized() == "null")
        #expect(JSONOutput.number(Double.infinity as Double?).serialized() == "null")
        #expect(JSONOutput.string(nil as String?).serialized() == "null")
        #expect(JSONOutput.bool(nil as Bool?).serialized() == "null")
        #expect(JSONOutput.array([.null, .bool(false), .string("a")]).serialized() == #"[null,false,"a"]"#)
    }

    @Test func stringEscaping() throws {
        let text = "say \"hi\"\nnext\ttab\\ \r\u{1}\u{1F}\u{7F} °C ☀️"
        let serialized = JSONOutput.string(text).serialized()
        // DEL is escaped too: valid JSON, and required of the TOML strings that share this writer.
        #expect(serialized == #""say \"hi\"\nnext\ttab\\ \r\u0001\u001f\u007f °C ☀️""#)
        // And it is JSON that reads back as the same text.
        let decoded = try JSONDecoder().decode([String].self, from: Data("[\(serialized)]".utf8))
        #expect(decoded == [text])
        // Keys are escaped too.
        #expect(JSONOutput.object([("a\"b", .null)]).serialized() == #"{"a\"b":null}"#)
        // A string with nothing to escape is written whole; one character to escape anywhere
        // in it is still found.
        #expect(JSONOutput.string("Tampa, °C ☀️").serialized() == "\"Tampa, °C ☀️\"")
        for (character, escaped) in [("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1}", #"\u0001"#), ("\u{7F}", #"\u007f"#)] {
            #expect(JSONOutput.string("°" + character).serialized() == "\"°" + escaped + "\"")
        }
    }

    @Test func integersHaveNoFraction() {
        #expect(JSONOutput.number(3.0).serialized() == "3")
        #expect(JSONOutput.number(-7.0).serialized() == "-7")
        #expect(JSONOutput.number(0.0).serialized() == "0")
        #expect(JSONOutput.number(-0.0).serialized() == "0")
        #expect(JSONOutput.number(1_000_000.0).serialized() == "1000000")
        #expect(JSONOutput.number(1795374900.0).serialized() == "1795374900")
        #expect(JSONOutput.number(-18000.0).serialized() == "-18000")
    }

    @Test func fractionsAreRoundedToSixDecimals() {
        #expect(JSONOutput.number(1.234_567_89).serialized() == "1.234568")
        #expect(JSONOutput.number(0.1 + 0.2).serialized() == "0.3")
        #expect(JSONOutput.number(26.8).serialized() == "26.8")
        #expect(JSONOutput.number(-82.4572).serialized() == "-82.4572")
        #expect(JSONOutput.number(2.000_000_4).serialized() == "2")
        #expect(JSONOutput.number(-0.000_000_4).serialized() == "0")
        #expect(JSONOutput.number(4.87 / 0.44704).serialized() == "10.89388")  // 10.8938797...
    }

    // MARK: Formatting.compass

    @Test(arguments: [
        (0.0, "N"), (22.5, "NNE"), (359.0, "N"), (-90.0, "W"), (45.0, "NE"), (90.0, "E"), (180.0, "S"),
        (270.0, "W"), (11.0, "N"), (12.0, "NNE"), (348.0, "NNW"), (349.0, "N"), (360.0, "N"), (810.0, "E"),
        (-22.5, "NNW"), (30.0, "NNE"), (212.0, "SSW"),
    ])
    func compass(_ degrees: Double, _ name: String) {
        #expect(Formatting.compass(degrees) == name)
    }

    @Test func compassOfNothing() {
        #expect(Formatting.compass(nil) == nil)
        #expect(Formatting.compass(.nan) == nil)
        #expect(Formatting.compass(.infinity) == nil)
    }

    // MARK: Times from outside, bounded where they enter

    /// Year 300000000000 in a body or an HTTP date trapped (integer overflow) turning into a
    /// Date; offsets of 1e300 and Int.min trapped too. Each is refused or clamped now.
    @Test func timesAndOffsetsOutsideTheRangeAreRefused() {
        #expect(LocalTime(iso8601: "300000000000-11-22T20:00") == nil)
        #expect(LocalTime(iso8601: "10000-01-01") == nil)
        #expect(LocalTime(iso8601: "0-01-01") == nil)
        #expect(LocalTime(iso8601: "9999-12-31T23:59")?.date(utcOffset: 0) == Date(timeIntervalSince1970: 253_402_300_740))
        #expect(LocalTime(iso8601: "0001-01-01")?.date(utcOffset: 0) == Date(timeIntervalSince1970: LocalTime.range.lowerBound))
        #expect(HTTPFreshness.parseDate("Sun, 06 Nov 300000000000 08:49:37 GMT") == nil)
        #expect(HTTPFreshness.lifetime(of: ["expires": "Sun, 06 Nov 300000000000 08:49:37 GMT",
                                            "date": "Sat, 05 Nov 300000000000 08:49:37 GMT"], now: Date()) == nil)
        #expect(JSONValue.number(1e300).unixTime == nil)
        #expect(JSONValue.number(-1e300).date(utcOffset: 0) == nil)
        #expect(JSONValue.number(1_795_374_878).unixTime == Date(timeIntervalSince1970: 1_795_374_878))
        #expect(LocalTime.utcOffset(seconds: 1e300) == nil)
        #expect(LocalTime.utcOffset(seconds: 64_801) == nil)
        #expect(LocalTime.utcOffset(seconds: .nan) == nil)
        #expect(LocalTime.utcOffset(seconds: -18_000) == -18_000)
        #expect(LocalTime.nominalOffset(longitude: 1e300) == nil)
        #expect(LocalTime.nominalOffset(longitude: -82.46) == -18_000)
    }

    @Test func arithmeticOnAnyValueDoesNotTrap() {
        let huge = LocalTime(year: 300_000_000_000, month: 11, day: 22)
        #expect(huge.date(utcOffset: .max) == LocalTime(year: 9999, month: 11, day: 22).date(utcOffset: 64_800))
        #expect(LocalTime(year: .min, month: .max, day: .min, hour: .max, minute: .min, second: .max).date(utcOffset: .min)
                .timeIntervalSince1970.isFinite)
        #expect(LocalTime.iso8601(Date(timeIntervalSince1970: 0), utcOffset: .min) == "1969-12-31T06:00:00-18:00")
        #expect(LocalTime.iso8601(Date(timeIntervalSince1970: 0), utcOffset: .max) == "1970-01-01T18:00:00+18:00")
        #expect(LocalTime(Date(timeIntervalSince1970: .infinity), utcOffset: .max).year == 1970)
        #expect(LocalTime(year: .max, month: 1, day: 1).weekday >= 0)
    }
}
