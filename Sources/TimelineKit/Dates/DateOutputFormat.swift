/// How `timeline dates` (and CSV's `--time-format`) writes each value.
package enum DateOutputFormat: Sendable {
    /// RFC 3339 in the display zone (`Z` for UTC), with `fractionDigits` digits of the
    /// second (nil: the digits each value was read with); dates stay `YYYY-MM-DD`.
    case rfc3339(fractionDigits: Int?)
    /// The calendar day in the display zone.
    case date
    /// Seconds since the epoch, with `fractionDigits` digits (0: whole seconds, rounded down).
    case epoch(fractionDigits: Int)
    /// Milliseconds since the epoch, with `fractionDigits` digits (0: whole milliseconds,
    /// rounded down).
    case epochMilliseconds(fractionDigits: Int)
    /// A user pattern (LDML or strptime), in the display zone.
    case pattern(DatePattern)

    /// RFC 3339 with the digits each value was read with.
    package static let rfc3339 = DateOutputFormat.rfc3339(fractionDigits: nil)

    /// Reads `rfc3339`, `date`, `epoch`, `epoch-ms` — the first and the epochs with `:N`
    /// for N fraction digits (`rfc3339:3`, `epoch-ms:6`) — or a pattern (`yyyy-MM-dd HH:mm`,
    /// `%d/%m/%Y`).
    /// - Throws: a `CompileError` naming what is wrong with the pattern or the digits.
    package init(_ text: String) throws(DatePattern.CompileError) {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let named = ["rfc3339", "epoch", "epoch-ms"]
        var digits: Int?
        if parts.count == 2, named.contains(parts[0]) {
            guard let n = Int(parts[1]), (0...9).contains(n) else {
                throw DatePattern.CompileError(
                    pattern: text,
                    message:
                        "'\(text)': the digits after ':' must be 0 to 9, e.g. \(parts[0]):3 for milliseconds"
                )
            }
            digits = n
        }
        switch parts.count == 2 && digits != nil ? parts[0] : text {
        case "rfc3339": self = .rfc3339(fractionDigits: digits)
        case "date": self = .date
        case "epoch": self = .epoch(fractionDigits: digits ?? 0)
        case "epoch-ms": self = .epochMilliseconds(fractionDigits: digits ?? 0)
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
        case .rfc3339(let fixed):
            let digits = fixed ?? digits
            let offset = zone.offset(at: instant)
            cache.local(
                secondsAsIfUTC: instant.seconds + Int64(offset.seconds),
                nanosecond: Int(instant.nanoseconds)
            )
            .appendISO(to: &out, fractionDigits: digits)
            offset.appendRFC3339(to: &out)
        case .date:
            zone.day(of: instant).appendISO(to: &out)
        case .epoch(let fraction):
            appendSigned(instant, unitDigits: 0, fractionDigits: fraction, to: &out)
        case .epochMilliseconds(let fraction):
            appendSigned(instant, unitDigits: 3, fractionDigits: 3 + fraction, to: &out)
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
