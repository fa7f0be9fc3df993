/// How events are grouped (`--group`, docs/canonical-format.md).
public enum GroupingUnit: String, Sendable, CaseIterable {
    /// By calendar day.
    case day
    /// By calendar month.
    case month
    /// Not grouped (the readable outputs group by day).
    case none
}

/// Income and expense of one currency within a group, as exact decimals. Positive amounts
/// are income, negative ones expense; `currency` is nil for amounts without one.
public struct CurrencyTotal: Hashable, Sendable {
    /// The currency code (`CNY`); nil for amounts without one.
    public var currency: String?
    /// The sum of the positive amounts.
    public var income: DecimalNumber
    /// The sum of the negative amounts (negative or zero).
    public var expense: DecimalNumber
}

/// The events of one calendar day (`2024-06-12`) or month (`2024-06`) in the display zone.
struct TimelineGroup: Sendable {
    var key: String
    var events: [Event]
    var totals: [CurrencyTotal]
}

enum TimelineGrouping {
    /// The group key of an event: its start's calendar day (or month) in `zone`. An all-day
    /// date groups under its own date, never shifted.
    static func key(of event: Event, unit: GroupingUnit, zone: ZoneRules) -> String {
        let day = event.start.date ?? zone.day(of: event.start.instant!)
        let text = day.isoString
        return unit == .month ? String(text.prefix(7)) : text
    }

    /// The group of an event as a number, equal for two events exactly when their `key`s
    /// are: the day number, or the month counted from year 0.
    static func number(of event: borrowing Event, unit: GroupingUnit, zone: ZoneRules) -> Int64 {
        let day =
            event.start.date?.daysSinceEpoch ?? zone.dayNumber(of: event.start.instant!)
        guard unit == .month else { return day }
        let date = CivilDate(daysSinceEpoch: day)
        return Int64(date.year) * 12 + Int64(date.month)
    }

    /// Groups `events` (already in output order): groups appear in the order of their first
    /// event, and events keep their order inside a group.
    static func group(_ events: [Event], unit: GroupingUnit, zone: ZoneRules) -> [TimelineGroup] {
        var order: [String] = []
        var members: [String: [Event]] = [:]
        for e in events {
            let k = key(of: e, unit: unit, zone: zone)
            if members[k] == nil { order.append(k) }
            members[k, default: []].append(e)
        }
        return order.map {
            TimelineGroup(key: $0, events: members[$0]!, totals: totals(members[$0]!))
        }
    }

    /// Per-currency income and expense of the money that moved (`Event.movedAmount`),
    /// currencies sorted (no currency first).
    static func totals(_ events: [Event]) -> [CurrencyTotal] {
        var tally = CurrencyTally()
        for e in events { tally.add(e) }
        return tally.totals
    }
}

/// Income and expense per currency, summed exactly as events pass; tallies of consecutive
/// stretches of events merge (in order) into the tally of all of them. A sum beyond 38
/// digits keeps the last representable value (not reachable with real money).
struct CurrencyTally: Sendable {
    /// One currency's sums, nil on a side nothing was added to, and the scale of its first
    /// amount: a side with nothing in it reads zero at that scale (`0.00`, not `0`).
    private struct Sides: Sendable {
        var currency: String?
        var zeroScale: Int
        var income: DecimalNumber?
        var expense: DecimalNumber?

        static func sum(_ a: DecimalNumber?, _ b: DecimalNumber?) -> DecimalNumber? {
            guard let a, let b else { return a ?? b }
            return a.adding(b) ?? a
        }
    }
    private var byCurrency: [String: Sides] = [:]

    mutating func add(_ e: borrowing Event) {
        guard let a = e.movedAmount else { return }
        let k = a.currency ?? ""
        var t = byCurrency[k] ?? Sides(currency: a.currency, zeroScale: a.value.scale)
        if a.value.isNegative {
            t.expense = Sides.sum(t.expense, a.value)
        } else {
            t.income = Sides.sum(t.income, a.value)
        }
        byCurrency[k] = t
    }

    /// Adds the tally of the events that came after this one's.
    mutating func merge(_ later: CurrencyTally) {
        for (k, t) in later.byCurrency {
            guard var sides = byCurrency[k] else {
                byCurrency[k] = t
                continue
            }
            sides.income = Sides.sum(sides.income, t.income)
            sides.expense = Sides.sum(sides.expense, t.expense)
            byCurrency[k] = sides
        }
    }

    /// Currencies sorted, no currency first.
    var totals: [CurrencyTotal] {
        byCurrency.keys.sorted().map {
            let t = byCurrency[$0]!
            let zero = DecimalNumber(coefficient: 0, scale: t.zeroScale)
            return CurrencyTotal(
                currency: t.currency, income: t.income.map { zero.adding($0) ?? $0 } ?? zero,
                expense: t.expense.map { zero.adding($0) ?? $0 } ?? zero)
        }
    }
}

/// The totals of every day or month of a conversion, gathered while the events are read,
/// for an output that shows a month's totals before its days (HTML) without holding the
/// month.
struct SectionTotals: Sendable {
    let unit: GroupingUnit
    let zone: ZoneRules
    private var tallies: [String: CurrencyTally] = [:]

    init(unit: GroupingUnit, zone: ZoneRules) {
        self.unit = unit
        self.zone = zone
    }

    mutating func add(_ e: borrowing Event) {
        guard e.amount != nil else { return }
        tallies[TimelineGrouping.key(of: e, unit: unit, zone: zone), default: CurrencyTally()].add(
            e)
    }

    func totals(of key: String) -> [CurrencyTotal] { tallies[key]?.totals ?? [] }

    /// Adds the totals of the events that came after this one's.
    mutating func merge(_ later: SectionTotals) {
        for (key, tally) in later.tallies { tallies[key, default: CurrencyTally()].merge(tally) }
    }

    /// The same unit and zone, no totals yet.
    var empty: SectionTotals { SectionTotals(unit: unit, zone: zone) }
}

/// An exporter that writes a timeline in sections (days or months): the text, HTML and
/// Markdown timelines, and the JSON document under `--group` (docs/canonical-format.md).
/// It is told the number of events first, then handed one section at a time in output
/// order, so a sorted conversion holds one section, never the file.
protocol SectionExporter: TimelineExporter {
    /// The unit to cut sections by under `--group grouping` (`.none` when not given), or
    /// nil when this output has no sections for it (a plain JSON document; HTML under
    /// `--group`, whose sections are always months with days inside).
    func sectionUnit(for grouping: GroupingUnit) -> GroupingUnit?
    /// A wider unit the output shows around its sections with that unit's totals first
    /// (HTML: months around days), whose totals `beginSections` is given; nil for none.
    var enclosingUnit: GroupingUnit? { get }
    /// `enclosingTotals`: the totals of every `enclosingUnit` of the run, when there is one.
    func beginSections(
        _ header: DocumentHeader, eventCount: Int, enclosingTotals: SectionTotals?,
        to out: OutputWriter) throws(TimelineError)
    /// One section's bytes: its events in output order, with their totals. Called on worker
    /// threads, several sections at once, so it reads only what no call changes (the
    /// exporter's settings); what depends on the sections before it is `write(rendered:)`'s.
    func render(section: TimelineGroup) -> [UInt8]
    /// Writes a section `render` made, in output order, with what depends on the sections
    /// before it (a separator, a month's heading when the month changes). `section` has its
    /// key and totals; its events may be gone (let go of on the thread that rendered it).
    func write(rendered: [UInt8], of section: TimelineGroup, to out: OutputWriter)
        throws(TimelineError)
    func finishSections(to out: OutputWriter) throws(TimelineError)
}

extension SectionExporter {
    var enclosingUnit: GroupingUnit? { nil }

    func write(rendered: [UInt8], of section: TimelineGroup, to out: OutputWriter)
        throws(TimelineError)
    {
        try out.write(rendered)
    }

    /// One section, rendered on the calling thread.
    func write(section: TimelineGroup, to out: OutputWriter) throws(TimelineError) {
        try write(rendered: render(section: section), of: section, to: out)
    }

    /// Writes sections already cut.
    func write(
        sections: [TimelineGroup], header: DocumentHeader, zone: ZoneRules, to out: OutputWriter
    ) throws(TimelineError) {
        var totals = enclosingUnit.map { SectionTotals(unit: $0, zone: zone) }
        for section in sections { for e in section.events { totals?.add(e) } }
        try beginSections(
            header, eventCount: sections.reduce(0) { $0 + $1.events.count },
            enclosingTotals: totals, to: out)
        for section in sections { try write(section: section, to: out) }
        try finishSections(to: out)
    }
}
