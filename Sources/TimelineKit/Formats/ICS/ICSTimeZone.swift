/// Turns an in-file VTIMEZONE into zone rules, from its STANDARD and DAYLIGHT observances:
/// each observance starts at DTSTART (local time in TZOFFSETFROM) and repeats by its RRULE
/// (expanded by `RecurrenceExpander`, usually `FREQ=YEARLY;BYMONTH=…;BYDAY=-1SU`) and RDATEs
/// (dates, date-times or periods). Outlook's rules starting in 1601, DAYLIGHT-only zones,
/// DATE-valued DTSTARTs and offsets with seconds are read as they are. Transitions are
/// generated only up to the year after the last one the file uses (at most 2200), and at
/// most a few a year per observance: a real one changes the offset once or twice a year.
enum ICSTimeZone {
    static let lastYear = 2200

    /// The year after the latest one the file's times name (DTSTART, DTEND, DUE,
    /// RECURRENCE-ID, RDATE, EXDATE) or the expansion window reaches; at most `lastYear`.
    static func lastYearUsed(by components: [ICSComponent], window: RecurrenceExpansion?) -> Int {
        var latest = 1970
        if let window { latest = max(latest, window.localLimit.date.year) }
        var stack = components
        while let c = stack.popLast() {
            stack += c.children
            guard c.name != "VTIMEZONE" else { continue }
            for p in c.properties
            where ["DTSTART", "DTEND", "DUE", "RECURRENCE-ID", "RDATE", "EXDATE"].contains(p.name) {
                let digits = p.value.utf8.prefix(4)
                if digits.count == 4, digits.allSatisfy({ $0 &- 0x30 < 10 }),
                    let year = Int(String(decoding: digits, as: UTF8.self))
                {
                    latest = max(latest, year)
                }
            }
        }
        return min(latest + 1, lastYear)
    }

    static func rules(
        _ component: ICSComponent, through lastYear: Int = lastYear, budget: RecurrenceBudget? = nil
    ) -> ZoneRules? {
        guard let tzid = component.property("TZID")?.value else { return nil }
        var transitions: [(at: Int64, offset: UTCOffset)] = []
        var earliest: (at: Int64, from: UTCOffset)?
        for observance in component.children
        where observance.name == "STANDARD" || observance.name == "DAYLIGHT" {
            guard let from = offset(observance.property("TZOFFSETFROM")?.value),
                let to = offset(observance.property("TZOFFSETTO")?.value),
                let startText = observance.property("DTSTART")?.value,
                let start = localTime(startText)
            else { continue }
            var starts: [LocalDateTime] = []
            if let rule = observance.property("RRULE")?.value {
                starts += onsets(
                    rule, from: start, offsetFrom: from, through: lastYear, budget: budget)
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
        guard digits.allSatisfy(\.isASCII), let h = Int(String(digits[0...1])),
            let m = Int(String(digits[2...3]))
        else { return nil }
        let s = digits.count == 6 ? Int(String(digits[4...5])) ?? 0 : 0
        return UTCOffset(hours: h, minutes: m, seconds: s, negative: sign == "-")
    }

    /// `YYYYMMDDTHHMMSS` (a trailing `Z` ignored) or `YYYYMMDD` (midnight).
    static func localTime(_ text: String) -> LocalDateTime? {
        var copy = text.trimmingSpaces
        if copy.utf8.last == UInt8(ascii: "Z") || copy.utf8.last == UInt8(ascii: "z") {
            copy = String(copy.dropLast())
        }  // a byte test
        guard let f = ISO8601Syntax.fields(copy), f.offset == nil else { return nil }
        return f.local
    }

    /// The onsets of an observance's RRULE, from its DTSTART up to UNTIL, COUNT or the end
    /// of `lastYear` — at most four a year —, by the date engine's recurrence expander. The
    /// observance's local times are in its TZOFFSETFROM, which is how a UTC UNTIL is
    /// compared. An unreadable rule gives just the DTSTART.
    static func onsets(
        _ rule: String, from start: LocalDateTime, offsetFrom: UTCOffset,
        through lastYear: Int = lastYear, budget: RecurrenceBudget? = nil
    ) -> [LocalDateTime] {
        guard case .success(let parsed) = RecurrenceRule.parse(rule) else { return [start] }
        let expander = RecurrenceExpander(rule: parsed, start: start) {
            Instant(local: $0, offset: offsetFrom)
        }
        let end = LocalDateTime(
            unchecked: CivilDate(uncheckedYear: lastYear, month: 12, day: 31), hour: 23, minute: 59,
            second: 59, nanosecond: 0)
        let years = max(lastYear - start.date.year + 1, 1)
        return expander.occurrences(through: end, maxOccurrences: 4 * years + 16, budget: budget)
            .occurrences
    }
}
