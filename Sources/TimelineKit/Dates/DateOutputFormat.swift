/// How `timeline dates` writes each value.
package enum DateOutputFormat: Sendable {
    /// RFC 3339 in the display zone (`Z` for UTC); dates stay `YYYY-MM-DD`.
    case rfc3339
    /// The calendar day in the display zone.
    case date
    /// Seconds since the epoch (with the fraction digits read).
    case epoch
    /// Milliseconds since the epoch (digits beyond milliseconds kept as a fraction).
    case epochMilliseconds
    /// A user pattern (LDML or strptime), in the display zone.
    case pattern(DatePattern)

    /// Reads `rfc3339`, `date`, `epoch`, `epoch-ms`, or a pattern (`yyyy-MM-dd HH:mm`,
    /// `%d/%m/%Y`).
    /// - Throws: a `CompileError` naming what is wrong with the pattern.
    public init(_ text: String) throws(DatePattern.CompileError) {
        switch text {
        case "rfc3339": self = .rfc3339
        case "date": self = .date
        case "epoch": self = .epoch
        case "epoch-ms": self = .epochMilliseconds
        default: self = .pattern(try DatePattern(text))
        }
    }

    /// Remembers the last day number converted to a calendar date: consecutive values in a
    /// log or export usually fall on the same day, and the conversion is a chain of divisions.
    package struct DayCache {
        var day: Int64 = .min
        var date = CivilDate(uncheckedYear: 1970, month: 1, day: 1)

        package init() {}

        @inline(__always)
        mutating func local(secondsAsIfUTC seconds: Int64, nanosecond: Int) -> LocalDateTime {
            let (days, rem) = LocalDateTime.dayAndSecond(ofSecondsAsIfUTC: seconds)
            if days != day {
                day = days
                date = CivilDate(daysSinceEpoch: days)
            }
            let r = Int(rem)
            return LocalDateTime(
                unchecked: date, hour: r / 3600, minute: r % 3600 / 60, second: r % 60,
                nanosecond: nanosecond)
        }
    }

    /// Appends `value` shown in `zone`. All-day dates are written `YYYY-MM-DD` whatever the
    /// format: they have no instant.
    package func append(_ value: TimeValue, in zone: ZoneRules, to out: inout [UInt8]) {
        var cache = DayCache()
        append(value, in: zone, cache: &cache, to: &out)
    }

    /// As `append(_:in:to:)`, reusing `cache` across calls.
    package func append(
        _ value: TimeValue, in zone: ZoneRules, cache: inout DayCache, to out: inout [UInt8]
    ) {
        let instant: Instant
        switch value.moment {
        case .date(let d):
            d.appendISO(to: &out)
            return
        case .instant(let i, _, _):
            instant = i
        }
        let digits = value.fractionDigits
        switch self {
        case .rfc3339:
            let offset = zone.offset(at: instant)
            cache.local(
                secondsAsIfUTC: instant.seconds + Int64(offset.seconds),
                nanosecond: Int(instant.nanoseconds)
            )
            .appendISO(to: &out, fractionDigits: digits)
            offset.appendRFC3339(to: &out)
        case .date:
            zone.day(of: instant).appendISO(to: &out)
        case .epoch:
            appendSigned(instant, unitDigits: 0, fractionDigits: digits, to: &out)
        case .epochMilliseconds:
            appendSigned(instant, unitDigits: 3, fractionDigits: digits, to: &out)
        case .pattern(let p):
            let offset = zone.offset(at: instant)
            out += Array(
                p.format(
                    instant.local(in: offset), offset: offset, zone: zone.identifier,
                    fractionDigits: digits
                ).utf8)
        }
    }

    /// Writes the instant in units of 10^-unitDigits seconds, with any further digits read as a fraction.
    private func appendSigned(
        _ instant: Instant, unitDigits: Int, fractionDigits: Int, to out: inout [UInt8]
    ) {
        var scale: Int64 = 1
        for _ in 0..<unitDigits { scale *= 10 }
        let perUnit = Int64(1_000_000_000) / scale
        var whole = instant.seconds * scale + Int64(instant.nanoseconds) / perUnit
        var rest = Int64(instant.nanoseconds) % perUnit
        let extra = max(0, fractionDigits - unitDigits)
        if whole < 0 && rest > 0 && extra > 0 {
            whole += 1
            rest = perUnit - rest
            if whole == 0 { out.append(UInt8(ascii: "-")) }
        }
        out += Array(String(whole).utf8)
        if extra > 0 {
            out.append(UInt8(ascii: "."))
            var divisor = perUnit / 10
            for _ in 0..<extra {
                out.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
                divisor /= 10
            }
        }
    }
}
