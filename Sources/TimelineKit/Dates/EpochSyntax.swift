/// Epoch numbers (step 3 of the fallback chain, see `DateParser`), unit by the number of integer digits:
///
/// | digits | unit | range |
/// |---|---|---|
/// | 9–11 | seconds | 1973 … 5138 (with `-`: 1653 … 1966) |
/// | 13 | milliseconds | 2001 … 2286 |
/// | 16 | microseconds | same |
/// | 19 | nanoseconds | same (up to Int64) |
///
/// Seconds may carry a fraction (`1718179200.5`). Other digit counts (12, 14, …) are not
/// epoch numbers: 8, 12 and 14 digits read as compact `yyyyMMdd[HHmm[ss]]` dates instead.
enum EpochSyntax {
    struct Match {
        var instant: Instant
        var fractionDigits: Int
    }

    static let name = "epoch"

    static func parse(_ input: ByteView, attempt: inout SyntaxAttempt) -> Match? {
        var c = ByteCursor(input)
        defer { attempt.reach(c.index) }
        let negative = c.consume(UInt8(ascii: "-"))
        let digitCount = c.digitRunLength()
        guard digitCount > 0, digitCount <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for _ in 0..<digitCount {
            magnitude = magnitude * 10 + UInt64(c.bytes[c.index] - 0x30)
            c.index += 1
        }
        let unitDigits: Int  // fraction digits implied by the unit
        switch digitCount {
        case 9...11: unitDigits = 0
        case 13: unitDigits = 3
        case 16: unitDigits = 6
        case 19: unitDigits = 9
        default: return nil
        }
        guard magnitude <= UInt64(Int64.max) else { return nil }
        var nanos = 0
        var fractionDigits = unitDigits
        if unitDigits == 0, c.consume(UInt8(ascii: ".")) {
            guard let f = c.fraction() else { return nil }
            nanos = f.nanoseconds
            fractionDigits = f.digits
        }
        guard c.isAtEnd else { return nil }
        var divisor: Int64 = 1
        for _ in 0..<unitDigits { divisor *= 10 }
        let value = Int64(magnitude)
        var seconds = value / divisor
        var subUnits = Int(value % divisor)
        for _ in unitDigits..<9 { subUnits *= 10 }
        if unitDigits > 0 { nanos = subUnits }
        if negative {
            seconds = -seconds
            if nanos > 0 {
                seconds -= 1
                nanos = 1_000_000_000 - nanos
            }
        }
        // Keep within the calendar the model supports (years 1…9999).
        guard seconds > -62_135_596_800, seconds < 253_402_300_800 else { return nil }
        return Match(
            instant: Instant(seconds: seconds, nanoseconds: Int32(nanos)),
            fractionDigits: fractionDigits)
    }

    /// A .NET JSON date (`DataContractJsonSerializer`, ASP.NET AJAX): `/Date(ms)/` or
    /// `/Date(ms±HHMM)/`, slashes optionally escaped (`\/Date(…)\/`). The milliseconds are
    /// since the epoch in UTC; the offset only says where the value was observed.
    static func parseDotNet(_ input: ByteView, attempt: inout SyntaxAttempt) -> (
        match: Match, offset: UTCOffset?
    )? {
        var c = ByteCursor(input)
        defer { attempt.reach(c.index) }
        _ = c.consume(UInt8(ascii: "\\"))
        guard c.consume(UInt8(ascii: "/")) else { return nil }
        for b in "Date(".utf8 {
            guard c.consume(b) else { return nil }
        }
        let negative = c.consume(UInt8(ascii: "-"))
        let digits = c.digitRunLength()
        guard digits > 0, digits <= 18, let ms = c.digits(maximum: 18)?.value else { return nil }
        var offset: UTCOffset?
        if let sign = consumeOffsetSign(&c) {
            guard let hh = c.fixedDigits(2), let mm = c.fixedDigits(2),
                let o = UTCOffset(hours: hh, minutes: mm, negative: sign)
            else { return nil }
            offset = o
        }
        guard c.consume(UInt8(ascii: ")")) else { return nil }
        _ = c.consume(UInt8(ascii: "\\"))
        guard c.consume(UInt8(ascii: "/")), c.isAtEnd else { return nil }
        let total = negative ? -ms : ms
        // rounded down, before 1970 too
        let seconds = total >= 0 ? total / 1000 : (total - 999) / 1000
        let nanos = Int32((total - seconds * 1000) * 1_000_000)
        return (
            Match(
                instant: Instant(unchecked: Int64(seconds), nanoseconds: nanos), fractionDigits: 3),
            offset
        )
    }
}
