/// The built-in catalogue of common shapes (step 5 of the fallback chain, see `DateParser`), read by one tokenizing
/// parser rather than a list of fixed patterns:
///
/// - numeric dates with `/`, `-`, `.` or spaces: `2024/06/12`, `12/06/2024`, `12.06.24`
///   (day/month order from the flag, the value itself, or the column — else an error);
/// - English month names and abbreviations (`Jun 12, 2024`, `12 June 2024`, `Sept. 7, '70`),
///   ordinal suffixes (`3rd`), weekdays (which must agree with the date), `at`/`of`/`on`,
///   an hour with its meridiem (`June 12th, 2024 at 3pm`), hours and minutes with letters
///   (`11h30m`), the era `AD`;
/// - Chinese `2024年6月12日 8时30分`, `上午`/`下午`/`中午`/`凌晨`/`晚上`/`早上`, `星期三`/`周三`;
/// - times `8:00`, `08:00:00,123`, `5:7:1 PM`, `a.m.`/`p.m.`;
/// - compact `yyyyMMddHHmm[ss]` (12 or 14 digits);
/// - a trailing offset (`+0800`, `-07:00`, `UTC+8`, `GMT-0700`) or zone (`UTC`, `PDT`,
///   `Asia/Shanghai`, `(PST)`).
///
/// A value with no year, or with any word it does not know, is refused: nothing is guessed.
/// A value it reads whose date or time cannot exist, whose weekday contradicts its date, or
/// that a day/month order the user fixed cannot read is refused with the reason.
struct CatalogueSyntax: Sendable {
    var fieldOrder: FieldOrder?
    /// The order was fixed by the user (`--day-first`), not inferred from a column: a value
    /// it cannot read is an error, not read the other way.
    var fieldOrderIsExplicit = false

    enum Outcome {
        case fields(DateFields)
        /// Two leading fields that could each be day or month.
        case ambiguousFieldOrder
        case failure
    }

    // MARK: Tokens

    enum Token: Equatable {
        case number(value: Int, digits: Int)
        case word(Range<Int>)
        case cjk(CJK)
        case punct(UInt8)
        case space
        case apostrophe
    }

    enum CJK: Equatable {
        case year, month, day, hour, minute, second
        case morning, afternoon, noon, earlyMorning, evening
        /// `星期三`, `周日`: the ISO weekday (1 = Monday).
        case weekday(Int)
        case colon
    }

    private static let cjkTable: [([UInt8], CJK)] =
        ([
            ("年", .year), ("月", .month), ("日", .day), ("号", .day), ("時", .hour), ("时", .hour),
            ("点", .hour), ("點", .hour), ("分", .minute), ("秒", .second), ("上午", .morning),
            ("早上", .morning), ("下午", .afternoon), ("晚上", .evening), ("中午", .noon),
            ("凌晨", .earlyMorning), ("：", .colon),
        ] as [(String, CJK)]).map { (Array($0.0.utf8), $0.1) }

    private static let weekdayPrefixes: [[UInt8]] = ["星期", "周", "週", "礼拜", "禮拜"].map {
        Array($0.utf8)
    }
    private static let weekdayDigits: [[UInt8]] = ["一", "二", "三", "四", "五", "六", "日", "天"].map {
        Array($0.utf8)
    }

    /// Reusable storage, so reading a value allocates nothing once it has grown.
    struct Scratch {
        var tokens: [(Token, Int)] = []
        var numbers: [DateNumber] = []

        init() {
            tokens.reserveCapacity(32)
            numbers.reserveCapacity(8)
        }
    }

    /// Splits `input` into `tokens` (emptied first); false on a byte it cannot place.
    static func tokenize(_ input: ByteView, into tokens: inout [(Token, Int)], progress: inout Int)
        -> Bool
    {
        tokens.removeAll(keepingCapacity: true)
        var i = 0
        let n = input.count
        outer: while i < n {
            let b = input[i]
            let start = i
            if isDigit(b) {
                var value = 0
                while i < n, isDigit(input[i]) {
                    guard i - start < 18 else { return false }
                    value = value * 10 + Int(input[i] - 0x30)
                    i += 1
                }
                tokens.append((.number(value: value, digits: i - start), start))
            } else if b == UInt8(ascii: "m"), i + 2 < n, input[i + 1] == UInt8(ascii: "="),
                input[i + 2] == UInt8(ascii: "+") || input[i + 2] == UInt8(ascii: "-")
            {
                // Go's `time.Time.String()` monotonic reading `m=+0.000000001`: not a time.
                i += 3
                while i < n, isDigit(input[i]) || input[i] == UInt8(ascii: ".") { i += 1 }
            } else if isASCIILetter(b) {
                while i < n,
                    isASCIILetter(input[i]) || input[i] == UInt8(ascii: "_")
                        || (input[i] == UInt8(ascii: "/") && i + 1 < n
                            && isASCIILetter(input[i + 1]) && i > start + 1)
                        || (input[i] == UInt8(ascii: ".") && i + 1 < n
                            && isASCIILetter(input[i + 1]) && i + 2 < n
                            && input[i + 2] == UInt8(ascii: "."))
                {
                    i += 1
                }
                tokens.append((.word(start..<i), start))
                // A dot ending an abbreviation (`Oct.`, `a.m.`) belongs to the word.
                if i < n, input[i] == UInt8(ascii: "."), i + 1 == n || !isDigit(input[i + 1]) {
                    i += 1
                }
            } else if b == 0x20 || b == 0x09 {
                while i < n, input[i] == 0x20 || input[i] == 0x09 { i += 1 }
                tokens.append((.space, start))
            } else if b == UInt8(ascii: "(") {
                // A parenthesised comment, as in RFC 2822: `(Pacific Daylight Time)`.
                guard let close = input.firstIndex(of: UInt8(ascii: ")"), from: i) else {
                    progress = max(progress, i)
                    return false
                }
                i = close + 1
            } else if b == UInt8(ascii: "'") {
                i += 1
                tokens.append((.apostrophe, start))
            } else if b < 0x80 {
                guard
                    b == UInt8(ascii: ":") || b == UInt8(ascii: "/") || b == UInt8(ascii: "-")
                        || b == UInt8(ascii: ".")
                        || b == UInt8(ascii: ",") || b == UInt8(ascii: "+")
                else {
                    progress = max(progress, i)
                    return false
                }
                i += 1
                tokens.append((.punct(b), start))
            } else {
                if b == 0xE2, i + 2 < n, input[i + 1] == 0x88, input[i + 2] == 0x92 {
                    // U+2212 MINUS SIGN, as ISO 8601-1:2019 allows in offsets.
                    i += 3
                    tokens.append((.punct(UInt8(ascii: "-")), start))
                    continue outer
                }
                for prefix in weekdayPrefixes where hasPrefix(input, at: i, prefix) {
                    let j = i + prefix.count
                    for (index, digit) in weekdayDigits.enumerated()
                    where hasPrefix(input, at: j, digit) {
                        i = j + digit.count
                        tokens.append((.cjk(.weekday(min(index + 1, 7))), start))
                        continue outer
                    }
                }
                for (bytes, kind) in cjkTable where hasPrefix(input, at: i, bytes) {
                    i += bytes.count
                    tokens.append((.cjk(kind), start))
                    continue outer
                }
                progress = max(progress, i)
                return false
            }
        }
        return true
    }

    private static func hasPrefix(_ input: ByteView, at i: Int, _ p: [UInt8]) -> Bool {
        guard i + p.count <= input.count else { return false }
        for k in 0..<p.count where input[i + k] != p[k] { return false }
        return true
    }

    // MARK: Interpretation

    private enum Meridiem { case am, pm, noon, earlyMorning }

    struct DateNumber {
        var value: Int
        var digits: Int
        var apostrophe: Bool
    }

    func parse(_ input: ByteView, scratch: inout Scratch, attempt: inout SyntaxAttempt) -> Outcome {
        var progress = attempt.progress
        defer { attempt.reach(progress) }
        guard CatalogueSyntax.tokenize(input, into: &scratch.tokens, progress: &progress) else {
            return .failure
        }
        let tokens = scratch.tokens
        var year: Int?
        var month: Int?
        var day: Int?
        var hour: Int?
        var minute = 0
        var second = 0
        var nanos = 0
        var fractionDigits = 0
        var meridiem: Meridiem?
        var offset: UTCOffset?
        var zoneName: Range<Int>?
        // Borrow the scratch array (swap, not copy, so appending does not copy it).
        var numbers: [DateNumber] = []
        swap(&numbers, &scratch.numbers)
        numbers.removeAll(keepingCapacity: true)
        defer { swap(&numbers, &scratch.numbers) }
        var monthPosition = 0  // how many date numbers came before the month name
        var pendingApostrophe = false
        var weekday: Int?  // a weekday the value names: it must be the date's

        var k = 0
        func token(_ j: Int) -> Token? { j < tokens.count ? tokens[j].0 : nil }
        func fail(_ j: Int) -> Outcome {
            progress = max(progress, j < tokens.count ? tokens[j].1 : input.count)
            return .failure
        }
        /// Reads `±H`, `±HH`, `±HHMM` or `±HH:MM` at token `j` (a sign); returns the next index.
        func readOffset(_ j: Int) -> (UTCOffset, Int)? {
            guard case .punct(let sign)? = token(j),
                sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
                case .number(let v, let d)? = token(j + 1)
            else { return nil }
            let negative = sign == UInt8(ascii: "-")
            if d == 4 {
                return UTCOffset(hours: v / 100, minutes: v % 100, negative: negative).map {
                    ($0, j + 2)
                }
            }
            guard d <= 2 else { return nil }
            if case .punct(UInt8(ascii: ":"))? = token(j + 2),
                case .number(let m, 2)? = token(j + 3)
            {
                return UTCOffset(hours: v, minutes: m, negative: negative).map { ($0, j + 4) }
            }
            return UTCOffset(hours: v, minutes: 0, negative: negative).map { ($0, j + 2) }
        }

        while k < tokens.count {
            let (tok, _) = tokens[k]
            switch tok {
            case .space:
                k += 1
            case .apostrophe:
                pendingApostrophe = true
                k += 1
            case .punct(let p):
                if (p == UInt8(ascii: "+") || p == UInt8(ascii: "-")) && hour != nil,
                    let (o, next) = readOffset(k)
                {
                    // `+0300 +03` (Go's layout) repeats the offset: it must agree.
                    guard offset == nil || offset == o else { return fail(k) }
                    offset = o
                    k = next
                } else if p == UInt8(ascii: "/") || p == UInt8(ascii: "-") || p == UInt8(ascii: ".")
                    || p == UInt8(ascii: ",")
                {
                    k += 1
                } else {
                    return fail(k)
                }
            case .number(let value, let digits):
                // A time: `H:MM[:SS[.f]]` (also with a full-width colon).
                if digits >= 3, isColon(token(k + 1)) {
                    // `2012:08:03 18:31` (EXIF): year:month:day. `06/May/2008:08:11:17` (Apache
                    // logs): the colon separates the year from the time.
                    numbers.append(DateNumber(value: value, digits: digits, apostrophe: false))
                    if case .number(let m, let md)? = token(k + 2), md <= 2, isColon(token(k + 3)),
                        case .number(let d, let dd)? = token(k + 4), dd <= 2, !isColon(token(k + 5))
                    {
                        numbers.append(DateNumber(value: m, digits: md, apostrophe: false))
                        numbers.append(DateNumber(value: d, digits: dd, apostrophe: false))
                        k += 5
                    } else {
                        k += 2
                    }
                    continue
                }
                if digits <= 2, isColon(token(k + 1)), case .number(let b, let bd)? = token(k + 2),
                    bd <= 2,
                    isColon(token(k + 3)), case .number(let y, 4)? = token(k + 4)
                {
                    // `04:02:2014`: a four-digit third field is a year, not seconds.
                    numbers += [
                        DateNumber(value: value, digits: digits, apostrophe: false),
                        DateNumber(value: b, digits: bd, apostrophe: false),
                        DateNumber(value: y, digits: 4, apostrophe: false),
                    ]
                    k += 5
                    continue
                }
                if isColon(token(k + 1)), case .number(let m, _)? = token(k + 2) {
                    guard hour == nil else { return fail(k) }
                    hour = value
                    minute = m
                    k += 3
                    if isColon(token(k)), case .number(let s, _)? = token(k + 1) {
                        second = s
                        k += 2
                        if case .punct(let p)? = token(k),
                            p == UInt8(ascii: ".") || p == UInt8(ascii: ","),
                            case .number(_, let fd)? = token(k + 1), fd <= 9
                        {
                            let start = tokens[k + 1].1
                            var f = ByteCursor(input, at: start)
                            guard let frac = f.fraction() else { return fail(k + 1) }
                            nanos = frac.nanoseconds
                            fractionDigits = frac.digits
                            k += 2
                        }
                    }
                    continue
                }
                // Chinese unit markers.
                if case .cjk(let unit)? = token(k + 1) {
                    switch unit {
                    case .year: year = digits == 2 ? TwoDigitYear.expand(value) : value
                    case .month: month = value
                    case .day: day = value
                    case .hour: hour = value
                    case .minute: minute = value
                    case .second: second = value
                    default: return fail(k + 1)
                    }
                    k += 2
                    continue
                }
                // Hours and minutes with letters: `11h30m`, `11h30`, `11h30m05s`.
                if hour == nil, digits <= 2, case .word(let r)? = token(k + 1),
                    DateNames.matches(input[r], "h")
                {
                    hour = value
                    k += 2
                    if case .number(let m, let md)? = token(k), md <= 2 {
                        minute = m
                        k += 1
                        if case .word(let r)? = token(k), DateNames.matches(input[r], "m") {
                            k += 1
                            if case .number(let s, let sd)? = token(k), sd <= 2,
                                case .word(let r)? = token(k + 1), DateNames.matches(input[r], "s")
                            {
                                second = s
                                k += 2
                            }
                        }
                    }
                    continue
                }
                // An hour with its meridiem: `3pm`, `3 pm` (the word sets the meridiem).
                if hour == nil, digits <= 2, case .word(let r)? = token(k + 1),
                    ["am", "pm", "a.m", "p.m", "a.m.", "p.m."].contains(where: {
                        DateNames.matches(input[r], $0)
                    })
                {
                    hour = value
                    k += 1
                    continue
                }
                if hour == nil, digits <= 2, case .space? = token(k + 1),
                    case .word(let r)? = token(k + 2),
                    ["am", "pm", "a.m", "p.m", "a.m.", "p.m."].contains(where: {
                        DateNames.matches(input[r], $0)
                    })
                {
                    hour = value
                    k += 2
                    continue
                }
                // Ordinal suffix: `3rd`, `12th`.
                if case .word(let r)? = token(k + 1), tokens[k + 1].1 == tokens[k].1 + digits,
                    ["st", "nd", "rd", "th"].contains(where: { DateNames.matches(input[r], $0) })
                {
                    numbers.append(DateNumber(value: value, digits: digits, apostrophe: false))
                    k += 2
                    continue
                }
                numbers.append(
                    DateNumber(value: value, digits: digits, apostrophe: pendingApostrophe))
                pendingApostrophe = false
                k += 1
            case .word(let r):
                let word = input[r]
                if let m = DateNames.month(word) {
                    guard month == nil else { return fail(k) }
                    month = m
                    monthPosition = numbers.count
                } else if let named = DateNames.weekday(word) {
                    guard weekday == nil || weekday == named else { return fail(k) }
                    weekday = named
                } else if ["am", "a.m", "a.m."].contains(where: { DateNames.matches(word, $0) }) {
                    meridiem = .am
                } else if ["pm", "p.m", "p.m."].contains(where: { DateNames.matches(word, $0) }) {
                    meridiem = .pm
                } else if ["t", "at", "of", "on", "ad", "a.d", "a.d."].contains(where: {
                    DateNames.matches(word, $0)
                }) {
                    // Separators, and the era of every date this model writes.
                } else if ["utc", "gmt", "z", "ut"].contains(where: { DateNames.matches(word, $0) })
                {
                    if let (o, next) = readOffset(k + 1) {
                        guard offset == nil || offset == o else { return fail(k) }
                        offset = o
                        k = next
                        continue
                    }
                    // `+0000 UTC` names the same offset twice; `+0800 UTC` contradicts itself.
                    guard offset == nil || offset == .utc else { return fail(k) }
                    offset = .utc
                } else if word.count >= 2 && word.count <= 5
                    && word.indices.allSatisfy({ word[$0] >= 0x41 && word[$0] <= 0x5A })
                    || word.contains(UInt8(ascii: "/"))
                {
                    guard zoneName == nil, hour != nil else { return fail(k) }
                    zoneName = r
                    // `PST-0700`, `CEST+0200`: the explicit offset follows the name.
                    if offset == nil, let (o, next) = readOffset(k + 1) {
                        offset = o
                        k = next
                        continue
                    }
                } else {
                    return fail(k)
                }
                k += 1
            case .cjk(let c):
                switch c {
                case .morning: meridiem = .am
                case .afternoon, .evening: meridiem = .pm
                case .noon: meridiem = .noon
                case .earlyMorning: meridiem = .earlyMorning
                case .weekday(let named):
                    guard weekday == nil || weekday == named else { return fail(k) }
                    weekday = named
                case .colon: break
                default: return fail(k)
                }
                k += 1
            }
        }
        progress = input.count

        // Compact `yyyyMMddHHmm[ss]`.
        if numbers.count == 1, month == nil, year == nil, hour == nil,
            numbers[0].digits == 12 || numbers[0].digits == 14
        {
            var v = numbers[0].value
            if numbers[0].digits == 14 {
                second = v % 100
                v /= 100
            }
            minute = v % 100
            hour = v / 100 % 100
            v /= 10_000
            day = v % 100
            month = v / 100 % 100
            year = v / 10_000
            numbers = []
        }

        // Assign the remaining date numbers.
        func yearValue(_ n: DateNumber) -> Int {
            n.digits <= 2 ? TwoDigitYear.expand(n.value) : n.value
        }
        if month != nil && day == nil && year == nil {
            // A month name: the numbers are day and year.
            guard numbers.count == 2 else { return .failure }
            let (a, b) = (numbers[0], numbers[1])
            let aIsYear = a.digits >= 3 || a.value > 31 || a.apostrophe
            let bIsYear = b.digits >= 3 || b.value > 31 || b.apostrophe
            if aIsYear && !bIsYear {
                year = yearValue(a)
                day = b.value
            } else if bIsYear && !aIsYear || monthPosition < 2 {
                // `12 Jun 24`, `Jun 12, 24`: day before year, as written in English.
                day = a.value
                year = yearValue(b)
            } else {
                return .failure  // `03 25 Sep`: which is the year?
            }
        } else if year != nil || month != nil || day != nil {
            guard numbers.isEmpty else { return .failure }
        } else {
            guard numbers.count == 3 else { return .failure }
            let (a, b, c) = (numbers[0], numbers[1], numbers[2])
            if a.digits >= 3 {
                (year, month, day) = (a.value, b.value, c.value)
            } else {
                guard b.digits <= 2, c.digits == 4 || c.digits == 2 else { return .failure }
                year = yearValue(c)
                let dayFirst: Bool
                if a.value > 12 && b.value <= 12 {
                    dayFirst = true
                } else if b.value > 12 && a.value <= 12 {
                    dayFirst = false
                } else if let order = fieldOrder {
                    dayFirst = order == .dayFirst
                } else if a.value == b.value {
                    dayFirst = true  // 06/06/2024: the same either way
                } else {
                    return .ambiguousFieldOrder
                }
                if fieldOrderIsExplicit, let order = fieldOrder, dayFirst != (order == .dayFirst) {
                    attempt.problem = .fieldOrderContradicted(
                        first: a.value, second: b.value, order: order)
                    return .failure
                }
                (day, month) = dayFirst ? (a.value, b.value) : (b.value, a.value)
            }
        }
        guard let y = year, let m = month, let d = day else { return .failure }
        guard (1...12).contains(m) else {
            attempt.problem = .monthOutOfRange(m)
            return .failure
        }
        guard d >= 1, d <= CivilDate.daysInMonth(year: y, month: m) else {
            attempt.problem = .dayOutOfRange(year: y, month: m, day: d)
            return .failure
        }
        guard let date = CivilDate(year: y, month: m, day: d) else { return .failure }
        if let weekday, weekday != date.isoWeekday {
            attempt.problem = .weekdayMismatch(
                date: date, written: weekday, actual: date.isoWeekday)
            return .failure
        }

        guard var h = hour else {
            guard meridiem == nil, offset == nil, zoneName == nil else { return .failure }
            return .fields(
                DateFields(
                    local: LocalDateTime(
                        unchecked: date, hour: 0, minute: 0, second: 0, nanosecond: 0),
                    hasTime: false))
        }
        switch meridiem {
        case nil: break
        case .am?, .earlyMorning?:
            guard (0...12).contains(h) else { return .failure }
            if h == 12 { h = 0 }
        case .pm?:
            guard (1...12).contains(h) else { return .failure }  // `23:13 PM` contradicts itself
            if h < 12 { h += 12 }
        case .noon?:
            guard (11...12).contains(h) || (1...2).contains(h) else { return .failure }
            if h < 11 { h += 12 }
        }
        guard h < 24 else {
            attempt.problem = .hourOutOfRange(h)
            return .failure
        }
        guard minute < 60 else {
            attempt.problem = .minuteOutOfRange(minute)
            return .failure
        }
        guard second < 60 else {
            attempt.problem = .secondOutOfRange(second)
            return .failure
        }
        guard
            let local = LocalDateTime(
                date: date, hour: h, minute: minute, second: second, nanosecond: nanos)
        else {
            return .failure
        }
        return .fields(
            DateFields(
                local: local, hasTime: true, fractionDigits: fractionDigits, offset: offset,
                zoneName: zoneName))
    }

    private func isColon(_ t: Token?) -> Bool {
        if case .punct(UInt8(ascii: ":"))? = t { return true }
        if case .cjk(.colon)? = t { return true }
        return false
    }

    // MARK: Field-order evidence

    /// For `a/b/yyyy`-style values: day-first when `a > 12`, month-first when `b > 12`.
    static func numericFieldOrderEvidence(_ bytes: ByteView) -> FieldOrder? {
        guard let (a, b) = leadingPair(bytes) else { return nil }
        if a > 12 && b <= 12 { return .dayFirst }
        if b > 12 && a <= 12 { return .monthFirst }
        return nil
    }

    static func isAmbiguousNumericDate(_ bytes: ByteView) -> Bool {
        guard let (a, b) = leadingPair(bytes) else { return false }
        return a <= 12 && b <= 12 && a != b
    }

    /// The first two fields of `a<sep>b<sep>yy[yy]` with 1–2 digit `a` and `b`.
    private static func leadingPair(_ bytes: ByteView) -> (Int, Int)? {
        var c = ByteCursor(bytes)
        c.skipSpaces()
        guard let a = c.digits(maximum: 3), a.count <= 2, let sep = c.current,
            sep == UInt8(ascii: "/") || sep == UInt8(ascii: "-") || sep == UInt8(ascii: ".")
        else { return nil }
        c.index += 1
        guard let b = c.digits(maximum: 3), b.count <= 2, c.consume(sep),
            let y = c.digits(maximum: 5), y.count == 4 || y.count == 2
        else { return nil }
        return (a.value, b.value)
    }
}
