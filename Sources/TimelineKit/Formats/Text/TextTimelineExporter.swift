/// `text`: a readable timeline for a terminal or an email.
///
/// ```
/// Timeline · 12 events · times in Asia/Shanghai
///
/// Tue 11 Jun 2024
/// │ 23:42  ○ Order placed
/// │ 23:44  ✔ Payment received                      +¥199.00
/// │          Alipay
/// └ income +¥199.00
/// ```
///
/// Day (or month) headers in the display zone; one node per event with its time of day, a
/// status mark (✔ completed, ● processing, ○ pending, ✖ cancelled, · none), the title, the
/// amount aligned in a column (East Asian wide characters count as two columns), the detail
/// indented below; the date only in the header; income and expense totals per currency;
/// relative times against `now` ("3 hours ago", "yesterday", "in 2 hours"); English or
/// Simplified Chinese; ANSI colour only when asked for.
final class TextTimelineExporter: SectionExporter {
    var showsTimesInDisplayZone: Bool { true }
    struct Options: Sendable {
        var locale: TimelineLocale = .english
        /// The moment relative times are counted from (`--now`).
        var now: Instant
        var color = false
        var grouping: GroupingUnit = .day
        /// Income on the left of the line, everything else on the right (`--layout split`).
        var split = false

        init(now: Instant) {
            self.now = now
        }
    }

    private let export: WriteOptions
    private let options: Options
    private var events: [Event] = []

    init(export: WriteOptions, options: Options) {
        self.export = export
        self.options = options
    }

    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}

    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        events.append(event)
    }

    /// Events handed over one by one may be in any order: they are ordered and cut here.
    func finish(to out: OutputWriter) throws(TimelineError) {
        let order: SortOrder = export.descending ? .desc : .asc
        let ordered = events.sortedForTimeline(order, zone: export.displayZone.rules)
        let groups = TimelineGrouping.group(ordered, unit: unit, zone: export.displayZone.rules)
        try write(
            sections: groups, header: export.documentHeader, zone: export.displayZone.rules, to: out
        )
    }

    private var unit: GroupingUnit { options.grouping == .none ? .day : options.grouping }

    func sectionUnit(for grouping: GroupingUnit) -> GroupingUnit? { unit }

    func beginSections(
        _ header: DocumentHeader, eventCount: Int, enclosingTotals: SectionTotals?,
        to out: OutputWriter
    ) throws(TimelineError) {
        let words = options.locale.words
        try out.write(
            "\(words.timeline) · \(words.events(eventCount)) · \(words.timesIn) \(header.zoneShown)\n"
        )
    }

    func render(section group: TimelineGroup) -> [UInt8] {
        let zone = export.displayZone.rules
        let today = zone.day(of: options.now)
        if options.split {
            let section = TimelineSection(
                group: group, unit: unit, zone: zone, locale: options.locale, now: options.now,
                today: today)
            return Array(
                (heading(section) + splitRows(section.entries) + totalsLine(section) + "\n").utf8)
        }
        // The events are drawn straight from the group into bytes: a section can hold a
        // day of a million events, and a `TimelineEntry` per event would copy each.
        let section = TimelineSection(
            headingOf: group, unit: unit, locale: options.locale, today: today)
        var titles: [String] = []
        var widths: [Int] = []
        titles.reserveCapacity(group.events.count)
        widths.reserveCapacity(group.events.count)
        for i in group.events.indices {
            let title = VisibleText.forPeople(group.events[i].title)
            titles.append(title)
            widths.append(DisplayWidth.of(title))
        }
        let titleWidth = min(44, widths.max() ?? 0)
        var line = TextLine(color: options.color, events: group.events.count)
        line.append(heading(section))
        for i in group.events.indices {
            let padding = max(1, titleWidth - widths[i] + 2)
            appendEvent(group.events[i], title: titles[i], padding: padding, zone: zone, to: &line)
        }
        line.append(totalsLine(section))
        line.append("\n")
        return line.bytes
    }

    /// One event's line, and its detail and place below it; `padding` spaces before the
    /// amount.
    private func appendEvent(
        _ event: borrowing Event, title: String, padding: Int, zone: ZoneRules,
        to line: inout TextLine
    ) {
        let mark = Self.mark(event.status)
        line.append(literal: "│ ")
        let whenWidth = appendTime(of: event, zone: zone, to: &line)
        line.append(literal: "  ")
        line.append(mark.symbol, paint: mark.color)
        line.append(literal: " ")
        line.append(title)
        if let amount = event.amount {
            line.spaces(padding)
            line.append(amount.formatted)
        }
        if let relative = TimelineEntry.relativeTime(
            of: event, locale: options.locale, now: options.now)
        {
            line.append(literal: "  ")
            line.append("(\(relative))", paint: .dim)
        }
        line.append(literal: "\n")
        // The detail and the place, indented to the title's column.
        line.appendIndented(event.detail, by: whenWidth + 5)
        line.appendIndented(event.location, by: whenWidth + 5)
    }

    private func heading(_ section: TimelineSection) -> String {
        "\n" + paint(section.title + (section.relativeDay.map { " · " + $0 } ?? ""), .bold) + "\n"
    }

    /// Appends `time(of:zone:)` for `event`, and returns its width.
    private func appendTime(
        of event: borrowing Event, zone: ZoneRules, to line: inout TextLine
    ) -> Int {
        guard options.grouping != .month, let instant = event.start.instant else {
            let text = time(of: event, zone: zone)
            line.append(text)
            return DisplayWidth.of(text)
        }
        line.appendTimeOfDay(instant, zone: zone)
        return 5
    }

    func finishSections(to out: OutputWriter) throws(TimelineError) {}

    private func totalsLine(_ section: TimelineSection) -> String {
        let totals = section.totalsText.map { $0.joined(separator: " · ") }
        let lead = options.split ? String(repeating: " ", count: splitWidth) + "└" : "└"
        return totals.isEmpty ? lead : lead + " " + totals.joined(separator: "; ")
    }

    /// Column of the line in the split layout.
    private var splitWidth: Int { 34 }

    /// One row per event in time order: income to the left of the line (right-aligned to it),
    /// everything else to the right.
    private func splitRows(_ entries: [TimelineEntry]) -> String {
        var text = ""
        for entry in entries {
            let e = entry.event
            let title = VisibleText.forPeople(e.title)
            let mark = Self.mark(e.status)
            let when = time(of: e, zone: export.displayZone.rules)
            if e.isMoneyIn, let amount = entry.amount {
                let left = "\(title) \(amount) \(when) \(mark.symbol)"
                let pad = max(0, splitWidth - DisplayWidth.of(left) - 1)
                text += String(repeating: " ", count: pad) + paintMark(left, mark) + " │\n"
            } else {
                var right = "│ \(paint(mark.symbol, mark.color)) \(when) \(title)"
                if let amount = entry.amount { right += " " + amount }
                text += String(repeating: " ", count: splitWidth) + right + "\n"
            }
        }
        return text
    }

    /// Colours only the status mark at the end of a left-hand row.
    private func paintMark(_ row: String, _ mark: Mark) -> String {
        guard options.color, row.hasSuffix(mark.symbol) else { return row }
        return String(row.dropLast(mark.symbol.count)) + paint(mark.symbol, mark.color)
    }

    // MARK: Pieces

    /// The time of day, all-day values padded to its width; under month headers the day
    /// comes first (`12 Jun 10:10`, `12日 10:10`).
    private func time(of event: borrowing Event, zone: ZoneRules) -> String {
        let locale = options.locale
        let prefix =
            options.grouping == .month
            ? locale.shortDay(TimelineEntry.day(of: event, zone: zone)) + " " : ""
        let time = TimelineEntry.time(of: event, zone: zone, locale: locale)
        return prefix + (event.start.instant == nil ? time.padding(toDisplayWidth: 5) : time)
    }

    struct Mark {
        var symbol: String
        var color: Paint
    }

    static func mark(_ status: EventStatus?) -> Mark {
        switch status {
        case .completed?: return Mark(symbol: "✔", color: .green)
        case .processing?: return Mark(symbol: "●", color: .blue)
        case .pending?: return Mark(symbol: "○", color: .yellow)
        case .cancelled?: return Mark(symbol: "✖", color: .red)
        case .refunded?: return Mark(symbol: "↩", color: .yellow)
        case nil: return Mark(symbol: "·", color: .dim)
        }
    }

    enum Paint: String {
        case bold = "1"
        case dim = "2"
        case red = "31"
        case green = "32"
        case yellow = "33"
        case blue = "34"

        /// `s` in this colour or weight, and back to normal after it.
        func wrap(_ s: String) -> String { "\u{1B}[\(rawValue)m\(s)\u{1B}[0m" }
    }

    private func paint(_ s: String, _ p: Paint) -> String {
        options.color ? p.wrap(s) : s
    }
}

/// Terminal column widths: East Asian wide and fullwidth characters take two columns.
enum DisplayWidth {
    static func of(_ s: String) -> Int {
        if s.withByteView({ $0.isASCII }) { return s.utf8.count }
        return s.unicodeScalars.reduce(0) { $0 + width($1) }
    }

    static func width(_ u: Unicode.Scalar) -> Int {
        let v = u.value
        if v < 0x1100 { return 1 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v)
            || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
            || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
            || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v)
        {
            return 2
        }
        return 1
    }
}

extension String {
    func padding(toDisplayWidth width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - DisplayWidth.of(self)))
    }
}

extension DecimalNumber {
    var isZero: Bool { coefficient == 0 }
}
