import Foundation
import Testing
@testable import HereWeatherCore

/// `NMEAEpochAssembler` (through `NMEAStream`) on short logs. Lines without a checksum are
/// accepted as they are by gpsd; where a line comes from a source it is cited.
struct NMEAEpochAssemblerTests {
    static let today = NMEADate(year: 2026, month: 11, day: 22)

    /// The fixes of `lines`, every epoch with a time reported: what epochs say, apart from
    /// when gpsd reports them (`reportedFixes`, and the tests at the end).
    func fixes(_ lines: [String], date: NMEADate = today) -> [NMEAFix] {
        let bytes = Array(lines.joined(separator: "\r\n").utf8)
        var stream = NMEAStream(reader: NMEALineReader(bytes: bytes), date: date, cycle: .reportingEveryTimedEpoch)
        var result: [NMEAFix] = []
        while let fix = stream.nextFix() { result.append(fix) }
        return result
    }

    /// The fixes of `lines` as a log gives them: an epoch is valid only when gpsd reports it.
    func reportedFixes(_ lines: [String], date: NMEADate = today) -> [NMEAFix] {
        let bytes = Array(lines.joined(separator: "\r\n").utf8)
        var stream = NMEAStream(reader: NMEALineReader(bytes: bytes), date: date)
        var result: [NMEAFix] = []
        while let fix = stream.nextFix() { result.append(fix) }
        return result
    }

    func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Double) -> Date {
        let whole = LocalTime(year: year, month: month, day: day, hour: hour, minute: minute, second: 0).date(utcOffset: 0)
        return whole.addingTimeInterval(second)
    }

    /// Two epochs of the NOAA R/V Ronald H. Brown log (Hemisphere VS100), see NMEAParserTests [NOAA].
    static let noaa = [
        "$GPHDT,74.20,T*34",
        "$GPGGA,195959.00,1541.31258893,N,05130.51204125,W,2,06,1.5,9.2,M,-37.6,M,4.0,0138*7E",
        "$GPGLL,1541.31258893,N,05130.51204125,W,195959.00,A,D*7B",
        "$GPVTG,147.44,T,164.31,M,0.26,N,0.49,K,D*2C",
        "$GPZDA,195959.00,14,01,2020,00,00*6A",
        "$GPRMC,195959.00,A,1541.31258893,N,05130.51204125,W,0.26,147.44,140120,16.9,W,D*0B",
        "$GPGSA,M,3,14,16,26,27,29,31,,,,,,,2.7,1.5,2.3*34",
        "$GPGSV,3,1,12,03,09,280,,04,11,322,,08,11,209,35,14,68,160,42*70",
        "$GPGSV,3,2,12,16,47,299,37,21,17,098,,22,12,259,,26,48,343,35*7A",
        "$GPGSV,3,3,12,27,42,200,47,29,11,037,38,31,47,038,44,32,37,155,42*74",
        "$GPGST,195959.00,0.30,0.36,0.26,283.74,0.26,0.36,0.68*68",
        "$GPHDT,75.24,T*31",
        "$GPGGA,200000.00,1541.31248595,N,05130.51199976,W,2,06,1.5,8.8,M,-37.6,M,5.0,0138*7D",
        "$GPRMC,200000.00,A,1541.31248595,N,05130.51199976,W,0.59,154.37,140120,16.9,W,D*0C",
    ]

    @Test func oneFixPerEpoch() throws {
        let result = fixes(Self.noaa)
        try #require(result.count == 2)
        let first = result[0]
        #expect(first.time == utc(2020, 1, 14, 19, 59, 59))
        #expect(first.isValid && first.mode == 3 && first.altitude == 9.2 && first.hdop == 1.5)
        #expect(abs((first.coordinate?.latitude ?? 0) - (15 + 41.31258893 / 60)) < 1e-12)
        #expect(first.satellitesUsed == 6 && first.satellitesInView == 12)
        // GST: latitude and longitude sigmas 0.26 m and 0.36 m.
        #expect(abs((first.horizontalAccuracy ?? 0) - (0.26 * 0.26 + 0.36 * 0.36).squareRoot()) < 1e-12)
        #expect(!first.accuracyIsEstimate && !first.simulated)
        let second = result[1]
        #expect(second.time == utc(2020, 1, 14, 20, 0, 0))
        #expect(abs((second.coordinate?.longitude ?? 0) + (51 + 30.51199976 / 60)) < 1e-12)
        // No GST in the second epoch: HDOP 1.5 times the metres per HDOP, an estimate.
        #expect(second.horizontalAccuracy == 1.5 * NMEAFix.metresPerHDOP && second.accuracyIsEstimate)
        // No GSV in the second epoch: the satellites in view carry over.
        #expect(second.satellitesInView == 12)
    }

    @Test func voidEpochKeepsItsStaleCoordinatesButIsNotValid() throws {
        // A receiver repeating its last position while it has no fix (quality 0, status V).
        let result = fixes([
            "$GPGGA,140500.00,2832.30016,N,08122.75404,W,0,00,99.99,27.4,M,-30.2,M,,",
            "$GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99",
            "$GPRMC,140500.00,V,2832.30016,N,08122.75404,W,0.000,,221126,,,N",
        ])
        let fix = try #require(result.first)
        #expect(!fix.isValid && fix.mode == 1)
        #expect(fix.coordinate == Coordinate(latitude: 28 + 32.30016 / 60, longitude: -(81 + 22.75404 / 60)))
    }

    @Test func anyVoidSentenceInTheEpochMakesItInvalid() throws {
        let result = fixes([
            "$GPGGA,140500.00,2832.30016,N,08122.75404,W,1,05,1.2,27.4,M,-30.2,M,,",
            "$GPRMC,140500.00,A,2832.30016,N,08122.75404,W,0.000,,221126,,,N",  // mode N: not valid
        ])
        #expect(result.count == 1 && result.first?.isValid == false)
    }

    @Test func modeFromGSAOrInferred() {
        let gsa = fixes([
            "$GNGGA,103000.00,5231.20048,N,01324.29724,E,1,12,0.60,36.4,M,39.6,M,,",
            "$GNGSA,A,2,07,09,13,,,,,,,,,,1.05,0.60,0.86,1",
            "$GNGSA,A,3,72,73,80,81,,,,,,,,,1.05,0.60,0.86,2",
        ])
        #expect(gsa.first?.mode == 3 && gsa.first?.hdop == 0.60)
        let withAltitude = fixes(["$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"])
        #expect(withAltitude.first?.mode == 3 && withAltitude.first?.satellitesUsed == 8)
        let rmcOnly = fixes(["$GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W"])
        #expect(rmcOnly.first?.mode == 2 && rmcOnly.first?.isValid == true)
        #expect(rmcOnly.first?.time == utc(1994, 3, 23, 12, 35, 19))
        #expect(rmcOnly.first?.horizontalAccuracy == nil)
    }

    @Test func gnsModes() {
        #expect(fixes(["$GNGNS,103000.00,5231.20048,N,01324.29724,E,NNNNN,00,,,,,,V"]).first?.isValid == false)
        let valid = fixes(["$GNGNS,103000.00,5231.20048,N,01324.29724,E,AAAAN,21,0.60,36.4,39.6,,,V"])
        #expect(valid.first?.isValid == true && valid.first?.satellitesUsed == 21 && valid.first?.altitude == 36.4)
    }

    @Test func dateRollsOverAtMidnightBeforeTheNextRMC() throws {
        let result = fixes([
            "$GPRMC,235959.00,A,2757.08520,N,08227.54060,W,27.019,0.40,211126,,,A",
            "$GPGGA,235959.00,2757.08520,N,08227.54060,W,1,08,1.02,12.0,M,-28.5,M,,",
            "$GPGGA,000000.00,2757.08520,N,08227.54060,W,1,08,1.02,12.0,M,-28.5,M,,",
            "$GPGGA,000001.00,2757.08520,N,08227.54060,W,1,08,1.02,12.0,M,-28.5,M,,",
            "$GPRMC,000001.00,A,2757.08520,N,08227.54060,W,27.019,0.40,221126,,,A",
        ], date: NMEADate(year: 2020, month: 1, day: 1))
        try #require(result.count == 3)
        #expect(result[0].time == utc(2026, 11, 21, 23, 59, 59))
        #expect(result[1].time == utc(2026, 11, 22, 0, 0, 0))
        #expect(result[2].time == utc(2026, 11, 22, 0, 0, 1))
    }

    @Test func givenDateIsUsedUntilTheLogHasOne() {
        let result = fixes(["$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"],
                           date: NMEADate(year: 2026, month: 2, day: 28))
        #expect(result.first?.time == utc(2026, 2, 28, 12, 35, 19))
    }

    @Test func tenHertzEpochs() throws {
        var lines: [String] = []
        for tenth in 0..<10 {
            lines.append("$GNRMC,084500.\(tenth)0,A,5222.21296,N,00453.71008,E,9.719,200.00,221126,,,A")
            lines.append("$GNGGA,084500.\(tenth)0,5222.21296,N,00453.71008,E,1,12,0.76,1.8,M,43.3,M,,")
        }
        let result = fixes(lines)
        try #require(result.count == 10)
        for (tenth, fix) in result.enumerated() {
            #expect(abs(fix.time.timeIntervalSince(utc(2026, 11, 22, 8, 45, 0)) - Double(tenth) / 10) < 1e-6)
            #expect(fix.isValid)
        }
    }

    @Test func satellitesInViewAcrossConstellations() throws {
        let result = fixes([
            "$GNGGA,103000.00,5231.20048,N,01324.29724,E,1,12,0.60,36.4,M,39.6,M,,",
            "$GPGSV,3,1,09,01,12,025,33,03,23,177,34,08,27,283,36,10,37,085,38",
            "$GLGSV,2,1,07,65,40,200,42,66,28,155,38,67,18,070,33,72,14,318,41",
            "$GAGSV,1,1,02,05,15,150,22,09,25,250,23",
            "$GNGGA,103001.00,5231.20048,N,01324.29724,E,1,12,0.60,36.4,M,39.6,M,,",
            "$GLGSV,1,1,03,65,40,200,42,66,28,155,38,67,18,070,33",
            "$GNGGA,103002.00,5231.20048,N,01324.29724,E,1,12,0.60,36.4,M,39.6,M,,",
            "$GNGSV,4,1,14,01,12,025,33,03,23,177,34,08,27,283,36,10,37,085,38",
        ])
        try #require(result.count == 3)
        #expect(result[0].satellitesInView == 9 + 7 + 2)
        #expect(result[1].satellitesInView == 9 + 3 + 2)  // only GLONASS was renewed
        #expect(result[2].satellitesInView == 14)         // a GN GSV counts everything
    }

    @Test func simulatedFixes() {
        #expect(fixes(["$GPRMC,170000.00,A,2756.86200,N,08227.51600,W,15.551,270.00,221126,,,S"]).first?.simulated == true)
        #expect(fixes(["$GPGGA,170000.00,2756.86200,N,08227.51600,W,8,08,1.02,5.0,M,-28.6,M,,"]).first?.simulated == true)
        #expect(fixes(["$GPGGA,170000.00,2756.86200,N,08227.51600,W,1,08,1.02,5.0,M,-28.6,M,,"]).first?.simulated == false)
    }

    @Test func finishEmitsTheLastEpochOnce() {
        var assembler = NMEAEpochAssembler(date: Self.today, cycle: .reportingEveryTimedEpoch)
        guard let sentence = NMEAParser.parse("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47") else {
            Issue.record("not decoded"); return
        }
        #expect(assembler.consume(sentence) == nil)
        #expect(assembler.finish()?.isValid == true)
        #expect(assembler.finish() == nil)
    }

    // When an epoch is a fix, as gpsd 3.22 decides it (driver_nmea0183.c); the logs that show
    // each case against gpsdecode are in Fixtures/nmea (see NMEAGpsdecodeComparisonTests).

    @Test func aGGAWithFewerThanThreeSatellitesUsedIsNoFix() {
        let epoch = { (satellites: String) in [
            "$GPRMC,180500.00,A,2757.60600,N,08226.89800,W,17.495,45.00,221126,,,E",
            "$GPGGA,180500.00,2757.60600,N,08226.89800,W,1,\(satellites),99.99,20.0,M,-28.5,M,,",
        ] }
        #expect(fixes(epoch("00")).first?.isValid == false)
        #expect(fixes(epoch("02")).first?.isValid == false)
        #expect(fixes(epoch("03")).first?.isValid == true)
        #expect(fixes(epoch("")).first?.isValid == true)
    }

    @Test func aSimulatorsVoidRMCDefersToItsGGA() {
        let rmc = "$GPRMC,173001.00,V,2757.03600,N,08227.43200,W,11.663,180.00,221126,,,S"
        let simulated = fixes(["$GPGGA,173001.00,2757.03600,N,08227.43200,W,8,08,1.02,12.0,M,-28.5,M,,", rmc])
        #expect(simulated.first?.isValid == true && simulated.first?.simulated == true && simulated.first?.mode == 3)
        // Alone it says nothing either way: no fix.
        #expect(fixes([rmc]).first?.isValid == false)
        // A void RMC of any other mode still voids the epoch.
        let void = fixes(["$GPGGA,173001.00,2757.03600,N,08227.43200,W,1,08,1.02,12.0,M,-28.5,M,,",
                          "$GPRMC,173001.00,V,2757.03600,N,08227.43200,W,11.663,180.00,221126,,,N"])
        #expect(void.first?.isValid == false)
    }

    /// The first epoch is judged as gpsd the daemon reports it, after each position or mode
    /// sentence (Fixtures/gpsd-json/mid-epoch.json: a 2D fix at 19:00:00 from the RMC alone).
    @Test func aLogThatBeginsMidEpochHasWhatItsFirstEpochSays() {
        let epoch = { (second: Int) in [
            "$GPGGA,19000\(second).00,2756.25000,N,08227.64800,W,1,07,1.20,6.0,M,-28.6,M,,",
            "$GPRMC,19000\(second).00,A,2756.25000,N,08227.64800,W,2.721,300.00,221126,,,A",
        ] }
        // Opens with RMC while the epochs open with GGA: the first epoch's GGA was not captured.
        let midEpoch = reportedFixes(Array(epoch(0).dropFirst()) + epoch(1) + epoch(2))
        #expect(midEpoch.map(\.isValid) == [true, true, true])
        #expect(midEpoch.map(\.mode) == [2, 3, 3], "the RMC alone is a 2D fix, as gpsd reports it")
        #expect(reportedFixes(epoch(0) + epoch(1)).map(\.isValid) == [true, true])
        #expect(reportedFixes(Array(epoch(0).dropFirst())).map(\.isValid) == [true])
    }

    // When gpsd reports an epoch (`NMEACycleDetector`): the sentence that ended the previous
    // epoch's run of timed sentences ends the cycle from then on.

    @Test func tenHertzWithFractionalSecondsIsReportedEveryEpoch() throws {
        var lines: [String] = []
        for tenth in 0..<5 {
            lines.append("$GNRMC,084500.\(tenth)0,A,5222.21296,N,00453.71008,E,9.719,200.00,221126,,,A")
            lines.append("$GNGGA,084500.\(tenth)0,5222.21296,N,00453.71008,E,1,12,0.76,1.8,M,43.3,M,,")
            lines.append("$GNGST,084500.\(tenth)0,9.0,,,,2.1,1.9,3.6")
        }
        // The first epoch before gpsd knows the cycle, the rest at their GGA.
        #expect(reportedFixes(lines).map(\.isValid) == [true, true, true, true, true])
    }

    @Test func aReceiverSendingRMCBeforeGGAIsReportedAtTheGGAOfEachSecond() {
        let epoch = { (second: Int, rmcFirst: Bool) -> [String] in
            let rmc = "$GPRMC,20100\(second).00,A,2746.26000,N,08238.28000,W,11.663,15.00,221126,,,A"
            let gga = "$GPGGA,20100\(second).00,2746.26000,N,08238.28000,W,1,07,1.20,3.0,M,-29.8,M,,"
            return (rmcFirst ? [rmc, gga] : [gga, rmc]) + ["$GPGSA,A,3,06,09,11,17,19,22,28,,,,,,2.10,1.20,1.72"]
        }
        let log = epoch(0, true) + epoch(1, true) + epoch(2, false) + epoch(3, true)
        let result = reportedFixes(log)
        #expect(result.map(\.isValid) == [true, true, true, true])
        #expect(result.map { Int($0.time.timeIntervalSince1970) % 60 } == [0, 1, 2, 3], "epochs by time of day")
    }

    @Test func anEpochWithoutItsCycleEnderIsNotReported() {
        let lines = [
            "$GPRMC,201000.00,A,2746.26000,N,08238.28000,W,11.663,15.00,221126,,,A",
            "$GPGGA,201000.00,2746.26000,N,08238.28000,W,1,07,1.20,3.0,M,-29.8,M,,",
            "$GPRMC,201001.00,A,2746.26000,N,08238.28000,W,11.663,15.00,221126,,,A",
            "$GPGGA,201001.00,2746.26000,N,08238.28000,W,1,07,1.20,3.0,M,-29.8,M,,",
            // 20:10:02 lost its GGA, which ends gpsd's cycle: gpsd never reports it.
            "$GPRMC,201002.00,A,2746.26000,N,08238.28000,W,11.663,15.00,221126,,,A",
            "$GPRMC,201003.00,A,2746.26000,N,08238.28000,W,11.663,15.00,221126,,,A",
            "$GPGGA,201003.00,2746.26000,N,08238.28000,W,1,07,1.20,3.0,M,-29.8,M,,",
        ]
        #expect(reportedFixes(lines).map(\.isValid) == [true, true, false, true])
    }

    @Test func aDepthSentenceContinuesTheCycleSoTheFirstEpochIsReported() {
        let epoch = { (second: Int) in [
            "$GPRMC,21300\(second).00,A,4457.60000,N,09315.60000,W,4.860,170.00,221126,,,A",
            "$SDDBT,19.7,f,6.0,M,3.3,F",
            "$GPGGA,21300\(second).00,4457.60000,N,09315.60000,W,1,07,1.20,210.0,M,-29.0,M,,",
        ] }
        #expect(reportedFixes(epoch(0) + epoch(1) + epoch(2)).map(\.isValid) == [true, true, true])
        #expect(NMEAParser.decode(Array("$SDDBT,19.7,f,6.0,M,3.3,F*3F".utf8)) == .cycleContinuer)
        #expect(NMEAParser.decode(Array("$SDDBT,19.7,f,6.0,M".utf8)) == .ignored, "too short for gpsd")
    }

    @Test func timesWithin10MillisecondsAreOneTimeForGpsd() {
        var detector = NMEACycleDetector()
        let sentences: [(NMEACycleDetector.Kind, Int?)] = [
            (.rmc, 1000), (.gga, 1000),   // no end of cycle known: each position sentence reports
            (.rmc, 1010), (.gga, 1010),   // 10 ms later: the same time, nothing learned
            (.rmc, 2000), (.gga, 2000),   // a new time: GGA now ends the cycle
            (.gsa, nil),                  // untimed sentences report only after a DBT
        ]
        var reports: [Bool] = []
        for (kind, milliseconds) in sentences {
            reports.append(detector.observe(kind, time: milliseconds.map { NMEATimeOfDay(milliseconds: $0) }))
        }
        #expect(reports == [true, true, true, true, false, true, false])
    }
}
