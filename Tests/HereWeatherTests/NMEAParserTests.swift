import Foundation
import Testing
@testable import HereWeatherCore

/// `NMEAParser` on real receivers' lines. Sources:
/// [NOAA] NOAA PSL, ATOMIC 2020 cruise, R/V Ronald H. Brown, Hemisphere VS100 raw log
///        https://downloads.psl.noaa.gov/psd3/cruises/ATOMIC_2020/RHB/flux/Raw_Share/20014/gps02001420_raw.txt
/// [UHOH] https://mpt-internal.uni-hohenheim.de/doku.php?id=excersize%3Am_r%3Anmea_strings (the classic GGA example)
/// [CYPRESS] https://cypress.bc.ca/documents/Report_Messages/CTM200/msg_80_GPGGA.html
/// [LEA4H] gpsd's test/daemon/uBlox-lea-4h.log (via the Tizen gpsd mirror on review.tizen.org)
/// [TERSUS] Tersus GNSS RTK board manual, https://manualshive.com/ru/manual/tersus/gnss-rtk-board-series/1090363?page=29
/// [UBXLIB] u-blox ubxlib GNSS test helper: F9P output quoted in a comment
/// [GOGPS] a Go GNSS library's NMEA test vectors (QZSS, SinoGNSS receivers)
/// [LOGIQX] https://logiqx.github.io/gps-wizard/nmea/messages/gns.html
/// [GPSD] gpsd's test/daemon/foretrex-201.log, http://trove.baserock.org/cgit/delta/gpsd.git/plain/test/daemon/foretrex-201.log.chk
struct NMEAParserTests {
    func parse(_ line: String) -> NMEASentence? { NMEAParser.parse(line) }

    func minutes(_ degrees: Double, _ minutes: Double) -> Double { degrees + minutes / 60 }

    // MARK: - each kind

    @Test func ggaFromAMarineReceiver() throws {
        // [NOAA]
        guard case .gga(let gga) = parse("$GPGGA,195959.00,1541.31258893,N,05130.51204125,W,2,06,1.5,9.2,M,-37.6,M,4.0,0138*7E") else {
            Issue.record("not decoded"); return
        }
        #expect(gga.talker == NMEATalker("GP"))
        #expect(gga.time == NMEATimeOfDay(hour: 19, minute: 59, second: 59))
        let coordinate = try #require(gga.coordinate)
        #expect(abs(coordinate.latitude - minutes(15, 41.31258893)) < 1e-12)
        #expect(abs(coordinate.longitude - -minutes(51, 30.51204125)) < 1e-12)
        #expect(gga.quality == 2)
        #expect(gga.satellitesUsed == 6)
        #expect(gga.hdop == 1.5)
        #expect(gga.altitude == 9.2)
    }

    @Test func ggaClassicAndNegativeAltitude() throws {
        // [UHOH]: 12:35:19, 48°07.038'N 11°31.000'E, quality 1, 8 satellites, HDOP 0.9, 545.4 m
        guard case .gga(let munich) = parse("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47") else {
            Issue.record("not decoded"); return
        }
        #expect(munich.time == NMEATimeOfDay(hour: 12, minute: 35, second: 19))
        #expect(munich.coordinate == Coordinate(latitude: minutes(48, 7.038), longitude: minutes(11, 31)))
        #expect(munich.quality == 1 && munich.satellitesUsed == 8 && munich.hdop == 0.9 && munich.altitude == 545.4)
        // [CYPRESS]: signed, zero-padded altitude and HDOP
        guard case .gga(let cypress) = parse("$GPGGA,000512.00,4910.9588,N,12254.6560,W,1,8,01.1,-00015,M,,M,,0000*5C") else {
            Issue.record("not decoded"); return
        }
        #expect(cypress.altitude == -15)
        #expect(cypress.hdop == 1.1)
        #expect(cypress.coordinate?.longitude == -minutes(122, 54.6560))
    }

    @Test func rmcValidAndVoid() throws {
        // [NOAA]
        guard case .rmc(let rmc) = parse("$GPRMC,195959.00,A,1541.31258893,N,05130.51204125,W,0.26,147.44,140120,16.9,W,D*0B") else {
            Issue.record("not decoded"); return
        }
        #expect(rmc.status == UInt8(ascii: "A"))
        #expect(rmc.speedKnots == 0.26 && rmc.courseDegrees == 147.44)
        #expect(rmc.date == NMEADate(year: 2020, month: 1, day: 14))
        #expect(rmc.mode == UInt8(ascii: "D"))
        // [LEA4H]: a void RMC with a date and no position
        guard case .rmc(let void) = parse("$GPRMC,030807.00,V,,,,,,,100806,,,N*7E") else { Issue.record("not decoded"); return }
        #expect(void.status == UInt8(ascii: "V") && void.mode == UInt8(ascii: "N"))
        #expect(void.coordinate == nil && void.speedKnots == nil)
        #expect(void.date == NMEADate(year: 2006, month: 8, day: 10))
        // [GOGPS]: NMEA 4.10 RMC with the navigational status field
        guard case .rmc(let qzss) = parse("$GNRMC,011451.00,A,1343.91062,N,10038.68405,E,0.000,,240725,,,D,V*1B") else {
            Issue.record("not decoded"); return
        }
        #expect(qzss.talker == .combined && qzss.courseDegrees == nil && qzss.mode == UInt8(ascii: "D"))
        #expect(qzss.date == NMEADate(year: 2025, month: 7, day: 24))
    }

    @Test func gllWithFractionalTime() {
        // [LEA4H]: a void GLL, time 03:07:43.57
        guard case .gll(let void) = parse("$GPGLL,,,,,030743.57,V,N*4B") else { Issue.record("not decoded"); return }
        #expect(void.time == NMEATimeOfDay(hour: 3, minute: 7, second: 43, millisecond: 570))
        #expect(void.status == UInt8(ascii: "V") && void.coordinate == nil)
        // [UBXLIB]
        guard case .gll(let gll) = parse("$GNGLL,4710.5737891,N,00825.4665003,E,143858.00,A,D*78") else { Issue.record("not decoded"); return }
        #expect(gll.coordinate == Coordinate(latitude: minutes(47, 10.5737891), longitude: minutes(8, 25.4665003)))
        #expect(gll.status == UInt8(ascii: "A") && gll.mode == UInt8(ascii: "D"))
    }

    @Test func gnsModesPerConstellation() {
        // An empty u-blox GNS as quoted by a Kotlin NMEA library's examples.
        guard case .gns(let empty) = parse("$GPGNS,,,,,,N,,,,,,,V*79") else { Issue.record("not decoded"); return }
        #expect(empty.modes == [UInt8(ascii: "N")] && empty.coordinate == nil && empty.time == nil)
        // [LOGIQX]'s example has 10 fields where GNS has 12 (13 in NMEA 4.10); gpsd needs 12 too.
        #expect(parse("$GPGNS,112257.00,3844.24011,N,00908.43828,W,AN,03,10.5,,*57") == nil)
        #expect(NMEAParser.decode(Array("$GPGNS,112257.00,3844.24011,N,00908.43828,W,AN,03,10.5,,*57".utf8)) == .malformed)
    }

    @Test func gsaOfEachConstellation() {
        // [NOAA]
        guard case .gsa(let gps) = parse("$GPGSA,M,3,14,16,26,27,29,31,,,,,,,2.7,1.5,2.3*34") else { Issue.record("not decoded"); return }
        #expect(gps.mode == 3 && gps.usedPRNs == [14, 16, 26, 27, 29, 31])
        #expect(gps.pdop == 2.7 && gps.hdop == 1.5 && gps.vdop == 2.3 && gps.systemID == nil)
        // [TERSUS]
        guard case .gsa(let glonass) = parse("$GLGSA,A,3,6,9,16,15,5,17,4,,,,,,0.9,0.8,0.6*22") else { Issue.record("not decoded"); return }
        #expect(glonass.talker == NMEATalker("GL") && glonass.usedPRNs == [6, 9, 16, 15, 5, 17, 4])
        guard case .gsa(let beidou) = parse("$BDGSA,A,3,161,162,163,164,166,167,169,170,,,,,0.9,0.8,0.6*29") else { Issue.record("not decoded"); return }
        #expect(beidou.talker == NMEATalker("BD") && beidou.usedPRNs.count == 8)
        // [GOGPS]: NMEA 4.10 system id 5 (QZSS)
        guard case .gsa(let qzss) = parse("$GNGSA,M,3,04,02,,,,,,,,,,,99.99,99.99,99.99,5*3F") else { Issue.record("not decoded"); return }
        #expect(qzss.systemID == 5 && qzss.usedPRNs == [4, 2] && qzss.hdop == 99.99)
    }

    @Test func gstStatistics() {
        // [NOAA]
        guard case .gst(let gst) = parse("$GPGST,195959.00,0.30,0.36,0.26,283.74,0.26,0.36,0.68*68") else { Issue.record("not decoded"); return }
        #expect(gst.time == NMEATimeOfDay(hour: 19, minute: 59, second: 59))
        #expect(gst.rms == 0.30 && gst.semiMajor == 0.36 && gst.semiMinor == 0.26 && gst.orientation == 283.74)
        #expect(gst.latitudeSigma == 0.26 && gst.longitudeSigma == 0.36 && gst.altitudeSigma == 0.68)
    }

    @Test(arguments: [
        ("$GPGSV,3,1,12,03,09,280,,04,11,322,,08,11,209,35,14,68,160,42*70", "GP", 3, 1, 12), // [NOAA]
        ("$GLGSV,3,3,09,17,22,160,49*50", "GL", 3, 3, 9),                                     // [TERSUS]
        ("$BDGSV,3,3,09,170,50,305,47*67", "BD", 3, 3, 9),                                    // [TERSUS]
        ("$GBGSV,2,2,07,46,22,183,43,56,,,38,57,,,44,1*44", "GB", 2, 2, 7),                   // [UBXLIB], signal id
        ("$GAGSV,1,1,01,08,04,085,,0*44", "GA", 1, 1, 1),                                     // [UBXLIB]
        ("$GQGSV,1,1,00,0*64", "GQ", 1, 1, 0),                                                // [UBXLIB]
        ("$GIGSV,1,1,02,63,25,226,44,70,40,297,44*69", "GI", 1, 1, 2),                        // [GOGPS] NavIC
        ("$GPGSV,1,1,00*79", "GP", 1, 1, 0),                                                  // [LEA4H]
    ])
    func gsvCountsOfEveryTalker(_ line: String, _ talker: String, _ count: Int, _ number: Int, _ inView: Int) {
        guard case .gsv(let gsv) = parse(line) else { Issue.record("not decoded: \(line)"); return }
        #expect(gsv.talker == NMEATalker(talker))
        #expect(gsv.messageCount == count && gsv.messageNumber == number && gsv.satellitesInView == inView)
    }

    @Test func zdaDate() {
        // [NOAA]
        guard case .zda(let zda) = parse("$GPZDA,195959.00,14,01,2020,00,00*6A") else { Issue.record("not decoded"); return }
        #expect(zda.time == NMEATimeOfDay(hour: 19, minute: 59, second: 59))
        #expect(zda.date == NMEADate(year: 2020, month: 1, day: 14))
    }

    @Test func qzTalkerWithoutChecksum() {
        // A gnss-sdr bridge test's "$QZGSV,1,1,01,01,45,120,39*00": its placeholder checksum is
        // wrong (the sentence XORs to 0x5D), so it is dropped; without a checksum it is accepted.
        #expect(parse("$QZGSV,1,1,01,01,45,120,39*00") == nil)
        guard case .gsv(let gsv) = parse("$QZGSV,1,1,01,01,45,120,39") else { Issue.record("not decoded"); return }
        #expect(gsv.talker == NMEATalker("QZ") && gsv.satellitesInView == 1)
    }

    // MARK: - checksums, framing, errors

    @Test func checksumsGoodBadAbsentLowercase() {
        let body = "$GPGST,195959.00,0.30,0.36,0.26,283.74,0.26,0.36,0.68"  // [NOAA], checksum 68
        #expect(parse(body + "*68") != nil)
        #expect(parse(body + "*69") == nil)
        #expect(NMEAParser.decode(Array((body + "*69").utf8)) == .badChecksum)
        #expect(parse(body) != nil)
        let gga = "$GPGGA,195959.00,1541.31258893,N,05130.51204125,W,2,06,1.5,9.2,M,-37.6,M,4.0,0138"  // [NOAA], 7E
        #expect(parse(gga + "*7e") != nil)
        #expect(parse(gga + "*7f") == nil)
        #expect(parse(gga + "*7") == nil)       // truncated checksum
        #expect(parse(gga + "*7E\r\n") != nil)  // a line ending left on
    }

    @Test func leadingJunkAndOtherFraming() {
        let gst = "$GPGST,195959.00,0.30,0.36,0.26,283.74,0.26,0.36,0.68*68"
        #expect(parse("\u{1}\u{7F}junk" + gst) != nil)
        #expect(parse("$GPGGA,1959" + gst) != nil)  // a sentence cut short, then a whole one: the last `$` wins
        #expect(parse(String(gst.dropFirst())) == nil)  // no `$`
        #expect(parse("$PGRME,,M,,M,,M*00") == nil)    // [GPSD] proprietary Garmin
        #expect(parse("!AIVDM,1,1,,A,13aEOK?P00PD2wVMdLDRhgvL289?,0*26") == nil)
        #expect(parse("$GPVTG,147.44,T,164.31,M,0.26,N,0.49,K,D*2C") == nil)  // [NOAA], not decoded here
        #expect(parse("") == nil)
        #expect(parse("$") == nil)
        let long = "$GPGSV,1,1,00" + String(repeating: " ", count: 1100)
        #expect(NMEAParser.decode(Array(long.utf8)) == .ignored)
    }

    @Test func emptyFieldsAreNil() {
        // [LEA4H]: a cold-start GGA
        guard case .gga(let gga) = parse("$GPGGA,,,,,,0,00,99.99,,,,,,*48") else { Issue.record("not decoded"); return }
        #expect(gga.time == nil && gga.coordinate == nil && gga.altitude == nil)
        #expect(gga.quality == 0 && gga.satellitesUsed == 0 && gga.hdop == 99.99)
    }

    @Test func hemispheresSouthAndWestAreNegative() {
        // [UHOH]'s GGA moved to the south-west; checksum recomputed (0x47 ^ N ^ S ^ E ^ W).
        guard case .gga(let gga) = parse("$GPGGA,123519,4807.038,S,01131.000,W,1,08,0.9,545.4,M,46.9,M,,*48") else {
            Issue.record("not decoded"); return
        }
        #expect(gga.coordinate == Coordinate(latitude: -minutes(48, 7.038), longitude: -minutes(11, 31)))
    }

    @Test(arguments: [
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,,",     // a field too many
        "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,",       // a field too few
        "$GPGSA,M,3,14,16,26,27,29,31,,,,,,2.7,1.5,2.3",                       // 16 fields
        "$GPGST,195959.00,0.30,0.36,0.26,283.74,0.26,0.36",                    // 7 fields
        "$GPGSV,3,1,12,03,09,280,,04,11,322",                                  // a satellite cut short
        "$GPGGA,123519,4807.0x8,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",      // not a number
        "$GPGGA,123519,4860.000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",      // 60 minutes
        "$GPGGA,123519,9107.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",      // latitude 91
        "$GPGGA,123519,4807.038,N,18031.000,E,1,08,0.9,545.4,M,46.9,M,,",      // longitude 180.5
        "$GPGGA,123519,4807.038,X,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",      // no such hemisphere
        "$GPGGA,126519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,",      // minute 65
        "$GPGGA,123519,4807.038,N,01131.000,E,1,8.5,0.9,545.4,M,46.9,M,,",     // fractional count
        "$GPRMC,195959.00,A,1541.3125,N,05130.5120,W,0.26,147.44,141320,16.9,W,D", // month 13
        "$GPGSV,0,1,12",                                                       // zero messages
    ])
    func malformedSentencesAreSkipped(_ line: String) {
        #expect(NMEAParser.decode(Array(line.utf8)) == .malformed)
    }

    @Test func decimalsMatchDoubleParsing() {
        // Field values as receivers print them, random but seeded; the parser must agree with
        // Swift's own (correctly rounded) `Double(String)`.
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<2000 {
            let whole = Int.random(in: 0...99_999, using: &generator)
            let decimals = Int.random(in: 0...9, using: &generator)
            var text = String(whole)
            if decimals > 0 {
                text += "." + (0..<decimals).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            }
            // The sign on the orientation: error estimates are never negative (issue 25 item 11).
            let line = "$GPGST,120000.00,\(text),0,0,-\(text),0,0,0"
            guard case .gst(let gst) = parse(line) else { Issue.record("not decoded: \(line)"); continue }
            #expect(gst.rms == Double(text), "\(text)")
            #expect(gst.orientation == -(Double(text) ?? 0), "\(text)")
        }
    }
}

/// A small deterministic random number generator (SplitMix64) for reproducible tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
