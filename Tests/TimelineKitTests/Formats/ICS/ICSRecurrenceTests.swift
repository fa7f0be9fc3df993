import Testing

@testable import TimelineKit

/// `--expand`: expected occurrences worked out by hand from the rules and the 2024 US DST
/// dates (summer time ends 3 Nov, begins 10 Mar at 02:00).
@Suite("ICS recurrence expansion")
struct ICSRecurrenceTests {
    static let weekly = """
        BEGIN:VCALENDAR
        VERSION:2.0
        BEGIN:VEVENT
        UID:standup
        DTSTART;TZID=America/New_York:20241021T090000
        DTEND;TZID=America/New_York:20241021T091500
        RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6
        EXDATE:20241028T130000Z
        RDATE;VALUE=PERIOD:20241106T150000Z/PT30M
        SUMMARY:Standup
        END:VEVENT
        BEGIN:VEVENT
        UID:standup
        RECURRENCE-ID;TZID=America/New_York:20241111T090000
        DTSTART;TZID=America/New_York:20241111T100000
        DTEND;TZID=America/New_York:20241111T101500
        SUMMARY:Standup (moved)
        END:VEVENT
        BEGIN:VEVENT
        UID:standup
        RECURRENCE-ID;TZID=America/New_York;RANGE=THISANDFUTURE:20241118T090000
        DTSTART;TZID=America/New_York:20241118T083000
        DTEND;TZID=America/New_York:20241118T084500
        SUMMARY:Early standup
        END:VEVENT
        BEGIN:VEVENT
        UID:lunch
        DTSTART;TZID=America/New_York:20241101T120000
        SUMMARY:One-off lunch
        END:VEVENT
        END:VCALENDAR
        """

    static func run(_ text: String, window: String?, cap: Int = 10_000) throws -> ImportRun {
        try ImportRun(ICSImporter(), text, name: "cal.ics", format: "ics") { options in
            options.dates.assumedZone = nil
            options.ics.expansion = try window.map {
                try RecurrenceExpansion.parse($0, maxOccurrences: cap).get()
            }
        }
    }

    static func summary(_ e: Event) -> String {
        func utc(_ i: Instant) -> String { i.local(in: .utc).isoString(fractionDigits: 0) + "Z" }
        let end = e.end?.instant.map { "–" + utc($0) } ?? ""
        return "\(e.id) \(e.start.rfc3339) \(utc(e.start.instant!))\(end) \(e.title)"
    }

    @Test(
        "weekly series across the end of DST: EXDATE in UTC, RDATE period, an override and THISANDFUTURE"
    )
    func weeklySeries() throws {
        let run = try Self.run(Self.weekly, window: "2024-10-01..2024-12-31")
        #expect(run.rejects.isEmpty)
        #expect(
            run.events.map(Self.summary) == [
                "standup/20241021T090000 2024-10-21T09:00:00-04:00 2024-10-21T13:00:00Z–2024-10-21T13:15:00Z Standup",
                // 28 Oct excluded by the UTC EXDATE 13:00Z (= 09:00 EDT).
                "standup/20241104T090000 2024-11-04T09:00:00-05:00 2024-11-04T14:00:00Z–2024-11-04T14:15:00Z Standup",
                "standup/20241106T100000 2024-11-06T10:00:00-05:00 2024-11-06T15:00:00Z–2024-11-06T15:30:00Z Standup",
                "standup/20241111T090000 2024-11-11T10:00:00-05:00 2024-11-11T15:00:00Z–2024-11-11T15:15:00Z Standup (moved)",
                "standup/20241118T090000 2024-11-18T08:30:00-05:00 2024-11-18T13:30:00Z–2024-11-18T13:45:00Z Early standup",
                "standup/20241125T090000 2024-11-25T08:30:00-05:00 2024-11-25T13:30:00Z–2024-11-25T13:45:00Z Early standup",
                "lunch 2024-11-01T12:00:00-04:00 2024-11-01T16:00:00Z One-off lunch",
            ])
        #expect(run.events.allSatisfy { $0.attributes["RRULE"] == nil })
    }

    @Test("without --expand the master and its overrides are kept as they are, RRULE in attributes")
    func withoutExpansion() throws {
        let run = try Self.run(Self.weekly, window: nil)
        #expect(
            run.events.map(\.id) == [
                "standup", "standup/20241111T090000", "standup/20241118T090000", "lunch",
            ])
        #expect(run.events[0].attributes["RRULE"] == "FREQ=WEEKLY;BYDAY=MO;COUNT=6")
    }

    @Test("an instant window cuts precisely; a wall time in the spring gap moves forward an hour")
    func instantWindowAndGap() throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:backup
            DTSTART;TZID=America/New_York:20240309T023000
            RRULE:FREQ=DAILY
            SUMMARY:Backup
            END:VEVENT
            END:VCALENDAR
            """
        // 11 Mar 02:30 EDT is 06:30Z: a window ending 06:29:59Z leaves it out.
        let run = try Self.run(text, window: "2024-03-09T00:00:00Z..2024-03-11T06:29:59Z")
        #expect(
            run.events.map(Self.summary) == [
                "backup/20240309T023000 2024-03-09T02:30:00-05:00 2024-03-09T07:30:00Z Backup",
                "backup/20240310T023000 2024-03-10T03:30:00-04:00 2024-03-10T07:30:00Z Backup",
            ])
        // The shift is reported (TZ104) at the series' line, once.
        let gaps = run.diagnostics.filter { $0.code == "TZ104" }
        #expect(gaps.count == 1)
        #expect(gaps.first?.location?.line == 2)
        #expect(gaps.first?.message.contains("2024-03-10T02:30") == true)
    }

    @Test("the occurrence cap stops a runaway series and says so; an all-day series stays in dates")
    func capAndAllDay() throws {
        let text = """
            BEGIN:VCALENDAR
            BEGIN:VEVENT
            UID:tick
            DTSTART:20240101T000000Z
            RRULE:FREQ=SECONDLY
            END:VEVENT
            BEGIN:VEVENT
            UID:new-year
            DTSTART;VALUE=DATE:20240101
            RRULE:FREQ=YEARLY
            END:VEVENT
            END:VCALENDAR
            """
        let run = try Self.run(text, window: "2024-01-01..2026-12-31", cap: 1000)
        let ticks = run.events.filter { $0.id.hasPrefix("tick/") }
        #expect(ticks.count == 1000)
        #expect(ticks.last?.id == "tick/20240101T001639Z")
        #expect(run.diagnostics.contains { $0.message.contains("stopped after 1000 occurrences") })
        let years = run.events.filter { $0.id.hasPrefix("new-year/") }
        #expect(years.map(\.id) == ["new-year/20240101", "new-year/20250101", "new-year/20260101"])
        #expect(
            years.allSatisfy {
                $0.start.date != nil && $0.end?.date == $0.start.date!.adding(days: 1)
            })
    }

    @Test("a rule that cannot be read keeps the master and warns with the line")
    func badRule() throws {
        let text =
            "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:x\nDTSTART:20240101T000000Z\nRRULE:FREQ=FORTNIGHTLY\nEND:VEVENT\nEND:VCALENDAR\n"
        let run = try Self.run(text, window: "2024-01-01..2024-12-31")
        #expect(run.events.map(\.id) == ["x"])
        #expect(
            run.diagnostics.contains {
                $0.message.contains("FREQ=FORTNIGHTLY") && $0.location?.line == 5
            })
    }

    @Test(
        "window syntax",
        arguments: [
            "2024-01-01", "2024-01-01..", "2024-01-01T00:00..2024-02-01", "yesterday..today",
        ])
    func badWindow(text: String) {
        guard case .failure = RecurrenceExpansion.parse(text) else {
            Issue.record("'\(text)' was accepted")
            return
        }
    }
}
