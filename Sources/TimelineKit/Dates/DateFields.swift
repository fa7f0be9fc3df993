/// What a syntax parser read from one value, before any zone is applied.
///
/// Stored compactly (about 24 bytes, no heap storage: a zone name is a byte range into the
/// parsed input), because every value in a file passes through one.
package struct DateFields: Hashable, Sendable {
    private var year: Int32
    private var month: UInt8
    private var day: UInt8
    private var hour: UInt8
    private var minute: UInt8
    private var second: UInt8
    private var fraction: UInt8
    private var flags: UInt8  // 1: has time, 2: has offset
    private var nanosecond: Int32
    private var offsetSeconds: Int32
    private var zoneStart: Int32
    private var zoneEnd: Int32  // zoneEnd == zoneStart: no zone name

    package init(
        local: LocalDateTime, hasTime: Bool, fractionDigits: Int = 0, offset: UTCOffset? = nil,
        zoneName: Range<Int>? = nil
    ) {
        year = 0
        month = 0
        day = 0
        hour = 0
        minute = 0
        second = 0
        fraction = 0
        flags = 0
        nanosecond = 0
        offsetSeconds = 0
        zoneStart = 0
        zoneEnd = 0
        self.local = local
        self.hasTime = hasTime
        self.fractionDigits = fractionDigits
        self.offset = offset
        self.zoneName = zoneName
    }

    /// The wall time (midnight for a date-only value).
    package var local: LocalDateTime {
        get {
            LocalDateTime(
                unchecked: CivilDate(uncheckedYear: Int(year), month: Int(month), day: Int(day)),
                hour: Int(hour),
                minute: Int(minute), second: Int(second), nanosecond: Int(nanosecond))
        }
        set {
            year = Int32(newValue.date.year)
            month = UInt8(newValue.date.month)
            day = UInt8(newValue.date.day)
            hour = UInt8(newValue.hour)
            minute = UInt8(newValue.minute)
            second = UInt8(newValue.second)
            nanosecond = Int32(newValue.nanosecond)
        }
    }

    /// False for a date-only value.
    package var hasTime: Bool {
        get { flags & 1 != 0 }
        set { flags = newValue ? flags | 1 : flags & ~1 }
    }

    /// Fraction digits as written (0…9).
    package var fractionDigits: Int {
        get { Int(fraction) }
        set { fraction = UInt8(newValue) }
    }

    /// An explicit UTC offset (`Z` is `+00:00`).
    package var offset: UTCOffset? {
        get { flags & 2 != 0 ? UTCOffset(seconds: Int(offsetSeconds)) : nil }
        set {
            flags = newValue != nil ? flags | 2 : flags & ~2
            offsetSeconds = Int32(newValue?.seconds ?? 0)
        }
    }

    /// The bytes of a zone name or abbreviation (`Asia/Shanghai`, `PDT`) within the input.
    package var zoneName: Range<Int>? {
        get { zoneEnd > zoneStart ? Int(zoneStart)..<Int(zoneEnd) : nil }
        set {
            zoneStart = Int32(newValue?.lowerBound ?? 0)
            zoneEnd = Int32(newValue?.upperBound ?? 0)
        }
    }

    /// Sets the nanoseconds and the number of digits they were written with.
    mutating func setFraction(nanoseconds: Int, digits: Int) {
        nanosecond = Int32(nanoseconds)
        fraction = UInt8(digits)
    }
}

/// What a syntax of the fallback chain made of a value it did not read: how many bytes it
/// understood (so the chain can name the strategy that came closest), and, when the value
/// had its shape, why it is not a date or time.
struct SyntaxAttempt {
    var progress = 0
    var problem: DateProblem?
    /// The value is certainly meant in this syntax (`2021-03-04T…`, a weekday name in RFC
    /// 2822 form), so no later, more lenient syntax may read it as something else.
    var isDefinite = false

    mutating func reach(_ index: Int) { progress = max(progress, index) }

    /// Records `problem` and returns nil, for `return attempt.fail(…)`.
    mutating func fail(_ problem: DateProblem, definite: Bool) -> DateFields? {
        self.problem = problem
        isDefinite = definite
        return nil
    }
}

/// A syntax parser in the fallback chain (see `DateParser`). `parse` returns nil when the
/// value is not this shape, after recording in `attempt` how far it got and any problem.
protocol DateSyntax: Sendable {
    /// A short name for error messages (`iso8601`, `rfc2822`, `'yyyy/MM/dd'`).
    var name: String { get }
    func parse(_ input: ByteView, attempt: inout SyntaxAttempt) -> DateFields?
}

/// The sign of an offset at `c`: `+`, `-` or U+2212 MINUS SIGN (which ISO 8601-1:2019
/// allows); true for negative, nil when there is none (nothing consumed).
func consumeOffsetSign(_ c: inout ByteCursor) -> Bool? {
    if c.consume(UInt8(ascii: "+")) { return false }
    if c.consume(UInt8(ascii: "-")) { return true }
    if c.byte(at: c.index) == 0xE2, c.byte(at: c.index + 1) == 0x88, c.byte(at: c.index + 2) == 0x92
    {
        c.index += 3
        return true
    }
    return nil
}

/// A read position over UTF-8 bytes with the small helpers every date parser needs.
struct ByteCursor {
    let bytes: ByteView
    var index: Int

    init(_ bytes: ByteView, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var isAtEnd: Bool { index >= bytes.count }

    @inline(__always)
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    @inline(__always)
    func byte(at i: Int) -> UInt8? { i < bytes.count ? bytes[i] : nil }

    @inline(__always)
    mutating func consume(_ b: UInt8) -> Bool {
        if index < bytes.count, bytes[index] == b {
            index += 1
            return true
        }
        return false
    }

    /// Reads exactly `count` ASCII digits, or returns nil without moving.
    @inline(__always)
    mutating func fixedDigits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for k in 0..<count {
            let d = bytes[index + k] &- 0x30
            guard d < 10 else { return nil }
            value = value * 10 + Int(d)
        }
        index += count
        return value
    }

    /// Reads 1…`maximum` digits; returns the value and the digit count, or nil.
    @inline(__always)
    mutating func digits(maximum: Int) -> (value: Int, count: Int)? {
        var value = 0
        var count = 0
        while count < maximum, index < bytes.count {
            let d = bytes[index] &- 0x30
            guard d < 10 else { break }
            value = value * 10 + Int(d)
            count += 1
            index += 1
        }
        return count == 0 ? nil : (value, count)
    }

    /// Number of consecutive digits from the current position.
    func digitRunLength() -> Int {
        var i = index
        while i < bytes.count, bytes[i] &- 0x30 < 10 { i += 1 }
        return i - index
    }

    mutating func skipSpaces() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }

    /// Reads a fraction after `.` or `,`: up to 9 digits into nanoseconds. Returns nil when
    /// there are no digits or more than 9.
    mutating func fraction() -> (nanoseconds: Int, digits: Int)? {
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] &- 0x30 < 10 {
            guard index - start < 9 else { return nil }
            value = value * 10 + Int(bytes[index] &- 0x30)
            index += 1
        }
        let count = index - start
        guard count > 0 else { return nil }
        var scaled = value
        for _ in count..<9 { scaled *= 10 }
        return (scaled, count)
    }
}

@inline(__always)
func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

@inline(__always)
func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }
