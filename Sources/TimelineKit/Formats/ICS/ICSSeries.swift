/// Expands a recurring component (`--expand`): DTSTART + RRULE + RDATE − EXDATE, with the
/// RECURRENCE-ID overrides of the same UID put in place of the occurrences they replace.
///
/// Occurrences are computed in the wall-clock time of the series' zone (a 09:00 meeting stays
/// 09:00 across DST) and only then placed as instants, with the date engine's gap and overlap
/// policies. Each occurrence is the master's event with its own start, end (the master's
/// duration, or an RDATE period's) and id `UID/RECURRENCE-ID`, in DTSTART's form.
struct ICSSeriesExpander {
    let mapper: ICSEventMapper
    let window: RecurrenceExpansion
    /// The file's recurrence budget.
    let budget: RecurrenceBudget
    /// What set `window.maxOccurrences`, for the warning when a series reaches it.
    var cap = "\(.maxOccurrences)"

    struct Outcome {
        var events: [Event] = []
        var warnings: [(message: String, line: Int)] = []
        /// Revisions decided (`[ics-revision]`): modified instances the current series no
        /// longer has.
        var notes: [(message: String, line: Int)] = []
        var rejections: [ICSEventMapper.Rejection] = []
    }

    /// How the series tells time: all-day dates, UTC, or wall time in a zone.
    enum Clock {
        case allDay
        case utc
        case zone(ZoneRules, TimeBasis)

        var isAllDay: Bool {
            if case .allDay = self { return true }
            return false
        }
    }

    private struct Occurrence {
        var local: LocalDateTime
        /// An RDATE period's own length, overriding the master's.
        var seconds: Int64?
    }

    /// The property a series counts its occurrences from: DTSTART, or for a to-do without
    /// one its DUE; nil when there is neither.
    static func seriesStart(of c: ICSComponent) -> ICSContentLine? {
        c.property("DTSTART") ?? (c.name == "VTODO" ? c.property("DUE") : nil)
    }

    func expand(
        master: ICSComponent, event masterEvent: Event, overrides: [ICSComponent], number: Int
    ) -> Outcome {
        var outcome = Outcome()
        let startLine = Self.seriesStart(of: master)!
        if startLine.name == "DUE" {
            outcome.warnings.append(
                (
                    "to-do '\(masterEvent.id)' has no DTSTART: its occurrences are counted from DUE (\(startLine.value)), as calendar tools do",
                    startLine.line
                ))
        }
        guard let clock = mapper.clock(of: startLine),
            let startLocal = ICSTimeZone.localTime(startLine.value)
        else {
            outcome.warnings.append(
                (
                    "series '\(masterEvent.id)' cannot be expanded: its \(startLine.name) '\(startLine.value)' is not a date or date-time to count occurrences from; the master event is kept",
                    startLine.line
                ))
            outcome.events = [masterEvent]
            return outcome
        }
        let instantOf: @Sendable (LocalDateTime) -> Instant = { [clock] t in Self.instant(t, clock)
        }
        var occurrences: [Occurrence] = []
        var generated = Set<LocalDateTime>()
        func add(_ o: Occurrence) {
            if generated.insert(o.local).inserted { occurrences.append(o) }
        }
        let rules = master.all("RRULE")
        if rules.isEmpty { add(Occurrence(local: startLocal)) }
        if rules.count > 1 {
            outcome.warnings.append(
                (
                    "series '\(masterEvent.id)' has \(rules.count) RRULEs (RFC 5545 allows one): expanded as the union of their occurrences, DTSTART counted once, by the first",
                    rules[1].line
                ))
        }
        // Whether the rules were expanded to the window's end: only then does an occurrence
        // they do not produce show that the series no longer has it.
        var complete = true
        for (index, line) in rules.enumerated() {
            switch RecurrenceRule.parse(line.value) {
            case .failure(let e):
                outcome.warnings.append(
                    (
                        "series '\(masterEvent.id)' cannot be expanded: RRULE '\(line.value)': \(e.message); the master event is kept with the rule in attributes",
                        line.line
                    ))
                outcome.events = [masterEvent]
                return outcome
            case .success(let rule):
                for reading in rule.readings {
                    outcome.warnings.append(
                        ("series '\(masterEvent.id)': RRULE '\(line.value)': \(reading)", line.line)
                    )
                }
                if let mismatch = Self.untilTypeMismatch(rule.until, allDay: clock.isAllDay) {
                    outcome.warnings.append(
                        (
                            "series '\(masterEvent.id)': RRULE '\(line.value)': \(mismatch)",
                            line.line
                        ))
                }
                let expansion = RecurrenceExpander(
                    rule: rule, start: startLocal, startIsDate: clock.isAllDay, instantOf: instantOf
                )
                .occurrences(
                    through: window.localLimit, maxOccurrences: window.maxOccurrences,
                    budget: budget, forcingStart: index == 0)
                for local in expansion.occurrences { add(Occurrence(local: local)) }
                if expansion.truncation != nil { complete = false }
                switch expansion.truncation {
                case .occurrenceCap(let n)?:
                    outcome.warnings.append(
                        (
                            "series '\(masterEvent.id)' stopped after \(n) occurrences (\(cap)); raise the cap or narrow \(.expand)",
                            line.line
                        ))
                case .periodCap(let n)?:
                    outcome.warnings.append(
                        (
                            "series '\(masterEvent.id)' produced nothing in \(n) periods in a row; expansion stopped there",
                            line.line
                        ))
                case .budget?:
                    outcome.warnings.append(
                        (
                            "series '\(masterEvent.id)' stopped: expanding this file's (or this run's) recurrences took more work than any real calendar needs",
                            line.line
                        ))
                case nil: break
                }
            }
        }
        for line in master.all("RDATE") {
            for item in line.value.split(separator: ",") {
                let parts = item.split(separator: "/", maxSplits: 1).map(String.init)
                guard let local = seriesLocal(parts[0], line, clock) else {
                    outcome.warnings.append(
                        ("RDATE value '\(item)' is not a date or date-time; skipped", line.line))
                    continue
                }
                var seconds: Int64?
                if parts.count == 2 {
                    if let d = ICSDuration.seconds(parts[1]) {
                        seconds = d
                    } else if let end = seriesLocal(parts[1], line, clock) {
                        seconds = instantOf(end).seconds - instantOf(local).seconds
                    }
                }
                add(Occurrence(local: local, seconds: seconds))
            }
        }
        var excluded = Set<LocalDateTime>()
        var excludedDays = Set<CivilDate>()
        for line in master.all("EXDATE") {
            for item in line.value.split(separator: ",") {
                guard let local = seriesLocal(String(item), line, clock) else {
                    outcome.warnings.append(
                        ("EXDATE value '\(item)' is not a date or date-time; skipped", line.line))
                    continue
                }
                if line.parameter("VALUE")?.uppercased() == "DATE" || item.count == 8 {
                    excludedDays.insert(local.date)
                }
                excluded.insert(local)
            }
        }
        // Overrides: each replaces the occurrence its RECURRENCE-ID names; THISANDFUTURE ones
        // also carry their changes (and time shift) to every later occurrence.
        var replaced = Set<LocalDateTime>()
        var futureChanges: [(from: LocalDateTime, shift: Int64, event: Event)] = []
        let masterSequence = Self.sequence(of: master)
        for o in overrides {
            let idLine = o.property("RECURRENCE-ID")!
            switch mapper.event(o, number: number) {
            case .failure(let r): outcome.rejections.append(r)
            case .success(let e):
                guard let id = seriesLocal(idLine.value, idLine, clock) else {
                    outcome.warnings.append(
                        (
                            "RECURRENCE-ID '\(idLine.value)' is not a date or date-time; the override is kept as it is",
                            idLine.line
                        ))
                    outcome.events.append(e)
                    continue
                }
                replaced.insert(id)
                // An override revises an instance of the recurrence set (RFC 5545 §3.8.4.4):
                // one the current master deletes or no longer produces is gone, unless it is
                // newer than the master (a higher SEQUENCE).
                let sequence = Self.sequence(of: o)
                if sequence <= masterSequence,
                    let why = Self.goneReason(
                        id, excluded: excluded, excludedDays: excludedDays,
                        produced: generated, complete: complete && id <= window.localLimit,
                        olderThanMaster: sequence < masterSequence)
                {
                    outcome.notes.append(
                        (
                            "modified instance \(idLine.value) of series '\(masterEvent.id)' (line \(o.line)) dropped: \(why)",
                            o.line
                        ))
                    continue
                }
                let start =
                    e.start.local
                    ?? LocalDateTime(
                        unchecked: e.start.date!, hour: 0, minute: 0, second: 0, nanosecond: 0)
                if idLine.parameter("RANGE")?.uppercased() == "THISANDFUTURE" {
                    futureChanges.append((id, start.secondsAsIfUTC - id.secondsAsIfUTC, e))
                }
                if window.contains(local: start, instant: e.start.instant) {
                    outcome.events.append(e)
                }
            }
        }
        futureChanges.sort { $0.from < $1.from }
        let masterSeconds = duration(of: masterEvent)
        for o in occurrences.sorted(by: { $0.local < $1.local }) {
            guard !excluded.contains(o.local), !excludedDays.contains(o.local.date),
                !replaced.contains(o.local)
            else { continue }
            var event = masterEvent
            var local = o.local
            var seconds = o.seconds ?? masterSeconds
            if let change = futureChanges.last(where: { $0.from < o.local }) {
                local = LocalDateTime(
                    secondsAsIfUTC: local.secondsAsIfUTC + change.shift,
                    nanosecond: local.nanosecond)
                event.title = change.event.title
                event.detail = change.event.detail
                event.location = change.event.location
                event.status = change.event.status
                event.tags = change.event.tags
                event.links = change.event.links
                seconds = o.seconds ?? duration(of: change.event)
            }
            switch place(local, clock) {
            case .failure(let r):
                outcome.rejections.append(
                    .init(
                        reason:
                            "occurrence \(o.local.isoString(fractionDigits: 0)) of series '\(masterEvent.id)': \(r.reason)",
                        code: r.code))
                continue
            case .success(let start):
                guard window.contains(local: local, instant: start.instant) else { continue }
                event.start = start
                event.end = nil
                if let seconds {
                    guard let end = mapper.add(seconds, to: start) else {
                        outcome.rejections.append(
                            .init(
                                reason:
                                    "occurrence \(o.local.isoString(fractionDigits: 0)) of series '\(masterEvent.id)': its end is \(SupportedRange.outside)",
                                code: .outOfRange))
                        continue
                    }
                    event.end = end
                }
            }
            event.id = masterEvent.id + "/" + Self.recurrenceID(o.local, clock)
            for name in ["RRULE", "RDATE", "EXDATE"] { event.attributes[name] = nil }
            if let outside = event.unsupportedTime() {
                outcome.rejections.append(
                    .init(
                        reason: "occurrence of series '\(masterEvent.id)': \(outside)",
                        code: .outOfRange))
                continue
            }
            outcome.events.append(event)
        }
        outcome.events.sort {
            ($0.start.instant?.seconds ?? 0, $0.id) < ($1.start.instant?.seconds ?? 0, $1.id)
        }
        return outcome
    }

    /// A component's SEQUENCE (0 when it has none, RFC 5545 §3.8.7.4).
    static func sequence(of c: ICSComponent) -> Int {
        c.property("SEQUENCE").flatMap { Int($0.value.trimmingSpaces) } ?? 0
    }

    /// Why the instance `id` is no longer in the series: deleted by an EXDATE, or — for an
    /// override older than the master, when the master's rules were expanded past it — no
    /// longer produced by them; nil when it is still there.
    static func goneReason(
        _ id: LocalDateTime, excluded: Set<LocalDateTime>, excludedDays: Set<CivilDate>,
        produced: Set<LocalDateTime>, complete: Bool, olderThanMaster: Bool
    ) -> String? {
        if excluded.contains(id) || excludedDays.contains(id.date) {
            return "the series' EXDATE deletes that instance"
        }
        if olderThanMaster && complete && !produced.contains(id) {
            return "the current series (a higher SEQUENCE) no longer has that instance"
        }
        return nil
    }

    /// Why an UNTIL of the other value type than DTSTART (RFC 5545 §3.3.10 requires the same)
    /// is read as it is; nil when the types agree.
    static func untilTypeMismatch(_ until: RecurrenceRule.Until?, allDay: Bool) -> String? {
        switch until {
        case .date(let day)? where !allDay:
            return
                "UNTIL=\(day.isoString) is a DATE but DTSTART is a DATE-TIME (RFC 5545 §3.3.10 wants the same type); read as the whole of that day in the series' zone"
        case .utc?, .local?:
            return allDay
                ? "UNTIL is a DATE-TIME but DTSTART is a DATE (RFC 5545 §3.3.10 wants the same type); read as the day it falls on"
                : nil
        default: return nil
        }
    }

    /// The master's length in seconds (whole days for an all-day event); nil without an end.
    private func duration(of e: Event) -> Int64? {
        guard let end = e.end else { return nil }
        if let a = e.start.date, let b = end.date {
            return (b.daysSinceEpoch - a.daysSinceEpoch) * 86_400
        }
        guard let a = e.start.instant, let b = end.instant else { return nil }
        return b.seconds - a.seconds
    }

    /// An RDATE/EXDATE/RECURRENCE-ID value as a wall time of the series' clock: a UTC value
    /// (even on a zoned series) or one in another TZID is converted; others are taken as is.
    private func seriesLocal(_ text: String, _ line: ICSContentLine, _ clock: Clock)
        -> LocalDateTime?
    {
        let trimmed = text.trimmingSpaces
        guard let local = ICSTimeZone.localTime(trimmed) else { return nil }
        guard case .zone(let rules, _) = clock else { return local }
        var instant: Instant?
        if trimmed.hasSuffix("Z") || trimmed.hasSuffix("z") {
            instant = Instant(local: local, offset: .utc)
        } else if let tzid = line.parameter("TZID"), tzid != rules.identifier,
            let other = mapper.zoneRules(named: tzid)
        {
            instant = Self.instant(local, .zone(other, .zone))
        }
        guard let instant else { return local }
        return instant.local(in: rules.offset(at: instant))
    }

    private func place(_ local: LocalDateTime, _ clock: Clock) -> Result<
        TimeValue, ICSEventMapper.Rejection
    > {
        switch clock {
        case .allDay: return .success(TimeValue(date: local.date))
        case .utc:
            return .success(
                TimeValue(
                    instant: Instant(local: local, offset: .utc), offset: .utc, basis: .offset))
        case .zone(let rules, let basis):
            switch mapper.parser.place(local, in: rules, basis: basis, fractionDigits: 0) {
            case .success(let parsed):
                if let n = parsed.notice { mapper.notices.items.append(n) }
                return .success(parsed.value)
            case .failure(let e):
                return .failure(
                    .init(reason: e.message(for: local.isoString(fractionDigits: 0)), code: e.code))
            }
        }
    }

    /// A wall time as an instant, the first of two in an overlap and shifted forward in a gap
    /// (RFC 5545 §3.3.5). Only used for comparisons (UNTIL, periods).
    static func instant(_ t: LocalDateTime, _ clock: Clock) -> Instant {
        guard case .zone(let rules, _) = clock else { return Instant(local: t, offset: .utc) }
        return rules.instantReadingGapsForward(t)
    }

    /// The occurrence's RECURRENCE-ID in DTSTART's form: `YYYYMMDD`, `…THHMMSSZ` or local.
    static func recurrenceID(_ t: LocalDateTime, _ clock: Clock) -> String {
        switch clock {
        case .allDay: return ICSExporter.basicDate(t.date)
        case .utc: return ICSExporter.basic(t) + "Z"
        case .zone: return ICSExporter.basic(t)
        }
    }
}
