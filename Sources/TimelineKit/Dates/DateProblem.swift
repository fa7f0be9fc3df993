/// Why a value that has the shape of a date or time is not one: a field out of range, a
/// weekday that contradicts the date, a value cut short, a day/month order the user fixed
/// that the value cannot be read in. A syntax of the fallback chain (see `DateParser`)
/// reports it when it recognised the value's shape, so that the error says what is wrong
/// rather than how far the parsers got.
package enum DateProblem: Hashable, Sendable {
    /// `2024-02-30`: the month has fewer days (or `day` is 0).
    case dayOutOfRange(year: Int, month: Int, day: Int)
    /// `2024-13-01`.
    case monthOutOfRange(Int)
    /// `25:00`.
    case hourOutOfRange(Int)
    /// `10:60`.
    case minuteOutOfRange(Int)
    /// `10:00:60` (leap seconds are not supported).
    case secondOutOfRange(Int)
    /// `2021-W53-1`: the ISO week-numbering year has fewer weeks (or `week` is 0).
    case weekOutOfRange(year: Int, week: Int)
    /// `2021-W01-8`.
    case weekdayOutOfRange(Int)
    /// `2021-366`: the year has fewer days (or `day` is 0).
    case dayOfYearOutOfRange(year: Int, day: Int)
    /// `Wed, 05 Mar 2024 …`: the date fell on `actual`, not on the `written` weekday (ISO
    /// weekdays, 1 = Monday).
    case weekdayMismatch(date: CivilDate, written: Int, actual: Int)
    /// `2021-03-04T`, `10:11:12.`: the value stops where more must follow (`missing` says
    /// what).
    case truncated(missing: String)
    /// `11-25-2023` under `--day-first`: the order the user fixed cannot read the value.
    case fieldOrderContradicted(first: Int, second: Int, order: FieldOrder)

    /// What is wrong, in words.
    public var message: String {
        switch self {
        case .dayOutOfRange(let year, let month, let day):
            guard day > 0, (1...12).contains(month) else { return "there is no day \(day)" }
            let length = CivilDate.daysInMonth(year: year, month: month)
            return "\(DateNames.monthName(month)) \(yearText(year)) has \(length) days, not \(day)"
        case .monthOutOfRange(let month): return "there is no month \(month)"
        case .hourOutOfRange(let hour):
            return "hour \(hour) is out of range (00–23, or 24:00 for the end of a day)"
        case .minuteOutOfRange(let minute): return "minute \(minute) is out of range (00–59)"
        case .secondOutOfRange(let second):
            return
                "second \(second) is out of range (00–59\(second == 60 ? "; leap seconds are not supported" : ""))"
        case .weekOutOfRange(let year, let week):
            guard week > 0 else { return "there is no week 0" }
            return "\(yearText(year)) has \(ISOWeekDate.weeks(inYear: year)) ISO weeks, not \(week)"
        case .weekdayOutOfRange(let day):
            return "weekday \(day) is out of range (1 = Monday … 7 = Sunday)"
        case .dayOfYearOutOfRange(let year, let day):
            guard day > 0 else { return "there is no day 0 of a year" }
            return
                "\(yearText(year)) has \(CivilDate.isLeapYear(year) ? 366 : 365) days, not \(day)"
        case .weekdayMismatch(let date, let written, let actual):
            return
                "\(date.day) \(DateNames.monthName(date.month)) \(yearText(date.year)) was a \(DateNames.weekdayName(actual)), "
                + "not a \(DateNames.weekdayName(written))"
        case .truncated(let missing): return "it stops short: \(missing)"
        case .fieldOrderContradicted(let first, let second, let order):
            let (month, flag, other) =
                order == .dayFirst
                ? (second, "\(.dayFirst)", "\(.monthFirst)")
                : (first, "\(.monthFirst)", "\(.dayFirst)")
            return
                "it cannot be read \(order == .dayFirst ? "day-first" : "month-first") (\(month) is not a month); "
                + "drop \(flag) or pass \(other)"
        }
    }
}

/// A year as dates write it: four digits at least.
private func yearText(_ year: Int) -> String {
    let digits = String(year.magnitude)
    return (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// ISO 8601 week dates: weeks begin on Monday, and week 1 is the one with the year's first
/// Thursday (so 4 January is always in it).
enum ISOWeekDate {
    /// 52 or 53: a year has 53 weeks when it begins on a Thursday, or is a leap year that
    /// begins on a Wednesday.
    static func weeks(inYear year: Int) -> Int {
        let jan1 = CivilDate(uncheckedYear: year, month: 1, day: 1).isoWeekday
        return jan1 == 4 || (jan1 == 3 && CivilDate.isLeapYear(year)) ? 53 : 52
    }

    /// The date of `weekday` (1 = Monday) of `week` of ISO week-numbering `year`; the
    /// caller checks the ranges.
    static func date(year: Int, week: Int, weekday: Int) -> CivilDate {
        let jan4 = CivilDate(uncheckedYear: year, month: 1, day: 4)
        let monday = jan4.daysSinceEpoch - Int64(jan4.isoWeekday - 1)
        return CivilDate(daysSinceEpoch: monday + Int64((week - 1) * 7 + weekday - 1))
    }
}
