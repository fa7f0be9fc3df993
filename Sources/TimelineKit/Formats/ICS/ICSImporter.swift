/// `ics`: iCalendar (RFC 5545) calendars from Outlook, Google, Apple, Nextcloud and friends.
///
/// VEVENT, VTODO and VJOURNAL become events: UID → id (with RECURRENCE-ID appended for an
/// override), SUMMARY → title, DESCRIPTION → detail, LOCATION, STATUS, CATEGORIES → tags,
/// URL/ATTACH → links, X-WR-CALNAME → series, CREATED → recorded, and every other property
/// → attributes (raw value; a repeated property's values joined by a newline).
///
/// Times: `VALUE=DATE` stays a date (a DATE start with neither end nor duration lasts one
/// day; DTEND of a date is exclusive and kept so); `Z` is UTC; a TZID is resolved as an IANA
/// or legacy name, a Windows name (CLDR), a `/vendor/…/Area/City` id, else the file's own
/// VTIMEZONE (wherever it stands in the file), else the component is rejected naming the
/// TZID (TZ110). Floating times take `--assume-zone`, else the calendar's X-WR-TIMEZONE, else
/// are rejected as naive (TZ101) — never silently UTC. A component without a usable start
/// (DTSTART, or DUE for a to-do) is rejected with the reason. Without `--expand` a recurring
/// series is its master event with RRULE/RDATE/EXDATE in `attributes`; with it, one event per
/// occurrence in the window (see `ICSSeriesExpander`).
struct ICSImporter: TimelineImporter {
    init() {}

    func read(from input: InputReader, context: ImportContext) throws(TimelineError) {
        let window = context.options.ics.window
        let components = try ICSComponent.read(input) { error in
            context.report(
                Diagnostic(
                    .warning, error.message, at: SourceLocation(file: input.name, line: error.line),
                    code: "ics-syntax"))
        }
        let budget = RecurrenceBudget(RecurrenceBudget.perFile, within: context.recurrence)
        // Every VTIMEZONE of the file, wherever it stands (Evolution puts them last), with
        // its transitions up to the last year the file's times (and the window) reach.
        let lastYear = ICSTimeZone.lastYearUsed(by: components, window: window)
        var fileZones: [String: ZoneRules] = [:]
        func collectZones(_ c: ICSComponent) {
            if c.name == "VTIMEZONE",
                let rules = ICSTimeZone.rules(c, through: lastYear, budget: budget)
            {
                fileZones[rules.identifier] = rules
                // A TZID the resolver cannot place is known from here on by the file's rules.
                if case .failure = context.dateParser.zone(named: rules.identifier) {
                    ZoneResolver.registerFileDefined(rules)
                }
            }
            c.children.forEach(collectZones)
        }
        components.forEach(collectZones)
        var number = 0
        for top in components {
            let calendar = top.name == "VCALENDAR" ? top : nil
            // A calendar, or an iCalendar component on its own (a VTIMEZONE file), may hold no event.
            if top.name.hasPrefix("V") { context.recognise() }
            let items = calendar?.children ?? [top]
            let mapper = ICSEventMapper(
                file: input.name, format: context.format, parser: context.dateParser,
                fileZones: fileZones,
                calendarZone: calendar?.property("X-WR-TIMEZONE")?.value.trimmingSpaces,
                calendarName: calendar?.property("X-WR-CALNAME").map { ICSText.unescape($0.value) })
            // Older versions of a UID (and of an instance) give way to the current one first,
            // with or without --expand; they keep their record numbers.
            let revisions = ICSRevisions(items)
            for note in revisions.notes {
                context.report(
                    Diagnostic(
                        .info, note.message, at: SourceLocation(file: input.name, line: note.line),
                        code: "ics-revision"))
            }
            let current = items.indices.filter { !revisions.dropped.contains($0) }.map { items[$0] }
            let series = window.map { _ in ICSSeriesIndex(current) }
            var keptAsFirst = 0
            defer {
                if keptAsFirst > 0 {
                    context.report(
                        Diagnostic(
                            .info,
                            "\(keptAsFirst) recurring series kept as their first occurrence (the rule in attributes); \(.expand, "FROM..UNTIL") writes one event per occurrence in that window",
                            at: SourceLocation(file: input.name), code: "ics-recurrence"))
                }
            }
            for (index, item) in items.enumerated()
            where ["VEVENT", "VTODO", "VJOURNAL"].contains(item.name) {
                number += 1
                if revisions.dropped.contains(index) { continue }
                let location = SourceLocation(file: input.name, line: item.line)
                func reject(_ r: ICSEventMapper.Rejection) {
                    context.reject(
                        RejectedRecord(
                            location: location, raw: "BEGIN:\(item.name) (line \(item.line))",
                            reason: r.reason, code: r.code))
                }
                if let series, series.isHandledByItsMaster(item) { continue }
                defer { context.report(mapper.notices.drain(), at: location) }
                switch mapper.event(item, number: number) {
                case .success(let event):
                    guard let window, let series, series.isMaster(item) else {
                        if window == nil && ICSSeriesIndex.isMaster(item) { keptAsFirst += 1 }
                        try context.emit(event)
                        continue
                    }
                    // No series expands more than the run still takes.
                    let total = context.options.ics.maxTotalOccurrences
                    guard budget.occurrencesLeft > 0 else {
                        context.report(
                            Diagnostic(
                                .warning,
                                "series '\(event.id)' not expanded: the run reached \(.maxTotalOccurrences, "\(total)")",
                                at: location,
                                code: "ics-recurrence"))
                        continue
                    }
                    var seriesWindow = window
                    var cap = "\(.maxOccurrences)"
                    if budget.occurrencesLeft < window.maxOccurrences {
                        seriesWindow.maxOccurrences = budget.occurrencesLeft
                        cap = "the run reached \(.maxTotalOccurrences, "\(total)")"
                    }
                    let outcome = ICSSeriesExpander(
                        mapper: mapper, window: seriesWindow, budget: budget, cap: cap
                    )
                    .expand(
                        master: item, event: event, overrides: series.overrides(of: item),
                        number: number)
                    for w in outcome.warnings {
                        context.report(
                            Diagnostic(
                                .warning, w.message,
                                at: SourceLocation(file: input.name, line: w.line),
                                code: "ics-recurrence"))
                    }
                    for n in outcome.notes {
                        context.report(
                            Diagnostic(
                                .info, n.message,
                                at: SourceLocation(file: input.name, line: n.line),
                                code: "ics-revision"))
                    }
                    outcome.rejections.forEach(reject)
                    let taken = budget.takeOccurrences(outcome.events.count)
                    if taken < outcome.events.count {
                        context.report(
                            Diagnostic(
                                .warning,
                                "series '\(event.id)' cut off after \(taken) of its \(outcome.events.count) occurrences: the run reached \(.maxTotalOccurrences, "\(context.options.ics.maxTotalOccurrences)")",
                                at: location, code: "ics-recurrence"))
                    }
                    for e in outcome.events.prefix(taken) { try context.emit(e) }
                case .failure(let r): reject(r)
                }
            }
        }
    }
}

/// Maps one calendar's components to events.
struct ICSEventMapper {
    let file: String
    let format: String
    let parser: DateParser
    let fileZones: [String: ZoneRules]
    let calendarZone: String?
    let calendarName: String?
    /// What the date engine decided while placing times (a gap shifted, an overlap
    /// resolved: TZ104/TZ105); the importer reports and clears it after each component.
    let notices = NoticeLog()

    struct Rejection: Error {
        var reason: String
        var code: FindingCode
    }

    static let mapped: Set<String> = [
        "UID", "SUMMARY", "DESCRIPTION", "LOCATION", "STATUS", "CATEGORIES", "URL", "ATTACH",
        "DTSTART", "DTEND", "DUE",
        "DURATION", "CREATED", "RECURRENCE-ID", "X-TIMELINE-SERIES", "X-TIMELINE-CATEGORY",
        "X-TIMELINE-AMOUNT",
        "X-TIMELINE-STATUS", "X-TIMELINE-ATTRIBUTE", "X-TIMELINE-LINK",
    ]

    func event(_ c: ICSComponent, number: Int) -> Result<Event, Rejection> {
        do throws(Rejection) {
            let startLine = c.property("DTSTART") ?? (c.name == "VTODO" ? c.property("DUE") : nil)
            guard let startLine else {
                throw Rejection(
                    reason:
                        "\(c.name) has no DTSTART\(c.name == "VTODO" ? " or DUE" : ""); it cannot be placed on a timeline",
                    code: .missingStart)
            }
            let start = try time(startLine)
            var end: TimeValue?
            if let e = c.property("DTEND")
                ?? (c.name == "VTODO" && c.property("DTSTART") != nil ? c.property("DUE") : nil)
            {
                end = try time(e)
            } else if let d = c.property("DURATION") {
                let seconds: Int64
                switch ICSDuration.read(d.value) {
                case .seconds(let s)?: seconds = s
                case .tooLong?:
                    throw Rejection(
                        reason:
                            "line \(d.line): DTSTART plus DURATION '\(d.value)' is \(SupportedRange.outside)",
                        code: .outOfRange)
                case nil:
                    throw Rejection(
                        reason: "line \(d.line): cannot read DURATION '\(d.value)'",
                        code: .unparseable)
                }
                guard let e = add(seconds, to: start) else {
                    throw Rejection(
                        reason:
                            "line \(d.line): DTSTART plus DURATION '\(d.value)' is \(SupportedRange.outside)",
                        code: .outOfRange)
                }
                end = e
            } else if let day = start.date, c.name == "VEVENT" {
                end = TimeValue(date: day.adding(days: 1))
            }
            var event = Event(id: "", start: start, title: "")
            event.end = end
            let uid = c.property("UID")?.value.trimmingSpaces
            event.id =
                (uid?.isEmpty == false
                    ? uid!
                    : Event.generatedID(prefix: Event.generatedIDPrefix(file: file), record: number))
                + (c.property("RECURRENCE-ID").map { "/" + $0.value.trimmingSpaces } ?? "")
            event.title = c.property("SUMMARY").map { ICSText.unescape($0.value) } ?? ""
            event.detail = c.property("DESCRIPTION").map { ICSText.unescape($0.value) }
            event.location = c.property("LOCATION").map { ICSText.unescape($0.value) }
            event.status = c.property("STATUS").flatMap { Self.status($0.value) }
            event.tags = c.all("CATEGORIES").flatMap { ICSText.splitList($0.value) }
            // In the file's order: our exporter writes a link that is no web or mail address
            // as text in X-TIMELINE-LINK, between the others.
            event.links = c.properties.compactMap { p in
                switch p.name {
                case "URL": return p.value.trimmingSpaces
                case "ATTACH":
                    return p.parameter("VALUE") == "BINARY" ? nil : p.value.trimmingSpaces
                case "X-TIMELINE-LINK": return ICSText.unescape(p.value)
                default: return nil
                }
            }
            event.series = calendarName
            event.recorded = c.property("CREATED").flatMap { try? time($0) }
            // What our own exporter wrote beyond RFC 5545 comes back to the same fields.
            if let s = c.property("X-TIMELINE-SERIES") { event.series = ICSText.unescape(s.value) }
            event.category = c.property("X-TIMELINE-CATEGORY").map { ICSText.unescape($0.value) }
            if let a = c.property("X-TIMELINE-AMOUNT"),
                let value = DecimalNumber(a.value.trimmingSpaces)
            {
                event.amount = Amount(value: value, currency: a.parameter("X-CURRENCY"))
            }
            if let s = c.property("X-TIMELINE-STATUS").flatMap({
                EventStatus(rawValue: $0.value.trimmingSpaces)
            }) {
                event.status = s
            }
            // A repeated property's values joined by line breaks once, at the end: appending
            // to the text so far would copy it again for every value.
            var repeated: [String: [String]] = [:]
            for p in c.properties where !Self.mapped.contains(p.name) {
                repeated[p.name, default: []].append(p.value)
            }
            var attributes = repeated.mapValues {
                $0.count == 1 ? $0[0] : $0.joined(separator: "\n")
            }
            for p in c.all("X-TIMELINE-ATTRIBUTE") {
                if let name = p.parameter("X-NAME") { attributes[name] = ICSText.unescape(p.value) }
            }
            if let s = c.property("STATUS"), event.status == nil { attributes["STATUS"] = s.value }
            if c.name != "VEVENT" { attributes["COMPONENT"] = c.name }
            event.attributes = attributes
            event.source = SourceReference(format: format, file: file, record: number, line: c.line)
            if let outside = event.unsupportedTime() {
                throw Rejection(reason: outside, code: .outOfRange)
            }
            return .success(event)
        } catch {
            return .failure(error)
        }
    }

    static func status(_ word: String) -> EventStatus? {
        switch word.trimmingSpaces.uppercased() {
        case "CONFIRMED", "COMPLETED", "FINAL": return .completed
        case "IN-PROCESS": return .processing
        case "TENTATIVE", "NEEDS-ACTION", "DRAFT": return .pending
        case "CANCELLED", "CANCELED": return .cancelled
        default: return nil
        }
    }

    /// A DTSTART/DTEND/DUE/CREATED value as a canonical time value.
    func time(_ p: ICSContentLine) throws(Rejection) -> TimeValue {
        let text = p.value.trimmingSpaces
        let isDate = Self.isDateValue(p)
        guard let local = ICSTimeZone.localTime(text) else {
            throw Rejection(
                reason:
                    "line \(p.line): cannot read \(p.name) '\(text)' as an iCalendar date or date-time",
                code: .unparseable)
        }
        if isDate { return TimeValue(date: local.date, raw: text) }
        func value(_ r: Result<ParsedTimeValue, DateParseError>) throws(Rejection) -> TimeValue {
            switch r {
            case .success(let parsed):
                if let n = parsed.notice { notices.items.append(n) }
                var v = parsed.value
                v.raw = text
                return v
            case .failure(let e):
                throw Rejection(
                    reason: "line \(p.line): \(p.name) " + e.message(for: text), code: e.code)
            }
        }
        if text.hasSuffix("Z") || text.hasSuffix("z") {
            return TimeValue(
                instant: Instant(local: local, offset: .utc), offset: .utc, basis: .offset,
                raw: text)
        }
        if let tzid = p.parameter("TZID"), !tzid.isEmpty {
            if let rules = zoneRules(named: tzid) {
                return try value(parser.place(local, in: rules, basis: .zone, fractionDigits: 0))
            }
            throw Rejection(
                reason:
                    "line \(p.line): unknown TZID '\(tzid)': not an IANA, legacy, Windows or vendor-prefixed zone, and the file has no VTIMEZONE for it",
                code: .unknownZone)
        }
        // Floating: --assume-zone, else the calendar's X-WR-TIMEZONE, else naive.
        if parser.options.assumedZone == nil, let name = calendarZone,
            case .success(let zone) = parser.zone(named: name)
        {
            return try value(parser.place(local, in: zone.rules, basis: .zone, fractionDigits: 0))
        }
        return try value(parser.parse(text))
    }

    /// `VALUE=DATE`, or a bare `YYYYMMDD` (some producers omit the parameter).
    static func isDateValue(_ p: ICSContentLine) -> Bool {
        let text = p.value.trimmingSpaces
        return p.parameter("VALUE")?.uppercased() == "DATE"
            || (text.count == 8 && text.allSatisfy(\.isNumber))
    }

    /// A TZID's rules: a name the resolver knows, else the file's own VTIMEZONE.
    func zoneRules(named tzid: String) -> ZoneRules? {
        if case .success(let zone) = parser.zone(named: tzid) { return zone.rules }
        return fileZones[tzid]
    }

    /// How a recurring component's DTSTART tells time (nil when it cannot be placed).
    func clock(of p: ICSContentLine) -> ICSSeriesExpander.Clock? {
        let text = p.value.trimmingSpaces
        if Self.isDateValue(p) { return .allDay }
        if text.hasSuffix("Z") || text.hasSuffix("z") { return .utc }
        if let tzid = p.parameter("TZID"), !tzid.isEmpty {
            return zoneRules(named: tzid).map { .zone($0, .zone) }
        }
        if let assumed = parser.options.assumedZone { return .zone(assumed.rules, .assumed) }
        if let name = calendarZone, case .success(let zone) = parser.zone(named: name) {
            return .zone(zone.rules, .zone)
        }
        return nil
    }

    /// `start` moved by `seconds` (whole days for a date), in its zone; nil when the result
    /// leaves the years 0001–9999.
    func add(_ seconds: Int64, to start: TimeValue) -> TimeValue? {
        if let d = start.date {
            // |seconds| / 86,400 cannot overflow a day number
            let day = d.daysSinceEpoch + seconds / 86_400
            return SupportedRange.contains(day: day)
                ? TimeValue(date: CivilDate(daysSinceEpoch: day)) : nil
        }
        guard let instant = start.instant!.adding(seconds: seconds) else { return nil }
        let offset =
            start.zone.flatMap { ZoneResolver.ianaRules($0)?.offset(at: instant) } ?? start.offset!
        let end = TimeValue(
            instant: instant, offset: offset, zone: start.zone, basis: start.basis,
            fractionDigits: start.fractionDigits)
        return end.isInSupportedRange ? end : nil
    }
}

/// RFC 5545 DURATION: `[+-]P[nW]` or `[+-]P[nD][T[nH][nM][nS]]`.
enum ICSDuration {
    /// A duration read, or one too long to count in seconds (far beyond any date that can be
    /// written).
    enum Reading: Equatable {
        case seconds(Int64)
        case tooLong
    }

    /// The duration in seconds; nil when it is not one or too long.
    static func seconds(_ text: String) -> Int64? {
        if case .seconds(let s)? = read(text) { return s }
        return nil
    }

    /// The duration; nil when `text` is not one.
    static func read(_ text: String) -> Reading? {
        var s = Substring(text.trimmingSpaces.uppercased())
        var sign: Int64 = 1
        if s.first == "-" || s.first == "+" {
            if s.first == "-" { sign = -1 }
            s = s.dropFirst()
        }
        guard s.first == "P" else { return nil }
        s = s.dropFirst()
        var total: Int64 = 0
        var number = ""
        var inTime = false
        var sawUnit = false
        var tooLong = false
        for c in s {
            if c.isNumber {
                number.append(c)
                continue
            }
            if c == "T" {
                inTime = true
                continue
            }
            guard !number.isEmpty, number.allSatisfy(\.isASCII) else { return nil }
            let n = Int64(number) ?? Int64.max  // more digits than Int64 holds: too long
            number = ""
            sawUnit = true
            let unit: Int64
            switch (c, inTime) {
            case ("W", false): unit = 7 * 86_400
            case ("D", false): unit = 86_400
            case ("H", true): unit = 3600
            case ("M", true): unit = 60
            case ("S", true): unit = 1
            default: return nil
            }
            let (part, overflow) = n.multipliedReportingOverflow(by: unit)
            let (sum, overflowed) = total.addingReportingOverflow(part)
            if overflow || overflowed { tooLong = true }
            total = sum
        }
        guard number.isEmpty, sawUnit else { return nil }
        return tooLong ? .tooLong : .seconds(sign * total)
    }
}

/// Which components of a calendar are recurring masters, and the overrides of each UID.
struct ICSSeriesIndex {
    private var masterUIDs: Set<String> = []
    private var overridesByUID: [String: [ICSComponent]] = [:]

    init(_ items: [ICSComponent]) {
        for item in items {
            guard let uid = Self.uid(item) else { continue }
            if item.property("RECURRENCE-ID") != nil {
                overridesByUID[uid, default: []].append(item)
            } else if isMaster(item) {
                masterUIDs.insert(uid)
            }
        }
    }

    private static func uid(_ c: ICSComponent) -> String? {
        guard let uid = c.property("UID")?.value.trimmingSpaces, !uid.isEmpty else { return nil }
        return uid
    }

    /// A recurring component: a rule or dates, and a start to count them from (a to-do with
    /// no DTSTART counts from its DUE, as calendar tools do).
    func isMaster(_ c: ICSComponent) -> Bool { Self.isMaster(c) }

    static func isMaster(_ c: ICSComponent) -> Bool {
        c.property("RECURRENCE-ID") == nil && ICSSeriesExpander.seriesStart(of: c) != nil
            && (c.property("RRULE") != nil || c.property("RDATE") != nil)
    }

    /// An override whose master is in the same file is emitted by the master's expansion.
    func isHandledByItsMaster(_ c: ICSComponent) -> Bool {
        guard c.property("RECURRENCE-ID") != nil, let uid = Self.uid(c) else { return false }
        return masterUIDs.contains(uid)
    }

    func overrides(of master: ICSComponent) -> [ICSComponent] {
        Self.uid(master).flatMap { overridesByUID[$0] } ?? []
    }
}

/// Date-engine notices collected while mapping one component.
final class NoticeLog {
    var items: [DateNotice] = []

    /// The notices so far, each once, in order; the log is empty afterwards.
    func drain() -> [DateNotice] {
        defer { items = [] }
        var seen = Set<DateNotice>()
        return items.filter { seen.insert($0).inserted }
    }
}
