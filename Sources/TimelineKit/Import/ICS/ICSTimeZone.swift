/// Turns an in-file VTIMEZONE into zone rules, from its STANDARD and DAYLIGHT observances:
/// each observance starts at DTSTART (local time in TZOFFSETFROM) and repeats by a yearly
/// RRULE (`BYMONTH` with `BYDAY` such as `1SU`/`-1SU`, or `BYMONTHDAY`; `UNTIL`, `COUNT`)
/// and RDATEs (dates, date-times or periods). Outlook's rules starting in 1601, DAYLIGHT-only
/// zones, DATE-valued DTSTARTs and offsets with seconds are read as they are. Transitions are
/// generated up to 2200.
enum ICSTimeZone {
    static let lastYear = 2200

    static func rules(_ component: ICSComponent) -> ZoneRules? {
        guard let tzid = component.property("TZID")?.value else { return nil }
        var transitions: [(at: Int64, offset: UTCOffset)] = []
        var earliest: (at: Int64, from: UTCOffset)?
        for observance in component.children where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
            guard let from = offset(observance.property("TZOFFSETFROM")?.value),
                let to = offset(observance.property("TZOFFSETTO")?.value),
                let startText = observance.property("DTSTART")?.value, let start = localTime(startText)
            else { continue }
            var starts: [LocalDateTime] = []
            if let rule = observance.property("RRULE")?.value {
                starts += yearly(rule, from: start)
            } else {
                starts.append(start)
            }
            for rdate in observance.all("RDATE") {
                for part in rdate.value.split(separator: ",") {
                    let first = part.split(separator: "/").first.map(String.init) ?? ""
                    if let t = localTime(first) { starts.append(t) }
                }
            }
            for local in starts {
                let at = local.secondsAsIfUTC - Int64(from.seconds)
                transitions.append((at, to))
                if earliest == nil || at < earliest!.at { earliest = (at, from) }
            }
        }
        guard let first = earliest else { return nil }
        return ZoneRules(identifier: tzid, initial: first.from, transitions: transitions)
    }

    /// `+0800`, `-0500`, `+005328` (with seconds).
    static func offset(_ text: String?) -> UTCOffset? {
        guard let text = text?.trimmingSpaces, text.count == 5 || text.count == 7,
            let sign = text.first, sign == "+" || sign == "-"
        else { return nil }
        let digits = Array(text.dropFirst())
        guard digits.allSatisfy(\.isASCII), let h = Int(String(digits[0...1])), let m = Int(String(digits[2...3])) else { return nil }
        let s = digits.count == 6 ? Int(String(digits[4...5])) ?? 0 : 0
        return UTCOffset(hours: h, minutes: m, seconds: s, negative: sign == "-")
    }

    /// `YYYYMMDDTHHMMSS` (a trailing `Z` ignored) or `YYYYMMDD` (midnight).
    static func localTime(_ text: String) -> LocalDateTime? {
        var copy = text.trimmingSpaces
        if copy.hasSuffix("Z") || copy.hasSuffix("z") { copy.removeLast() }
        return copy.withUTF8 { bytes -> LocalDateTime? in
            var progress = 0
            guard let f = ISO8601Syntax().parse(bytes, progress: &progress), f.offset == nil else { return nil }
            return f.local
        }
    }

    /// The starts of a yearly observance rule, from `start` up to UNTIL, COUNT or `lastYear`.
    static func yearly(_ rule: String, from start: LocalDateTime) -> [LocalDateTime] {
        var parts: [String: String] = [:]
        for p in rule.split(separator: ";") {
            let kv = p.split(separator: "=", maxSplits: 1).map(String.init)
            if kv.count == 2 { parts[kv[0].uppercased()] = kv[1].uppercased() }
        }
        guard parts["FREQ"] == "YEARLY" else { return [start] }
        let interval = Int(parts["INTERVAL"] ?? "1") ?? 1
        let count = parts["COUNT"].flatMap { Int($0) }
        let until = parts["UNTIL"].flatMap { localTime($0) }
        let months = parts["BYMONTH"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? [start.date.month]
        var out: [LocalDateTime] = []
        var year = start.date.year
        while year <= lastYear {
            for month in months where (1...12).contains(month) {
                guard let day = dayOfMonth(parts, year: year, month: month, fallback: start.date.day),
                    let date = CivilDate(year: year, month: month, day: day),
                    let t = LocalDateTime(date: date, hour: start.hour, minute: start.minute, second: start.second)
                else { continue }
                if t < start { continue }
                if let until, t > until { return out }
                out.append(t)
                if let count, out.count >= count { return out }
            }
            year += max(interval, 1)
        }
        return out
    }

    /// The day for `BYDAY=2SU`/`-1SU` (the n-th weekday from the start or end of the month),
    /// `BYMONTHDAY=n` (negative counts from the end), else the DTSTART's day.
    static func dayOfMonth(_ parts: [String: String], year: Int, month: Int, fallback: Int) -> Int? {
        let length = CivilDate.daysInMonth(year: year, month: month)
        if let byday = parts["BYDAY"]?.split(separator: ",").first {
            let weekdays = ["MO": 1, "TU": 2, "WE": 3, "TH": 4, "FR": 5, "SA": 6, "SU": 7]
            guard byday.count >= 2, let weekday = weekdays[String(byday.suffix(2))] else { return nil }
            let ordinal = Int(byday.dropLast(2)) ?? 1
            if let bymonthday = parts["BYMONTHDAY"] {
                // `BYDAY=SU;BYMONTHDAY=8,9,…,14`: the weekday among the listed days.
                for d in bymonthday.split(separator: ",").compactMap({ Int($0) }) where (1...length).contains(d) {
                    if CivilDate(year: year, month: month, day: d)?.isoWeekday == weekday { return d }
                }
                return nil
            }
            if ordinal > 0 {
                let firstWeekday = CivilDate(year: year, month: month, day: 1)!.isoWeekday
                let day = 1 + (weekday - firstWeekday + 7) % 7 + (ordinal - 1) * 7
                return day <= length ? day : nil
            }
            let lastWeekday = CivilDate(year: year, month: month, day: length)!.isoWeekday
            let day = length - (lastWeekday - weekday + 7) % 7 + (ordinal + 1) * 7
            return day >= 1 ? day : nil
        }
        if let n = parts["BYMONTHDAY"].flatMap({ Int($0.split(separator: ",").first ?? "") }) {
            let day = n > 0 ? n : length + 1 + n
            return (1...length).contains(day) ? day : nil
        }
        return min(fallback, length)
    }
}
