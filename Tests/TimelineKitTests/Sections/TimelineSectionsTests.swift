import Foundation
import Testing
import TimelineKit

/// The screen model on the order sample, against the hand-checked text golden file
/// (Tests/TimelineCLITests/Fixtures/text/orders-en.txt: the same days, times, relative times
/// and totals) and in Chinese.
@Suite("TimelineSection.sections: the screen model")
struct TimelineSectionsTests {
    static let orders = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples/orders.csv")

    static func events() throws -> [Event] {
        var options = ReadOptions()
        options.dates.assumedZone = try ZoneResolver().resolve("Asia/Shanghai")
        return try Timeline.read(.file(orders), options: options).events
    }

    @Test("days in Shanghai, the date once per day, today/yesterday, times, relative times, totals")
    func days() throws {
        let zone = try ZoneResolver().resolve("Asia/Shanghai")
        let now = try TimeValue.parse("2024-06-13T20:00:00+08:00").instant!
        let sections = TimelineSection.sections(
            of: try Self.events(), by: .day, zone: zone, now: now)
        #expect(
            sections.map(\.title) == [
                "Tue 11 Jun 2024", "Wed 12 Jun 2024", "Thu 13 Jun 2024", "Fri 14 Jun 2024",
                "Sat 15 Jun 2024",
            ])
        #expect(
            sections.map(\.relativeDay) == [nil, "yesterday", "today", "tomorrow", nil])
        #expect(
            sections.map(\.key) == [
                "2024-06-11", "2024-06-12", "2024-06-13", "2024-06-14", "2024-06-15",
            ])
        #expect(sections.reduce(0) { $0 + $1.entries.count } == 12)
        let first = sections[0]
        #expect(first.entries.map(\.time) == ["23:42", "23:44"])
        #expect(first.entries.map(\.amount) == [nil, "+¥199.00"])
        #expect(first.totalsText == [["income +¥199.00"]])
        #expect(first.totals.map(\.income.description) == ["199.00"])
        // 21:05 on the 12th is 22 h 55 min before --now; 11:15 on the 14th is 15 h 15 min after.
        #expect(sections[1].entries.map(\.relativeTime) == [nil, "22 hours ago"])
        #expect(sections[3].entries.first?.relativeTime == "in 15 hours")
    }

    @Test("months, Chinese, a Calendar and Locale from Foundation")
    func monthsAndFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Asia/Shanghai")!
        // 2024-06-13T12:00:00Z, 20:00 in Shanghai
        let now = Date(timeIntervalSince1970: 1_718_280_000)
        let zh = try TimelineSection.sections(
            of: try Self.events(), by: .day, calendar: calendar,
            locale: Locale(identifier: "zh_CN"),
            now: now)
        #expect(zh.first?.title == "2024年6月11日 星期二")
        #expect(zh[1].relativeDay == "昨天")
        #expect(zh[1].entries.last?.relativeTime == "22小时前")
        #expect(zh.first?.totalsText == [["收入 +¥199.00"]])
        let months = try TimelineSection.sections(
            of: try Self.events(), by: .month, calendar: calendar, locale: Locale(identifier: "en"))
        #expect(months.map(\.title) == ["June 2024"])
        #expect(months.first?.entries.first?.shortDay == "11 Jun")
        // 199.00 + 58.50, the two payments in the sample.
        #expect(months.first?.totals.first?.income.description == "257.50")
    }

    @Test("latest first, and an all-day date before the timed events of its day in any zone")
    func ordering() throws {
        let day = CivilDate(year: 2024, month: 6, day: 12)!
        let events = [
            // 23:00 in Shanghai
            Event(id: "late", start: try TimeValue.parse("2024-06-12T15:00:00Z"), title: "late"),
            Event(id: "holiday", start: TimeValue(date: day), title: "holiday"),
            Event(
                // 00:30 on the 12th
                id: "early", start: try TimeValue.parse("2024-06-11T16:30:00Z"), title: "early"),
        ]
        let zone = try ZoneResolver().resolve("Asia/Shanghai")
        #expect(
            TimelineSection.sections(of: events, zone: zone).flatMap { $0.entries.map(\.event.id) }
                == ["holiday", "early", "late"])
        #expect(
            TimelineSection.sections(of: events, zone: zone, order: .desc).flatMap {
                $0.entries.map(\.event.id)
            } == ["late", "early", "holiday"])
        #expect(
            TimelineSection.sections(of: events, zone: .utc).map(\.key) == [
                "2024-06-11", "2024-06-12",
            ])
    }
}
