/// RFC 2822 / RFC 5322 and HTTP dates (step 2 of the fallback chain, see `DateParser`):
/// `[Wed, ]12 Jun 2024 08:00[:00] (+0800|GMT|UT|Z|<zone name>)`.
///
/// A trailing zone name goes to the zone resolver like any other, so the RFC's obsolete
/// US abbreviations that are ambiguous worldwide (`CST`, `EST`) need `--abbrev`. A day of
/// week must agree with the date (RFC 5322 §3.3); a value of this shape with an impossible
/// field or a contradicting weekday is refused with the reason, not left to later syntaxes.
struct RFC2822Syntax: DateSyntax {
    var name: String { "rfc2822" }

    func parse(_ input: ByteView, attempt: inout SyntaxAttempt) -> DateFields? {
        var c = ByteCursor(input)
        defer { attempt.reach(c.index) }
        // Optional day of week.
        var weekday: Int?
        if let b = c.current, isASCIILetter(b) {
            let start = c.index
            while let b = c.current, isASCIILetter(b) { c.index += 1 }
            guard let named = DateNames.weekday(input[start..<c.index]),
                c.consume(UInt8(ascii: ","))
            else {
                c.index = start
                return nil
            }
            weekday = named
            c.skipSpaces()
        }
        guard let day = c.digits(maximum: 2)?.value, c.consume(0x20) else { return nil }
        let monthStart = c.index
        while let b = c.current, isASCIILetter(b) { c.index += 1 }
        guard c.index - monthStart == 3, let month = DateNames.month(input[monthStart..<c.index]),
            c.consume(0x20), let year = c.fixedDigits(4), c.consume(0x20),
            let hour = c.fixedDigits(2), c.consume(UInt8(ascii: ":")), let minute = c.fixedDigits(2)
        else { return nil }
        var second = 0
        if c.consume(UInt8(ascii: ":")) {
            guard let s = c.fixedDigits(2) else { return nil }
            second = s
        }
        guard day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else {
            return attempt.fail(.dayOutOfRange(year: year, month: month, day: day), definite: true)
        }
        guard hour < 24 else { return attempt.fail(.hourOutOfRange(hour), definite: true) }
        guard minute < 60 else { return attempt.fail(.minuteOutOfRange(minute), definite: true) }
        guard second < 60 else { return attempt.fail(.secondOutOfRange(second), definite: true) }
        guard let date = CivilDate(year: year, month: month, day: day),
            let local = LocalDateTime(date: date, hour: hour, minute: minute, second: second)
        else { return nil }
        if let weekday, weekday != date.isoWeekday {
            return attempt.fail(
                .weekdayMismatch(date: date, written: weekday, actual: date.isoWeekday),
                definite: true)
        }
        var fields = DateFields(local: local, hasTime: true)
        guard c.consume(0x20) else { return c.isAtEnd ? fields : nil }
        if let negative = consumeOffsetSign(&c) {
            guard let hh = c.fixedDigits(2), let mm = c.fixedDigits(2),
                let offset = UTCOffset(hours: hh, minutes: mm, negative: negative)
            else { return nil }
            fields.offset = offset
        } else {
            let start = c.index
            while let b = c.current,
                isASCIILetter(b) || b == UInt8(ascii: "/") || b == UInt8(ascii: "_")
            { c.index += 1 }
            guard c.index > start else { return nil }
            let word = input[start..<c.index]
            if DateNames.matches(word, "gmt") || DateNames.matches(word, "ut")
                || DateNames.matches(word, "utc") || DateNames.matches(word, "z")
            {
                fields.offset = .utc
            } else {
                fields.zoneName = start..<c.index
            }
        }
        return c.isAtEnd ? fields : nil
    }
}
