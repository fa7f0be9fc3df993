/// `markdown`: the timeline as a day-grouped Markdown list, for a GitHub issue, a README or a
/// notes app: a heading per day (or month) in the display zone with the date once, one list
/// item per event (time, status mark, title, amount, relative time), the detail below it,
/// and the day's income and expense. Source text is escaped, so `*`, `[`, `<` and the like
/// show as written.
enum MarkdownFormat: FormatPlugin {
    static let id = "markdown"
    static let summary = "a day-grouped Markdown list (GitHub, notes apps)"
    static let extensions = ["md", "markdown"]

    static func makeWriter(_ options: WriteOptions) -> (any TimelineExporter)? {
        MarkdownExporter(options)
    }
}

/// Writes the Markdown timeline a section at a time (events handed over one by one are
/// ordered and cut at the end).
final class MarkdownExporter: SectionExporter {
    var showsTimesInDisplayZone: Bool { true }
    private let options: WriteOptions
    private var events: [Event] = []

    init(_ options: WriteOptions) {
        self.options = options
    }

    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}

    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        events.append(event)
    }

    func finish(to out: OutputWriter) throws(TimelineError) {
        let ordered = events.sortedForTimeline(
            options.descending ? .desc : .asc, zone: options.displayZone.rules)
        let groups = TimelineGrouping.group(ordered, unit: unit, zone: options.displayZone.rules)
        try write(
            sections: groups, header: options.documentHeader, zone: options.displayZone.rules,
            to: out)
    }

    private var unit: GroupingUnit { options.grouping == .none ? .day : options.grouping }

    func sectionUnit(for grouping: GroupingUnit) -> GroupingUnit? { unit }

    func beginSections(
        _ header: DocumentHeader, eventCount: Int, enclosingTotals: SectionTotals?,
        to out: OutputWriter
    ) throws(TimelineError) {
        let words = options.locale.words
        try out.write(
            "# \(words.timeline)\n\n\(words.events(eventCount)) · \(words.timesIn) \(header.zoneShown)\n"
        )
    }

    func render(section group: TimelineGroup) -> [UInt8] {
        let zone = options.displayZone.rules
        let today = options.now.map { zone.day(of: $0) }
        let month = options.grouping == .month
        if options.text.layout == .split {
            let section = TimelineSection(
                group: group, unit: unit, zone: zone, locale: options.locale, now: options.now,
                today: today)
            return Array(
                (heading(section) + splitTable(section, month: month) + totals(section)).utf8)
        }
        // The events are drawn straight from the group into bytes, as the text output does.
        let section = TimelineSection(
            headingOf: group, unit: unit, locale: options.locale, today: today)
        var text = TextLine(color: false, events: group.events.count)
        text.append(heading(section))
        for i in group.events.indices {
            appendItem(group.events[i], month: month, zone: zone, to: &text)
        }
        text.append(totals(section))
        return text.bytes
    }

    private func heading(_ section: TimelineSection) -> String {
        "\n## \(section.title)" + (section.relativeDay.map { " · \($0)" } ?? "") + "\n\n"
    }

    private func totals(_ section: TimelineSection) -> String {
        let totals = section.totalsText.map { $0.joined(separator: " · ") }
        return totals.isEmpty ? "" : "\n_" + totals.joined(separator: "; ") + "_\n"
    }

    /// One event as a list item, its detail and location as items below it.
    private func appendItem(
        _ e: borrowing Event, month: Bool, zone: ZoneRules, to text: inout TextLine
    ) {
        let locale = options.locale
        text.append(literal: "- **")
        if month {
            text.append(locale.shortDay(TimelineEntry.day(of: e, zone: zone)).trimmingSpaces)
            text.append(literal: " ")
        }
        if let instant = e.start.instant {
            text.appendTimeOfDay(instant, zone: zone)
        } else {
            text.append(TimelineEntry.time(of: e, zone: zone, locale: locale))
        }
        text.append(literal: "** ")
        text.append(Self.mark(e.status))
        text.append(literal: " ")
        // One line whatever the title holds: a line break in it would end the list item.
        text.append(Self.escape(VisibleText.forPeople(e.title)))
        if let amount = e.amount {
            text.append(literal: " · ")
            text.append(amount.formatted)
        }
        if let relative = TimelineEntry.relativeTime(of: e, locale: locale, now: options.now) {
            text.append(" _(\(relative))_")
        }
        text.append(literal: "\n")
        // The detail and location as items of their own below the event, so every
        // renderer shows them on lines of their own.
        appendSubItems(e.detail, to: &text)
        appendSubItems(e.location, to: &text)
    }

    /// The lines of `part` that hold more than spaces, each as an item.
    private func appendSubItems(_ part: String?, to text: inout TextLine) {
        guard let part else { return }
        let shown = VisibleText.forPeople(part, lineBreaks: true)
        let lines =
            shown.utf8.contains(0x0A) ? shown.split(separator: "\n").map(String.init) : [shown]
        for line in lines.map(\.trimmingSpaces) where !line.isEmpty {
            text.append(literal: "    - ")
            text.append(Self.escapeLineStart(Self.escape(line)))
            text.append(literal: "\n")
        }
    }

    func finishSections(to out: OutputWriter) throws(TimelineError) {}

    /// `--layout split`: a table of two columns, income left and everything else right, one
    /// row per event in time order, as app timelines show money moving in and out.
    private func splitTable(_ section: TimelineSection, month: Bool) -> String {
        let words = options.locale.words
        var text = "| \(words.income) | \(words.expense) |\n|---:|:---|\n"
        for entry in section.entries {
            let e = entry.event
            let when = (month ? entry.shortDay.trimmingSpaces + " " : "") + entry.time
            var cell =
                "**\(when)** \(Self.mark(e.status)) \(Self.escape(VisibleText.forPeople(e.title)))"
            if let amount = entry.amount { cell += " · \(amount)" }
            if let relative = entry.relativeTime { cell += " _(\(relative))_" }
            for part in [e.detail, e.location].compactMap({ $0 }) where !part.isEmpty {
                // A table cell is one line: the detail's lines joined.
                let lines = VisibleText.forPeople(part, lineBreaks: true).split(separator: "\n")
                    .map { Self.escape(String($0).trimmingSpaces) }.filter { !$0.isEmpty }
                if !lines.isEmpty { cell += " — " + lines.joined(separator: " / ") }
            }
            text += e.isMoneyIn ? "| \(cell) | |\n" : "| | \(cell) |\n"
        }
        return text
    }

    static func mark(_ status: EventStatus?) -> String {
        switch status {
        case .completed?: return "✔"
        case .processing?: return "●"
        case .pending?: return "○"
        case .cancelled?: return "✖"
        case .refunded?: return "↩"
        case nil: return "·"
        }
    }

    /// Backslash before every ASCII character that Markdown gives a meaning inside a line.
    static func escape(_ text: String) -> String {
        // The characters escaped are all ASCII, and no byte of a longer UTF-8 sequence is.
        if text.withByteView({ !$0.contains(anyOf: escaped) }) { return text }
        var out = ""
        for c in text.unicodeScalars {
            if c.isASCII && escaped.contains(UInt8(c.value)) { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out
    }

    /// The ASCII characters Markdown gives a meaning inside a line.
    private static let escaped = ByteSet("\\`*_{}[]()<>#+!|~&".utf8)

    /// Text that starts a list item's content and would open a list itself (`- `, `1. `,
    /// `1) `) or underline a heading (`=`): its marker escaped too.
    static func escapeLineStart(_ line: String) -> String {
        guard let first = line.utf8.first else { return line }
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "=") { return "\\" + line }
        // Digits, then `.` or `)`: an ordered list's marker (read by characters, so that a
        // mark combining with the `.` makes it another character).
        guard (0x30...0x39).contains(first) else { return line }
        if let end = line.firstIndex(where: { !$0.isASCII || !$0.isNumber }),
            end != line.startIndex, line[end] == "." || line[end] == ")"
        {
            return line[..<end] + "\\" + line[end...]
        }
        return line
    }
}
