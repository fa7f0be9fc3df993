import Foundation
import Testing

/// Slices of one file converted apart (`--columns`/`--header-from`, `--source-name`,
/// `--first-record`, `--first-line`), as a distributed job converts its partitions: together
/// they must give what one run over the whole file gives, byte for byte.
@Suite("convert: slices of a file give the whole file's events", .serialized)
struct SliceTests {
    /// A CSV whose records are not one line each (a quoted note with a line break), with a
    /// blank line, a row of the wrong width and a row with no time among them. The wide row
    /// ends the second slice: a slice rejects it as the whole run does (it cannot know that
    /// the file goes on, so it never takes its last rows for a footer).
    static let csvLines = [
        "order_id,status,time,amount,note",
        "A1,placed,2024-06-11T15:42:10Z,,plain",
        "A1,paid,2024-06-11T23:44:02+08:00,19.90,\"two",
        "lines\"",
        "",
        "A2,placed,2024-06-12 08:00:00,,naive",
        "A2,shipped,2024-06-12T10:10:00+08:00,,\"a, comma\"",
        "A2,broken",
        "A3,placed,,,no time",
        "A3,paid,2024-06-13T00:30:00+08:00,5.00,\"quoted \"\"word\"\"\"",
        "A3,signed,2024-06-13T18:02:41+08:00,,last",
    ]

    /// The slices cut at record boundaries: (first physical line, first record) of each, as
    /// counted by hand in `csvLines` (line 1 is the header, record 2 spans lines 3–4, line 5
    /// is blank and not a record).
    static let csvCuts = [(2, 1), (6, 3), (9, 6)]

    @Test(
        "CSV slices with --header-from or --columns equal the whole file: events, ids, rejects and their lines"
    )
    func csvSlices() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("orders.csv").path
        try Data((Self.csvLines.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: whole))
        let common = ["--to", "ndjson", "--sort", "input", "--assume-zone", "Asia/Shanghai", "-q"]
        let single = try BinaryRunner.run(["convert", whole] + common)
        #expect(single.status == 0, "\(single.stderr)")
        // Checked by hand: records 1-8 less the wide row (5) and the one with no time (6).
        #expect(single.stdout.split(separator: "\n").count == 6)
        #expect(
            single.stdout.contains(#"{"id":"orders.csv:8","#)
                && single.stdout.contains(#""record":8,"line":11}"#))
        for useColumns in [false, true] {
            var stdout = ""
            var stderr = ""
            for (i, cut) in Self.csvCuts.enumerated() {
                let end =
                    i + 1 < Self.csvCuts.count ? Self.csvCuts[i + 1].0 - 1 : Self.csvLines.count
                let part = dir.appendingPathComponent("part-\(i).csv").path
                try Data((Self.csvLines[(cut.0 - 1)..<end].joined(separator: "\n") + "\n").utf8)
                    .write(to: URL(fileURLWithPath: part))
                let header =
                    useColumns ? ["--columns", Self.csvLines[0]] : ["--header-from", whole]
                let r = try BinaryRunner.run(
                    [
                        "convert", part, "--from", "csv", "--source-name", whole, "--first-record",
                        String(cut.1), "--first-line", String(cut.0),
                    ]
                        + header + common)
                #expect(r.status == 0, "\(r.stderr)")
                stdout += r.stdout
                stderr += r.stderr
            }
            #expect(stdout == single.stdout, "columns: \(useColumns)")
            #expect(stderr == single.stderr, "columns: \(useColumns)")
        }
        #expect(single.stderr.contains("orders.csv:8: error: [E005] rejected: expected 5 fields"))
    }

    @Test("NDJSON record slices continue the file's record and line numbers")
    func ndjsonSlices() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let records = [
            #"{"order_id":"A1","status":"placed","time":"2024-06-11T15:42:10Z"}"#,
            #"{"order_id":"A1","status":"paid","time":"2024-06-11T23:44:02+08:00","amount":"19.90"}"#,
            "",
            #"{"order_id":"A2","status":"placed"}"#,
            #"{"order_id":"A2","status":"shipped","time":"2024-06-12T10:10:00+08:00"}"#,
            #"{"order_id":"A3","status":"signed","time":"2024-06-13 18:02:41"}"#,
        ]
        let whole = dir.appendingPathComponent("orders.ndjson").path
        try Data((records.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: whole))
        let common = [
            "--from", "ndjson", "--to", "ndjson", "--sort", "input", "--assume-zone",
            "Asia/Shanghai", "-q",
        ]
        let single = try BinaryRunner.run(["convert", whole] + common)
        #expect(single.status == 0, "\(single.stderr)")
        // The record without a time is record 3 on line 4 (line 3 is blank): by hand.
        #expect(single.stderr.contains("orders.ndjson:4: error: [E002] rejected:"))
        // Cut after line 3: the second slice starts at line 4, record 3.
        let part = dir.appendingPathComponent("part.ndjson").path
        try Data((records[3...].joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: part))
        let head = dir.appendingPathComponent("head.ndjson").path
        try Data((records[..<3].joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: head))
        let first = try BinaryRunner.run(["convert", head, "--source-name", whole] + common)
        let second = try BinaryRunner.run(
            ["convert", part, "--source-name", whole, "--first-record", "3", "--first-line", "4"]
                + common)
        #expect(first.stdout + second.stdout == single.stdout)
        #expect(first.stderr + second.stderr == single.stderr)
    }

    @Test(
        "a slice whose records are all rejected converts (exit 0, nothing written); the whole file alone fails so"
    )
    func sliceOfRejects() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let part = dir.appendingPathComponent("part.csv").path
        try Data("A9,broken\nA9,placed,not a date\n".utf8).write(to: URL(fileURLWithPath: part))
        let columns = ["--columns", "order_id,status,time", "--to", "ndjson"]
        let slice = try BinaryRunner.run(
            ["convert", part, "--source-name", "orders.csv", "--first-record", "7"] + columns)
        #expect(slice.status == 0, "\(slice.stderr)")
        #expect(
            slice.stdout.isEmpty && slice.stderr.contains("orders.csv:1: error: [E005]"),
            "\(slice.stderr)")
        let alone = try BinaryRunner.run(["convert", part] + columns)
        #expect(
            alone.status == 65
                && alone.stderr.contains("none of the 2 record(s) could be converted"),
            "\(alone.stderr)")
    }

    @Test(
        "slice options that cannot apply are usage errors",
        arguments: [
            (
                ["a.csv", "b.csv", "--source-name", "x.csv"],
                "--source-name, --first-record and --first-line describe one input; 2 were given"
            ),
            (["a.csv", "--first-record", "0"], "invalid value '0' for '--first-record'"),
            (
                ["a.csv", "--columns", "a,b", "--no-header"],
                "--no-header names the columns 1, 2, …; with --columns or --header-from, leave it out"
            ),
            (["a.csv", "--columns", "a,,b"], "invalid value 'a,,b' for '--columns'"),
            (
                ["a.csv", "--header-from", "h.csv", "--header-line", "2"],
                "--header-line cannot be combined with --columns or --header-from"
            ),
        ])
    func usage(arguments: [String], message: String) throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["a.csv", "b.csv", "h.csv"] {
            try Data("a,b\n1,2\n".utf8).write(to: dir.appendingPathComponent(name))
        }
        let r = try BinaryRunner.run(
            ["convert"]
                + arguments.map {
                    $0.hasSuffix(".csv") && !$0.hasPrefix("x")
                        ? dir.appendingPathComponent($0).path : $0
                })
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    /// `--count-records` of `csvLines`, by hand: 11 lines; the header and 8 records start
    /// outside quotes on lines holding more than blanks (line 4 continues record 2, line 5 is
    /// blank).
    @Test("--count-records: records and lines of a file and of its byte ranges")
    func countRecords() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("orders.csv").path
        try Data((Self.csvLines.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: whole))
        let r = try BinaryRunner.run(["convert", whole, "--count-records"])
        #expect(r.stdout == "{\"records\":9,\"lines\":11,\"ends_in_quotes\":false}\n")
        // The range to byte 100 takes the lines that start there (at bytes 0, 33 and 71) and
        // ends with the third, whose quoted note runs on past its line break (byte 115).
        let open = try BinaryRunner.run(
            ["convert", whole, "--byte-range", "0:100", "--count-records"])
        #expect(open.stdout == "{\"records\":3,\"lines\":3,\"ends_in_quotes\":true}\n")
    }

    /// Byte ranges cut anywhere (Hadoop's rule: each range reads the lines that start in it),
    /// numbered from the counts of the ranges before them, give the whole file's events.
    @Test("--byte-range: ranges cut anywhere, numbered by --count-records, equal the whole file")
    func byteRanges() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = "samples/orders.csv"
        let size = try Data(contentsOf: BinaryRunner.packageRoot.appendingPathComponent(path)).count
        let common = ["--assume-zone", "Asia/Shanghai", "--to", "ndjson", "--sort", "input", "-q"]
        let whole = try BinaryRunner.run(["convert", path] + common).stdout
        let header = "order_id,event,status,time,amount,currency,note"
        for n in [2, 3, 7, 40] {
            var joined = ""
            var records = 0
            var lines = 0
            for i in 0..<n where size * i / n < size * (i + 1) / n {
                let range = "\(size * i / n):\(size * (i + 1) / n)"
                let counted = try BinaryRunner.run(
                    ["convert", path, "--byte-range", range, "--count-records"])
                let count = try #require(
                    JSONSerialization.jsonObject(with: Data(counted.stdout.utf8)) as? [String: Any])
                let splitRecords = (count["records"] as? Int ?? 0) - (i == 0 ? 1 : 0)
                if splitRecords > 0 {
                    var args = ["convert", path, "--byte-range", range] + common
                    if i > 0 {
                        args += [
                            "--columns", header, "--first-record", "\(records + 1)", "--first-line",
                            "\(lines + 1)",
                        ]
                    }
                    let part = try BinaryRunner.run(args)
                    #expect(part.status == 0, "\(part.stderr)")
                    joined += part.stdout
                }
                records += splitRecords
                lines += count["lines"] as? Int ?? 0
            }
            #expect(records == 12)
            #expect(joined == whole, "\(n) ranges")
        }
    }
}
