import Foundation
import Testing

/// Issue 49's hostile files, each made here: every run ends with the exit status expected,
/// well within a time bound far above the linear cost and a peak-memory bound (the child's
/// own, from `wait4`), and with no forged or hidden content in what it writes. Expected
/// statuses and messages by hand from the cases' definitions.
@Suite("hostile files: bounded, escaped, private")
struct HostileFilesTests {
    static let seconds = 5.0
    static let megabytes = 300

    /// Runs `timeline` on a file made by `make` in a fresh directory.
    static func run(
        _ arguments: [String], file name: String, timeout: Double = 30, make: (URL) throws -> Void
    ) throws -> MeasuredRun {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(name)
        try make(file)
        return try MeasuredRun.run(
            arguments.map { $0 == "FILE" ? file.path : $0 }, timeout: timeout)
    }

    static func expectBounded(
        _ r: MeasuredRun, _ what: String, seconds: Double = seconds, megabytes: Int = megabytes,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            r.signal == nil, "\(what): killed by signal \(r.signal ?? 0)",
            sourceLocation: sourceLocation)
        #expect(r.seconds < seconds, "\(what): took \(r.seconds) s", sourceLocation: sourceLocation)
        #expect(
            r.peakMemory < megabytes << 20, "\(what): peak \(r.peakMemory >> 20) MB",
            sourceLocation: sourceLocation)
    }

    // MARK: XLSX within bounds

    struct WorkbookCase: CustomTestStringConvertible, Sendable {
        var name: String
        var book: @Sendable () -> HostileWorkbook
        var arguments: [String] = []
        var status: Int32
        var message: String
        var testDescription: String { name }
    }

    static let sharedMegabyte =
        "<sst><si><t>" + String(repeating: "x", count: 1 << 20) + "</t></si></sst>"

    static let workbookCases: [WorkbookCase] = [
        WorkbookCase(
            name: "row 2,000,000,000",
            book: {
                .sheet(
                    HostileWorkbook.table(
                        #"<row r="2000000000"><c r="A2000000000"><v>1</v></c></row>"#))
            },
            status: 65, message: "row number '2000000000' is not one of 1–1048576"),
        WorkbookCase(
            name: "row 1e8", book: { .sheet(HostileWorkbook.table(#"<row r="1e8"/>"#)) },
            status: 65, message: "row number '1e8' is not one of"),
        WorkbookCase(
            name: "rows out of order",
            book: {
                .sheet(
                    HostileWorkbook.table(
                        HostileWorkbook.row(5, "2024-06-12T08:00:00Z", "a")
                            + HostileWorkbook.row(3, "2024-06-12T08:00:00Z", "b")))
            },
            status: 65, message: "row 3 comes after row 5"),
        WorkbookCase(
            name: "column ZZZ, beyond XFD",
            book: { .sheet(HostileWorkbook.table(#"<row r="2"><c r="ZZZ2"><v>1</v></c></row>"#)) },
            status: 65, message: "cell reference 'ZZZ2' is not a cell of columns A–XFD"),
        WorkbookCase(
            name: "one cell at XFD and 20,000 empty rows: the far row alone is rejected",
            book: {
                .sheet(
                    HostileWorkbook.table(
                        HostileWorkbook.row(2, "2024-06-12T08:00:00Z", "kept")
                            + #"<row r="3"><c r="XFD3"><v>1</v></c></row>"#
                            + (4..<20_004).map { #"<row r="\#($0)"/>"# }.joined()))
            }, status: 0, message: "found 16384"),
        WorkbookCase(
            name: "cells at XFD on 40,000 rows: the cells' budget",
            book: {
                .sheet(
                    HostileWorkbook.table(
                        (2..<40_002).map { #"<row r="\#($0)"><c r="XFD\#($0)"><v>1</v></c></row>"# }
                            .joined()))
            },
            arguments: ["--memory", "8MB"], status: 65,
            message: "workbook too large: its cells hold more than 8 MB"),
        WorkbookCase(
            name: "a 1 MB shared string in 3,000 cells",
            book: {
                .sheet(
                    HostileWorkbook.table(
                        (2..<3_002).map {
                            #"<row r="\#($0)"><c r="A\#($0)" t="s"><v>0</v></c></row>"#
                        }.joined()),
                    sharedStrings: sharedMegabyte)
            }, arguments: ["--memory", "32MB"], status: 65,
            message: "workbook too large: its cells hold more than 32 MB"),
        WorkbookCase(
            name: "a sheet that expands 159 times to 300 MB",
            book: {
                .sheet(
                    part: HostileWorkbook.run(
                        "<worksheet><sheetData><row r=\"1\"><c><is><t>", 300_000_000,
                        "</t></is></c></row></sheetData></worksheet>"))
            },
            arguments: ["--memory", "4GB"], status: 65,
            message: "expands 158 times (at most 100 is read)"),
        WorkbookCase(
            name: "shared strings and styles past the memory budget together",
            book: {
                var b = HostileWorkbook.sheet(HostileWorkbook.table(""))
                b.add(
                    "xl/sharedStrings.xml",
                    HostileWorkbook.run("<sst><si><t>", 900_000, "</t></si></sst>"))
                b.add(
                    "xl/styles.xml",
                    HostileWorkbook.run("<styleSheet><x>", 900_000, "</x></styleSheet>"))
                return b
            }, arguments: ["--memory", "1MB"], status: 65,
            message: "its parts expand to more than the 144 KB left of the memory budget"),
        WorkbookCase(
            name: "an entry that declares 100 bytes and expands to 200 MB",
            book: { .sheet(part: HostileWorkbook.run("", 200_000_000, ""), declaredSize: 100) },
            status: 65,
            message: "decompressed data larger than 100 bytes"),
        WorkbookCase(
            name: "a DOCTYPE whose entity holds a row",
            book: {
                .sheet(
                    #"<!DOCTYPE w [<!ENTITY r "<row r='9'><c r='A9' t='inlineStr'><is><t>2024-01-01T00:00:00Z</t></is></c></row>">]>"#
                        + HostileWorkbook.table("&r;"))
            },
            status: 65, message: "a DOCTYPE, which no part of a workbook has"),
        WorkbookCase(
            name: "two entries of one name",
            book: {
                var b = HostileWorkbook.sheet(
                    HostileWorkbook.table(HostileWorkbook.row(2, "2024-06-12T08:00:00Z", "a")))
                b.add("xl/worksheets/sheet1.xml", HostileWorkbook.table(""))
                return b
            },
            status: 65, message: "holds two entries named 'xl/worksheets/sheet1.xml'"),
    ]

    @Test("XLSX within bounds", arguments: workbookCases)
    func workbook(_ c: WorkbookCase) throws {
        let r = try Self.run(
            ["convert", "FILE", "--assume-zone", "UTC", "--to", "ndjson", "--sort", "input"]
                + c.arguments, file: "book.xlsx"
        ) {
            try c.book().write(to: $0)
        }
        #expect(r.status == c.status, "\(r.stderr.prefix(500))")
        #expect(r.stderr.contains(c.message), "\(r.stderr.prefix(500))")
        Self.expectBounded(r, c.name)
    }

    @Test("XLSX: rows of an extension (a foreign sheetData in extLst) are not the sheet's rows")
    func extensionRows() throws {
        let foreign =
            #"<extLst><ext xmlns:f="urn:x"><f:sheetData><f:row r="9"><f:c r="A9" t="inlineStr"><f:is><f:t>2024-01-01T00:00:00Z</f:t></f:is></f:c></f:row></f:sheetData></ext></extLst>"#
        let r = try Self.run(
            ["convert", "FILE", "--assume-zone", "UTC", "--to", "ndjson"], file: "book.xlsx"
        ) {
            try HostileWorkbook.sheet(
                HostileWorkbook.table(
                    HostileWorkbook.row(2, "2024-06-12T08:00:00Z", "real"), after: foreign)
            ).write(to: $0)
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdoutText.split(separator: "\n").count == 1)
        #expect(!r.stdoutText.contains("2024-01-01"))
    }

    @Test("XLSX: a date cell whose serial is no day is rejected, not read as the year it spells")
    func serialOutOfRange() throws {
        let styles =
            #"<styleSheet><cellXfs><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>"#
        let rows =
            #"<row r="2"><c r="A2" s="1"><v>2959001</v></c><c r="B2" t="inlineStr"><is><t>far</t></is></c></row>"#
            + #"<row r="3"><c r="A3" s="1"><v>45455</v></c><c r="B3" t="inlineStr"><is><t>near</t></is></c></row>"#
        let r = try Self.run(
            ["convert", "FILE", "--assume-zone", "UTC", "--to", "ndjson", "--sort", "input"],
            file: "book.xlsx"
        ) {
            try HostileWorkbook.sheet(HostileWorkbook.table(rows), styles: styles).write(to: $0)
        }
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("book.xlsx:2: error: [E001]"), "\(r.stderr)")
        #expect(!r.stdoutText.contains("2959"))
        // serial 45455 is 2024-06-12 (Python: date(1899,12,30) + 45455 days)
        #expect(r.stdoutText.contains(#""date":"2024-06-12""#))
    }

    @Test("XLSX: eight rows of 16,384 cells read in linear time")
    func fullWidthRows() throws {
        func column(_ i: Int) -> String {
            var n = i + 1
            var s = ""
            while n > 0 {
                s = String(UnicodeScalar(UInt8(65 + (n - 1) % 26))) + s
                n = (n - 1) / 26
            }
            return s
        }
        let rows = (2..<10).map { r in
            #"<row r="\#(r)">"#
                + (0..<16_384).map {
                    #"<c r="\#(column($0))\#(r)" t="inlineStr"><is><t>v</t></is></c>"#
                }.joined() + "</row>"
        }.joined()
        let r = try Self.run(
            ["convert", "FILE", "--assume-zone", "UTC", "--to", "ndjson"], file: "book.xlsx"
        ) {
            try HostileWorkbook.sheet(HostileWorkbook.table(rows)).write(to: $0)
        }
        #expect(r.status == 65)
        #expect(r.stderr.contains("expected 2 fields (as in the header), found 16384"))
        Self.expectBounded(r, "full-width rows", seconds: 15)
    }

    // MARK: ICS output that cannot be forged

    static let forgingRecord = #"""
        {"time":"2024-06-12T08:00:00Z","title":"order\r\nEND:VEVENT\r\nBEGIN:VEVENT","links":"javascript:alert(1) https://shop.example/o?id=1\u007fEND:VEVENT","amount":"1.00","currency":"EUR\r\nBEGIN:VALARM","RRULE":"FREQ=SECONDLY","ATTENDEE":"mailto:a@example.com","ORGANIZER":"mailto:b@example.com","ATTACH":"https://evil.example/x","note":"a\rb\u0000c\u001b[2J"}
        """#

    @Test(
        "ICS: a record's links, currency, text and attribute names forge no line, property or component"
    )
    func icsForging() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("forge.ndjson")
        try Data(Self.forgingRecord.utf8).write(to: input)
        let out = dir.appendingPathComponent("out.ics")
        let r = try MeasuredRun.run([
            "convert", input.path, "--from", "ndjson", "--to", "ics", "-o", out.path,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let bytes = try [UInt8](Data(contentsOf: out))
        // Every CR is followed by LF and every LF preceded by CR.
        for (i, b) in bytes.enumerated() {
            if b == 0x0D {
                #expect(i + 1 < bytes.count && bytes[i + 1] == 0x0A, "bare CR at byte \(i)")
            }
            if b == 0x0A { #expect(i > 0 && bytes[i - 1] == 0x0D, "bare LF at byte \(i)") }
        }
        // Unfolded, every line is a content line with no control character in it.
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
            of: "\r\n ", with: "")
        let lines = text.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        for line in lines {
            #expect(
                !line.unicodeScalars.contains {
                    ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F
                }, "\(line)")
            #expect(
                line.firstIndex(of: ":").map {
                    line[..<$0].allSatisfy { $0.isLetter || $0.isNumber || "-;=\"^' ".contains($0) }
                } == true, "\(line)")
        }
        #expect(lines.filter { $0 == "BEGIN:VEVENT" }.count == 1)
        for forged in [
            "BEGIN:VALARM", "RRULE:", "ATTENDEE:", "ORGANIZER:", "ATTACH:https://evil",
            "URL:javascript", "UID:evil",
        ] {
            #expect(!lines.contains { $0.hasPrefix(forged) }, "\(forged)")
        }
        // Python's icalendar (an independent reader) sees one event, no alarm, no live
        // recurrence or attendee.
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        check.arguments = [
            "python3", "-c",
            """
            import sys, icalendar
            cal = icalendar.Calendar.from_ical(open(sys.argv[1], 'rb').read())
            events = cal.walk('VEVENT')
            print(len(events), len(cal.walk('VALARM')), sorted(k for k in events[0].keys() if k in ('RRULE', 'ATTENDEE', 'ORGANIZER')), str(events[0].get('ATTACH')))
            """, out.path,
        ]
        let pipe = Pipe()
        check.standardOutput = pipe
        try check.run()
        let seen = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        #expect(seen == "1 0 [] https://shop.example/o?id=1%7FEND:VEVENT\n")
        // Read back, the links, the currency and the attributes are what went in.
        let back = try MeasuredRun.run(["convert", out.path, "--to", "ndjson"])
        let event = try JSONSerialization.jsonObject(with: back.stdout) as? [String: Any] ?? [:]
        let links = event["links"] as? [String] ?? []
        #expect(
            links == ["javascript:alert(1)", "https://shop.example/o?id=1%7FEND:VEVENT"], "\(links)"
        )
        #expect((event["attributes"] as? [String: String])?["RRULE"] == "FREQ=SECONDLY")
        #expect((event["amount"] as? [String: Any])?["currency"] as? String == "EUR\nBEGIN:VALARM")
    }

    // MARK: Linear everywhere, with a longest record

    struct SizeCase: CustomTestStringConvertible, Sendable {
        var name: String
        var file: String
        var make: @Sendable () -> String
        var arguments: [String]
        var status: Int32
        var message: String
        var stdin = false
        var testDescription: String { name }
    }

    static let sizeCases: [SizeCase] = [
        SizeCase(
            name: "a CSV field of 24 MB", file: "f.csv",
            make: {
                "time,title\n2024-06-12T08:00:00Z,\"" + String(repeating: "x", count: 24 << 20)
                    + "\"\n"
            },
            arguments: ["convert", "FILE", "--to", "ndjson"], status: 0,
            message: "read 1 records, wrote 1"),
        SizeCase(
            name: "a CSV field past --max-record-size", file: "f.csv",
            make: {
                "time,title\n2024-06-12T08:00:00Z,\"" + String(repeating: "x", count: 24 << 20)
                    + "\"\n"
            },
            arguments: ["convert", "FILE", "--to", "ndjson", "--max-record-size", "8MB"],
            status: 65,
            message: "the record on line 2 is longer than 8 MB"),
        SizeCase(
            name: "a JSON string of 24 MB in an array", file: "f.json",
            make: {
                #"[{"time":"2024-06-12T08:00:00Z","title":""#
                    + String(repeating: "x", count: 24 << 20) + #""}]"#
            },
            arguments: ["convert", "FILE", "--to", "ndjson"], status: 0,
            message: "read 1 records, wrote 1"),
        SizeCase(
            name: "an NDJSON line of 12 MB first", file: "f.ndjson",
            make: {
                #"{"time":"2024-06-12T08:00:00Z","title":""#
                    + String(repeating: "x", count: 12 << 20) + "\"}\n"
                    + #"{"time":"2024-06-12T09:00:00Z","title":"b"}"# + "\n"
            },
            arguments: ["convert", "FILE", "--to", "ndjson"], status: 0,
            message: "read 2 records, wrote 2"),
        SizeCase(
            name: "an NDJSON line past --max-record-size", file: "f.ndjson",
            make: {
                #"{"time":"2024-06-12T08:00:00Z","title":""#
                    + String(repeating: "x", count: 24 << 20) + "\"}\n"
            },
            arguments: ["convert", "FILE", "--to", "ndjson", "--max-record-size", "8MB"],
            status: 65, message: "a line longer than 8 MB"),
        SizeCase(
            name: "JSON after 100,000 bytes of whitespace", file: "f.json",
            make: {
                String(repeating: " \n", count: 50_000)
                    + #"[{"time":"2024-06-12T08:00:00Z","title":"a"}]"#
            },
            arguments: ["validate", "FILE", "--fail-on", "warning"], status: 0, message: "1 records"
        ),
        SizeCase(
            name: "NDJSON after 100,000 blank lines", file: "f.ndjson",
            make: {
                String(repeating: "\n", count: 100_000)
                    + #"{"time":"2024-06-12T08:00:00Z","title":"a"}"# + "\n"
            },
            arguments: ["convert", "FILE", "--to", "ndjson"], status: 0,
            message: "read 1 records, wrote 1"),
        SizeCase(
            name: "one NDJSON record with no line end", file: "f.ndjson",
            make: { #"{"time":"2024-06-12T08:00:00Z","title":"a"}"# },
            arguments: ["convert", "FILE", "--to", "ndjson"], status: 0,
            message: "read 1 records, wrote 1"),
        SizeCase(
            name: "dates --in-text over a 6 MB line", file: "f.txt",
            make: { String(repeating: "at 2024-06-12T08:00:00Z ", count: 1 << 18) + "\n" },
            arguments: ["dates", "--in-text"], status: 0, message: "262144 timestamps", stdin: true),
        SizeCase(
            name: "160,000 repeated ICS properties", file: "f.ics",
            make: {
                "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240612T080000Z\r\n"
                    + String(repeating: "X-A:1\r\n", count: 160_000)
                    + "END:VEVENT\r\nEND:VCALENDAR\r\n"
            },
            arguments: ["convert", "FILE", "--to", "ndjson"], status: 0,
            message: "read 1 records, wrote 1"),
        SizeCase(
            name: "300,000 EXDATE lines, validated", file: "f.ics",
            make: {
                "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTART:20240612T080000Z\r\nRRULE:FREQ=DAILY;COUNT=10\r\n"
                    + (0..<300_000).map { "EXDATE:\(1000 + $0 % 8000)0101T080000Z\r\n" }.joined()
                    + "END:VEVENT\r\nEND:VCALENDAR\r\n"
            },
            arguments: ["validate", "FILE"], status: 0, message: "1 records"),
        SizeCase(
            name: "CSV output of 25,000 columns", file: "f.csv",
            make: {
                (["time"] + (0..<25_000).map { "c\($0)" }).joined(separator: ",") + "\n"
                    + (["2024-06-12T08:00:00Z"] + Array(repeating: "v", count: 25_000)).joined(
                        separator: ",") + "\n"
            },
            arguments: ["convert", "FILE", "--to", "csv"], status: 0,
            message: "read 1 records, wrote 1"),
    ]

    @Test("linear in the size of a record, and a longest record", arguments: sizeCases)
    func sizes(_ c: SizeCase) throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent(c.file)
        try Data(c.make().utf8).write(to: file)
        let arguments =
            c.arguments.map { $0 == "FILE" ? file.path : $0 } + ["--assume-zone", "UTC"]
        let r = try MeasuredRun.run(arguments, stdinFile: c.stdin ? file.path : nil)
        #expect(r.status == c.status, "\(r.stderr.prefix(400))")
        #expect(
            r.stderr.contains(c.message) || r.stdoutText.suffix(2000).contains(c.message),
            "\(r.stderr.prefix(400))")
        Self.expectBounded(r, c.name, seconds: 10, megabytes: 600)
    }

    // MARK: Private files

    @Test("outputs follow the umask; a replaced file keeps its mode")
    func outputModes() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.csv")
        try Data("time,title\n2024-06-12T08:00:00Z,a\nbad,b\n".utf8).write(to: input)
        func mode(_ name: String) throws -> Int {
            try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[
                .posixPermissions] as? Int ?? -1
        }
        let out = dir.appendingPathComponent("out.ndjson").path
        let rejects = dir.appendingPathComponent("rejects.csv").path
        let r = try MeasuredRun.run(
            ["convert", input.path, "--to", "ndjson", "-o", out, "--rejects", rejects], umask: "077"
        )
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try mode("out.ndjson") == 0o600)
        #expect(try mode("rejects.csv") == 0o600)
        _ = try MeasuredRun.run(
            [
                "convert", input.path, "--to", "ndjson", "-o",
                dir.appendingPathComponent("open.ndjson").path,
            ], umask: "022")
        #expect(try mode("open.ndjson") == 0o644)
        // A file that was 0600 stays 0600 under a wide umask.
        _ = try MeasuredRun.run(["convert", input.path, "--to", "ndjson", "-o", out], umask: "000")
        #expect(try mode("out.ndjson") == 0o600)
        let state = dir.appendingPathComponent("v.state").path
        _ = try MeasuredRun.run(["validate", input.path, "--state-out", state], umask: "077")
        #expect(try mode("v.state") == 0o600)
    }

    @Test("a sort that spills leaves no file another process could open, even while it runs")
    func spillFilesHaveNoName() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spill = dir.appendingPathComponent("spill")
        try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: false)
        let input = dir.appendingPathComponent("in.csv")
        try Data(
            ("time,title\n"
                + (0..<200_000).map {
                    "2024-06-\(10 + $0 % 19)T08:\($0 % 50 + 10):00Z,event \($0)\n"
                }.joined()).utf8
        ).write(
            to: input)
        let done = Locked(false)
        let seen = Locked<[String]>([])
        let watcher = Thread {
            while !done.value {
                if let names = try? FileManager.default.contentsOfDirectory(atPath: spill.path),
                    !names.isEmpty
                {
                    seen.value = names
                }
            }
        }
        watcher.start()
        let r = try MeasuredRun.run([
            "convert", input.path, "--to", "ndjson", "--memory", "1MB", "--temp-dir", spill.path,
            "-o", dir.appendingPathComponent("o").path,
        ])
        done.value = true
        #expect(r.status == 0, "\(r.stderr)")
        #expect(seen.value.isEmpty, "\(seen.value)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path).isEmpty)
    }

    @Test(
        "-o onto a FIFO in a shared directory is refused, one of the user's own with no reader fails at once, /dev/stdout is the descriptor"
    )
    func specialOutputs() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.csv")
        try Data("time,title\n2024-06-12T08:00:00Z,a\n".utf8).write(to: input)
        // A directory anyone may write to, sticky, as /tmp is.
        let shared = dir.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: false)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o1777], ofItemAtPath: shared.path)
        let planted = shared.appendingPathComponent("out.ndjson").path
        #expect(mkfifo(planted, 0o666) == 0)
        let refused = try MeasuredRun.run(
            ["convert", input.path, "--to", "ndjson", "-o", planted], timeout: 10)
        #expect(refused.status == 73, "\(refused.stderr)")
        #expect(refused.stderr.contains("refusing to write to"))
        let own = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(own, 0o600) == 0)
        let noReader = try MeasuredRun.run(
            ["convert", input.path, "--to", "ndjson", "-o", own], timeout: 10)
        #expect(noReader.signal == nil && noReader.seconds < 5)
        #expect(noReader.status == 73, "\(noReader.stderr)")
        #expect(noReader.stderr.contains("a FIFO needs a process reading it first"))
        let viaName = try MeasuredRun.run([
            "convert", input.path, "--to", "ndjson", "-o", "/dev/stdout",
        ])
        #expect(viaName.status == 0)
        #expect(viaName.stdoutText.contains(#""title":"a""#))
        #expect(FileManager.default.fileExists(atPath: "/dev/stdout"))
    }

    // MARK: Neutralised for people

    /// A title with a screen clear, a window title (OSC), a bell, a right-to-left override,
    /// a zero-width space, NUL and a line break; an unreadable time with escapes too.
    static let escapes =
        "time,title,detail\n2024-06-12T08:00:00Z,\"a\u{1B}[2J\u{1B}]0;pwned\u{07} invoice_\u{202E}gpj.exe\u{200B}\u{0}x\nfake line\",\"d1\r\nd2\u{1B}[31m\"\n\u{1B}[2Jbad\u{9B}31m,b,\n"

    @Test(
        "text, Markdown, HTML, diagnostics and the validation report show controls and hidden characters, never act on them"
    )
    func neutralised() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("esc.csv")
        try Data(Self.escapes.utf8).write(to: input)
        func hidden(_ text: String) -> [String] {
            text.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || (0x7F...0x9F).contains($0.value)
                    || [0x202E, 0x200B].contains($0.value)
            }
            .map { String($0.value, radix: 16) }
        }
        let text = try MeasuredRun.run([
            "convert", input.path, "--to", "text", "--now", "2024-06-13T00:00:00Z",
        ])
        #expect(hidden(text.stdoutText).isEmpty, "\(hidden(text.stdoutText))")
        #expect(
            text.stdoutText.contains(
                #"a\x1b[2J\x1b]0;pwned\x07 invoice_<U+202E>gpj.exe<U+200B>\x00x\nfake line"#),
            "\(text.stdoutText)")
        #expect(text.stdoutText.contains("d1\n") && text.stdoutText.contains(#"d2\x1b[31m"#))
        #expect(hidden(text.stderr).isEmpty, "\(hidden(text.stderr))")
        #expect(
            text.stderr.contains(#"cannot read '\x1b[2Jbad\u{9b}31m' as a date/time"#),
            "\(text.stderr)")
        let markdown = try MeasuredRun.run(["convert", input.path, "--to", "markdown"])
        #expect(hidden(markdown.stdoutText).isEmpty)
        // The title is one list item on one line.
        #expect(
            markdown.stdoutText.split(separator: "\n").filter { $0.hasPrefix("- **08:00**") }.first?
                .contains("fake line") == true)
        let html = try MeasuredRun.run(["convert", input.path, "--to", "html"])
        #expect(
            html.stdoutText.contains(
                "<bdi>a\u{FFFD}[2J\u{FFFD}]0;pwned\u{FFFD} invoice_\u{202E}gpj.exe"),
            "\(html.stdoutText.prefix(200))")
        let report = try MeasuredRun.run(["validate", input.path, "--assume-zone", "UTC"])
        #expect(hidden(report.stdoutText + report.stderr).isEmpty)
        #expect((report.stdoutText + report.stderr).contains(#"\x1b[2Jbad\u{9b}31m"#))
    }

    @Test("UTF-16: an invalid unit is one U+FFFD and the rest stays in step; --strict fails on it")
    func utf16Resync() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func rows(_ range: Range<Int>) -> String {
            range.map { "2024-06-\(10 + $0 % 19)T08:00:00Z,row \($0)\n" }.joined()
        }
        func utf16LE(_ text: String) -> [UInt8] {
            text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        }
        // A lone low surrogate (DC00, little endian) where row 3 begins.
        let bytes =
            [0xFF, 0xFE] + utf16LE("time,title\n" + rows(0..<3)) + [0x00, 0xDC]
            + utf16LE(rows(3..<100))
        let input = dir.appendingPathComponent("u16.csv")
        try Data(bytes).write(to: input)
        let r = try MeasuredRun.run(["convert", input.path, "--to", "ndjson"])
        #expect(r.status == 0)
        // Row 3 alone holds the U+FFFD, before its time (so it is rejected); the 99 others
        // read as written.
        #expect(r.stdoutText.split(separator: "\n").count == 99, "\(r.stderr)")
        #expect(r.stderr.contains("cannot read '\u{FFFD}2024-06-13T08:00:00Z'"))
        #expect(r.stderr.contains("1 byte sequence(s) are not valid utf-16"))
        let strict = try MeasuredRun.run(["convert", input.path, "--to", "ndjson", "--strict"])
        #expect(strict.status == 65)
        #expect(strict.stderr.contains("under --strict; no output written"))
    }

    // MARK: Nothing silently empty

    @Test(
        "an input that holds text but yields no record and no reject is an error; an empty export is not",
        arguments: [
            ("junk.csv", "just some text\n", Int32(65)),
            ("junk.ics", "hello\nnot a calendar\n", 65),
            ("header.csv", "time,title\n", 0), ("empty.json", "[]", 0),
            ("empty.ics", "BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n", 0),
            ("blank.csv", "\n\n\n", 0),
            (
                "late.timeline",
                String(repeating: " ", count: 100_000)
                    + #"{"schema":"timeline/1","zone":"UTC","events":[]}"#, 0
            ),
        ])
    func nothingSilentlyEmpty(name: String, content: String, status: Int32) throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent(name)
        try Data(content.utf8).write(to: input)
        let arguments =
            ["validate", input.path, "--fail-on", "warning"]
            + (name.hasSuffix(".timeline") ? ["--from", "timeline"] : [])
        let r = try MeasuredRun.run(arguments)
        #expect(r.status == status, "\(r.stderr)")
        if status == 65 { #expect(r.stderr.contains("no record was read from"), "\(r.stderr)") }
    }
}

/// A value one thread sets and another reads.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
