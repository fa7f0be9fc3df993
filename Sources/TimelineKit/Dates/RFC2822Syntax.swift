/// RFC 2822 / RFC 5322 and HTTP dates (step 2 of the fallback chain, see `DateParser`):
/// `[Wed, ]12 Jun 2024 08:00[:00] (+0800|GMT|UT|Z|<zone name>)`.
///
/// A trailing zone name goes to the zone resolver like any other, so the RFC's obsolete
/// US abbreviations that are ambiguous worldwide (`CST`, `EST`) need `--abbrev`.
struct RFC2822Syntax: DateSyntax {
    var name: String { "rfc2822" }

    func parse(_ input: ByteView, progress: inout Int) -> DateFields? {
        var c = ByteCursor(input)
        defer { progress = max(progress, c.index) }
        // Optional day of week.
        if let b = c.current, isASCIILetter(b) {
            let start = c.index
            while let b = c.current, isASCIILetter(b) { c.index += 1 }
            guard DateNames.weekday(input[start..<c.index]) != nil,
                c.consume(UInt8(ascii: ","))
            else {
                c.index = start
                return nil
            }
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
        guard let date = CivilDate(year: year, month: month, day: day),
            let local = LocalDateTime(date: date, hour: hour, minute: minute, second: second)
        else { return nil }
        var fields = DateFields(local: local, hasTime: true)
        guard c.consume(0x20) else { return c.isAtEnd ? fields : nil }
        if c.current == UInt8(ascii: "+") || c.current == UInt8(ascii: "-") {
            let negative = c.current == UInt8(ascii: "-")
            c.index += 1
            guard let hh = c.fixedDigits(2), let mm = c.fixedDigits(2),
                let offset = UTCOffset(hours: hh, minutes: mm, negative: negative)
            else { return nil }
            fields.offset = offset
        } else {
            let start = c.index
            while let b = c.current, isASCIILetter(b) || b == UInt8(ascii: "/") || b == UInt8(ascii: "_") { c.index += 1 }
            guard c.index > start else { return nil }
            let word = input[start..<c.index]
            if DateNames.matches(word, "gmt") || DateNames.matches(word, "ut") || DateNames.matches(word, "utc") || DateNames.matches(word, "z") {
                fields.offset = .utc
            } else {
                fields.zoneName = start..<c.index
            }
        }
        return c.isAtEnd ? fields : nil
    }
}
