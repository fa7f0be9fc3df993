/// A proleptic Gregorian calendar date with no time and no zone.
///
/// All-day values stay `CivilDate`s: they are never turned into a midnight instant, so
/// they can never slip to a neighbouring day.
public struct CivilDate: Hashable, Comparable, Sendable {
    // Stored compactly (8 bytes): every parsed value carries one.
    private var storedYear: Int32
    private var storedMonth: UInt8
    private var storedDay: UInt8

    /// The year, 1…9999.
    public var year: Int {
        get { Int(storedYear) }
        set { storedYear = Int32(newValue) }
    }

    /// The month, 1…12.
    public var month: Int {
        get { Int(storedMonth) }
        set { storedMonth = UInt8(newValue) }
    }

    /// The day of the month, 1…31.
    public var day: Int {
        get { Int(storedDay) }
        set { storedDay = UInt8(newValue) }
    }

    /// Creates a date, or returns nil when the fields do not name a real calendar day
    /// (30 February, month 13, year outside 1…9999).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            day >= 1, day <= CivilDate.daysInMonth(year: year, month: month)
        else { return nil }
        self.init(uncheckedYear: year, month: month, day: day)
    }

    @inline(__always)
    init(uncheckedYear year: Int, month: Int, day: Int) {
        storedYear = Int32(truncatingIfNeeded: year)
        storedMonth = UInt8(truncatingIfNeeded: month)
        storedDay = UInt8(truncatingIfNeeded: day)
    }

    /// Whether `year` has a 29 February (proleptic Gregorian).
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in `month` of `year`.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (negative before it). Howard Hinnant's `days_from_civil`.
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The date `days` days after 1970-01-01. Howard Hinnant's `civil_from_days`.
    public init(daysSinceEpoch days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.init(uncheckedYear: Int(y), month: Int(m), day: Int(d))
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let d = daysSinceEpoch  // 1970-01-01 was a Thursday (4)
        let r = (d + 3) % 7
        return Int(r < 0 ? r + 7 : r) + 1
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int64) -> CivilDate {
        CivilDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `YYYY-MM-DD`.
    public var isoString: String {
        var out = [UInt8]()
        out.reserveCapacity(10)
        appendISO(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func appendISO(to out: inout [UInt8]) {
        appendDigits(year, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2, to: &out)
    }
}

/// Appends `value` in decimal, left-padded with zeros to `width` digits.
@inline(__always)
func appendDigits(_ value: Int, width: Int, to out: inout [UInt8]) {
    // The common cases of every timestamp: two digits (month … second), four (year).
    if width == 2 && value >= 0 && value < 100 {
        out.append(0x30 &+ UInt8(truncatingIfNeeded: value / 10))
        out.append(0x30 &+ UInt8(truncatingIfNeeded: value % 10))
        return
    }
    if width == 4 && value >= 0 && value < 10_000 {
        out.append(0x30 &+ UInt8(truncatingIfNeeded: value / 1000))
        out.append(0x30 &+ UInt8(truncatingIfNeeded: value / 100 % 10))
        out.append(0x30 &+ UInt8(truncatingIfNeeded: value / 10 % 10))
        out.append(0x30 &+ UInt8(truncatingIfNeeded: value % 10))
        return
    }
    appendDigitsSlowly(value, width: width, to: &out)
}

private func appendDigitsSlowly(_ value: Int, width: Int, to out: inout [UInt8]) {
    // Record and line numbers (no padding), years beyond four digits: on the stack, one append.
    FixedWriter.appending(to: &out, capacity: 21 + max(width, 0)) { $0.digits(value, width: width) }
}
