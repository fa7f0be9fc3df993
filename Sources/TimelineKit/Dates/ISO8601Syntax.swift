/// ISO 8601 / RFC 3339, extended and basic forms, byte by byte (step 1 of the fallback chain, see `DateParser`).
///
/// Accepts `YYYY-MM-DD` or `YYYYMMDD`, then optionally `T`, `t` or one space and a time
/// `HH[:MM[:SS]]` or `HH[MM[SS]]` with 0–9 fraction digits after `.` or `,`, then `Z`/`z`,
/// `±HH:MM[:SS]`, `±HHMM[SS]` or `±HH`, then an optional RFC 9557 suffix `[Area/City]`
/// (`[!…]` critical flag allowed; extension tags such as `[u-ca=iso8601]` are skipped).
/// `24:00:00` means the end of the day and is read as 00:00:00 on the next day. Leap
/// second `:60` is refused. Week and ordinal dates are not supported.
struct ISO8601Syntax: DateSyntax {
    var name: String { "iso8601" }

    /// The fields of a whole string in this syntax, or nil (trailing text included).
    static func fields(_ text: String) -> DateFields? {
        text.withByteView { bytes in
            var progress = 0
            return ISO8601Syntax().parse(bytes, progress: &progress)
        }
    }

    func parse(_ input: ByteView, progress: inout Int) -> DateFields? {
        var c = ByteCursor(input)
        defer { progress = max(progress, c.index) }
        guard let year = c.fixedDigits(4) else { return nil }
        let month: Int
        let day: Int
        let extended = c.consume(UInt8(ascii: "-"))
        if extended {
            guard let m = c.fixedDigits(2), c.consume(UInt8(ascii: "-")), let d = c.fixedDigits(2) else { return nil }
            month = m
            day = d
        } else {
            guard let m = c.fixedDigits(2), let d = c.fixedDigits(2) else { return nil }
            month = m
            day = d
        }
        guard month >= 1, month <= 12, day >= 1, day <= CivilDate.daysInMonth(year: year, month: month), year >= 1 else {
            return nil
        }
        var date = CivilDate(uncheckedYear: year, month: month, day: day)
        guard let sep = c.current else {
            return DateFields(local: LocalDateTime(unchecked: date, hour: 0, minute: 0, second: 0, nanosecond: 0), hasTime: false)
        }
        var fields = DateFields(local: LocalDateTime(unchecked: date, hour: 0, minute: 0, second: 0, nanosecond: 0), hasTime: false)
        if sep == UInt8(ascii: "T") || sep == UInt8(ascii: "t") || sep == UInt8(ascii: " ") {
            c.index += 1
            guard let hour = c.fixedDigits(2) else { return nil }
            var minute = 0
            var second = 0
            var nanos = 0
            var digits = 0
            let colon = c.consume(UInt8(ascii: ":"))
            if let m = c.fixedDigits(2) {
                minute = m
                if (colon && c.consume(UInt8(ascii: ":"))) || (!colon && c.current.map(isDigit) == true) {
                    guard let s = c.fixedDigits(2) else { return nil }
                    second = s
                    if c.consume(UInt8(ascii: ".")) || c.consume(UInt8(ascii: ",")) {
                        guard let f = c.fraction() else { return nil }
                        nanos = f.nanoseconds
                        digits = f.digits
                    }
                } else if colon && c.current == UInt8(ascii: ":") {
                    return nil
                }
            } else if colon {
                return nil
            }
            if hour == 24 {
                guard minute == 0, second == 0, nanos == 0 else { return nil }
                date = date.adding(days: 1)
                guard date.year <= 9999 else { return nil }
                fields.local = LocalDateTime(unchecked: date, hour: 0, minute: 0, second: 0, nanosecond: 0)
            } else {
                guard hour < 24, minute < 60, second < 60 else { return nil }
                fields.local = LocalDateTime(unchecked: date, hour: hour, minute: minute, second: second, nanosecond: nanos)
            }
            fields.hasTime = true
            fields.fractionDigits = digits
            if c.isAtEnd { return fields }
            if c.current != UInt8(ascii: "[") {
                guard let offset = Self.offset(&c) else { return nil }
                fields.offset = offset
            }
        } else if sep == UInt8(ascii: "+") || sep == UInt8(ascii: "-") || sep == UInt8(ascii: "Z") || sep == UInt8(ascii: "z") {
            // A date with an offset (`2020-07-20+08:00`): midnight in that offset.
            guard extended, let offset = Self.offset(&c) else { return nil }
            fields.hasTime = true
            fields.offset = offset
        } else if sep != UInt8(ascii: "[") {
            return nil
        }
        if c.current == UInt8(ascii: "[") {
            guard let zone = Self.bracketSuffix(&c) else { return nil }
            fields.zoneName = zone
            if zone.isEmpty { fields.zoneName = nil }
        }
        return c.isAtEnd ? fields : nil
    }

    /// `Z`, `±HH:MM[:SS]`, `±HHMM[SS]` or `±HH`.
    static func offset(_ c: inout ByteCursor) -> UTCOffset? {
        guard let b = c.current else { return nil }
        if b == UInt8(ascii: "Z") || b == UInt8(ascii: "z") {
            c.index += 1
            return .utc
        }
        guard b == UInt8(ascii: "+") || b == UInt8(ascii: "-") else { return nil }
        c.index += 1
        guard let hours = c.fixedDigits(2) else { return nil }
        var minutes = 0
        var seconds = 0
        if c.consume(UInt8(ascii: ":")) {
            guard let m = c.fixedDigits(2) else { return nil }
            minutes = m
            if c.consume(UInt8(ascii: ":")) {
                guard let s = c.fixedDigits(2) else { return nil }
                seconds = s
            }
        } else if let m = c.fixedDigits(2) {
            minutes = m
            if let s = c.fixedDigits(2) { seconds = s }
        }
        return UTCOffset(hours: hours, minutes: minutes, seconds: seconds, negative: b == UInt8(ascii: "-"))
    }

    /// One or more RFC 9557 `[…]` suffixes; returns the zone's byte range (empty when only
    /// extension tags were present).
    static func bracketSuffix(_ c: inout ByteCursor) -> Range<Int>? {
        var zone: Range<Int> = c.index..<c.index
        while c.consume(UInt8(ascii: "[")) {
            _ = c.consume(UInt8(ascii: "!"))
            let start = c.index
            while let b = c.current, b != UInt8(ascii: "]") { c.index += 1 }
            guard c.current == UInt8(ascii: "]"), c.index > start else { return nil }
            let isTag = c.bytes[start..<c.index].contains(UInt8(ascii: "="))
            if !isTag { zone = start..<c.index }
            c.index += 1
        }
        return zone
    }
}
