#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// NMEA fixes from a stream of lines: `NMEALineReader`, `NMEAParser` and
/// `NMEAEpochAssembler` together, with counts for error messages and benchmarks.
public struct NMEAStream: Sendable {
    private var reader: NMEALineReader
    private var assembler: NMEAEpochAssembler
    private var finished = false

    /// Sentences decoded and passed on to the assembler.
    public private(set) var sentencesAccepted = 0
    /// Sentences dropped because their `*HH` checksum did not match.
    public private(set) var checksumFailures = 0
    /// Sentences of a decoded kind dropped for a wrong field count or a malformed field.
    public private(set) var malformedSentences = 0
    /// Fixes returned so far (valid or not).
    public private(set) var fixesEmitted = 0

    /// Reads `reader`; `date` is the UTC date assumed until an RMC or ZDA gives one.
    public init(reader: NMEALineReader, date: NMEADate) {
        self.reader = reader
        assembler = NMEAEpochAssembler(date: date)
    }

    /// As `init(reader:date:)`, with `cycle` deciding which epochs are reported.
    init(reader: NMEALineReader, date: NMEADate, cycle: NMEACycleDetector) {
        self.reader = reader
        assembler = NMEAEpochAssembler(date: date, cycle: cycle)
    }

    /// Reads `fileDescriptor` (left open) until its end or `limit`; `today` gives the UTC date
    /// until the log gives one.
    public init(fileDescriptor: Int32, today: Date, limit: NMEAReadLimit = .unlimited) {
        reader = NMEALineReader(fileDescriptor: fileDescriptor, limit: limit)
        assembler = NMEAEpochAssembler(today: today)
    }

    /// Reads bytes in memory; `today` gives the UTC date until the log gives one.
    public init(bytes: [UInt8], today: Date) {
        reader = NMEALineReader(bytes: bytes)
        assembler = NMEAEpochAssembler(today: today)
    }

    /// Non-empty lines read.
    public var linesRead: Int { reader.linesRead }
    /// Bytes read from the source.
    public var bytesRead: Int { reader.bytesRead }
    /// Lines skipped for being longer than `NMEAParser.maximumLineLength`.
    public var overlongLinesSkipped: Int { reader.overlongLinesSkipped }
    /// The `errno` of a failed read, which ended the input early.
    public var readError: Int32? { reader.readError }
    /// Why reading stopped before the end of the input (deadline or cancellation), if it did.
    public var stopReason: NMEAReadLimit.Reason? { reader.stopReason }

    /// The next epoch's fix, or `nil` once the input is exhausted. An epoch cut off by the
    /// read limit is incomplete and never returned.
    public mutating func nextFix() -> NMEAFix? {
        while let outcome = reader.withNextLine({ NMEAParser.decode($0) }) {
            switch outcome {
            case .sentence(let sentence):
                sentencesAccepted += 1
                if let fix = assembler.consume(sentence) {
                    fixesEmitted += 1
                    return fix
                }
            case .cycleContinuer: assembler.consumeCycleContinuer()
            case .badChecksum: checksumFailures += 1
            case .malformed: malformedSentences += 1
            case .ignored: break
            }
        }
        guard !finished, reader.stopReason == nil else { return nil }
        finished = true
        let last = assembler.finish()
        if last != nil { fixesEmitted += 1 }
        return last
    }
}
