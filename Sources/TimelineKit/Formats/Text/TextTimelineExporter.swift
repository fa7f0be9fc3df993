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
public final class TextTimelineExporter: GroupingExporter {
    public struct Options: Sendable {
        public var locale: TimelineLocale = .english
        /// The moment relative times are counted from (`--now`).
        public var now: Instant
        public var color = false
        public var grouping: GroupingUnit = .day
        /// Income on the left of the line, everything else on the right (`--layout split`).
        public var split = false

        public init(now: Instant) {
            self.now = now
        }
    }

    private let export: WriteOptions
    private let options: Options
    private var events: [Event] = []

    public init(export: WriteOptions, options: Options) {
        self.export = export
        self.options = options
    }

    public func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}

    public func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        events.append(event)
    }

    /// Events may arrive in any order: they are ordered and grouped here.
    public func finish(to out: OutputWriter) throws(TimelineError) {
        let zone = export.displayZone.rules
        let ordered = events.sortedForTimeline(export.descending ? .desc : .asc, zone: zone)
        let groups = TimelineGrouping.group(ordered, unit: options.grouping == .none ? .day : options.grouping, zone: zone)
        try write(groups: groups, header: DocumentHeader(zone: export.displayZone.identifier), to: out)
    }

    public func write(groups: [TimelineGroup], header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {
        let words = options.locale.words
        let count = groups.reduce(0) { $0 + $1.events.count }
        var text = "\(words.timeline) · \(words.events(count)) · \(words.timesIn) \(header.zone)\n"
        let zone = export.displayZone.rules
        for group in groups {
            text += "\n" + paint(heading(group.key), .bold) + "\n"
            let titleWidth = min(44, group.events.map { DisplayWidth.of($0.title) }.max() ?? 0)
            if options.split {
                text += splitRows(group.events, zone: zone)
                text += totalsLine(group) + "\n"
                continue
            }
            for e in group.events {
                let mark = Self.mark(e.status)
                let when = time(e.start, zone: zone)
                var line = "│ \(when)  \(paint(mark.symbol, mark.color)) " + e.title
                if let amount = e.amount {
                    line += String(repeating: " ", count: max(1, titleWidth - DisplayWidth.of(e.title) + 2)) + money(amount.value, amount.currency, signed: true)
                }
                if let relative = relative(e.start) { line += "  " + paint("(\(relative))", .dim) }
                text += line + "\n"
                if let detail = e.detail, !detail.isEmpty {
                    // Indented to the title's column.
                    let indent = String(repeating: " ", count: DisplayWidth.of(when) + 5)
                    for part in detail.split(separator: "\n", omittingEmptySubsequences: false) { text += "│\(indent)\(part)\n" }
                }
            }
            text += totalsLine(group) + "\n"
        }
        try out.write(text)
    }

    private func totalsLine(_ group: TimelineGroup) -> String {
        let words = options.locale.words
        let totals = group.totals.compactMap { t -> String? in
            var parts: [String] = []
            if !t.income.isZero { parts.append("\(words.income) " + money(t.income, t.currency, signed: true)) }
            if !t.expense.isZero { parts.append("\(words.expense) " + money(t.expense, t.currency, signed: true)) }
            return parts.isEmpty ? nil : parts.joined(separator: " · ")
        }
        let lead = options.split ? String(repeating: " ", count: splitWidth) + "└" : "└"
        return totals.isEmpty ? lead : lead + " " + totals.joined(separator: "; ")
    }

    /// Column of the line in the split layout.
    private var splitWidth: Int { 34 }

    /// One row per event in time order: income to the left of the line (right-aligned to it),
    /// everything else to the right.
    private func splitRows(_ events: [Event], zone: ZoneRules) -> String {
        var text = ""
        for e in events {
            let mark = Self.mark(e.status)
            let when = time(e.start, zone: zone)
            if let a = e.amount, !a.value.isNegative {
                let left = "\(e.title) \(money(a.value, a.currency, signed: true)) \(when) \(mark.symbol)"
                let pad = max(0, splitWidth - DisplayWidth.of(left) - 1)
                text += String(repeating: " ", count: pad) + paintMark(left, mark) + " │\n"
            } else {
                var right = "│ \(paint(mark.symbol, mark.color)) \(when) \(e.title)"
                if let a = e.amount { right += " " + money(a.value, a.currency, signed: true) }
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

    private func heading(_ key: String) -> String {
        let parts = key.split(separator: "-").compactMap { Int($0) }
        if parts.count == 2 { return options.locale.month(year: parts[0], month: parts[1]) }
        guard parts.count == 3, let date = CivilDate(year: parts[0], month: parts[1], day: parts[2]) else { return key }
        var title = options.locale.day(date)
        let today = export.displayZone.rules.day(of: options.now)
        let delta = date.daysSinceEpoch - today.daysSinceEpoch
        if delta == 0 { title += " · " + options.locale.words.today }
        if delta == -1 { title += " · " + options.locale.words.yesterday }
        if delta == 1 { title += " · " + options.locale.words.tomorrow }
        return title
    }

    /// The time of day; under month headers the day comes first (`12 Jun 10:10`, `12日 10:10`).
    private func time(_ v: TimeValue, zone: ZoneRules) -> String {
        let day = v.date ?? zone.day(of: v.instant!)
        let prefix = options.grouping == .month ? options.locale.shortDay(day) + " " : ""
        guard let instant = v.instant else { return prefix + options.locale.words.allDay.padding(toDisplayWidth: 5) }
        let local = instant.local(in: zone.offset(at: instant))
        return prefix + (local.hour < 10 ? "0" : "") + "\(local.hour):" + (local.minute < 10 ? "0" : "") + "\(local.minute)"
    }

    /// "just now", "N minutes ago", "N hours ago", "in N hours" within a day of `now`.
    private func relative(_ v: TimeValue) -> String? {
        guard let instant = v.instant else { return nil }
        let seconds = options.now.seconds - instant.seconds
        let minutes = abs(seconds) / 60
        guard minutes < 24 * 60 else { return nil }
        return options.locale.relative(minutes: Int(minutes), past: seconds >= 0)
    }

    private func money(_ value: DecimalNumber, _ currency: String?, signed: Bool) -> String {
        let symbols = ["CNY": "¥", "USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥"]
        let digits = value.isNegative ? String(value.description.dropFirst()) : value.description
        let sign = value.isNegative ? "−" : (signed ? "+" : "")
        if let c = currency, let s = symbols[c] { return sign + s + digits }
        return sign + digits + (currency.map { " \($0)" } ?? "")
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
        case nil: return Mark(symbol: "·", color: .dim)
        }
    }

    enum Paint: String {
        case bold = "1", dim = "2", red = "31", green = "32", yellow = "33", blue = "34"
    }

    private func paint(_ s: String, _ p: Paint) -> String {
        options.color ? "\u{1B}[\(p.rawValue)m\(s)\u{1B}[0m" : s
    }
}

/// The languages of the text timeline.
public enum TimelineLocale: String, Sendable, CaseIterable {
    case english = "en"
    case simplifiedChinese = "zh-Hans"

    struct Words {
        var timeline, timesIn, today, yesterday, tomorrow, income, expense, allDay: String
        var events: (Int) -> String
    }

    var words: Words {
        switch self {
        case .english:
            return Words(timeline: "Timeline", timesIn: "times in", today: "today", yesterday: "yesterday", tomorrow: "tomorrow",
                         income: "income", expense: "expense", allDay: "all day", events: { $0 == 1 ? "1 event" : "\($0) events" })
        case .simplifiedChinese:
            return Words(timeline: "时间线", timesIn: "时区", today: "今天", yesterday: "昨天", tomorrow: "明天",
                         income: "收入", expense: "支出", allDay: "全天", events: { "\($0) 条" })
        }
    }

    func day(_ d: CivilDate) -> String {
        switch self {
        case .english:
            return "\(DateNames.weekdayAbbreviations[d.isoWeekday - 1]) \(d.day) \(DateNames.monthAbbreviations[d.month - 1]) \(d.year)"
        case .simplifiedChinese:
            let weekdays = ["一", "二", "三", "四", "五", "六", "日"]
            return "\(d.year)年\(d.month)月\(d.day)日 星期\(weekdays[d.isoWeekday - 1])"
        }
    }

    func shortDay(_ d: CivilDate) -> String {
        switch self {
        case .english: return (d.day < 10 ? " " : "") + "\(d.day) \(DateNames.monthAbbreviations[d.month - 1])"
        case .simplifiedChinese: return (d.day < 10 ? " " : "") + "\(d.day)日"
        }
    }

    func month(year: Int, month: Int) -> String {
        switch self {
        case .english: return "\(DateNames.months[month - 1].prefix(1).uppercased() + DateNames.months[month - 1].dropFirst()) \(year)"
        case .simplifiedChinese: return "\(year)年\(month)月"
        }
    }

    func relative(minutes: Int, past: Bool) -> String {
        switch self {
        case .english:
            if minutes < 1 { return "just now" }
            let amount = minutes < 60 ? (minutes == 1 ? "1 minute" : "\(minutes) minutes") : (minutes / 60 == 1 ? "1 hour" : "\(minutes / 60) hours")
            return past ? "\(amount) ago" : "in \(amount)"
        case .simplifiedChinese:
            if minutes < 1 { return "刚刚" }
            let amount = minutes < 60 ? "\(minutes)分钟" : "\(minutes / 60)小时"
            return past ? "\(amount)前" : "\(amount)后"
        }
    }
}

/// Terminal column widths: East Asian wide and fullwidth characters take two columns.
enum DisplayWidth {
    static func of(_ s: String) -> Int {
        s.unicodeScalars.reduce(0) { $0 + width($1) }
    }

    static func width(_ u: Unicode.Scalar) -> Int {
        let v = u.value
        if v < 0x1100 { return 1 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
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
