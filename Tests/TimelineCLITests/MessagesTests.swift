import Foundation
import Testing

/// Messages that say what happened and how to go on: each case of a user who named the wrong
/// flag, mistyped a zone, gave a file with no time column, a recurring calendar, or typed
/// into a waiting command.
@Suite("Messages")
struct MessagesTests {
    static func file(_ text: String, _ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(UUID().uuidString)-\(name)")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test(
        "--zone on naive times: it only sets the display; --assume-zone with that zone is suggested"
    )
    func zoneIsNotAssumeZone() throws {
        let input = try Self.file("time,title\n2024-06-12 09:00,x\n", "naive.csv")
        defer { try? FileManager.default.removeItem(at: input) }
        let r = try BinaryRunner.run(["convert", input.path, "--zone", "Europe/Berlin"])
        #expect(r.status == 65)
        #expect(
            r.stderr.contains(
                "timeline: error: 1 value(s) have no UTC offset or zone; --zone Europe/Berlin only sets the zone times are shown in\n"
                    + "timeline: note: if they were written in Europe/Berlin, pass --assume-zone Europe/Berlin\n"
            ), "\(r.stderr)")
    }

    @Test("a mistyped zone: the nearest name")
    func mistypedZone() throws {
        let r = try BinaryRunner.run([
            "convert", "samples/orders.csv", "--assume-zone", "Asia/Shangai",
        ])
        #expect(r.status == 64)
        #expect(
            r.stderr.contains("unknown time zone 'Asia/Shangai'; did you mean 'Asia/Shanghai'?"))
        let zones = try BinaryRunner.run(["zones", "Europe/Berln"])
        #expect(zones.stderr.contains("did you mean 'Europe/Berlin'?"))
    }

    @Test("no time column: one error listing the columns, the time-like one named; no row rejected")
    func noStartColumn() throws {
        let input = try Self.file(
            "name,price,when_created\nA,1.00,yesterday\nB,2.00,today\nC,3,x\n", "nostart.csv")
        defer { try? FileManager.default.removeItem(at: input) }
        let r = try BinaryRunner.run(["convert", input.path, "--assume-zone", "UTC"])
        #expect(r.status == 65)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.filter { $0.contains("E002") }.count == 1)
        #expect(
            lines.first
                == "\(input.path):1: error: [E002] no column was recognised as the start time; the columns are 'name', 'price', 'when_created'"
        )
        #expect(r.stderr.contains("name it with --map start=when_created"))
        #expect(!r.stderr.contains("rejected:"))
    }

    @Test("days counted in UTC though times were written in +08:00: a note with the --zone to name")
    func utcDaysNote() throws {
        // orders.csv: 6 of its 12 times are written with +08:00, the rest with Z (by hand).
        let note =
            "timeline: note: days are counted in UTC (no zone was named), but 6 of 12 times were written with another offset (+08:00): an evening there may fall on the next UTC day\n"
            + "timeline: note: name the zone to count days in with --zone, e.g. --zone Asia/Shanghai for +08:00\n"
        let text = try BinaryRunner.run(["convert", "samples/orders.csv", "--to", "text"])
        #expect(text.stderr.contains(note), "\(text.stderr)")
        let named = try BinaryRunner.run([
            "convert", "samples/orders.csv", "--to", "text", "--zone", "UTC",
        ])
        #expect(!named.stderr.contains("days are counted in UTC"))
        let flat = try BinaryRunner.run(["convert", "samples/orders.csv", "--to", "ndjson"])
        #expect(!flat.stderr.contains("days are counted in UTC"))
    }

    @Test("a recurring series converted without --expand: a note counting them, with the flag")
    func seriesKeptAsFirst() throws {
        let r = try BinaryRunner.run(["convert", "samples/calendar.ics", "--to", "ndjson"])
        #expect(r.status == 0)
        #expect(
            r.stderr.contains(
                "samples/calendar.ics: note: [ics-recurrence] 1 recurring series kept as their first occurrence (the rule in attributes); --expand FROM..UNTIL writes one event per occurrence in that window\n"
            ))
        let expanded = try BinaryRunner.run([
            "convert", "samples/calendar.ics", "--to", "ndjson", "--expand",
            "2024-06-01..2024-06-30",
        ])
        #expect(!expanded.stderr.contains("kept as their first occurrence"))
    }

    @Test("standard input from a terminal: the command says it is waiting")
    func typedInput() throws {
        let waiting = try BinaryRunner.run(
            [
                "-qec", "'\(BinaryRunner.executable.path)' convert --from csv < /dev/null",
                "/dev/null",
            ],
            program: "/usr/bin/script")
        #expect(!waiting.stdout.contains("reading standard input"))
        // `script` gives the command a terminal for standard input when none is redirected.
        let typed = try BinaryRunner.run(
            [
                "-qec", "'\(BinaryRunner.executable.path)' convert --from csv --assume-zone UTC",
                "/dev/null",
            ],
            stdin: "time,title\n2024-06-12T09:00:00Z,x\n\u{4}", program: "/usr/bin/script")
        #expect(typed.stdout.contains("timeline: reading standard input (end with Ctrl-D"))
    }

    @Test(
        "a sample read with a link as its zone records the zone's own name",
        arguments: [
            "samples/wallet-statement.csv", "samples/courier-trace.json",
        ])
    func linksRecordTheirZone(sample: String) throws {
        let r = try BinaryRunner.run([
            "convert", sample, "--assume-zone", "Asia/Calcutta", "--to", "ndjson", "-q",
        ])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("Calcutta"))
        #expect(r.stdout.contains("\"zone\":\"Asia/Kolkata\""))
    }
}
