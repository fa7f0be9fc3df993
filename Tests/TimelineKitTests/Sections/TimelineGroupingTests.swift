import Testing

@testable import TimelineKit

@Suite("Grouping by day and month in the display zone")
struct TimelineGroupingTests {
    static func instant(_ text: String, amount: String? = nil, currency: String? = nil, id: String)
        throws -> Event
    {
        var e = Event(id: id, start: try DateParser().parse(text).get().value, title: id)
        if let amount { e.amount = Amount(value: DecimalNumber(amount)!, currency: currency) }
        return e
    }

    @Test("days are counted in the display zone; all-day dates never move")
    func days() throws {
        let events = [
            // 00:20 on the 13th in Shanghai
            try Self.instant("2024-06-12T16:20:00Z", id: "late-utc"),
            Event(
                id: "all-day", start: TimeValue(date: CivilDate(year: 2024, month: 6, day: 12)!),
                title: ""),
            // 23:59:59 on the 12th in Shanghai
            try Self.instant("2024-06-12T15:59:59Z", id: "just-before"),
        ]
        let shanghai = try #require(ZoneResolver.ianaRules("Asia/Shanghai"))
        let inShanghai = TimelineGrouping.group(events, unit: .day, zone: shanghai)
        #expect(inShanghai.map(\.key) == ["2024-06-13", "2024-06-12"])
        #expect(
            inShanghai.map { $0.events.map(\.id) } == [["late-utc"], ["all-day", "just-before"]])
        let inUTC = TimelineGrouping.group(events, unit: .day, zone: .utc)
        #expect(inUTC.map(\.key) == ["2024-06-12"])
        // Honolulu (-10:00): the instants fall on the 12th, 06:20 and 05:59; the date stays the 12th.
        let honolulu = try #require(ZoneResolver.ianaRules("Pacific/Honolulu"))
        #expect(
            TimelineGrouping.group(events, unit: .day, zone: honolulu).map(\.key) == ["2024-06-12"])
        #expect(
            TimelineGrouping.group(events, unit: .month, zone: shanghai).map(\.key) == ["2024-06"])
    }

    @Test("totals per currency are exact decimal income and expense sums")
    func totals() throws {
        let events = [
            try Self.instant("2024-06-12T01:00:00Z", amount: "0.10", currency: "CNY", id: "a"),
            try Self.instant("2024-06-12T02:00:00Z", amount: "0.20", currency: "CNY", id: "b"),
            try Self.instant("2024-06-12T03:00:00Z", amount: "-12.5", currency: "USD", id: "c"),
            try Self.instant("2024-06-12T04:00:00Z", amount: "-0.05", currency: "CNY", id: "d"),
            try Self.instant("2024-06-12T05:00:00Z", amount: "3", id: "e"),
        ]
        let totals = TimelineGrouping.totals(events)
        // By hand: CNY income 0.10 + 0.20 = 0.30 (not 0.30000000000000004), expense -0.05;
        // USD expense -12.5, income zero at its scale; no-currency income 3.
        #expect(totals.map { $0.currency } == [nil, "CNY", "USD"])
        #expect(totals.map { $0.income.description } == ["3", "0.30", "0.0"])
        #expect(totals.map { $0.expense.description } == ["0", "-0.05", "-12.5"])
    }
}
