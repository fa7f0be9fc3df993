import Foundation
import Testing

/// `timeline dates --csv/--tsv --column`, `--ndjson --field` and `--in-text`: the input back
/// byte for byte but for the dates rewritten. Every expected output here was worked out by
/// hand (Shanghai is UTC+8 all year; 1718150400 is 2024-06-12T00:00:00Z).
@Suite("dates: cleaned in place")
struct DatesInPlaceTests {
    static func file(_ bytes: [UInt8], _ name: String) throws -> (URL, String) {
        let dir = try BinaryRunner.temporaryDirectory()
        let path = dir.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (dir, path)
    }

    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    @Test(
        "CSV: BOM, CRLF, quoting and a line break inside quotes kept; a value that fails stays, is reported and rejected"
    )
    func csvColumn() throws {
        let input =
            "id,when,note\r\n1,2024-06-12T08:00:00+08:00,\"a, \"\"quoted\"\" note\"\r\n2,12/06/2024 20:30,\"two\r\nlines\"\r\n3,not a date,x\r\n4,,empty\r\n"
        let (dir, path) = try Self.file(Self.bom + Array(input.utf8), "in.csv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rejects = dir.appendingPathComponent("rejects.csv").path
        let r = try BinaryRunner.run([
            "dates", "--csv", "--column", "when", path, "--assume-zone", "Asia/Shanghai",
            "--day-first", "--rejects", rejects,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let expected =
            "id,when,note\r\n1,2024-06-12T00:00:00Z,\"a, \"\"quoted\"\" note\"\r\n2,2024-06-12T12:30:00Z,\"two\r\nlines\"\r\n3,not a date,x\r\n4,,empty\r\n"
        #expect(r.stdout == expected, "\(r.stdout)")
        // Standard output as bytes (read as a String, a leading BOM is dropped): the BOM kept.
        let out = dir.appendingPathComponent("out.csv").path
        let process = Process()
        process.executableURL = BinaryRunner.executable
        process.arguments = [
            "dates", "--csv", "--column", "when", path, "--assume-zone", "Asia/Shanghai",
            "--day-first",
        ]
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: out))) == Self.bom
                + Array(expected.utf8))
        #expect(r.stderr.contains("in.csv:5: error: [E001] column 'when': "), "\(r.stderr)")
        #expect(
            r.stderr.contains("1 of 3 values could not be read (left as they were)"), "\(r.stderr)")
        #expect(
            try String(contentsOfFile: rejects, encoding: .utf8)
                == "id,when,note\r\n3,not a date,x\r\n")
        // Emptied instead, and the file's other bytes still as they were.
        let empty = try BinaryRunner.run([
            "dates", "--csv", "--column", "when", path, "--assume-zone", "Asia/Shanghai",
            "--day-first", "--on-error", "empty",
        ])
        #expect(empty.stdout.contains("\r\n3,,x\r\n"))
        // A column the file does not have: the error lists those it has.
        let missing = try BinaryRunner.run(["dates", "--csv", "--column", "time", path])
        #expect(
            missing.status == 64
                && missing.stderr.contains("has no column 'time'; its columns: id, when, note"),
            "\(missing.stderr)")
    }

    @Test("TSV: a tab-separated file, two columns, each its own day/month order")
    func tsvColumns() throws {
        // `a` has 25/06/2024 (day first), `b` 06/25/2024 (month first): decided per column.
        let input =
            "a\tb\tc\n12/06/2024 08:00\t06/12/2024 08:00\tx\n25/06/2024 08:00\t06/25/2024 08:00\ty\n"
        let (dir, path) = try Self.file(Array(input.utf8), "in.tsv")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try BinaryRunner.run([
            "dates", "--tsv", "--column", "a", "--column", "b", path, "--assume-zone", "UTC",
            "--output-format", "date",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout == "a\tb\tc\n2024-06-12\t2024-06-12\tx\n2024-06-25\t2024-06-25\ty\n",
            "\(r.stdout)")
    }

    @Test("NDJSON: a nested field and an epoch number rewritten, a line that is not JSON kept")
    func ndjsonFields() throws {
        let input = """
            {"id":1,"order":{"created_at":"2024-06-12 08:00:00","n":2},"ts":1718150400}
            not json
            {"id":2,"order":{"created_at":"2024-06-13T01:00:00+08:00"}}

            """
        let (dir, path) = try Self.file(Array(input.utf8), "in.ndjson")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try BinaryRunner.run([
            "dates", "--ndjson", "--field", "order.created_at", "--field", "ts", path,
            "--assume-zone", "Asia/Shanghai", "--output-format", "epoch",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout == """
                {"id":1,"order":{"created_at":"1718150400","n":2},"ts":1718150400}
                not json
                {"id":2,"order":{"created_at":"1718211600"}}

                """, "\(r.stdout)")
    }

    @Test("NDJSON: each field's day/month order from its own values")
    func ndjsonFieldOrder() throws {
        // `a` has 25/06 (day first), `b` 06/25 (month first): 12/06 is read each field's way.
        let input =
            "{\"a\":\"12/06/2024\",\"b\":\"12/06/2024\"}\n{\"a\":\"25/06/2024\",\"b\":\"06/25/2024\"}\n"
        let (dir, path) = try Self.file(Array(input.utf8), "o.ndjson")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try BinaryRunner.run([
            "dates", "--ndjson", "--field", "a", "--field", "b", path, "--output-format", "date",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout
                == "{\"a\":\"2024-06-12\",\"b\":\"2024-12-06\"}\n{\"a\":\"2024-06-25\",\"b\":\"2024-06-25\"}\n",
            "\(r.stdout)")
    }

    @Test(
        "in text: access log, logging library, syslog with --year, RFC 2822, several per line; CRLF kept; a bad date left and reported"
    )
    func inText() throws {
        let input = """
            10.0.0.1 - - [01/Jun/2024:00:00:01 +0800] "GET /a HTTP/1.1" 200 5
            2024-06-12 08:11:17,123 INFO app started
            Jun  5 08:11:17 host cron[1]: job
            Wed, 12 Jun 2024 08:11:17 +0200 mail
            two: 2024-06-12T08:00:00+01:00 and 2024-06-12T09:00:00+01:00\r
            bad 2024-02-30T10:00:00Z end

            """
        let (dir, path) = try Self.file(Array(input.utf8), "app.log")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try BinaryRunner.run([
            "dates", "--in-text", path, "--assume-zone", "Asia/Shanghai", "--year", "2024",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout == """
                10.0.0.1 - - [2024-05-31T16:00:01Z] "GET /a HTTP/1.1" 200 5
                2024-06-12T00:11:17.123Z INFO app started
                2024-06-05T00:11:17Z host cron[1]: job
                2024-06-12T06:11:17Z mail
                two: 2024-06-12T07:00:00Z and 2024-06-12T08:00:00Z\r
                bad 2024-02-30T10:00:00Z end

                """, "\(r.stdout)")
        #expect(r.stderr.contains("app.log:6: error:"), "\(r.stderr)")
        #expect(
            r.stderr.contains("timeline: 6 lines, 7 timestamps, 6 rewritten, 1 could not be read"),
            "\(r.stderr)")
        let first = try BinaryRunner.run([
            "dates", "--in-text", path, "--assume-zone", "Asia/Shanghai", "--only-first",
        ])
        #expect(
            first.stdout.contains("two: 2024-06-12T07:00:00Z and 2024-06-12T09:00:00+01:00\r\n"),
            "\(first.stdout)")
        // Without --year, syslog times are not looked for.
        #expect(first.stdout.contains("Jun  5 08:11:17 host cron[1]: job\n"))
    }

    @Test("in text: version numbers, IPs, ids, prices, bare dates and times are not timestamps")
    func noFalseMatches() throws {
        let input = """
            version 2.10.4 released; build 1.2.3-rc1 (2024.06.12)
            GET from 192.168.1.10:8080 and 10.0.0.1, port 443
            order SO-2024-0612 id 1718150400123 price 12.50 USD, 3.14159, 1,299.00
            tracking LX123456789CN sku 2024-06 item 20240612 ref 12/06
            time 12:30 only, date 2024-06-12 only, ratio 16:9, 08:00-17:00
            uuid 2024a6b1-0612-4c8f-9e1d-0800aabbccdd at 10:30:00

            """
        let (dir, path) = try Self.file(Array(input.utf8), "plain.log")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try BinaryRunner.run([
            "dates", "--in-text", path, "--assume-zone", "UTC", "--year", "2024",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == input)
        #expect(r.stderr.contains("6 lines, 0 timestamps"), "\(r.stderr)")
        // Epoch numbers only when asked: then the 13-digit id is one.
        let epochs = try BinaryRunner.run(["dates", "--in-text", path, "--epoch"])
        #expect(epochs.stdout.contains("id 2024-06-12T00:00:00.123Z price"), "\(epochs.stdout)")
    }

    @Test(
        "options of one mode refuse another",
        arguments: [
            (["--column", "a"], "--column applies to --csv, --tsv, --ndjson or --in-text"),
            (["--csv"], "--csv needs the columns to rewrite"),
            (["--in-text", "--column", "a"], "--column applies to --csv or --tsv input"),
            (
                ["--csv", "--ndjson", "--column", "a"],
                "choose one of --csv, --tsv, --ndjson and --in-text"
            ),
        ])
    func usage(arguments: [String], message: String) throws {
        let r = try BinaryRunner.run(["dates"] + arguments, stdin: "a\n")
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }
}
