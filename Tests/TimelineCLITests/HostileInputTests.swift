import Foundation
import Testing

/// Inputs that crashed, hung or were written wrong (issue 15's fuzzing campaign), and shapes
/// like them: each must end with a clear message and an exit status below 128, and no
/// output may carry a year that is not 0001–9999. Expected codes and statuses by hand.
@Suite("hostile input: no crash, no wrong year")
struct HostileInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var input: String
        var arguments: [String]
        var status: Int32
        /// Text standard error must contain.
        var message: String
        /// Lines standard output must have, when it matters.
        var lines: Int? = nil
        var testDescription: String { name }
    }

    static let secondly =
        "DTSTART:19700101T000000\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0000\r\nRRULE:FREQ=SECONDLY"
    static let zoned =
        "BEGIN:VEVENT\r\nUID:e\r\nDTSTART;TZID=X/Hostile:20240612T093000\r\nEND:VEVENT\r\n"

    static func ics(_ body: String) -> String { "BEGIN:VCALENDAR\r\n" + body + "END:VCALENDAR\r\n" }
    static func event(_ lines: String) -> String {
        ics("BEGIN:VEVENT\r\nUID:u\r\n" + lines + "END:VEVENT\r\n")
    }

    static let cases: [Case] = [
        Case(
            name: "DURATION in weeks beyond Int64 seconds",
            input: event("DTSTART:20240612T093000Z\r\nDURATION:P99999999999999W\r\n"),
            arguments: ["--from", "ics"], status: 65, message: "[E008]"),
        Case(
            name: "DURATION of Int64.max seconds",
            input: event("DTSTART:20240612T093000Z\r\nDURATION:PT9223372036854775807S\r\n"),
            arguments: ["--from", "ics"], status: 65, message: "[E008]"),
        Case(
            name: "DURATION in days past year 9999",
            input: event("DTSTART:20240612T093000Z\r\nDURATION:P106751991167300D\r\n"),
            arguments: ["--from", "ics"], status: 65, message: "[E008]"),
        Case(
            name: "DURATION in hours past year 9999",
            input: event("DTSTART:20240612T093000Z\r\nDURATION:PT2562047788015215H\r\n"),
            arguments: ["--from", "ics"], status: 65, message: "[E008]"),
        Case(
            name: "negative DURATION before year 1",
            input: event("DTSTART:19000101T000000Z\r\nDURATION:-P700000D\r\n"),
            arguments: ["--from", "ics"], status: 65, message: "[E008]"),
        Case(
            name: "digits beyond Int64 in a DURATION",
            input: event("DTSTART:20240612T093000Z\r\nDURATION:PT99999999999999999999999S\r\n"),
            arguments: ["--from", "ics"], status: 65, message: "[E008]"),
        Case(
            name: "RDATE period with an endless duration under --expand",
            input: event(
                "DTSTART:20240612T093000Z\r\nDURATION:PT1H\r\nRDATE;VALUE=PERIOD:20240613T093000Z/PT9223372036854775807S\r\n"
            ),
            arguments: ["--from", "ics", "--expand", "2024-01-01..2024-12-31"], status: 0,
            message: "[E008]"),
        Case(
            name: "an all-day 9999-12-31 (its end, the next day, is year 10000)",
            input: event("DTSTART;VALUE=DATE:99991231\r\n"),
            arguments: ["--from", "ics"], status: 65,
            message: "end '10000-01-01' is outside the years 0001–9999"),
        Case(
            name: "a DTEND in year 0",
            input: event("DTSTART;VALUE=DATE:20240101\r\nDTEND;VALUE=DATE:00000101\r\n"),
            arguments: ["--from", "ics"], status: 65, message: "[E001]"),
        Case(
            name: "year 10000 in UTC from a -10:00 offset, as NDJSON",
            input: "time,title\n9999-12-31T23:00:00-10:00,x\n",
            arguments: ["--from", "csv", "--to", "ndjson"], status: 65,
            message: "is 10000-01-01T09:00:00Z in UTC"),
        Case(
            name: "year 10000 in UTC, as HTML", input: "time,title\n9999-12-31T23:00:00-10:00,x\n",
            arguments: ["--from", "csv", "--to", "html"], status: 65, message: "[E008]"),
        Case(
            name: "year 10000 in UTC, as text by month",
            input: "time,title\n9999-12-31T23:00:00-10:00,x\n",
            arguments: ["--from", "csv", "--to", "text", "--group", "month"], status: 65,
            message: "[E008]"),
        Case(
            name: "year 0 in UTC from a +01:00 offset",
            input: "time,title\n0001-01-01T00:30:00+01:00,x\n",
            arguments: ["--from", "csv", "--to", "csv"], status: 65,
            message: "is 0000-12-31T23:30:00Z in UTC"),
        Case(
            name: "year 10000 only in the display zone",
            input: "time,title\n9999-12-31T23:00:00Z,late\n2024-01-01T00:00:00Z,fine\n",
            arguments: ["--from", "csv", "--to", "text", "--zone", "Pacific/Kiritimati"], status: 0,
            message: "is 10000-01-01T13:00:00 in Pacific/Kiritimati"),
        Case(
            name: "a truncated JSON array says nothing was written",
            input: #"[{"time":"2024-06-12T08:00:00Z","title":"a"},{"time":"#,
            arguments: ["--from", "json", "--to", "ndjson"], status: 65,
            message: "note: nothing was written (read 1 record(s), rejected 0 before this point)"),
        Case(
            name: "a truncated JSON array, streamed, says what went out",
            input: #"[{"time":"2024-06-12T08:00:00Z","title":"a"},{"time":"#,
            arguments: ["--from", "json", "--to", "ndjson", "--sort", "input"], status: 65,
            message:
                "1 event(s) read before this point were written to standard output, which is incomplete"
        ),
        Case(
            name: "every record rejected is a data error", input: "foo,bar\n1,2\n3,4\n",
            arguments: ["--from", "csv", "--to", "ndjson"], status: 65,
            message: "no column was recognised as the start time; the columns are 'foo', 'bar'"),
        // Nothing but unknown components: no record, and not empty (issue 49), so an error.
        Case(
            name: "components nested 40,000 deep",
            input: String(repeating: "BEGIN:X\r\n", count: 40_000),
            arguments: ["--from", "ics"], status: 65,
            message: "nests components more than 32 deep; it is ignored"),
        Case(
            name: "JSON nested 100,000 deep", input: String(repeating: "[", count: 100_000),
            arguments: ["--from", "json"], status: 65, message: "nesting deeper than 256 levels"),
        Case(
            name: "VTIMEZONE observances whose rule never matches (30 February, every second)",
            input: ics(
                "BEGIN:VTIMEZONE\r\nTZID:X/Hostile\r\n"
                    + String(
                        repeating:
                            "BEGIN:STANDARD\r\n\(secondly);BYMONTH=2;BYMONTHDAY=30\r\nEND:STANDARD\r\n",
                        count: 12) + "END:VTIMEZONE\r\n"
                    + zoned),
            arguments: ["--from", "ics", "--to", "ndjson"], status: 0,
            message: "read 1 records, wrote 1", lines: 1),
        Case(
            name: "a thousand VTIMEZONE observances every second",
            input: ics(
                "BEGIN:VTIMEZONE\r\nTZID:X/Hostile\r\n"
                    + String(
                        repeating: "BEGIN:STANDARD\r\n\(secondly)\r\nEND:STANDARD\r\n", count: 1_000
                    ) + "END:VTIMEZONE\r\n" + zoned),
            arguments: ["--from", "ics", "--to", "ndjson"], status: 0,
            message: "read 1 records, wrote 1", lines: 1),
        Case(
            name: "series whose rule never matches, expanded to year 9999",
            // Eight series of their own (eight copies of one UID would be one event in
            // eight versions, read once).
            input: ics(
                (0..<8).map {
                    "BEGIN:VEVENT\r\nUID:s\($0)\r\nDTSTART:20240101T000000Z\r\nRRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30\r\nEND:VEVENT\r\n"
                }.joined()),
            arguments: ["--from", "ics", "--to", "ndjson", "--expand", "2024-01-01..9999-12-31"],
            status: 0,
            message: "series 's0' produced nothing in 50000 periods in a row", lines: 8),
        Case(
            name: "the run's total of occurrences caps many endless series",
            input: ics(
                (0..<100).map {
                    "BEGIN:VEVENT\r\nUID:s\($0)\r\nDTSTART:20240101T000000Z\r\nRRULE:FREQ=SECONDLY\r\nEND:VEVENT\r\n"
                }.joined()),
            arguments: [
                "--from", "ics", "--to", "ndjson", "--expand", "2024-01-01..2024-12-31",
                "--max-total-occurrences", "25000",
            ], status: 0,
            message:
                "series 's2' stopped after 5000 occurrences (the run reached --max-total-occurrences 25000)",
            lines: 25_000),
    ]

    @Test("ends with a clear message and an exit status below 128", arguments: cases)
    func hostile(_ c: Case) throws {
        let r = try BinaryRunner.run(
            ["convert", "-", "--assume-zone", "UTC"] + c.arguments, stdin: c.input)
        #expect(r.status == c.status, "\(r.stderr.prefix(600))")
        #expect(r.stderr.contains(c.message), "\(r.stderr.prefix(600))")
        if let lines = c.lines { #expect(r.stdout.split(separator: "\n").count == lines) }
        // No year other than 0001–9999 in what was written.
        #expect(
            r.stdout.range(
                of: #"(^|[^0-9])(0000|[0-9]{5,})-[0-9]{2}-[0-9]{2}"#, options: .regularExpression)
                == nil)
    }

    @Test("dates: values outside the years 0001–9999, in UTC or in the output zone, fail with E008")
    func dates() throws {
        let r = try BinaryRunner.run(
            ["dates", "--zone", "Pacific/Kiritimati"],
            stdin: "9999-12-31T23:00:00Z\n0001-01-01T00:00:00+01:00\n2024-06-12T08:00:00Z\n")
        #expect(
            r.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
                "", "", "2024-06-12T22:00:00+14:00", "",
            ])
        #expect(
            r.stderr.contains(
                "line 1: error: [E008] '9999-12-31T23:00:00Z' is 10000-01-01T13:00:00 in Pacific/Kiritimati"
            ))
        #expect(
            r.stderr.contains(
                "line 2: error: [E008] '0001-01-01T00:00:00+01:00' is 0000-12-31T23:00:00Z in UTC"))
    }
}
