import Testing
import TimelineKit

/// The entry points a library user calls, through `import TimelineKit` alone (no
/// `@testable`): a typed field mapping, a recurrence window, a zone's offsets and days.
/// Expected values worked out by hand.
@Suite("Public API")
struct PublicAPITests {
    static let shanghai = try! ZoneResolver().resolve("Asia/Shanghai")

    @Test("FieldMapping.map feeds a field from named columns, joining a date and a time")
    func typedMapping() throws {
        var options = ReadOptions()
        options.format = .named("csv")
        options.dates.assumedZone = Self.shanghai
        options.mapping.mapping.map(.start, to: "d", "t")
        options.mapping.mapping.map(.title, to: "what")
        #expect(options.mapping.mapping.columns(for: .start) == ["d", "t"])
        #expect(options.mapping.mapping.columns(for: .amount) == nil)
        let csv = "d,t,what,title\n2024-06-12,09:05,Coffee,ignored\n"
        let event = try #require(
            try Timeline.read(.string(csv, name: "m.csv"), options: options).events.first)
        #expect(event.start.rfc3339 == "2024-06-12T09:05:00+08:00")
        #expect(event.title == "Coffee")
    }

    @Test("FieldMapping.map to no column keeps a default column out")
    func mappedToNothing() throws {
        var options = ReadOptions()
        options.format = .named("csv")
        options.dates.assumedZone = Self.shanghai
        options.mapping.mapping.map(.title, to: [])
        let csv = "time,title\n2024-06-12 09:05,Coffee\n"
        let event = try #require(
            try Timeline.read(.string(csv, name: "m.csv"), options: options).events.first)
        #expect(event.title != "Coffee")
    }

    /// Weekdays from Wednesday 12 June 2024 at 09:30 in Shanghai (01:30Z), ten of them:
    /// 12, 13, 14, 17, 18, 19, 20, 21, 24, 25 June.
    static let standup = """
        BEGIN:VCALENDAR
        VERSION:2.0
        BEGIN:VEVENT
        UID:standup
        DTSTART;TZID=Asia/Shanghai:20240612T093000
        RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=10
        SUMMARY:Stand-up
        END:VEVENT
        END:VCALENDAR

        """

    static func occurrences(_ configure: (inout ReadOptions) -> Void) throws -> [String] {
        var options = ReadOptions()
        options.format = .named("ics")
        configure(&options)
        return try Timeline.read(.string(standup, name: "standup.ics"), options: options).events
            .map(\.start.rfc3339)
    }

    @Test("without a window a series is its first event")
    func seriesUnexpanded() throws {
        #expect(try Self.occurrences { _ in } == ["2024-06-12T09:30:00+08:00"])
    }

    @Test("expandRecurrences over days: the days in the series' own zone, both ends included")
    func expandOverDays() throws {
        let days = try Self.occurrences {
            $0.expandRecurrences(
                from: CivilDate(year: 2024, month: 6, day: 17)!,
                through: CivilDate(year: 2024, month: 6, day: 19)!)
        }
        #expect(
            days == [
                "2024-06-17T09:30:00+08:00", "2024-06-18T09:30:00+08:00",
                "2024-06-19T09:30:00+08:00",
            ])
    }

    @Test("expandRecurrences over instants: both ends included")
    func expandOverInstants() throws {
        let from = try #require(try TimeValue.parse("2024-06-18T00:00:00Z").instant)
        let through = try #require(try TimeValue.parse("2024-06-20T01:30:00Z").instant)
        let three = try Self.occurrences { $0.expandRecurrences(from: from, through: through) }
        #expect(
            three == [
                "2024-06-18T09:30:00+08:00", "2024-06-19T09:30:00+08:00",
                "2024-06-20T09:30:00+08:00",
            ])
        let before = Instant(seconds: through.seconds - 1)
        let two = try Self.occurrences { $0.expandRecurrences(from: from, through: before) }
        #expect(two.count == 2)
    }

    @Test("a zone's offset and day at an instant, and an abbreviation's fixed offset")
    func zoneOffsets() throws {
        let newYork = try ZoneResolver().resolve("America/New_York")
        let july = Instant(seconds: 1_719_835_200)  // 2024-07-01T12:00:00Z
        let january = Instant(seconds: 1_704_110_400)  // 2024-01-01T12:00:00Z
        #expect(newYork.offset(at: july).seconds == -4 * 3600)
        #expect(newYork.offset(at: january).seconds == -5 * 3600)
        #expect(try ZoneResolver().resolve("PDT").offset(at: january).seconds == -7 * 3600)
        // 2024-06-12T20:00:00Z, 04:00 on the 13th in Shanghai
        let evening = Instant(seconds: 1_718_222_400)
        #expect(Self.shanghai.day(of: evening) == CivilDate(year: 2024, month: 6, day: 13))
        #expect(ResolvedZone.utc.day(of: evening) == CivilDate(year: 2024, month: 6, day: 12))
    }
}
