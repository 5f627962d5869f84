/// Turns the fields of each decoded kind of sentence into its `NMEASentence` value.
///
/// Field indices count from the first field after the address (`$GPGGA,` is not a field).
enum NMEAFieldDecoder {
    static func gga(_ f: Fields, _ talker: NMEATalker) throws(NMEAFieldError) -> NMEAParser.Outcome {
        guard f.count == 14 else { return .malformed }
        return .sentence(.gga(.init(
            talker: talker, time: try f.time(0), coordinate: try f.coordinate(1),
            quality: try f.int(5), satellitesUsed: try f.int(6), hdop: try f.dop(7), altitude: try f.double(8))))
    }

    static func rmc(_ f: Fields, _ talker: NMEATalker) throws(NMEAFieldError) -> NMEAParser.Outcome {
        guard (11...13).contains(f.count) else { return .malformed }
        return .sentence(.rmc(.init(
            talker: talker, time: try f.time(0), status: try f.letter(1), coordinate: try f.coordinate(2),
            speedKnots: try f.double(6), courseDegrees: try f.double(7), date: try f.dayMonthYear(8),
            mode: f.count > 11 ? try f.letter(11) : nil)))
    }

    static func gll(_ f: Fields, _ talker: NMEATalker) throws(NMEAFieldError) -> NMEAParser.Outcome {
        guard (6...7).contains(f.count) else { return .malformed }
        return .sentence(.gll(.init(
            talker: talker, coordinate: try f.coordinate(0), time: try f.time(4), status: try f.letter(5),
            mode: f.count > 6 ? try f.letter(6) : nil)))
    }

    static func gns(_ f: Fields, _ talker: NMEATalker) throws(NMEAFieldError) -> NMEAParser.Outcome {
        guard (12...13).contains(f.count) else { return .malformed }
        var modes: [UInt8] = []
        let modeStart = f.start(5)
        for index in modeStart..<f.end(5) {
            let byte = f.base[index]
            guard NMEAParser.isUpper(byte) else { return .malformed }
            modes.append(byte)
        }
        return .sentence(.gns(.init(
            talker: talker, time: try f.time(0), coordinate: try f.coordinate(1), modes: modes,
            satellitesUsed: try f.int(6), hdop: try f.dop(7), altitude: try f.double(8))))
    }

    static func gsa(_ f: Fields, _ talker: NMEATalker) throws(NMEAFieldError) -> NMEAParser.Outcome {
        guard (17...18).contains(f.count) else { return .malformed }
        var prns: [Int] = []
        for index in 2...13 {
            if let prn = try f.int(index) { prns.append(prn) }
        }
        return .sentence(.gsa(.init(
            talker: talker, mode: try f.int(1), usedPRNs: prns, pdop: try f.dop(14), hdop: try f.dop(15),
            vdop: try f.dop(16), systemID: f.count > 17 ? try f.int(17) : nil)))
    }

    static func gst(_ f: Fields, _ talker: NMEATalker) throws(NMEAFieldError) -> NMEAParser.Outcome {
        guard f.count == 8 else { return .malformed }
        return .sentence(.gst(.init(
            talker: talker, time: try f.time(0), rms: try f.metres(1), semiMajor: try f.metres(2),
            semiMinor: try f.metres(3), orientation: try f.double(4), latitudeSigma: try f.metres(5),
            longitudeSigma: try f.metres(6), altitudeSigma: try f.metres(7))))
    }

    static func gsv(_ f: Fields, _ talker: NMEATalker) throws(NMEAFieldError) -> NMEAParser.Outcome {
        // Three counts, up to four satellites of four fields each, and NMEA 4.10's signal id.
        guard (3...20).contains(f.count), (f.count - 3) % 4 <= 1 else { return .malformed }
        guard let total = try f.int(0), let number = try f.int(1), total >= 1, (1...total).contains(number) else {
            return .malformed
        }
        return .sentence(.gsv(.init(talker: talker, messageCount: total, messageNumber: number,
                                    satellitesInView: try f.int(2))))
    }

    static func zda(_ f: Fields, _ talker: NMEATalker) throws(NMEAFieldError) -> NMEAParser.Outcome {
        guard f.count == 6 else { return .malformed }
        let day = try f.int(1), month = try f.int(2), year = try f.int(3)
        var date: NMEADate?
        if let day, let month, let year {
            guard (1...31).contains(day), (1...12).contains(month), (1980...2200).contains(year) else { return .malformed }
            date = NMEADate(year: year, month: month, day: day)
        }
        return .sentence(.zda(.init(talker: talker, time: try f.time(0), date: date)))
    }
}

/// Powers of ten that are exact in a `Double`.
private let exactPowersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                          1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

extension Fields {
    @inline(__always) private func digit(_ position: Int) -> Int? {
        let value = base[position] &- NMEAParser.Byte.zero
        return value < 10 ? Int(value) : nil
    }

    /// A non-negative integer; `nil` when empty; malformed when not all digits.
    func int(_ index: Int) throws(NMEAFieldError) -> Int? {
        let start = start(index), end = end(index)
        guard start < end else { return nil }
        guard end - start <= 9 else { throw NMEAFieldError() }
        var value = 0
        for position in start..<end {
            guard let digit = digit(position) else { throw NMEAFieldError() }
            value = value * 10 + digit
        }
        return value
    }

    /// A decimal number (`-12.5`, `+3`, `.5`, `7.`); `nil` when empty; malformed otherwise.
    func double(_ index: Int) throws(NMEAFieldError) -> Double? {
        let start = start(index), end = end(index)
        guard start < end else { return nil }
        var position = start
        var negative = false
        if base[position] == UInt8(ascii: "-") || base[position] == UInt8(ascii: "+") {
            negative = base[position] == UInt8(ascii: "-")
            position += 1
        }
        let value = try unsignedDecimal(position, end)
        return negative ? -value : value
    }

    /// A dilution of precision: receivers send at most 99.99 (issue 25 item 11: an HDOP of
    /// about 1e200 made a fix of infinite accuracy). More, or a sign, is malformed.
    func dop(_ index: Int) throws(NMEAFieldError) -> Double? {
        guard let value = try double(index) else { return nil }
        guard value >= 0, value <= NMEAFix.maximumDOP else { throw NMEAFieldError() }
        return value
    }

    /// An error estimate in metres (GST): at most the Earth's diameter, which also keeps
    /// their squares finite. More, or a sign, is malformed.
    func metres(_ index: Int) throws(NMEAFieldError) -> Double? {
        guard let value = try double(index) else { return nil }
        guard value >= 0, value <= NMEAFix.maximumErrorMetres else { throw NMEAFieldError() }
        return value
    }

    /// Digits with at most one `.`, rounded as `Double(String)` rounds them for up to 15
    /// significant digits (an exact mantissa divided by an exact power of ten).
    func unsignedDecimal(_ start: Int, _ end: Int) throws(NMEAFieldError) -> Double {
        var mantissa: UInt64 = 0
        var significant = 0, scale = 0, digits = 0
        var seenDot = false
        for position in start..<end {
            if let digit = digit(position) {
                digits += 1
                if significant < 19 {
                    mantissa = mantissa * 10 + UInt64(digit)
                    if mantissa != 0 { significant += 1 }
                    if seenDot { scale -= 1 }
                } else if !seenDot {
                    scale += 1
                }
            } else if base[position] == NMEAParser.Byte.dot, !seenDot {
                seenDot = true
            } else {
                throw NMEAFieldError()
            }
        }
        guard digits > 0 else { throw NMEAFieldError() }
        let value = Double(mantissa)
        if scale < 0 {
            return -scale < exactPowersOfTen.count ? value / exactPowersOfTen[-scale] : value / pow10(-scale)
        }
        return scale == 0 ? value : value * pow10(scale)
    }

    private func pow10(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    /// `hhmmss` with an optional fraction, to the millisecond.
    func time(_ index: Int) throws(NMEAFieldError) -> NMEATimeOfDay? {
        let start = start(index), end = end(index)
        guard start < end else { return nil }
        guard end - start >= 6 else { throw NMEAFieldError() }
        var values = (0, 0, 0)
        for pair in 0..<3 {
            guard let tens = digit(start + pair * 2), let ones = digit(start + pair * 2 + 1) else { throw NMEAFieldError() }
            switch pair {
            case 0: values.0 = tens * 10 + ones
            case 1: values.1 = tens * 10 + ones
            default: values.2 = tens * 10 + ones
            }
        }
        guard values.0 < 24, values.1 < 60, values.2 <= 60 else { throw NMEAFieldError() }
        var milliseconds = 0
        if end - start > 6 {
            guard base[start + 6] == NMEAParser.Byte.dot else { throw NMEAFieldError() }
            var scale = 100
            for position in (start + 7)..<max(start + 7, end) {
                guard let digit = digit(position) else { throw NMEAFieldError() }
                milliseconds += digit * scale
                scale /= 10
            }
        }
        return NMEATimeOfDay(hour: values.0, minute: values.1, second: values.2, millisecond: milliseconds)
    }

    /// RMC's `ddmmyy`; two-digit years are 1980...2079.
    func dayMonthYear(_ index: Int) throws(NMEAFieldError) -> NMEADate? {
        guard length(index) != 0 else { return nil }
        guard length(index) == 6, let value = try int(index) else { throw NMEAFieldError() }
        let day = value / 10_000, month = value / 100 % 100, shortYear = value % 100
        guard (1...31).contains(day), (1...12).contains(month) else { throw NMEAFieldError() }
        return NMEADate(year: shortYear < 80 ? 2000 + shortYear : 1900 + shortYear, month: month, day: day)
    }

    /// `ddmm.mmmm,N,dddmm.mmmm,E` starting at field `index`; `nil` when a value is empty.
    func coordinate(_ index: Int) throws(NMEAFieldError) -> Coordinate? {
        guard !isEmpty(index), !isEmpty(index + 2) else { return nil }
        var latitude = try degreesAndMinutes(index, maximum: 90)
        var longitude = try degreesAndMinutes(index + 2, maximum: 180)
        switch try letter(index + 1) {
        case UInt8(ascii: "N"): break
        case UInt8(ascii: "S"): latitude = -latitude
        default: throw NMEAFieldError()
        }
        switch try letter(index + 3) {
        case UInt8(ascii: "E"): break
        case UInt8(ascii: "W"): longitude = -longitude
        default: throw NMEAFieldError()
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Degrees and decimal minutes (`4807.038` is 48° 7.038′) as degrees.
    private func degreesAndMinutes(_ index: Int, maximum: Int) throws(NMEAFieldError) -> Double {
        let start = start(index), end = end(index)
        var dot = start
        while dot < end, base[dot] != NMEAParser.Byte.dot { dot += 1 }
        // At least the two minute digits before the point; degrees are what precedes them.
        guard dot - start >= 2, dot - start <= 5 else { throw NMEAFieldError() }
        var degrees = 0
        for position in start..<(dot - 2) {
            guard let digit = digit(position) else { throw NMEAFieldError() }
            degrees = degrees * 10 + digit
        }
        let minutes = try unsignedDecimal(dot - 2, end)
        guard minutes < 60, degrees <= maximum else { throw NMEAFieldError() }
        let value = Double(degrees) + minutes / 60
        guard value <= Double(maximum) else { throw NMEAFieldError() }
        return value
    }
}
