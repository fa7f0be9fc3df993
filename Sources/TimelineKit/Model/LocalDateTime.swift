/// A wall-clock date and time with no offset or zone ("2024-06-12 08:00").
public struct LocalDateTime: Hashable, Comparable, Sendable {
    /// The calendar date.
    public var date: CivilDate
    // Stored compactly (16 bytes in all): every parsed value carries one.
    private var storedHour: UInt8
    private var storedMinute: UInt8
    private var storedSecond: UInt8
    private var storedNanosecond: Int32

    /// 0…23.
    public var hour: Int {
        get { Int(storedHour) }
        set { storedHour = UInt8(newValue) }
    }

    /// 0…59.
    public var minute: Int {
        get { Int(storedMinute) }
        set { storedMinute = UInt8(newValue) }
    }

    /// 0…59.
    public var second: Int {
        get { Int(storedSecond) }
        set { storedSecond = UInt8(newValue) }
    }

    /// 0…999,999,999.
    public var nanosecond: Int {
        get { Int(storedNanosecond) }
        set { storedNanosecond = Int32(newValue) }
    }

    /// Creates a local time; nil when a field is out of range. Second 60 (a leap second)
    /// is not representable and is refused.
    public init?(date: CivilDate, hour: Int, minute: Int, second: Int = 0, nanosecond: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
            (0..<1_000_000_000).contains(nanosecond)
        else { return nil }
        self.init(
            unchecked: date, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
    }

    @inline(__always)
    init(unchecked date: CivilDate, hour: Int, minute: Int, second: Int, nanosecond: Int) {
        self.date = date
        storedHour = UInt8(truncatingIfNeeded: hour)
        storedMinute = UInt8(truncatingIfNeeded: minute)
        storedSecond = UInt8(truncatingIfNeeded: second)
        storedNanosecond = Int32(truncatingIfNeeded: nanosecond)
    }

    /// Seconds since the epoch if this wall time were UTC.
    package var secondsAsIfUTC: Int64 {
        date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Wall seconds since 1970-01-01T00:00 split into the day (days since then) and the
    /// second of that day, rounding toward the past for times before 1970.
    @inline(__always)
    package static func dayAndSecond(ofSecondsAsIfUTC seconds: Int64) -> (day: Int64, second: Int64)
    {
        var days = seconds / 86_400
        var rem = seconds % 86_400
        if rem < 0 {
            rem += 86_400
            days -= 1
        }
        return (days, rem)
    }

    /// The wall time `seconds` after the epoch read as UTC.
    package init(secondsAsIfUTC seconds: Int64, nanosecond: Int) {
        let (days, rem) = Self.dayAndSecond(ofSecondsAsIfUTC: seconds)
        self.init(date: CivilDate(daysSinceEpoch: days), secondOfDay: rem, nanosecond: nanosecond)
    }

    /// `secondOfDay` (0..<86,400) seconds into `date`.
    @inline(__always)
    init(date: CivilDate, secondOfDay: Int64, nanosecond: Int) {
        self.init(
            unchecked: date, hour: Int(secondOfDay / 3600), minute: Int(secondOfDay % 3600 / 60),
            second: Int(secondOfDay % 60), nanosecond: nanosecond)
    }

    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        (a.date, a.hour, a.minute, a.second, a.nanosecond)
            < (b.date, b.hour, b.minute, b.second, b.nanosecond)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]` with exactly `fractionDigits` fraction digits.
    public func isoString(fractionDigits: Int) -> String {
        var out = [UInt8]()
        out.reserveCapacity(30)
        appendISO(to: &out, fractionDigits: fractionDigits)
        return String(decoding: out, as: UTF8.self)
    }

    func appendISO(to out: inout [UInt8], fractionDigits: Int) {
        // Formatted on the stack and appended once: this runs for every value written.
        FixedWriter.appending(to: &out, capacity: 48) {
            write(to: &$0, fractionDigits: fractionDigits)
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff]` into a stack buffer (at most 29 bytes), or with another
    /// `separator` than `T` between date and time. Every timed value written passes here
    /// (twice for the canonical form), so the usual case is written after one check for room
    /// rather than one per byte.
    @inline(__always)
    func write(to w: inout FixedWriter, fractionDigits: Int, separator: UInt8 = 0x54) {
        let year = date.year
        guard (0...9999).contains(year) else {
            return writeChecked(to: &w, fractionDigits: fractionDigits, separator: separator)
        }
        let fraction = min(max(fractionDigits, 0), 9)
        w.withRoom(for: fraction > 0 ? 20 + fraction : 19) { p in
            @inline(__always) func pair(_ value: Int, at i: Int) {
                let tens = value / 10
                p[i] = 0x30 &+ UInt8(truncatingIfNeeded: tens)
                p[i + 1] = 0x30 &+ UInt8(truncatingIfNeeded: value &- tens &* 10)
            }
            pair(year / 100, at: 0)
            pair(year % 100, at: 2)
            p[4] = 0x2D
            pair(date.month, at: 5)
            p[7] = 0x2D
            pair(date.day, at: 8)
            p[10] = separator
            pair(hour, at: 11)
            p[13] = 0x3A
            pair(minute, at: 14)
            p[16] = 0x3A
            pair(second, at: 17)
            guard fraction > 0 else { return }
            p[19] = 0x2E
            var divisor = 100_000_000
            for i in 0..<fraction {
                p[20 + i] = 0x30 &+ UInt8(truncatingIfNeeded: nanosecond / divisor % 10)
                divisor /= 10
            }
        }
    }

    /// As `write`, one checked byte at a time, for years outside 0…9999 (which no output
    /// writes: messages show them) with all their digits and sign (at most 41 bytes).
    private func writeChecked(to w: inout FixedWriter, fractionDigits: Int, separator: UInt8) {
        w.digits(date.year, width: 4)
        w.byte(0x2D)
        w.two(date.month)
        w.byte(0x2D)
        w.two(date.day)
        w.byte(separator)
        w.two(hour)
        w.byte(0x3A)
        w.two(minute)
        w.byte(0x3A)
        w.two(second)
        if fractionDigits > 0 {
            w.byte(0x2E)
            var divisor = 100_000_000
            for _ in 0..<min(fractionDigits, 9) {
                w.byte(0x30 &+ UInt8(truncatingIfNeeded: nanosecond / divisor % 10))
                divisor /= 10
            }
        }
    }
}

/// Appends `.ddd` — the first `digits` digits of a nanosecond count; nothing for 0 digits.
@inline(__always)
func appendFraction(_ nanosecond: Int, digits: Int, to out: inout [UInt8]) {
    guard digits > 0 else { return }
    out.append(UInt8(ascii: "."))
    var divisor = 100_000_000
    for _ in 0..<min(digits, 9) {
        out.append(UInt8(ascii: "0") + UInt8(nanosecond / divisor % 10))
        divisor /= 10
    }
}
