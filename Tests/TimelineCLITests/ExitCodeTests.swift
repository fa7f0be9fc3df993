import Foundation
import Testing

/// Every exit code of docs/exit-codes.md, by running the built binary.
@Suite("timeline exit codes and atomic output", .serialized)
struct ExitCodeTests {
    let sample = "samples/events.ndjson"

    @Test("0: a conversion succeeds and reports its summary on stderr")
    func success() throws {
        let r = try BinaryRunner.run(["convert", sample, "--to", "ndjson", "--sort", "input"])
        #expect(r.status == 0)
        #expect(
            r.stdout
                == (try String(
                    contentsOf: BinaryRunner.packageRoot.appendingPathComponent(sample),
                    encoding: .utf8)))
        #expect(r.stderr == "timeline: read 8 records, wrote 8, rejected 0\n")
    }

    @Test("two runs give identical bytes")
    func deterministic() throws {
        let a = try BinaryRunner.run(["convert", sample, "--zone", "Asia/Shanghai"])
        let b = try BinaryRunner.run(["convert", sample, "--zone", "Asia/Shanghai"])
        #expect(a.status == 0 && a.stdout == b.stdout && !a.stdout.isEmpty)
    }

    @Test("output does not depend on the machine's TZ")
    func noHiddenLocalZone() throws {
        let a = try BinaryRunner.run(
            ["dates", "--assume-zone", "Asia/Shanghai"], stdin: "2024-06-12 08:00\n",
            environment: ["TZ": "America/New_York"])
        let b = try BinaryRunner.run(
            ["dates", "--assume-zone", "Asia/Shanghai"], stdin: "2024-06-12 08:00\n",
            environment: ["TZ": "Pacific/Kiritimati"])
        #expect(a.stdout == "2024-06-12T00:00:00Z\n")
        #expect(a.stdout == b.stdout)
    }

    @Test(
        "a sort larger than --memory spills and merges to the same bytes; 74 when it cannot spill, with no output left"
    )
    func spillingSort() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = Self.eventsCSV(rows: 3_000)
        let input = dir.appendingPathComponent("events.csv")
        try csv.write(to: input, atomically: true, encoding: .utf8)
        let spilled = try BinaryRunner.run([
            "convert", input.path, "--to", "ndjson", "--memory", "1MB", "--temp-dir", dir.path,
            "--verbose",
        ])
        let inMemory = try BinaryRunner.run([
            "convert", input.path, "--to", "ndjson", "--memory", "1GB",
        ])
        #expect(spilled.status == 0 && inMemory.status == 0)
        #expect(spilled.stdout == inMemory.stdout)
        #expect(spilled.stderr.contains("spilled to '\(dir.path)'"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["events.csv"])
        let out = dir.appendingPathComponent("out.ndjson")
        let failed = try BinaryRunner.run([
            "convert", input.path, "-o", out.path, "--memory", "1MB", "--temp-dir",
            dir.appendingPathComponent("missing").path,
        ])
        #expect(failed.status == 74)
        #expect(
            failed.stderr.contains(
                "cannot create a temporary file in '\(dir.appendingPathComponent("missing").path)' to sort in"
            ))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test(
        "74 when the output fills during the merge of many runs: the merging thread stops, nothing hangs, no run file is left"
    )
    func fullOutputWhileMerging() throws {
        guard FileManager.default.isWritableFile(atPath: "/dev/full") else { return }
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("events.csv")
        // About 8 MB of output at --memory 1MB: many runs, and chunks for the merge to hand over
        // after the first write fails (nothing is written before the merge).
        try Self.eventsCSV(rows: 20_000).write(to: input, atomically: true, encoding: .utf8)
        let r = try BinaryRunner.run([
            "convert", input.path, "--to", "ndjson", "-o", "/dev/full", "--memory", "1MB",
            "--temp-dir", dir.path, "--verbose",
        ])
        #expect(r.status == 74)
        #expect(r.stderr.contains("cannot write '/dev/full': No space left on device"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["events.csv"])
    }

    @Test(
        "74 when the disk fills while spilling: the error says where and what to do; no run file and no output left"
    )
    func fullDiskWhileSpilling() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = Self.eventsCSV(rows: 20_000)
        let input = dir.appendingPathComponent("events.csv")
        try csv.write(to: input, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out.ndjson")
        let spill = dir.appendingPathComponent("spill")
        try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: true)
        let arguments = [
            "convert", input.path, "-o", out.path, "--memory", "1MB", "--temp-dir", spill.path,
        ]
        // A real full disk: a 256 KiB tmpfs, where mounting one is allowed (root on Linux);
        // everywhere, a file-size limit that fails the run's writes past 256 KiB the same way.
        var outcomes: [(BinaryRunner.Output, String)] = []
        if Self.mountTmpfs(at: spill, size: "256k") {
            defer { _ = Self.shell("/bin/umount", [spill.path]) }
            outcomes.append((try BinaryRunner.run(arguments), "No space left on device"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path).isEmpty)
        }
        outcomes.append(
            (try BinaryRunner.run(arguments, fileSizeLimit: 256 << 10), "File too large"))
        for (r, reason) in outcomes {
            #expect(r.status == 74)
            #expect(
                r.stderr.contains("cannot write a sorted run to '\(spill.path)': \(reason)"),
                "\(r.stderr)")
            #expect(r.stderr.contains("name another directory with --temp-dir"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path).isEmpty)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
                    "events.csv", "spill",
                ])
        }
    }

    @Test(
        "a run ended by a signal after spilling leaves no run file and no output behind",
        arguments: [SIGTERM, SIGQUIT, SIGPIPE, SIGUSR1])
    func killedWhileSpilling(signal: Int32) throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spill = dir.appendingPathComponent("spill")
        try FileManager.default.createDirectory(at: spill, withIntermediateDirectories: true)
        let out = dir.appendingPathComponent("out.ndjson")
        let process = Process()
        process.executableURL = BinaryRunner.executable
        process.arguments = [
            "convert", "--from", "csv", "-o", out.path, "--memory", "1MB", "--temp-dir", spill.path,
            "--verbose",
        ]
        let input = Pipe()
        let errors = dir.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardInput = input
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        // Enough rows for several runs, then the input stays open: the run is waiting for more.
        let csv = Self.eventsCSV(rows: 30_000)
        input.fileHandleForWriting.write(Data(csv.utf8))
        // Wait until a run has spilled (the file descriptors of unlinked run files show it).
        let fds = "/proc/\(process.processIdentifier)/fd"
        var spilled = false
        for _ in 0..<200 where !spilled {
            let targets = (try? FileManager.default.contentsOfDirectory(atPath: fds)) ?? []
            spilled = targets.contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fds)/\($0)"))?
                    .hasPrefix(spill.path) == true
            }
            if !spilled { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(spilled, "no run file was open after 10 s")
        kill(process.processIdentifier, signal)
        var waited = 0
        while process.isRunning && waited < 200 {
            Thread.sleep(forTimeInterval: 0.05)
            waited += 1
        }
        #expect(!process.isRunning, "signal \(signal) did not end the run within 10 s")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal)
        #expect(try FileManager.default.contentsOfDirectory(atPath: spill.path).isEmpty)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
                "spill", "stderr",
            ])
    }

    /// `rows` events over a week, many at the same moment, with titles long enough that a
    /// 1MB sort spills every few thousand of them.
    static func eventsCSV(rows: Int) -> String {
        var csv = "id,time,title\n"
        for i in 0..<rows {
            csv +=
                "E\(i),2024-06-\(10 + i % 7)T0\(i % 10):00:00Z,an event title of some length \(i)\n"
        }
        return csv
    }

    static func mountTmpfs(at dir: URL, size: String) -> Bool {
        getuid() == 0
            && shell("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", dir.path])
    }

    static func shell(_ tool: String, _ arguments: [String]) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: tool)
        p.arguments = arguments
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    @Test("64: an unknown flag names it, suggests the right one and prints the usage line")
    func unknownFlag() throws {
        let r = try BinaryRunner.run(["convert", sample, "--sortt", "asc"])
        #expect(r.status == 64)
        #expect(
            r.stderr.contains("timeline: error: unknown option '--sortt'; did you mean '--sort'?"))
        #expect(r.stderr.contains("Usage: timeline convert [INPUT ...]"))
        #expect(r.stdout.isEmpty)
    }

    @Test(
        "64: bad values list the valid ones",
        arguments: [
            (
                ["convert", "samples/events.ndjson", "--to", "xml"],
                "invalid value 'xml' for '--to'; valid values: csv, tsv, json, ndjson, ics, timeline, text, html"
            ),
            (
                ["convert", "samples/events.ndjson", "--zone", "Mars/Base"],
                "unknown time zone 'Mars/Base'"
            ),
            (
                ["convert", "samples/calendar.ics", "--expand", "2024-01-01"],
                "is not a window FROM..UNTIL such as 2024-01-01..2024-12-31"
            ),
            (
                ["convert", "samples/calendar.ics", "--max-occurrences", "5"],
                "--max-occurrences only applies with --expand"
            ),
            (["dates", "--date-format", "HH:mm"], "has no year field"),
            (["dates", "--day-first", "--month-first"], "cannot be used together"),
            (["frobnicate"], "unknown command 'frobnicate'"),
            (
                ["convert", "samples/events.ndjson", "--group", "day", "--to", "ndjson"],
                "--group day needs an output that holds groups (json, timeline)"
            ),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let r = try BinaryRunner.run(arguments)
        #expect(r.status == 64)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    @Test("66: a missing input is named, and no output file is created")
    func missingInput() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.json").path
        let r = try BinaryRunner.run(["convert", "no/such/file.ndjson", "-o", out])
        #expect(r.status == 66)
        #expect(r.stderr.contains("cannot read 'no/such/file.ndjson': No such file or directory"))
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test("65: --strict fails on a reject and leaves neither the output nor a temporary file")
    func strictReject() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("bad.ndjson")
        try
            (#"{"id":"a","start":{"date":"2024-06-12","basis":"date"},"title":"ok"}"# + "\n"
            + #"{"id":"b","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T09:00:00","offset":"+08:00","basis":"offset"},"title":"bad"}"#
            + "\n")
            .write(to: input, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out.json").path
        let r = try BinaryRunner.run(["convert", input.path, "-o", out, "--strict"])
        #expect(r.status == 65)
        #expect(
            r.stderr.contains(
                "\(input.path):2: error: [E006] rejected: field 'start': instant '2024-06-12T00:00:00Z' is not local '2024-06-12T09:00:00' minus offset '+08:00'"
            ))
        #expect(r.stderr.contains("read 2 records, wrote 1, rejected 1"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["bad.ndjson"])
        // Without --strict the good record is written and the bad one goes to --rejects.
        let rejects = dir.appendingPathComponent("rejects.ndjson").path
        let ok = try BinaryRunner.run(["convert", input.path, "-o", out, "--rejects", rejects])
        #expect(ok.status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains(#""id":"a""#))
        let rejected = try String(contentsOfFile: rejects, encoding: .utf8)
        #expect(
            rejected.hasPrefix(
                #"{"file":"\#(input.path)","line":2,"code":"E006","reason":"field 'start': instant"#
            ))
    }

    @Test("65: a malformed document stops the run with file, line and column")
    func malformedDocument() throws {
        let r = try BinaryRunner.run(
            ["convert", "--from", "json", "-"],
            stdin: "{\"schema\":\"timeline/1\",\"zone\":\"UTC\",\"events\":[\n{\"id\":}\n]}")
        #expect(r.status == 65)
        #expect(
            r.stderr.contains(
                "-:2:7: error: [json-syntax] invalid JSON: expected a value, found '}'"))
    }

    @Test(
        "65: a document or array that turns out malformed after many blocks leaves no output or rejects file, run after run"
    )
    func malformedLateLeavesNothing() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rows = (0..<8_000).map {
            #"{"id":"E\#($0)","time":"2024-06-12T10:00:00+08:00","title":"t"}"#
        }
        let records = dir.appendingPathComponent("records.json")
        try ("[" + rows.joined(separator: ",\n") + #",{"id": nope}]"#).write(
            to: records, atomically: true, encoding: .utf8)
        let events = try BinaryRunner.run([
            "convert", records.path, "--to", "ndjson", "--sort", "input", "--assume-zone", "UTC",
        ]).stdout
        let document = dir.appendingPathComponent("document.json")
        try
            (#"{"schema":"timeline/1","events":["#
            + events.split(separator: "\n").prefix(7_500).joined(separator: ",\n") + ",").write(
                to: document, atomically: true, encoding: .utf8)
        // The writers were released by whichever thread dropped them last, and the files
        // left behind now and then; each run is tried a few times.
        for (input, from) in [(records, "json"), (document, "timeline")] {
            for _ in 0..<6 {
                let r = try BinaryRunner.run([
                    "convert", input.path, "--from", from, "--to", "ndjson", "--sort", "input",
                    "--assume-zone", "UTC",
                    "-o", dir.appendingPathComponent("out.ndjson").path, "--rejects",
                    dir.appendingPathComponent("rejects.txt").path,
                ])
                #expect(r.status == 65 && r.stderr.contains("[json-syntax]"), "\(r.stderr)")
                #expect(
                    try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == [
                        "document.json", "records.json",
                    ])
            }
        }
    }

    @Test("65: naive values with no zone named say how many and what to pass")
    func naiveDates() throws {
        let r = try BinaryRunner.run(
            ["dates"], stdin: "2024-06-12 08:00\n2024-06-12T08:00:00Z\n2024-06-13 09:00\n")
        #expect(r.status == 65)
        #expect(r.stdout == "\n2024-06-12T08:00:00Z\n\n")
        #expect(
            r.stderr.contains(
                "line 1: error: [TZ101] '2024-06-12 08:00' has no UTC offset or zone; pass --assume-zone ZONE"
            ))
        #expect(r.stderr.contains("2 value(s) have no UTC offset or zone"))
    }

    @Test("73: an output that cannot be created")
    func cannotCreate() throws {
        let r = try BinaryRunner.run(["convert", sample, "-o", "/no/such/dir/out.json"])
        #expect(r.status == 73)
        #expect(r.stderr.contains("cannot create '/no/such/dir/out.json'"))
    }

    @Test("74: an output that cannot be written (a full device)")
    func cannotWrite() throws {
        guard FileManager.default.isWritableFile(atPath: "/dev/full") else { return }
        let r = try BinaryRunner.run(["convert", sample, "-o", "/dev/full"])
        // A device is written in place (never replaced by a renamed temporary file).
        #expect(r.status == 74)
        #expect(r.stderr.contains("cannot write '/dev/full': No space left on device"))
        var st = stat()
        #expect(stat("/dev/full", &st) == 0 && (st.st_mode & S_IFMT) == S_IFCHR)
        let viaStdout = try BinaryRunner.run(["schema"], environment: [:], stdoutToFull: true)
        #expect(viaStdout.status == 74)
        #expect(viaStdout.stderr.contains("cannot write '<stdout>'"))
    }

    @Test("an existing output is replaced only by a successful run")
    func atomicReplace() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out.json")
        try "previous\n".write(to: out, atomically: true, encoding: .utf8)
        let failed = try BinaryRunner.run(["convert", "missing.ndjson", "-o", out.path])
        #expect(failed.status == 66)
        #expect(try String(contentsOf: out, encoding: .utf8) == "previous\n")
        let ok = try BinaryRunner.run(["convert", sample, "-o", out.path])
        #expect(ok.status == 0)
        #expect(
            try String(contentsOf: out, encoding: .utf8).hasPrefix("{\"schema\":\"timeline/1\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["out.json"])
    }

    @Test("stdin and several inputs merge into one timeline")
    func stdinAndMerge() throws {
        let extra =
            #"{"id":"z","start":{"date":"2024-06-01","basis":"date"},"title":"from stdin"}"# + "\n"
        let r = try BinaryRunner.run(
            ["convert", sample, "-", "--from", "ndjson", "--to", "ndjson"], stdin: extra)
        #expect(r.status == 0)
        let ids = r.stdout.split(separator: "\n").map { $0.split(separator: "\"")[3] }
        #expect(ids.count == 9)
        #expect(ids[1] == "z")  // 1969 first, then 2024-06-01
    }
}

extension BinaryRunner {
    /// Runs with standard output connected to /dev/full, so every write fails with ENOSPC.
    static func run(_ arguments: [String], environment: [String: String], stdoutToFull: Bool) throws
        -> Output
    {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/full")
        let err = Pipe()
        process.standardError = err
        try process.run()
        let data = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: "",
            stderr: String(decoding: data, as: UTF8.self))
    }
}
