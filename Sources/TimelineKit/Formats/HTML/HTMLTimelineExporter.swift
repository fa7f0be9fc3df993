/// `html`: one self-contained page: inline CSS, no scripts, no network references.
/// Months are `<details open><summary>` sections with month totals; days are sections with
/// day totals; the vertical line and the nodes are drawn with CSS, coloured by status; the
/// display zone is stated. Every piece of source text is escaped, so a title of
/// `<script>alert(1)</script>` shows as text. Readable on a phone and when printed.
final class HTMLTimelineExporter: SectionExporter {
    var showsTimesInDisplayZone: Bool { true }
    private let export: WriteOptions
    private var events: [Event] = []
    /// The month being written and every month's totals, while writing sections.
    private var month: String?
    private var monthTotals: SectionTotals?

    init(export: WriteOptions) {
        self.export = export
    }

    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}

    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        events.append(event)
    }

    /// Events handed over one by one may be in any order: they are ordered and cut here.
    func finish(to out: OutputWriter) throws(TimelineError) {
        let zone = export.displayZone.rules
        let ordered = events.sortedForTimeline(export.descending ? .desc : .asc, zone: zone)
        let days = TimelineGrouping.group(ordered, unit: .day, zone: zone)
        try write(sections: days, header: export.documentHeader, zone: zone, to: out)
    }

    /// Days, inside months; `--group` does not apply.
    func sectionUnit(for grouping: GroupingUnit) -> GroupingUnit? {
        grouping == .none ? .day : nil
    }

    /// Each month's totals are shown in its summary, before its days.
    var enclosingUnit: GroupingUnit? { .month }

    func beginSections(
        _ header: DocumentHeader, eventCount: Int, enclosingTotals: SectionTotals?,
        to out: OutputWriter
    ) throws(TimelineError) {
        monthTotals = enclosingTotals
        month = nil
        let words = export.locale.words
        try out.write(
            """
            <!DOCTYPE html>
            <html lang="\(export.locale == .english ? "en" : "zh-Hans")">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Self.escape(words.timeline))</title>
            <style>\(Self.css)</style>
            </head>
            <body>
            <header><h1>\(Self.escape(words.timeline))</h1><p class="zone">\(Self.escape(words.events(eventCount))) · \(Self.escape(words.timesIn)) <strong>\(Self.escape(export.displayZone.identifier))</strong>\(Self.escape(String(header.zoneShown.dropFirst(header.zone.count))))</p></header>

            """)
    }

    /// One day, after its month's title and totals when the month changes.
    func write(section group: TimelineGroup, to out: OutputWriter) throws(TimelineError) {
        let locale = export.locale
        var html = ""
        let key = String(group.key.prefix(7))
        if key != month {
            if month != nil { html += "</details>\n" }
            month = key
            let monthGroup = TimelineGroup(
                key: key, events: [], totals: monthTotals?.totals(of: key) ?? [])
            let section = TimelineSection(
                group: monthGroup, unit: .month, zone: export.displayZone.rules, locale: locale,
                now: nil, today: nil)
            html +=
                "<details open class=\"month\"><summary><span>\(Self.escape(section.title))</span>"
                + Self.totals(section) + "</summary>\n"
        }
        let day = TimelineSection(
            group: group, unit: .day, zone: export.displayZone.rules, locale: locale, now: nil,
            today: nil)
        html += "<section class=\"day\"><h2>\(Self.escape(day.title))</h2>\n<ol class=\"line\">\n"
        for entry in day.entries {
            let e = entry.event
            let status = e.status?.rawValue ?? "none"
            html +=
                "<li class=\"node \(status)\"><time datetime=\"\(Self.escape(e.start.rfc3339))\">\(Self.escape(entry.time))</time>"
                + "<span class=\"title\"><bdi>\(Self.escape(e.title))</bdi></span>"
            if let a = e.amount, let amount = entry.amount {
                html +=
                    "<span class=\"amount \(a.neutral ? "neutral" : a.value.isNegative ? "expense" : "income")\">\(Self.escape(amount))</span>"
            }
            if let detail = e.detail, !detail.isEmpty {
                html +=
                    "<p class=\"detail\"><bdi>\(Self.escape(detail).replacingOccurrences(of: "\n", with: "<br>"))</bdi></p>"
            }
            if let location = e.location {
                html += "<p class=\"detail\"><bdi>\(Self.escape(location))</bdi></p>"
            }
            html += "</li>\n"
        }
        html += "</ol>" + Self.totals(day) + "</section>\n"
        try out.write(html)
    }

    func finishSections(to out: OutputWriter) throws(TimelineError) {
        try out.write((month == nil ? "" : "</details>\n") + "</body>\n</html>\n")
    }

    static func totals(_ section: TimelineSection) -> String {
        let parts = section.totalsText.flatMap { $0 }
        return parts.isEmpty
            ? "" : "<p class=\"totals\">\(escape(parts.joined(separator: " · ")))</p>"
    }

    /// HTML text and attribute escaping: `& < > " '`; a control character HTML text may not
    /// hold (C0 but tab and line ends, DEL, C1) as U+FFFD. Text from the data is also
    /// isolated in `<bdi>`, so a right-to-left override in a title reorders nothing around it.
    static func escape(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for c in s.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(c)
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}": out += "\u{FFFD}"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static let css = """
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI","PingFang SC","Noto Sans CJK SC",sans-serif;margin:0 auto;max-width:46rem;padding:1rem;color:#1d2330;background:#fff}
        header h1{font-size:1.4rem;margin:.2rem 0}.zone{color:#5b6474;margin:0 0 1rem}
        details.month{margin:0 0 1rem}summary{cursor:pointer;font-weight:600;font-size:1.15rem;padding:.3rem 0;display:flex;gap:1rem;align-items:baseline;flex-wrap:wrap}
        summary .totals{font-weight:400;font-size:.9rem;margin:0}
        .day h2{font-size:1rem;margin:.8rem 0 .3rem;color:#30394a}
        ol.line{list-style:none;margin:0;padding:0 0 0 1.1rem;border-left:2px solid #d3d8e0}
        .node{position:relative;padding:.25rem 0 .45rem .6rem;display:flex;flex-wrap:wrap;gap:.2rem .7rem;align-items:baseline}
        .node::before{content:"";position:absolute;left:-1.55rem;top:.55rem;width:.75rem;height:.75rem;border-radius:50%;background:#fff;border:2px solid #9aa3b2}
        .node.completed::before{background:#2f9e55;border-color:#2f9e55}.node.processing::before{background:#2f6fde;border-color:#2f6fde}
        .node.pending::before{border-color:#d39a12}.node.cancelled::before{background:#d0453a;border-color:#d0453a}.node.refunded::before{border-color:#d39a12;border-style:dashed}
        time{font-variant-numeric:tabular-nums;color:#5b6474;min-width:3.2rem}.title{font-weight:500;flex:1 1 12rem}
        .amount{font-variant-numeric:tabular-nums;white-space:nowrap}.amount.expense{color:#b3261e}.amount.income{color:#1e7b3a}
        .detail{flex-basis:100%;margin:0 0 0 3.9rem;color:#4a5263;font-size:.92rem;overflow-wrap:anywhere}
        .totals{margin:.2rem 0 0 1.1rem;color:#30394a;font-size:.9rem}
        @media print{details.month{break-inside:avoid-page}summary{list-style:none}body{max-width:none}}
        """
}
