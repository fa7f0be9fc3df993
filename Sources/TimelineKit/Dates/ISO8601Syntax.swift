/// ISO 8601 / RFC 3339, extended and basic forms, byte by byte (step 1 of the fallback chain, see `DateParser`).
///
/// Dates: calendar `YYYY-MM-DD` / `YYYYMMDD`, week `YYYY-Www-D` / `YYYYWwwD` (the day may
/// be left out: Monday), ordinal `YYYY-DDD` / `YYYYDDD`. Then optionally `T`, `t` or one
/// space and a time `HH[:MM[:SS]]` or `HH[MM[SS]]` with 0–9 fraction digits after `.` or
/// `,`, then `Z`/`z`, `±HH:MM[:SS]`, `±HHMM[SS]` or `±HH` (the minus may be U+2212, as
/// ISO 8601-1:2019 allows), then an optional RFC 9557 suffix `[Area/City]` (`[!…]`
/// critical flag allowed; extension tags such as `[u-ca=iso8601]` are skipped). `24:00:00`
/// means the end of the day and is read as 00:00:00 on the next day. Leap second `:60` is
/// refused.
///
/// A value that has this shape but cannot be a real date or time (`2024-02-30`, `25:00`,
/// `2021-W53`) reports the problem; one that stops where more must follow (`2021-03-04T`,
/// `10:11:12.`) reports it as definite, so that no later syntax reads the rest as a date.
struct ISO8601Syntax: DateSyntax {
    var name: String { "iso8601" }

    /// The fields of a whole string in this syntax, or nil (trailing text included).
    static func fields(_ text: String) -> DateFields? {
        text.withByteView { fields($0) }
    }

    /// The fields of whole bytes in this syntax, or nil (trailing bytes included).
    static func fields(_ bytes: ByteView) -> DateFields? {
        var attempt = SyntaxAttempt()
        return ISO8601Syntax().parse(bytes, attempt: &attempt)
    }

    func parse(_ input: ByteView, attempt: inout SyntaxAttempt) -> DateFields? {
        var c = ByteCursor(input)
        defer { attempt.reach(c.index) }
        guard let year = c.fixedDigits(4) else { return nil }
        let extended = c.consume(UInt8(ascii: "-"))
        // The calendar, week or ordinal date; `definite` once the shape is unmistakable.
        var date: CivilDate
        let definite: Bool
        if c.current == UInt8(ascii: "W") {
            c.index += 1
            guard let week = c.fixedDigits(2) else { return nil }
            var weekday = 1
            if extended ? c.consume(UInt8(ascii: "-")) : c.current.map(isDigit) == true {
                guard let d = c.fixedDigits(1) else { return nil }
                weekday = d
            }
            guard year >= 1 else { return nil }  // year 0000 is not a year this model writes
            guard (1...ISOWeekDate.weeks(inYear: year)).contains(week) else {
                return attempt.fail(.weekOutOfRange(year: year, week: week), definite: true)
            }
            guard (1...7).contains(weekday) else {
                return attempt.fail(.weekdayOutOfRange(weekday), definite: true)
            }
            date = ISOWeekDate.date(year: year, week: week, weekday: weekday)
            guard SupportedRange.years.contains(date.year) else { return nil }
            definite = true
        } else {
            let run = c.digitRunLength()
            if run == 3 {
                // Ordinal: exactly three digits (`2020-060`, `2020060`).
                let day = c.fixedDigits(3)!
                let length = CivilDate.isLeapYear(year) ? 366 : 365
                guard year >= 1 else { return nil }
                guard (1...length).contains(day) else {
                    return attempt.fail(
                        .dayOfYearOutOfRange(year: year, day: day), definite: extended)
                }
                date = CivilDate(uncheckedYear: year, month: 1, day: 1).adding(days: Int64(day - 1))
                definite = extended
            } else {
                guard let month = c.fixedDigits(2) else { return nil }
                if extended {
                    guard c.consume(UInt8(ascii: "-")) else { return nil }
                }
                guard let day = c.fixedDigits(2) else { return nil }
                // `2024-06-12` is unmistakable; `20240612` may be an epoch number's digits.
                definite = extended
                guard (1...12).contains(month) else {
                    return attempt.fail(.monthOutOfRange(month), definite: definite)
                }
                guard day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else {
                    return attempt.fail(
                        .dayOutOfRange(year: year, month: month, day: day), definite: definite)
                }
                // year 0000: not a date this model writes (the chain says out of range)
                guard year >= 1 else { return nil }
                date = CivilDate(uncheckedYear: year, month: month, day: day)
            }
        }
        var fields = DateFields(
            local: LocalDateTime(unchecked: date, hour: 0, minute: 0, second: 0, nanosecond: 0),
            hasTime: false)
        guard let sep = c.current else { return fields }
        if sep == UInt8(ascii: "T") || sep == UInt8(ascii: "t") || sep == UInt8(ascii: " ") {
            c.index += 1
            // After a `T` (or any date of an unmistakable shape) the rest must be a time.
            let committed = definite || sep != UInt8(ascii: " ")
            guard !c.isAtEnd else {
                return attempt.fail(
                    .truncated(missing: "nothing follows '\(Character(Unicode.Scalar(sep)))'"),
                    definite: committed)
            }
            guard let hour = c.fixedDigits(2) else { return nil }
            var minute = 0
            var second = 0
            var nanos = 0
            var digits = 0
            let colon = c.consume(UInt8(ascii: ":"))
            if colon && c.isAtEnd {
                return attempt.fail(
                    .truncated(missing: "no minutes follow ':'"), definite: committed)
            }
            if let m = c.fixedDigits(2) {
                minute = m
                if (colon && c.consume(UInt8(ascii: ":")))
                    || (!colon && c.current.map(isDigit) == true)
                {
                    if c.isAtEnd {
                        return attempt.fail(
                            .truncated(missing: "no seconds follow ':'"), definite: committed)
                    }
                    guard let s = c.fixedDigits(2) else { return nil }
                    second = s
                    if c.consume(UInt8(ascii: ".")) || c.consume(UInt8(ascii: ",")) {
                        if c.isAtEnd {
                            return attempt.fail(
                                .truncated(missing: "no fraction digits follow the decimal mark"),
                                definite: committed)
                        }
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
                guard minute == 0, second == 0, nanos == 0 else {
                    return attempt.fail(.hourOutOfRange(24), definite: committed)
                }
                date = date.adding(days: 1)
                guard date.year <= 9999 else { return nil }
                fields.local = LocalDateTime(
                    unchecked: date, hour: 0, minute: 0, second: 0, nanosecond: 0)
            } else {
                guard hour < 24 else {
                    return attempt.fail(.hourOutOfRange(hour), definite: committed)
                }
                guard minute < 60 else {
                    return attempt.fail(.minuteOutOfRange(minute), definite: committed)
                }
                guard second < 60 else {
                    return attempt.fail(.secondOutOfRange(second), definite: committed)
                }
                fields.local = LocalDateTime(
                    unchecked: date, hour: hour, minute: minute, second: second, nanosecond: nanos)
            }
            fields.hasTime = true
            fields.fractionDigits = digits
            if c.isAtEnd { return fields }
            if c.current != UInt8(ascii: "[") {
                let signAt = c.index
                guard let offset = Self.offset(&c) else {
                    if c.isAtEnd, c.index > signAt {
                        return attempt.fail(
                            .truncated(missing: "the offset is incomplete"), definite: committed)
                    }
                    return nil
                }
                fields.offset = offset
            }
        } else if sep == UInt8(ascii: "+") || sep == UInt8(ascii: "-") || sep == UInt8(ascii: "Z")
            || sep == UInt8(ascii: "z") || sep == 0xE2
        {
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

    /// `Z`, `±HH:MM[:SS]`, `±HHMM[SS]` or `±HH` (minus also as U+2212).
    static func offset(_ c: inout ByteCursor) -> UTCOffset? {
        guard let b = c.current else { return nil }
        if b == UInt8(ascii: "Z") || b == UInt8(ascii: "z") {
            c.index += 1
            return .utc
        }
        guard let negative = consumeOffsetSign(&c) else { return nil }
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
        return UTCOffset(hours: hours, minutes: minutes, seconds: seconds, negative: negative)
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
