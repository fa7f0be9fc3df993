import Foundation
import Testing

/// One event in several versions (RFC 5545 SEQUENCE, §3.8.7.4; UID + RECURRENCE-ID,
/// §3.8.4.4): the current version of each UID and of each instance is the one imported.
@Suite("ICS: several versions of one event", .serialized)
struct ICSRevisionTests {
    static func component(_ lines: [String]) -> [String] {
        ["BEGIN:VEVENT"] + lines + ["END:VEVENT"]
    }

    /// A weekly series in two revisions (the newer excludes 15 July), an instance moved twice
    /// (the second move wins), an instance cancelled and exported twice identically, and a
    /// single event exported twice. `newerFirst` puts the newer master before the older one.
    static func calendar(newerFirst: Bool) -> String {
        let newer = component([
            "UID:111", "SEQUENCE:2", "DTSTAMP:20240620T000000Z", "DTSTART:20240701T090000Z",
            "DURATION:PT1H",
            "RRULE:FREQ=WEEKLY;COUNT=5", "EXDATE:20240715T090000Z", "SUMMARY:Weekly v2",
        ])
        let older = component([
            "UID:111", "SEQUENCE:1", "DTSTAMP:20240601T000000Z", "DTSTART:20240701T090000Z",
            "DURATION:PT1H",
            "RRULE:FREQ=WEEKLY;COUNT=5", "SUMMARY:Weekly v1",
        ])
        let movedA = component([
            "UID:111", "RECURRENCE-ID:20240708T090000Z", "SEQUENCE:0", "DTSTAMP:20240601T000000Z",
            "DTSTART:20240708T093000Z",
            "DURATION:PT1H", "SUMMARY:Moved A",
        ])
        let movedB = component([
            "UID:111", "RECURRENCE-ID:20240708T090000Z", "SEQUENCE:1", "DTSTAMP:20240610T000000Z",
            "DTSTART:20240708T100000Z",
            "DURATION:PT1H", "SUMMARY:Moved B",
        ])
        let cancelled = component([
            "UID:111", "RECURRENCE-ID:20240722T090000Z", "SEQUENCE:2", "DTSTAMP:20240620T000000Z",
            "DTSTART:20240722T090000Z",
            "DURATION:PT1H", "STATUS:CANCELLED", "SUMMARY:Weekly v2",
        ])
        let lunch = component([
            "UID:222", "DTSTAMP:20240601T000000Z", "DTSTART:20240703T120000Z", "SUMMARY:Lunch",
        ])
        let masters = newerFirst ? newer + older : older + newer
        let body = masters + movedB + movedA + cancelled + cancelled + lunch + lunch
        return
            (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hand//revisions//EN"] + body + [
                "END:VCALENDAR"
            ]).joined(separator: "\r\n") + "\r\n"
    }

    static func convert(_ calendar: String, _ extra: [String]) throws -> BinaryRunner.Output {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("revisions.ics").path
        try Data(calendar.utf8).write(to: URL(fileURLWithPath: path))
        return try BinaryRunner.run(["convert", path, "--to", "csv"] + extra)
    }

    /// id, start, title and status of each CSV row.
    static func rows(_ csv: String) -> [String] {
        csv.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.map { row in
            let f = row.split(separator: ",", omittingEmptySubsequences: false)
            return [f[0], f[1], f[4], f[6]].joined(separator: " ")  // id, start, title, status
        }
    }

    // Worked out by hand from RFC 5545 (weekly from Monday 1 July, five occurrences: 1, 8, 15,
    // 22, 29 July; the current revision excludes the 15th; the 8th is moved to 10:00 by its
    // newer override; the 22nd is cancelled) and checked with Python's recurring_ical_events
    // 3.8.2 (icalendar 7.3.2), whose `of(calendar).between(2024-06-01, 2024-09-01)` gives the
    // same five components for this calendar in either order.
    static let expanded = [
        "111/20240701T090000Z 2024-07-01T09:00:00Z Weekly v2 ",
        "222 2024-07-03T12:00:00Z Lunch ",
        "111/20240708T090000Z 2024-07-08T10:00:00Z Moved B ",
        "111/20240722T090000Z 2024-07-22T09:00:00Z Weekly v2 cancelled",
        "111/20240729T090000Z 2024-07-29T09:00:00Z Weekly v2 ",
    ]

    @Test(
        "--expand: the newest master, the newest override of each instance, duplicates once; in either order",
        arguments: [true, false])
    func expanded(newerFirst: Bool) throws {
        let r = try Self.convert(
            Self.calendar(newerFirst: newerFirst),
            ["--expand", "2024-06-01..2024-08-31", "--sort", "asc"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.rows(r.stdout) == Self.expanded)
        let notes = r.stderr.split(separator: "\n").filter { $0.contains("note: [ics-revision]") }
        #expect(notes.count == 4, "\(r.stderr)")
        #expect(
            notes.contains {
                $0.contains("VEVENT UID '111' has 2 versions: the current one (SEQUENCE 2) is kept")
            })
        #expect(
            notes.contains {
                $0.contains(
                    "instance 20240708T090000Z (RECURRENCE-ID) of UID '111' has 2 versions: the current one (SEQUENCE 1)"
                )
            })
    }

    @Test("without --expand: one event per UID and RECURRENCE-ID, the current versions")
    func masters() throws {
        let r = try Self.convert(Self.calendar(newerFirst: false), ["--sort", "input"])
        #expect(r.status == 0, "\(r.stderr)")
        // In file order of the kept components: the newer master (second in this order), the
        // newer override of the 8th (listed first), the cancelled 22nd, lunch.
        #expect(
            Self.rows(r.stdout) == [
                "111 2024-07-01T09:00:00Z Weekly v2 ",
                "111/20240708T090000Z 2024-07-08T10:00:00Z Moved B ",
                "111/20240722T090000Z 2024-07-22T09:00:00Z Weekly v2 cancelled",
                "222 2024-07-03T12:00:00Z Lunch ",
            ])
        #expect(r.stderr.contains("timeline: read 4 records, wrote 4, rejected 0"))
    }

    @Test("validation: merged revisions are not duplicate ids (TZ113)")
    func noDuplicateIDs() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("revisions.ics").path
        try Data(Self.calendar(newerFirst: true).utf8).write(to: URL(fileURLWithPath: path))
        for extra in [[], ["--expand", "2024-06-01..2024-08-31"]] {
            let r = try BinaryRunner.run(["validate", path, "--report", "json"] + extra)
            #expect(!r.stdout.contains("TZ113"), "\(extra): \(r.stdout)")
            #expect(r.stdout.contains(#""records":"#), "\(r.stdout)")
        }
    }
}

@Suite("ICS: series counted from DUE")
struct ICSSeriesStartTests {
    // A daily to-do with a DUE and no DTSTART: three occurrences at 17:00 UTC from 1 July,
    // worked out by hand and given by recurring_ical_events 3.8.2 (components=["VTODO"]);
    // it used to come out as one to-do with no warning.
    @Test("a recurring to-do without DTSTART expands from DUE and says so")
    func todoFromDue() throws {
        let calendar =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hand//todo//EN", "BEGIN:VTODO",
                "UID:t1", "DTSTAMP:20240601T000000Z",
                "DUE:20240701T170000Z", "RRULE:FREQ=DAILY;COUNT=3", "SUMMARY:Water plants",
                "END:VTODO", "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
        let r = try ICSRevisionTests.convert(
            calendar, ["--expand", "2024-06-01..2024-08-31", "--sort", "asc"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            ICSRevisionTests.rows(r.stdout) == [
                "t1/20240701T170000Z 2024-07-01T17:00:00Z Water plants ",
                "t1/20240702T170000Z 2024-07-02T17:00:00Z Water plants ",
                "t1/20240703T170000Z 2024-07-03T17:00:00Z Water plants ",
            ])
        #expect(
            r.stderr.contains(
                "revisions.ics:7: warning: [ics-recurrence] to-do 't1' has no DTSTART: its occurrences are counted from DUE (20240701T170000Z)"
            ))
    }

    @Test("a series that cannot be expanded says which and why, in every component type")
    func unexpandable() throws {
        let calendar =
            [
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//hand//x//EN", "BEGIN:VJOURNAL",
                "UID:j1", "DTSTART:20240701T170000Z",
                "RRULE:FREQ=DAILY;COUNT=3;UNTIL=20240710T000000Z", "SUMMARY:Both", "END:VJOURNAL",
                "END:VCALENDAR",
            ].joined(separator: "\r\n") + "\r\n"
        let r = try ICSRevisionTests.convert(calendar, ["--expand", "2024-06-01..2024-08-31"])
        #expect(r.status == 0, "\(r.stderr)")
        // RFC 5545 §3.3.10: COUNT and UNTIL MUST NOT occur in the same rule.
        #expect(
            r.stderr.contains(
                "revisions.ics:7: warning: [ics-recurrence] series 'j1' cannot be expanded: RRULE 'FREQ=DAILY;COUNT=3;UNTIL=20240710T000000Z': UNTIL and COUNT may not both be given; the master event is kept"
            ))
        #expect(ICSRevisionTests.rows(r.stdout) == ["j1 2024-07-01T17:00:00Z Both "])
    }
}
