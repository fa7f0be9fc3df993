/// A user date pattern, compiled once (step 4 of the fallback chain, see `DateParser`). `%`-patterns are strptime style
/// (`%Y-%m-%d %H:%M:%S`); others are Unicode LDML as in `DateFormatter`
/// (`yyyy-MM-dd HH:mm:ss`, quoted literals `'T'`).
///
/// Supported fields — LDML: `y yy yyyy M MM MMM MMMM d dd H HH h hh m mm s ss S…`
/// (1–9 `S`), `a`, `E EEE EEEE`, `X XX XXX Z ZZ ZZZ ZZZZZ x xx xxx`, `VV`, `z zzz`;
/// strptime: `%Y %y %m %b %B %h %d %e %H %I %M %S %f %p %a %A %z %Z %T %F %%`.
/// A numeric field written with two letters reads exactly two digits when another number
/// follows it directly (`yyyyMMdd`), else one or two.
package struct DatePattern: Sendable, Hashable, CustomStringConvertible {
    enum Field: Hashable, Sendable {
        case literal([UInt8])
        case whitespace
        case year(width: Int)  // 2 = two-digit year with pivot, 4 = exactly four, 0 = 1–4
        case month(width: Int)
        case monthName
        case day(width: Int)
        case hour24(width: Int)
        case hour12(width: Int)
        case minute(width: Int)
        case second(width: Int)
        case fraction(digits: Int)  // 0 = 1–9 digits
        case meridiem
        case weekdayName(full: Bool)
        case offset(colon: Bool, allowZ: Bool)
        case zoneID

        var isNumeric: Bool {
            switch self {
            case .year, .month, .day, .hour24, .hour12, .minute, .second, .fraction: return true
            default: return false
            }
        }
    }

    /// The pattern as written.
    package let source: String
    let fields: [Field]

    package var description: String { source }

    /// Why a pattern cannot be compiled.
    package struct CompileError: Error, Hashable, Sendable {
        /// The pattern as written.
        package var pattern: String
        /// What is wrong, and how to write it instead.
        package var message: String
    }

    /// Compiles `pattern`, or throws the library's error for it.
    package static func compiled(_ pattern: String) throws(TimelineError) -> DatePattern {
        do throws(CompileError) {
            return try DatePattern(pattern)
        } catch {
            throw TimelineError(.usage, .invalidDateFormat(pattern), error.message)
        }
    }

    /// Compiles `pattern`: strptime style when it contains `%` (`%d/%m/%Y %H:%M`), else LDML
    /// style (`dd/MM/yyyy HH:mm`, literals in single quotes). It must have a year field.
    package init(_ pattern: String) throws(CompileError) {
        source = pattern
        let compiled =
            pattern.contains("%")
            ? try Self.compileStrptime(pattern) : try Self.compileLDML(pattern)
        guard compiled.contains(where: { if case .year = $0 { return true } else { return false } })
        else {
            throw CompileError(
                pattern: pattern,
                message: "date format '\(pattern)' has no year field; add 'yyyy' or '%Y'")
        }
        fields = Self.fixWidths(compiled)
    }

    /// Two-letter numeric fields followed directly by another number read exactly two digits.
    private static func fixWidths(_ fields: [Field]) -> [Field] {
        var out = fields
        for i in out.indices where i + 1 < out.count && out[i + 1].isNumeric {
            switch out[i] {
            case .month(0): out[i] = .month(width: 2)
            case .day(0): out[i] = .day(width: 2)
            case .hour24(0): out[i] = .hour24(width: 2)
            case .hour12(0): out[i] = .hour12(width: 2)
            case .minute(0): out[i] = .minute(width: 2)
            case .second(0): out[i] = .second(width: 2)
            default: break
            }
        }
        return out
    }

    private static func compileLDML(_ pattern: String) throws(CompileError) -> [Field] {
        var fields: [Field] = []
        let chars = Array(pattern.unicodeScalars)
        var i = 0
        func fail(_ m: String) -> CompileError { CompileError(pattern: pattern, message: m) }
        while i < chars.count {
            let ch = chars[i]
            if ch == "'" {
                var literal = ""
                i += 1
                if i < chars.count, chars[i] == "'" {
                    fields.append(.literal(Array("'".utf8)))
                    i += 1
                    continue
                }
                while i < chars.count {
                    if chars[i] == "'" {
                        if i + 1 < chars.count, chars[i + 1] == "'" {
                            literal.unicodeScalars.append("'")
                            i += 2
                            continue
                        }
                        break
                    }
                    literal.unicodeScalars.append(chars[i])
                    i += 1
                }
                guard i < chars.count else {
                    throw fail("date format '\(pattern)' has an unterminated quote")
                }
                i += 1
                fields.append(.literal(Array(literal.utf8)))
                continue
            }
            guard ch.properties.isAlphabetic && ch.isASCII else {
                if ch == " " {
                    fields.append(.whitespace)
                } else {
                    fields.append(.literal(Array(String(ch).utf8)))
                }
                i += 1
                continue
            }
            var count = 1
            while i + count < chars.count, chars[i + count] == ch { count += 1 }
            i += count
            switch (ch, count) {
            case ("y", 2): fields.append(.year(width: 2))
            case ("y", 4): fields.append(.year(width: 4))
            case ("y", _): fields.append(.year(width: 0))
            case ("M", 1...2), ("L", 1...2): fields.append(.month(width: 0))
            case ("M", 3...4), ("L", 3...4): fields.append(.monthName)
            case ("d", 1...2): fields.append(.day(width: 0))
            case ("H", 1...2): fields.append(.hour24(width: 0))
            case ("h", 1...2): fields.append(.hour12(width: 0))
            case ("m", 1...2): fields.append(.minute(width: 0))
            case ("s", 1...2): fields.append(.second(width: 0))
            case ("S", 1...9): fields.append(.fraction(digits: count))
            case ("a", _): fields.append(.meridiem)
            case ("E", 1...3): fields.append(.weekdayName(full: false))
            case ("E", 4): fields.append(.weekdayName(full: true))
            case ("X", 1...2), ("x", 1...2), ("Z", 1...3):
                fields.append(.offset(colon: false, allowZ: ch == "X"))
            case ("X", 3...5), ("x", 3...5), ("Z", 5):
                fields.append(.offset(colon: true, allowZ: ch == "X" || ch == "Z"))
            case ("V", 2), ("z", 1...4): fields.append(.zoneID)
            default:
                throw fail(
                    "date format '\(pattern)': unsupported field '\(String(repeating: String(ch), count: count))'; quote literal letters like 'T'"
                )
            }
        }
        return fields
    }

    private static func compileStrptime(_ pattern: String) throws(CompileError) -> [Field] {
        var fields: [Field] = []
        let chars = Array(pattern.unicodeScalars)
        var i = 0
        while i < chars.count {
            let ch = chars[i]
            if ch != "%" {
                fields.append(ch == " " ? .whitespace : .literal(Array(String(ch).utf8)))
                i += 1
                continue
            }
            guard i + 1 < chars.count else {
                throw CompileError(
                    pattern: pattern, message: "date format '\(pattern)' ends with a lone '%'")
            }
            let d = chars[i + 1]
            i += 2
            switch d {
            case "Y": fields.append(.year(width: 4))
            case "y": fields.append(.year(width: 2))
            case "m": fields.append(.month(width: 0))
            case "b", "B", "h": fields.append(.monthName)
            case "d", "e": fields.append(.day(width: 0))
            case "H": fields.append(.hour24(width: 0))
            case "I": fields.append(.hour12(width: 0))
            case "M": fields.append(.minute(width: 0))
            case "S": fields.append(.second(width: 0))
            case "f": fields.append(.fraction(digits: 0))
            case "p": fields.append(.meridiem)
            case "a": fields.append(.weekdayName(full: false))
            case "A": fields.append(.weekdayName(full: true))
            case "z": fields.append(.offset(colon: false, allowZ: true))
            case "Z": fields.append(.zoneID)
            case "T":
                fields += [
                    .hour24(width: 0), .literal([0x3A]), .minute(width: 0), .literal([0x3A]),
                    .second(width: 0),
                ]
            case "F":
                fields += [
                    .year(width: 4), .literal([0x2D]), .month(width: 0), .literal([0x2D]),
                    .day(width: 0),
                ]
            case "%": fields.append(.literal([0x25]))
            default:
                throw CompileError(
                    pattern: pattern,
                    message: "date format '\(pattern)': unsupported directive '%\(d)'")
            }
        }
        return fields
    }
}

// MARK: Parsing

extension DatePattern: DateSyntax {
    package var name: String { "'\(source)'" }

    func parse(_ input: ByteView, attempt: inout SyntaxAttempt) -> DateFields? {
        var consumed: Int?
        return parse(input, attempt: &attempt, prefixLength: &consumed)
    }

    /// How many bytes at the start of `input` have the pattern's shape (a date inside text);
    /// nil when none do.
    package func prefixLength(of input: ByteView) -> Int? {
        var attempt = SyntaxAttempt()
        var consumed: Int? = 0
        return parse(input, attempt: &attempt, prefixLength: &consumed) == nil ? nil : consumed
    }

    /// With `prefixLength` nil the whole input must have the shape; else the input may go on
    /// after it, and `prefixLength` is set to where the shape ends.
    private func parse(_ input: ByteView, attempt: inout SyntaxAttempt, prefixLength: inout Int?)
        -> DateFields?
    {
        var c = ByteCursor(input)
        defer { attempt.reach(c.index) }
        var year: Int?
        var month = 1
        var day = 1
        var hour = 0
        var minute = 0
        var second = 0
        var nanos = 0
        var fractionDigits = 0
        var hasTime = false
        var pm: Bool?
        var twelveHour = false
        var offset: UTCOffset?
        var zone: Range<Int>?
        var weekday: Int?

        // No nested function or closure captures the cursor: a captured variable is checked
        // for exclusive access at run time, on every value of a column or a log.
        for field in fields {
            switch field {
            case .literal(let bytes):
                for b in bytes {
                    if c.consume(b) { continue }
                    // A letter matches in either case.
                    guard isASCIILetter(b), let current = c.current, current | 0x20 == b | 0x20
                    else { return nil }
                    c.index += 1
                }
            case .whitespace:
                guard c.current == 0x20 || c.current == 0x09 else { return nil }
                c.skipSpaces()
            case .year(let width):
                guard let v = Self.number(&c, width, max: 4) else { return nil }
                year = width == 2 ? TwoDigitYear.expand(v) : v
            case .month(let width):
                guard let v = Self.number(&c, width, max: 2) else { return nil }
                month = v
            case .monthName:
                let start = c.index
                while let b = c.current, isASCIILetter(b) { c.index += 1 }
                guard let m = DateNames.month(input[start..<c.index]) else { return nil }
                _ = c.consume(UInt8(ascii: "."))
                month = m
            case .day(let width):
                guard let v = Self.number(&c, width, max: 2) else { return nil }
                day = v
            case .hour24(let width), .hour12(let width):
                guard let v = Self.number(&c, width, max: 2) else { return nil }
                hour = v
                hasTime = true
                if case .hour12 = field { twelveHour = true }
            case .minute(let width):
                guard let v = Self.number(&c, width, max: 2) else { return nil }
                minute = v
                hasTime = true
            case .second(let width):
                guard let v = Self.number(&c, width, max: 2) else { return nil }
                second = v
            case .fraction(let digits):
                let start = c.index
                guard let f = c.fraction(), digits == 0 || f.digits == digits else {
                    c.index = start
                    return nil
                }
                nanos = f.nanoseconds
                fractionDigits = f.digits
            case .meridiem:
                let start = c.index
                while let b = c.current, isASCIILetter(b) || b == UInt8(ascii: ".") { c.index += 1 }
                let w = input[start..<c.index]
                if DateNames.matches(w, "am") || DateNames.matches(w, "a.m.") {
                    pm = false
                } else if DateNames.matches(w, "pm") || DateNames.matches(w, "p.m.") {
                    pm = true
                } else if let p = Self.chineseMeridiem(input, at: start) {
                    pm = p.pm
                    c.index = start + p.length
                } else {
                    return nil
                }
            case .weekdayName:
                let start = c.index
                while let b = c.current, isASCIILetter(b) { c.index += 1 }
                guard let named = DateNames.weekday(input[start..<c.index]) else { return nil }
                weekday = named
                _ = c.consume(UInt8(ascii: "."))
            case .offset:
                guard let o = ISO8601Syntax.offset(&c) else { return nil }
                offset = o
            case .zoneID:
                let start = c.index
                while let b = c.current,
                    isASCIILetter(b) || b == UInt8(ascii: "/") || b == UInt8(ascii: "_")
                        || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || isDigit(b)
                {
                    c.index += 1
                }
                guard c.index > start else { return nil }
                zone = start..<c.index
            }
        }
        // The whole value has the pattern's shape: a field out of range is a problem of it.
        guard c.isAtEnd || prefixLength != nil, let y = year else { return nil }
        if prefixLength != nil { prefixLength = c.index }
        guard (1...12).contains(month) else {
            return attempt.fail(.monthOutOfRange(month), definite: false)
        }
        guard day >= 1, day <= CivilDate.daysInMonth(year: y, month: month) else {
            return attempt.fail(.dayOutOfRange(year: y, month: month, day: day), definite: false)
        }
        guard let date = CivilDate(year: y, month: month, day: day) else { return nil }
        if let weekday, weekday != date.isoWeekday {
            return attempt.fail(
                .weekdayMismatch(date: date, written: weekday, actual: date.isoWeekday),
                definite: false)
        }
        if twelveHour || pm != nil {
            guard (1...12).contains(hour) else {
                return attempt.fail(.hourOutOfRange(hour), definite: false)
            }
            if pm == true && hour < 12 { hour += 12 } else if pm == false && hour == 12 { hour = 0 }
        }
        guard hour < 24 else { return attempt.fail(.hourOutOfRange(hour), definite: false) }
        guard minute < 60 else { return attempt.fail(.minuteOutOfRange(minute), definite: false) }
        guard second < 60 else { return attempt.fail(.secondOutOfRange(second), definite: false) }
        guard
            let local = LocalDateTime(
                date: date, hour: hour, minute: minute, second: second, nanosecond: nanos)
        else {
            return nil
        }
        return DateFields(
            local: local, hasTime: hasTime, fractionDigits: fractionDigits, offset: offset,
            zoneName: zone)
    }

    /// A number of `width` digits, or of up to `maximum` when `width` is 0.
    @inline(__always)
    private static func number(_ c: inout ByteCursor, _ width: Int, max maximum: Int) -> Int? {
        width > 0 ? c.fixedDigits(width) : c.digits(maximum: maximum)?.value
    }

    private static let chineseMeridiems: [([UInt8], Bool)] = [
        (Array("上午".utf8), false), (Array("下午".utf8), true), (Array("晚上".utf8), true),
        (Array("凌晨".utf8), false),
    ]

    private static func chineseMeridiem(_ input: ByteView, at i: Int) -> (pm: Bool, length: Int)? {
        for (bytes, pm) in chineseMeridiems where i + bytes.count <= input.count {
            if input[i...].hasPrefix(bytes) { return (pm, bytes.count) }
        }
        return nil
    }
}

// MARK: Formatting

extension DatePattern {
    /// Writes `local` (observed in `offset`, in zone `zone`) with this pattern.
    package func format(
        _ local: LocalDateTime, offset: UTCOffset, zone: String?, fractionDigits: Int
    ) -> String {
        var out = [UInt8]()
        for field in fields {
            switch field {
            case .literal(let b): out += b
            case .whitespace: out.append(0x20)
            case .year(let w):
                appendDigits(
                    w == 2 ? local.date.year % 100 : local.date.year, width: w == 2 ? 2 : 4,
                    to: &out)
            case .month(let w): appendDigits(local.date.month, width: max(w, 2), to: &out)
            case .monthName: out += Array(DateNames.monthAbbreviations[local.date.month - 1].utf8)
            case .day(let w): appendDigits(local.date.day, width: max(w, 2), to: &out)
            case .hour24(let w): appendDigits(local.hour, width: max(w, 2), to: &out)
            case .hour12(let w):
                appendDigits(
                    local.hour % 12 == 0 ? 12 : local.hour % 12, width: max(w, 2), to: &out)
            case .minute(let w): appendDigits(local.minute, width: max(w, 2), to: &out)
            case .second(let w): appendDigits(local.second, width: max(w, 2), to: &out)
            case .fraction(let d):
                // The pattern carries its own separator (`ss.SSS`), so drop appendFraction's dot.
                var digits = [UInt8]()
                appendFraction(
                    local.nanosecond, digits: d == 0 ? max(fractionDigits, 1) : d, to: &digits)
                out += digits.dropFirst()
            case .meridiem: out += Array((local.hour < 12 ? "AM" : "PM").utf8)
            case .weekdayName(let full):
                let name = DateNames.weekdays[local.date.isoWeekday - 1]
                out += Array(
                    (full
                        ? name.prefix(1).uppercased() + name.dropFirst()
                        : DateNames.weekdayAbbreviations[local.date.isoWeekday - 1]).utf8)
            case .offset(let colon, let allowZ):
                if allowZ && offset.seconds == 0 {
                    out.append(UInt8(ascii: "Z"))
                } else {
                    var o = [UInt8]()
                    offset.appendISO(to: &o)
                    out += colon ? o : o.filter { $0 != UInt8(ascii: ":") }
                }
            case .zoneID: out += Array((zone ?? offset.isoString).utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
