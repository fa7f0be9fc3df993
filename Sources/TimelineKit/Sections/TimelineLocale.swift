import Foundation

/// The languages of the readable outputs and the screen model (`TimelineSection.sections`):
/// section titles, relative times, income and expense.
public enum TimelineLocale: String, Sendable, CaseIterable {
    /// English (`en`).
    case english = "en"
    /// Simplified Chinese (`zh-Hans`).
    case simplifiedChinese = "zh-Hans"

    /// Simplified Chinese for a Chinese locale (`zh`, `zh-Hans`, `zh-CN`, `zh-SG`), else English.
    public init(_ locale: Locale) {
        let identifier = locale.identifier.replacingOccurrences(of: "_", with: "-")
        self = identifier == "zh" || identifier.hasPrefix("zh-") ? .simplifiedChinese : .english
    }

    struct Words {
        var timeline, timesIn, today, yesterday, tomorrow, income, expense, allDay: String
        var events: (Int) -> String
        /// What a status is called, and an event with none.
        var status: (EventStatus?) -> String
        /// The heading of the legend of status marks.
        var statuses: String
    }

    var words: Words {
        switch self {
        case .english:
            return Words(
                timeline: "Timeline", timesIn: "times in", today: "today", yesterday: "yesterday",
                tomorrow: "tomorrow",
                income: "income", expense: "expense", allDay: "all day",
                events: { $0 == 1 ? "1 event" : "\($0) events" },
                status: { $0?.rawValue ?? "no status" }, statuses: "Status")
        case .simplifiedChinese:
            return Words(
                timeline: "时间线", timesIn: "时区", today: "今天", yesterday: "昨天", tomorrow: "明天",
                income: "收入", expense: "支出", allDay: "全天", events: { "\($0) 条" },
                status: { status in
                    switch status {
                    case .completed?: return "已完成"
                    case .processing?: return "处理中"
                    case .pending?: return "待处理"
                    case .cancelled?: return "已取消"
                    case .refunded?: return "已退款"
                    case nil: return "无状态"
                    }
                }, statuses: "状态")
        }
    }

    func day(_ d: CivilDate) -> String {
        switch self {
        case .english:
            return
                "\(DateNames.weekdayAbbreviations[d.isoWeekday - 1]) \(d.day) \(DateNames.monthAbbreviations[d.month - 1]) \(d.year)"
        case .simplifiedChinese:
            let weekdays = ["一", "二", "三", "四", "五", "六", "日"]
            return "\(d.year)年\(d.month)月\(d.day)日 星期\(weekdays[d.isoWeekday - 1])"
        }
    }

    func shortDay(_ d: CivilDate) -> String {
        switch self {
        case .english:
            return (d.day < 10 ? " " : "") + "\(d.day) \(DateNames.monthAbbreviations[d.month - 1])"
        case .simplifiedChinese: return (d.day < 10 ? " " : "") + "\(d.day)日"
        }
    }

    func month(year: Int, month: Int) -> String {
        switch self {
        case .english:
            return
                "\(DateNames.months[month - 1].prefix(1).uppercased() + DateNames.months[month - 1].dropFirst()) \(year)"
        case .simplifiedChinese: return "\(year)年\(month)月"
        }
    }

    func relative(minutes: Int, past: Bool) -> String {
        switch self {
        case .english:
            if minutes < 1 { return "just now" }
            let amount =
                minutes < 60
                ? (minutes == 1 ? "1 minute" : "\(minutes) minutes")
                : (minutes / 60 == 1 ? "1 hour" : "\(minutes / 60) hours")
            return past ? "\(amount) ago" : "in \(amount)"
        case .simplifiedChinese:
            if minutes < 1 { return "刚刚" }
            let amount = minutes < 60 ? "\(minutes)分钟" : "\(minutes / 60)小时"
            return past ? "\(amount)前" : "\(amount)后"
        }
    }
}
