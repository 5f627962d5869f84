#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Groups decoded sentences into receiver epochs and summarises each as one `NMEAFix`.
///
/// An epoch is the run of sentences sharing a time of day; GSA and GSV carry no time and
/// belong to the epoch in progress. An epoch is emitted when a sentence with another time
/// arrives, and the last one by `finish()`. Dates come from the latest RMC or ZDA, before
/// that from the date given at creation, and roll forward when the time of day wraps past
/// midnight. Satellites in view persist until new GSV sentences replace them, since many
/// receivers send GSV less often than positions.
///
/// When an epoch is a fix follows gpsd 3.22 (`driver_nmea0183.c`) where it is stricter:
/// - a GGA with fewer than 3 satellites used is no fix, whatever its quality says;
/// - a simulator's RMC or GLL (mode indicator S) with status V, which the standard asks of
///   any mode but A or D, says nothing either way: its GGA (quality 8) decides, and the fix
///   is marked simulated (gpsd's status 8);
/// - an epoch is a fix only when gpsd reports it: when the sentence that gpsd has learned
///   ends the receiver's cycle arrives in it (`NMEACycleDetector`). A log's first epoch, from
///   which gpsd learns the cycle, is reported as the daemon reports it: after each position
///   or mode sentence, so it is a fix when it has one (a single epoch, a two-epoch log);
///   the epoch is judged whole, with the rules above.
public struct NMEAEpochAssembler: Sendable {
    /// Fewer satellites than this in a GGA mean no fix (gpsd 3.22 `processGGA`).
    static let minimumSatellites = 3

    /// What one epoch has said so far.
    struct Epoch: Sendable {
        var time: NMEATimeOfDay?
        var date: NMEADate
        var validCoordinate: Coordinate?
        var lastCoordinate: Coordinate?
        var sawValid = false
        var sawVoid = false
        var gsaMode: Int?
        var gsaPRNCount = 0
        var gsaHDOP: Double?
        var ggaHDOP: Double?
        var gnsHDOP: Double?
        var ggaSatellites: Int?
        var gnsSatellites: Int?
        var ggaAltitude: Double?
        var gnsAltitude: Double?
        var gstSigmas: (latitude: Double, longitude: Double)?
        var simulated = false
        /// Whether gpsd reports this epoch (a cycle ender, or before one is known a position
        /// or mode sentence, arrived in it).
        var reported = false
    }

    /// The latest GSV total of one talker, and the epoch it came in.
    struct InView: Sendable {
        var talker: NMEATalker
        var total: Int
        var epochNumber: Int
    }

    private var date: NMEADate
    /// Whether an RMC or ZDA has given the date.
    private var dateFromLog = false
    private var epoch: Epoch?
    private var previousTime: NMEATimeOfDay?
    private var inView: [InView] = []
    private var epochNumber = 0
    private var cycle = NMEACycleDetector()

    /// Starts with `date` as the UTC date until an RMC or ZDA gives one.
    public init(date: NMEADate) {
        self.date = date
    }

    /// As `init(date:)`, with `cycle` deciding which epochs are reported (tests look at
    /// what epochs say with `NMEACycleDetector.reportingEveryTimedEpoch`).
    init(date: NMEADate, cycle: NMEACycleDetector) {
        self.date = date
        self.cycle = cycle
    }

    /// Starts with the UTC date of `today` until an RMC or ZDA gives one.
    public init(today: Date) {
        let day = LocalTime(today, utcOffset: 0)
        self.init(date: NMEADate(year: day.year, month: day.month, day: day.day))
    }

    /// Takes one sentence; returns the previous epoch's fix when this sentence starts a new epoch.
    public mutating func consume(_ sentence: NMEASentence) -> NMEAFix? {
        var emitted: NMEAFix?
        if let time = sentence.time {
            if let current = epoch, let currentTime = current.time {
                if currentTime != time {
                    emitted = summary(of: current)
                    epoch = startEpoch(at: time)
                }
            } else if var current = epoch {
                current.time = time
                rollOver(to: time)
                current.date = date
                epoch = current
            } else {
                epoch = startEpoch(at: time)
            }
        } else if epoch == nil {
            epoch = newEpoch(time: nil)
        }
        if cycle.observe(Self.kind(of: sentence), time: sentence.time) { epoch?.reported = true }
        if var current = epoch {
            apply(sentence, to: &current)
            epoch = current
        }
        return emitted
    }

    /// Takes a sentence that gpsd decodes and lets continue the reporting cycle (DBT, the depth
    /// from a fish finder or chart plotter); it carries nothing used here but changes when gpsd
    /// reports an epoch.
    public mutating func consumeCycleContinuer() {
        if epoch == nil { epoch = newEpoch(time: nil) }
        if cycle.observe(.dbt, time: nil) { epoch?.reported = true }
    }

    /// The last epoch's fix, if any; the assembler is then empty.
    public mutating func finish() -> NMEAFix? {
        defer { epoch = nil }
        return epoch.flatMap { summary(of: $0) }
    }

    private mutating func startEpoch(at time: NMEATimeOfDay) -> Epoch {
        epochNumber += 1
        rollOver(to: time)
        return newEpoch(time: time)
    }

    private func newEpoch(time: NMEATimeOfDay?) -> Epoch {
        Epoch(time: time, date: date)
    }

    static func kind(of sentence: NMEASentence) -> NMEACycleDetector.Kind {
        switch sentence {
        case .gga: .gga
        case .rmc: .rmc
        case .gll: .gll
        case .gns: .gns
        case .gsa: .gsa
        case .gst: .gst
        case .gsv: .gsv
        case .zda: .zda
        }
    }

    /// Moves the date on a day when the time of day goes back by more than twelve hours.
    private mutating func rollOver(to time: NMEATimeOfDay) {
        if let previousTime, previousTime.milliseconds - time.milliseconds > 12 * 3_600_000 {
            date = date.adding(days: 1)
        }
        previousTime = time
    }

    private mutating func apply(_ sentence: NMEASentence, to epoch: inout Epoch) {
        switch sentence {
        case .gga(let gga):
            let valid = (gga.quality ?? 0) > 0 && (gga.satellitesUsed ?? Self.minimumSatellites) >= Self.minimumSatellites
            position(gga.coordinate, valid: valid, in: &epoch)
            if gga.quality == 8 { epoch.simulated = true }
            epoch.ggaHDOP = gga.hdop ?? epoch.ggaHDOP
            epoch.ggaSatellites = gga.satellitesUsed ?? epoch.ggaSatellites
            epoch.ggaAltitude = gga.altitude ?? epoch.ggaAltitude
        case .rmc(let rmc):
            position(rmc.coordinate, valid: Self.says(status: rmc.status, mode: rmc.mode), in: &epoch)
            if rmc.mode == UInt8(ascii: "S") { epoch.simulated = true }
            if let day = rmc.date { setDate(day, in: &epoch) }
        case .gll(let gll):
            position(gll.coordinate, valid: Self.says(status: gll.status, mode: gll.mode), in: &epoch)
            if gll.mode == UInt8(ascii: "S") { epoch.simulated = true }
        case .gns(let gns):
            let valid = gns.modes.contains { $0 != UInt8(ascii: "N") }
            position(gns.coordinate, valid: valid, in: &epoch)
            if gns.modes.contains(UInt8(ascii: "S")) { epoch.simulated = true }
            epoch.gnsHDOP = gns.hdop ?? epoch.gnsHDOP
            epoch.gnsSatellites = gns.satellitesUsed ?? epoch.gnsSatellites
            epoch.gnsAltitude = gns.altitude ?? epoch.gnsAltitude
        case .gsa(let gsa):
            if let mode = gsa.mode { epoch.gsaMode = max(epoch.gsaMode ?? mode, mode) }
            epoch.gsaPRNCount += gsa.usedPRNs.count
            epoch.gsaHDOP = gsa.hdop ?? epoch.gsaHDOP
        case .gst(let gst):
            if let latitude = gst.latitudeSigma, let longitude = gst.longitudeSigma {
                epoch.gstSigmas = (latitude, longitude)
            }
        case .gsv(let gsv):
            if let total = gsv.satellitesInView { satellitesInView(total, talker: gsv.talker) }
        case .zda(let zda):
            if let day = zda.date { setDate(day, in: &epoch) }
        }
    }

    /// Whether an RMC or GLL says the fix is valid (status A, mode not N), void, or, for a
    /// simulator's status V (mode S), nothing.
    static func says(status: UInt8?, mode: UInt8?) -> Bool? {
        if mode == UInt8(ascii: "S"), status != UInt8(ascii: "A") { return nil }
        return status == UInt8(ascii: "A") && mode != UInt8(ascii: "N")
    }

    /// Records a position sentence's verdict (`nil`: none) and its coordinate.
    private func position(_ coordinate: Coordinate?, valid: Bool?, in epoch: inout Epoch) {
        if valid == true, let coordinate {
            epoch.sawValid = true
            epoch.validCoordinate = coordinate
        } else if valid == false {
            epoch.sawVoid = true
        }
        if let coordinate { epoch.lastCoordinate = coordinate }
    }

    private mutating func setDate(_ day: NMEADate, in epoch: inout Epoch) {
        date = day
        dateFromLog = true
        epoch.date = day
    }

    /// Records a talker's total; several GSV groups of one talker in an epoch (one per
    /// signal, NMEA 4.10+) count the satellites once, as the largest group.
    private mutating func satellitesInView(_ total: Int, talker: NMEATalker) {
        if let index = inView.firstIndex(where: { $0.talker == talker }) {
            let sameEpoch = inView[index].epochNumber == epochNumber
            inView[index].total = sameEpoch ? max(inView[index].total, total) : total
            inView[index].epochNumber = epochNumber
        } else {
            inView.append(InView(talker: talker, total: total, epochNumber: epochNumber))
        }
    }

    /// The epoch's fix.
    private func summary(of epoch: Epoch) -> NMEAFix? {
        guard let time = epoch.time else { return nil }
        let seconds = Double(epoch.date.daysSinceEpoch) * 86_400 + time.secondsOfDay
        let valid = epoch.sawValid && !epoch.sawVoid && (epoch.gsaMode ?? 2) >= 2 && epoch.reported
        let altitude = epoch.ggaAltitude ?? epoch.gnsAltitude
        let mode = valid ? (epoch.gsaMode ?? (altitude == nil ? 2 : 3)) : 1
        let hdop = epoch.ggaHDOP ?? epoch.gnsHDOP ?? epoch.gsaHDOP
        var fix = NMEAFix(time: Date(timeIntervalSince1970: seconds),
                          coordinate: valid ? epoch.validCoordinate : epoch.lastCoordinate,
                          isValid: valid, mode: mode, altitude: altitude, hdop: hdop,
                          satellitesUsed: epoch.gnsSatellites ?? epoch.ggaSatellites ?? (epoch.gsaMode == nil ? nil : epoch.gsaPRNCount),
                          simulated: epoch.simulated)
        fix.dateFromLog = dateFromLog
        if let sigmas = epoch.gstSigmas {
            fix.horizontalAccuracy = (sigmas.latitude * sigmas.latitude + sigmas.longitude * sigmas.longitude).squareRoot()
        } else if let hdop {
            fix.horizontalAccuracy = hdop * NMEAFix.metresPerHDOP
            fix.accuracyIsEstimate = true
        }
        if !inView.isEmpty {
            let combined = inView.first { $0.talker == .combined }
            fix.satellitesInView = combined?.total ?? inView.reduce(0) { $0 + $1.total }
        }
        return fix
    }
}
