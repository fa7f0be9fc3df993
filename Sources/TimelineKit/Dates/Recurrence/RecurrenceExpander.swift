/// Expands a recurrence rule into wall-clock occurrences (RFC 5545 §3.3.10).
///
/// Works on local date-times only: a 09:00 meeting is 09:00 on every day it occurs, whatever
/// the offset that day; turning each occurrence into an instant is the caller's job (with
/// the series' zone). The one place an instant is needed is a UTC `UNTIL`, compared through
/// `instantOf`.
///
/// Per period of the frequency (a year, a month, a WKST-aligned week, a day, an hour …) the
/// candidate days are the period's days filtered by BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY
/// and BYDAY; the candidate times are BYHOUR × BYMINUTE × BYSECOND (each defaulting to the
/// start's field above the frequency); BYSETPOS then picks from the period's sorted set.
/// DTSTART is always the first occurrence, as the RFC requires, even when the rule would not
/// produce it.
package struct RecurrenceExpander: Sendable {
    package let rule: RecurrenceRule
    package let start: LocalDateTime
    private let instantOf: @Sendable (LocalDateTime) -> Instant

    /// Why an expansion stopped before the rule's own end.
    package enum Truncation: Hashable, Sendable {
        /// `maxOccurrences` reached while the rule still had occurrences up to the limit.
        case occurrenceCap(Int)
        /// So many empty periods in a row that the rule is taken to produce nothing more.
        case periodCap(Int)
        /// The file's or the run's `RecurrenceBudget` ran out.
        case budget
    }

    package struct Expansion: Hashable, Sendable {
        package var occurrences: [LocalDateTime]
        package var truncation: Truncation?
    }

    /// BYMONTH, BYMONTHDAY and BYDAY with the RFC's defaults filled in: a rule without any
    /// day part repeats on the start's day of the month (YEARLY, MONTHLY) or weekday (WEEKLY).
    private let byMonth: [Int]
    private let byMonthDay: [Int]
    private let byDay: [RecurrenceRule.WeekdayEntry]

    /// `startIsDate`: the series is all-day, so BYHOUR, BYMINUTE and BYSECOND are ignored.
    package init(
        rule: RecurrenceRule, start: LocalDateTime, startIsDate: Bool = false,
        instantOf: @escaping @Sendable (LocalDateTime) -> Instant
    ) {
        var rule = rule
        if startIsDate {
            rule.byHour = []
            rule.byMinute = []
            rule.bySecond = []
        }
        self.rule = rule
        self.start = start
        self.instantOf = instantOf
        var byMonth = rule.byMonth
        var byMonthDay = rule.byMonthDay
        var byDay = rule.byDay
        // What the rule leaves open comes from DTSTART (RFC 5545 §3.3.10: "FREQ=YEARLY;BYMONTH=1"
        // repeats on DTSTART's day): the day of the month, the month of a yearly BYMONTHDAY,
        // the weekday of a weekly rule or of a BYWEEKNO week. libical reads it the same way.
        let weekday = RecurrenceRule.WeekdayEntry(ordinal: nil, weekday: start.date.isoWeekday)
        if rule.byYearDay.isEmpty && rule.byMonthDay.isEmpty && rule.byDay.isEmpty {
            switch rule.frequency {
            case .yearly where !rule.byWeekNumber.isEmpty: byDay = [weekday]
            case .yearly:
                if byMonth.isEmpty { byMonth = [start.date.month] }
                byMonthDay = [start.date.day]
            case .monthly: byMonthDay = [start.date.day]
            case .weekly: byDay = [weekday]
            default: break
            }
        } else if rule.frequency == .yearly, byMonth.isEmpty, !rule.byMonthDay.isEmpty,
            rule.byWeekNumber.isEmpty, rule.byYearDay.isEmpty
        {
            byMonth = [start.date.month]
        }
        self.byMonth = byMonth
        self.byMonthDay = byMonthDay
        self.byDay = byDay
    }

    /// Periods examined in a row without an occurrence before giving up. A sub-daily rule
    /// steps over excluded days, hours and minutes one at a time (`skipExcluded`), so a
    /// real rule's longest empty run is a few years of days (29 February by DAILY from
    /// 1897 is eight years); a rule that can never match (`BYMONTH=2;BYMONTHDAY=30`) stops
    /// here.
    static let emptyPeriodLimit = 50_000

    /// Every occurrence from the start up to and including `limit` (local time), in order,
    /// at most `maxOccurrences` of them, charging `budget` a unit per period examined and
    /// per occurrence. COUNT counts from the start, not from any window. With `forcingStart`
    /// false the start is an occurrence (and counted) only when the rule itself produces it:
    /// how a calendar's second RRULE counts, the first having counted DTSTART.
    package func occurrences(
        through limit: LocalDateTime, maxOccurrences: Int, budget: RecurrenceBudget? = nil,
        forcingStart: Bool = true
    ) -> Expansion {
        var out: [LocalDateTime] = []
        var produced = 0
        func accept(_ t: LocalDateTime) -> Bool? {  // nil: the rule has ended
            if let count = rule.count, produced >= count { return nil }
            if let until = rule.until, isAfter(t, until) { return nil }
            if t > limit { return nil }
            produced += 1
            if out.count == maxOccurrences { return false }
            out.append(t)
            return true
        }
        if forcingStart {
            guard accept(start) != nil else {
                return Expansion(occurrences: out, truncation: nil)
            }
        }
        var period = Period(
            frequency: rule.frequency, start: start, weekStart: rule.weekStart,
            byWeekNumber: !rule.byWeekNumber.isEmpty)
        var emptyRun = 0
        while true {
            let skipped = skipExcluded(&period, upTo: limit)
            emptyRun += skipped
            if let budget, !budget.spend(skipped) {
                return Expansion(occurrences: out, truncation: .budget)
            }
            if emptyRun >= Self.emptyPeriodLimit {
                return Expansion(occurrences: out, truncation: .periodCap(Self.emptyPeriodLimit))
            }
            if period.firstDay > limit.date || period.firstDay.year > 9998 {
                return Expansion(occurrences: out, truncation: nil)
            }
            let (set, examined) = occurrencesAndDaysExamined(in: period)
            if let budget, !budget.spend(examined) {
                return Expansion(occurrences: out, truncation: .budget)
            }
            if set.isEmpty {
                emptyRun += 1
                if emptyRun >= Self.emptyPeriodLimit {
                    return Expansion(
                        occurrences: out, truncation: .periodCap(Self.emptyPeriodLimit))
                }
            } else {
                emptyRun = 0
            }
            for t in set where t > start || (t == start && !forcingStart) {
                switch accept(t) {
                case nil: return Expansion(occurrences: out, truncation: nil)
                case false?:
                    return Expansion(occurrences: out, truncation: .occurrenceCap(maxOccurrences))
                case true?: break
                }
            }
            period.advance(by: rule.interval)
            if period.firstDay > limit.date || period.firstDay.year > 9998 {
                return Expansion(occurrences: out, truncation: nil)
            }
        }
    }

    /// For an HOURLY, MINUTELY or SECONDLY rule, moves `period` past the days, hours and
    /// minutes its BY parts exclude, one step for each rather than one per period inside
    /// them; returns the steps (each an empty period, for the limits). Stops at `limit`.
    private func skipExcluded(_ period: inout Period, upTo limit: LocalDateTime) -> Int {
        guard rule.frequency <= .hourly else { return 0 }
        var steps = 0
        while period.firstDay <= limit.date && period.firstDay.year <= 9998
            && steps < Self.emptyPeriodLimit
        {
            if !matches(period.firstDay) {
                period.advance(pastUnitOf: 86_400, interval: rule.interval)
            } else if let hour = period.hour, rule.frequency < .hourly, !rule.byHour.isEmpty,
                !rule.byHour.contains(hour)
            {
                period.advance(pastUnitOf: 3600, interval: rule.interval)
            } else if let minute = period.minute, rule.frequency < .minutely,
                !rule.byMinute.isEmpty, !rule.byMinute.contains(minute)
            {
                period.advance(pastUnitOf: 60, interval: rule.interval)
            } else {
                break
            }
            steps += 1
        }
        return steps
    }

    private func isAfter(_ t: LocalDateTime, _ until: RecurrenceRule.Until) -> Bool {
        switch until {
        case .date(let d): return t.date > d
        case .local(let u): return t > u
        case .utc(let instant): return instantOf(t) > instant
        }
    }

    /// The period's occurrences, sorted, after BYSETPOS.
    func occurrences(in period: Period) -> [LocalDateTime] {
        occurrencesAndDaysExamined(in: period).occurrences
    }

    /// The period's occurrences, and the work of finding them that the budget counts: the
    /// days looked at plus the candidate occurrences before BYSETPOS.
    private func occurrencesAndDaysExamined(in period: Period) -> (
        occurrences: [LocalDateTime], examined: Int
    ) {
        // A yearly period only needs the days of its BYMONTH months (the common VTIMEZONE
        // and anniversary case): a twelfth of the work.
        let months = rule.frequency == .yearly && rule.byWeekNumber.isEmpty ? byMonth : []
        let candidates = period.days(inMonths: months)
        let days = candidates.filter { matches($0) }
        guard !days.isEmpty else { return ([], candidates.count) }
        let times = self.times(in: period)
        guard !times.isEmpty else { return ([], candidates.count) }
        var set: [LocalDateTime] = []
        set.reserveCapacity(days.count * times.count)
        for d in days {
            for (h, m, s) in times {
                set.append(
                    LocalDateTime(
                        unchecked: d, hour: h, minute: m, second: s, nanosecond: start.nanosecond))
            }
        }
        guard !rule.bySetPosition.isEmpty else { return (set, candidates.count + set.count) }
        var picked = Set<Int>()
        for p in rule.bySetPosition {
            let index = p > 0 ? p - 1 : set.count + p
            if set.indices.contains(index) { picked.insert(index) }
        }
        return (picked.sorted().map { set[$0] }, candidates.count + set.count)
    }

    /// Hour, minute, second triples of a period, sorted.
    private func times(in period: Period) -> [(Int, Int, Int)] {
        func values(_ by: [Int], _ periodValue: Int?, _ startValue: Int) -> [Int] {
            if let periodValue {  // the frequency is at or below this field: the period fixes it
                return by.isEmpty || by.contains(periodValue) ? [periodValue] : []
            }
            return by.isEmpty ? [startValue] : Array(Set(by.map { min($0, 59) })).sorted()
        }
        let hours = values(rule.byHour, period.hour, start.hour)
        let minutes = values(rule.byMinute, period.minute, start.minute)
        let seconds = values(rule.bySecond, period.second, start.second)
        var out: [(Int, Int, Int)] = []
        for h in hours { for m in minutes { for s in seconds { out.append((h, m, s)) } } }
        return out
    }

    /// Whether a day of the period passes the day-level BY rules.
    private func matches(_ d: CivilDate) -> Bool {
        let r = rule
        if !byMonth.isEmpty, !byMonth.contains(d.month) { return false }
        let yearLength = CivilDate.isLeapYear(d.year) ? 366 : 365
        let dayOfYear =
            Int(
                d.daysSinceEpoch - CivilDate(uncheckedYear: d.year, month: 1, day: 1).daysSinceEpoch
            ) + 1
        if !r.byWeekNumber.isEmpty {
            let week = WeekNumbering(weekStart: r.weekStart).week(of: d)
            guard
                r.byWeekNumber.contains(where: {
                    $0 == week.number || $0 == week.number - week.weeksInYear - 1
                })
            else { return false }
        }
        if !r.byYearDay.isEmpty,
            !r.byYearDay.contains(where: { $0 == dayOfYear || $0 == dayOfYear - yearLength - 1 })
        {
            return false
        }
        let monthLength = CivilDate.daysInMonth(year: d.year, month: d.month)
        if !byMonthDay.isEmpty,
            !byMonthDay.contains(where: { $0 == d.day || $0 == d.day - monthLength - 1 })
        {
            return false
        }
        if !byDay.isEmpty {
            let weekday = d.isoWeekday
            // Ordinals count within the month for MONTHLY (and YEARLY with BYMONTH), else the
            // year; below MONTHLY the RFC does not allow them, and they are ignored.
            let inMonth = r.frequency == .monthly || (r.frequency == .yearly && !byMonth.isEmpty)
            let usesOrdinals = r.frequency >= .monthly && r.byWeekNumber.isEmpty
            let position = inMonth ? d.day : dayOfYear
            let length = inMonth ? monthLength : yearLength
            let forward = (position - 1) / 7 + 1
            let backward = -((length - position) / 7 + 1)
            guard
                byDay.contains(where: { entry in
                    guard entry.weekday == weekday else { return false }
                    guard usesOrdinals, let n = entry.ordinal else { return true }
                    return n == forward || n == backward
                })
            else { return false }
        }
        return true
    }
}

/// One period of a rule's frequency, and how to step to the next.
struct Period {
    let frequency: RecurrenceRule.Frequency
    private(set) var firstDay: CivilDate
    /// A yearly rule with BYWEEKNO steps through week-numbering years (as libical does): the
    /// year of DTSTART's week, then every INTERVAL-th; each is its weeks 1…last, which may
    /// begin in December and end in January.
    private var weeks: (numbering: WeekNumbering, year: Int)?
    /// For HOURLY and finer: the period's wall-clock time fields (nil above the frequency).
    private(set) var hour: Int?
    private(set) var minute: Int?
    private(set) var second: Int?

    init(
        frequency: RecurrenceRule.Frequency, start: LocalDateTime, weekStart: Int,
        byWeekNumber: Bool = false
    ) {
        self.frequency = frequency
        let d = start.date
        switch frequency {
        case .yearly where byWeekNumber:
            let numbering = WeekNumbering(weekStart: weekStart)
            let year = numbering.weekYear(of: d)
            weeks = (numbering, year)
            firstDay = numbering.firstWeekStart(ofYear: year)
        case .yearly: firstDay = CivilDate(uncheckedYear: d.year, month: 1, day: 1)
        case .monthly: firstDay = CivilDate(uncheckedYear: d.year, month: d.month, day: 1)
        case .weekly: firstDay = d.adding(days: -Int64((d.isoWeekday - weekStart + 7) % 7))
        default: firstDay = d
        }
        if frequency <= .hourly { hour = start.hour }
        if frequency <= .minutely { minute = start.minute }
        if frequency <= .secondly { second = start.second }
    }

    /// The period's days; for a yearly period, only those of `months` when any are given.
    func days(inMonths months: [Int] = []) -> [CivilDate] {
        if let weeks {
            let next = weeks.numbering.firstWeekStart(ofYear: weeks.year + 1)
            return (0..<Int(next.daysSinceEpoch - firstDay.daysSinceEpoch)).map {
                firstDay.adding(days: Int64($0))
            }
        }
        switch frequency {
        case .yearly where !months.isEmpty:
            return Set(months).sorted().flatMap { month in
                (1...CivilDate.daysInMonth(year: firstDay.year, month: month)).map {
                    CivilDate(uncheckedYear: firstDay.year, month: month, day: $0)
                }
            }
        case .yearly:
            let n = CivilDate.isLeapYear(firstDay.year) ? 366 : 365
            return (0..<n).map { firstDay.adding(days: Int64($0)) }
        case .monthly:
            return (1...CivilDate.daysInMonth(year: firstDay.year, month: firstDay.month)).map {
                CivilDate(uncheckedYear: firstDay.year, month: firstDay.month, day: $0)
            }
        case .weekly: return (0..<7).map { firstDay.adding(days: Int64($0)) }
        default: return [firstDay]
        }
    }

    /// For HOURLY and finer: moves to the first period (of this rule's step times `interval`,
    /// counted from the current one) at or after the start of the next day, hour or minute
    /// (`unit`: 86,400, 3,600 or 60 seconds).
    mutating func advance(pastUnitOf unit: Int64, interval: Int) {
        let step =
            Int64(frequency == .hourly ? 3600 : frequency == .minutely ? 60 : 1) * Int64(interval)
        let now =
            firstDay.daysSinceEpoch * 86_400
            + Int64((hour ?? 0) * 3600 + (minute ?? 0) * 60 + (second ?? 0))
        // rounded down, also before 1970
        let unitStart = now >= 0 ? now / unit * unit : (now - unit + 1) / unit * unit
        // whole steps to reach the next unit
        let steps = (unitStart + unit - now + step - 1) / step
        set(secondsAsIfUTC: now + steps * step)
    }

    private mutating func set(secondsAsIfUTC seconds: Int64) {
        let t = LocalDateTime(secondsAsIfUTC: seconds, nanosecond: 0)
        firstDay = t.date
        hour = t.hour
        if frequency <= .minutely { minute = t.minute }
        if frequency <= .secondly { second = t.second }
    }

    mutating func advance(by interval: Int) {
        if let w = weeks {
            weeks = (w.numbering, w.year + interval)
            firstDay = w.numbering.firstWeekStart(ofYear: min(w.year + interval, 10_000))
            return
        }
        switch frequency {
        case .yearly:
            firstDay = CivilDate(uncheckedYear: firstDay.year + interval, month: 1, day: 1)
        case .monthly:
            let months = firstDay.year * 12 + firstDay.month - 1 + interval
            firstDay = CivilDate(uncheckedYear: months / 12, month: months % 12 + 1, day: 1)
        case .weekly: firstDay = firstDay.adding(days: Int64(7 * interval))
        case .daily: firstDay = firstDay.adding(days: Int64(interval))
        case .hourly, .minutely, .secondly:
            let step = frequency == .hourly ? 3600 : frequency == .minutely ? 60 : 1
            let now =
                firstDay.daysSinceEpoch * 86_400
                + Int64((hour ?? 0) * 3600 + (minute ?? 0) * 60 + (second ?? 0))
            let next = LocalDateTime(secondsAsIfUTC: now + Int64(step * interval), nanosecond: 0)
            firstDay = next.date
            hour = next.hour
            if frequency <= .minutely { minute = next.minute }
            if frequency <= .secondly { second = next.second }
        }
    }
}

/// RFC 5545 week numbers: weeks begin on WKST, and week 1 is the first with at least four
/// days in the year.
struct WeekNumbering {
    let weekStart: Int

    func firstWeekStart(ofYear year: Int) -> CivilDate {
        let jan1 = CivilDate(uncheckedYear: year, month: 1, day: 1)
        let into = (jan1.isoWeekday - weekStart + 7) % 7
        return jan1.adding(days: into <= 3 ? -Int64(into) : Int64(7 - into))
    }

    /// The week-numbering year a day belongs to (that of its week's Thursday-equivalent).
    func weekYear(of d: CivilDate) -> Int {
        d.adding(days: -Int64((d.isoWeekday - weekStart + 7) % 7)).adding(days: 3).year
    }

    /// The week's number and how many weeks its week-numbering year has.
    func week(of d: CivilDate) -> (number: Int, weeksInYear: Int) {
        let weekBegins = d.adding(days: -Int64((d.isoWeekday - weekStart + 7) % 7))
        let year = weekBegins.adding(days: 3).year
        let first = firstWeekStart(ofYear: year)
        let next = firstWeekStart(ofYear: year + 1)
        return (
            Int(weekBegins.daysSinceEpoch - first.daysSinceEpoch) / 7 + 1,
            Int(next.daysSinceEpoch - first.daysSinceEpoch) / 7
        )
    }
}
