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

    func write(section group: TimelineGroup, to out: OutputWriter) throws(TimelineError) {
        let section = TimelineSection(
            group: group, unit: unit, zone: options.displayZone.rules, locale: options.locale,
            now: options.now,
            today: options.now.map { options.displayZone.rules.day(of: $0) })
        var text = "\n## \(section.title)" + (section.relativeDay.map { " · \($0)" } ?? "") + "\n\n"
        let month = options.grouping == .month
        if options.text.layout == .split {
            text += splitTable(section, month: month)
        }
        for entry in section.entries where options.text.layout != .split {
            let e = entry.event
            let when = (month ? entry.shortDay.trimmingSpaces + " " : "") + entry.time
            // One line whatever the title holds: a line break in it would end the list item.
            text +=
                "- **\(when)** \(Self.mark(e.status)) \(Self.escape(VisibleText.forPeople(e.title)))"
            if let amount = entry.amount { text += " · \(amount)" }
            if let relative = entry.relativeTime { text += " _(\(relative))_" }
            text += "\n"
            // The detail and location as items of their own below the event, so every
            // renderer shows them on lines of their own.
            for part in [e.detail, e.location].compactMap({ $0 }) {
                for line in VisibleText.forPeople(part, lineBreaks: true).split(separator: "\n")
                    .map({ String($0).trimmingSpaces })
                where !line.isEmpty {
                    text += "    - " + Self.escapeLineStart(Self.escape(line)) + "\n"
                }
            }
        }
        let totals = section.totalsText.map { $0.joined(separator: " · ") }
        if !totals.isEmpty { text += "\n_" + totals.joined(separator: "; ") + "_\n" }
        try out.write(text)
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
        var out = ""
        for c in text.unicodeScalars {
            if "\\`*_{}[]()<>#+!|~&".unicodeScalars.contains(c) { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out
    }

    /// Text that starts a list item's content and would open a list itself (`- `, `1. `,
    /// `1) `) or underline a heading (`=`): its marker escaped too.
    static func escapeLineStart(_ line: String) -> String {
        guard let first = line.first else { return line }
        if first == "-" || first == "=" { return "\\" + line }
        if let end = line.firstIndex(where: { !$0.isASCII || !$0.isNumber }),
            end != line.startIndex, line[end] == "." || line[end] == ")"
        {
            return line[..<end] + "\\" + line[end...]
        }
        return line
    }
}
