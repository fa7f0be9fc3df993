/// `html`: one self-contained page: inline CSS, no scripts, no network references.
/// Months are `<details open><summary>` sections (with a marker that shows they fold) with
/// month totals; days are sections with day totals and, near `now`, 今天/昨天 (today,
/// yesterday) and relative times; the vertical line and the nodes are drawn with CSS,
/// coloured by status, each status also written as text (and a legend says what the colours
/// are). `--layout split` puts income left of the line and everything else right of it, as
/// app timelines do. The display zone is stated. Every piece of source text is escaped, so a
/// title of `<script>alert(1)</script>` shows as text. Readable on a phone and when printed.
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
        let legend =
            "<p class=\"legend\">\(Self.escape(words.statuses)):"
            + ([EventStatus.completed, .processing, .pending, .cancelled, .refunded]
            as [EventStatus?]
            + [nil]).map {
                " <span class=\"node \($0?.rawValue ?? "none")\">\(Self.escape(words.status($0)))</span>"
            }.joined() + "</p>"
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
            <header><h1>\(Self.escape(words.timeline))</h1><p class="zone">\(Self.escape(words.events(eventCount))) · \(Self.escape(words.timesIn)) <strong>\(Self.escape(export.displayZone.identifier))</strong>\(Self.escape(String(header.zoneShown.dropFirst(header.zone.count))))</p>\(legend)</header>

            """)
    }

    /// One day, after its month's title and totals when the month changes.
    func write(rendered: [UInt8], of group: TimelineGroup, to out: OutputWriter)
        throws(TimelineError)
    {
        let key = String(group.key.prefix(7))
        if key != month {
            var html = month == nil ? "" : "</details>\n"
            month = key
            let monthGroup = TimelineGroup(
                key: key, events: [], totals: monthTotals?.totals(of: key) ?? [])
            let section = TimelineSection(
                headingOf: monthGroup, unit: .month, locale: export.locale, today: nil)
            html +=
                "<details open class=\"month\"><summary><span>\(Self.escape(section.title))</span>"
                + Self.totals(section) + "</summary>\n"
            try out.write(html)
        }
        try out.write(rendered)
    }

    /// One day: its heading, its events and its totals.
    func render(section group: TimelineGroup) -> [UInt8] {
        let locale = export.locale
        var html = ""
        // The events are drawn straight from the group into bytes, as the text output does.
        let zone = export.displayZone.rules
        let day = TimelineSection(
            headingOf: group, unit: .day, locale: locale,
            today: export.now.map { zone.day(of: $0) })
        let relative = day.relativeDay.map { " <span class=\"relative\">\(Self.escape($0))</span>" }
        html += "<section class=\"day\"><h2>\(Self.escape(day.title))\(relative ?? "")</h2>\n"
        var line = TextLine(color: false, events: group.events.count)
        line.append(html)
        if export.text.layout == .split {
            line.append("<div class=\"split\">\n")
            for i in group.events.indices {
                let moneyIn = group.events[i].isMoneyIn
                line.append(
                    moneyIn
                        ? "<div class=\"in\">"
                        : "<div></div><div class=\"axis\"></div><div class=\"out\">")
                appendNode(group.events[i], tag: "div", zone: zone, to: &line)
                line.append(moneyIn ? "</div><div class=\"axis\"></div><div></div>\n" : "</div>\n")
            }
            line.append("</div>")
        } else {
            line.append("<ol class=\"line\">\n")
            for i in group.events.indices {
                appendNode(group.events[i], tag: "li", zone: zone, to: &line)
                line.append("\n")
            }
            line.append("</ol>")
        }
        line.append(Self.totals(day))
        line.append("</section>\n")
        return line.bytes
    }

    /// One event: its time (and how long ago), status as text, title, amount, detail and
    /// location.
    private func appendNode(
        _ e: borrowing Event, tag: String, zone: ZoneRules, to html: inout TextLine
    ) {
        let locale = export.locale
        html.append(literal: "<")
        html.append(tag)
        html.append(literal: " class=\"node ")
        html.append(e.status?.rawValue ?? "none")
        html.append(literal: "\"><time datetime=\"")
        // RFC 3339 and a time of day are digits and `-:.+TZ`, which need no escaping.
        e.start.appendRFC3339(to: &html.bytes)
        html.append(literal: "\">")
        if let instant = e.start.instant {
            html.appendTimeOfDay(instant, zone: zone)
        } else {
            html.append(Self.escape(TimelineEntry.time(of: e, zone: zone, locale: locale)))
        }
        html.append(literal: "</time>")
        if e.status != nil {
            html.append(literal: "<span class=\"status\">")
            html.append(Self.escape(locale.words.status(e.status)))
            html.append(literal: "</span>")
        }
        html.append(literal: "<span class=\"title\"><bdi>")
        html.append(Self.escape(e.title))
        html.append(literal: "</bdi></span>")
        if let a = e.amount {
            html.append(literal: "<span class=\"amount ")
            html.append(a.neutral ? "neutral" : a.value.isNegative ? "expense" : "income")
            html.append(literal: "\">")
            html.append(Self.escape(a.formatted))
            html.append(literal: "</span>")
        }
        if let relative = TimelineEntry.relativeTime(of: e, locale: locale, now: export.now) {
            html.append(literal: "<span class=\"ago\">")
            html.append(Self.escape(relative))
            html.append(literal: "</span>")
        }
        if let detail = e.detail, !detail.isEmpty {
            html.append(literal: "<p class=\"detail\"><bdi>")
            let escaped = Self.escape(detail)
            html.append(
                escaped.utf8.contains(0x0A)
                    ? escaped.replacingOccurrences(of: "\n", with: "<br>") : escaped)
            html.append(literal: "</bdi></p>")
        }
        if let location = e.location {
            html.append(literal: "<p class=\"detail location\"><bdi>")
            html.append(Self.escape(location))
            html.append(literal: "</bdi></p>")
        }
        html.append(literal: "</")
        html.append(tag)
        html.append(literal: ">")
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
        if s.withByteView({ !$0.contains(anyOf: escaped) }) { return s }
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

    /// Whether a UTF-8 byte may need escaping: one of `& < > " '`, a C0 control or DEL, or
    /// 0xC2, the lead byte of the C1 controls (and of other characters, which the full
    /// escape keeps as they are).
    private static func needsEscaping(_ b: UInt8) -> Bool {
        switch b {
        case 0x26, 0x3C, 0x3E, 0x22, 0x27, 0x7F, 0xC2: return true
        case 0x09, 0x0A, 0x0D: return false
        default: return b < 0x20
        }
    }

    /// The bytes `needsEscaping` accepts.
    private static let escaped = ByteSet((0...255).map(UInt8.init).filter(needsEscaping))

    static let css = """
        body{font:15px/1.45 system-ui,-apple-system,"Segoe UI","PingFang SC","Noto Sans CJK SC",sans-serif;margin:0 auto;max-width:46rem;padding:1rem;color:#1d2330;background:#fff}
        header h1{font-size:1.4rem;margin:.2rem 0}.zone{color:#5b6474;margin:0 0 1rem}
        details.month{margin:0 0 1rem}summary{cursor:pointer;font-weight:600;font-size:1.15rem;padding:.3rem 0;display:flex;gap:1rem;align-items:baseline;flex-wrap:wrap;list-style:none}
        summary::-webkit-details-marker{display:none}summary::before{content:"▾";color:#5b6474;width:1rem}details:not([open])>summary::before{content:"▸"}
        summary .totals{font-weight:400;font-size:.9rem;margin:0}
        .day h2{font-size:1rem;margin:.8rem 0 .3rem;color:#30394a}.relative{color:#2f6fde;font-weight:500;margin-left:.4rem}
        .legend{color:#5b6474;font-size:.85rem;margin:-.6rem 0 1rem;display:flex;flex-wrap:wrap;gap:.2rem .9rem}.legend .node{padding:0 0 0 1.1rem;display:inline}.legend .node::before{left:0;top:.3rem}
        ol.line{list-style:none;margin:0;padding:0 0 0 1.1rem;border-left:2px solid #d3d8e0}
        .node{position:relative;padding:.25rem 0 .45rem .6rem;display:flex;flex-wrap:wrap;gap:.2rem .7rem;align-items:baseline}
        .node::before{content:"";position:absolute;left:-1.55rem;top:.55rem;width:.75rem;height:.75rem;border-radius:50%;background:#fff;border:2px solid #9aa3b2}
        .node.completed::before{background:#2f9e55;border-color:#2f9e55}.node.processing::before{background:#2f6fde;border-color:#2f6fde}
        .node.pending::before{border-color:#d39a12}.node.cancelled::before{background:#d0453a;border-color:#d0453a}.node.refunded::before{border-color:#d39a12;border-style:dashed}
        time{font-variant-numeric:tabular-nums;color:#5b6474;min-width:3.2rem}.title{font-weight:500;flex:1 1 12rem}
        .status{font-size:.78rem;color:#5b6474;border:1px solid #d3d8e0;border-radius:.6rem;padding:0 .4rem}.ago{color:#5b6474;font-size:.85rem}
        .split{display:grid;grid-template-columns:1fr 2px 1fr;column-gap:1.2rem}.split .axis{background:#d3d8e0}
        .split .in .node{flex-direction:row-reverse;text-align:right;padding:.25rem .6rem .45rem 0}.split .in .node::before{left:auto;right:-1.75rem}
        .split .out .node::before{left:-1.75rem}.split .detail{margin:0}.split .title{flex:0 1 auto}
        .amount{font-variant-numeric:tabular-nums;white-space:nowrap}.amount.expense{color:#b3261e}.amount.income{color:#1e7b3a}
        .detail{flex-basis:100%;margin:0 0 0 3.9rem;color:#4a5263;font-size:.92rem;overflow-wrap:anywhere}
        .totals{margin:.2rem 0 0 1.1rem;color:#30394a;font-size:.9rem}
        @media print{details.month{break-inside:avoid-page}summary{list-style:none}body{max-width:none}}
        """
}
