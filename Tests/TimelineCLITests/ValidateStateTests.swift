import Foundation
import Testing

/// `timeline validate --state-out` on slices of a file and `--merge` of their states (also
/// `convert --validation-state`): the merged report is the one run over the whole file's,
/// and a state that is not whole is an error naming it.
@Suite("validate: states of slices merged", .serialized)
struct ValidateStateTests {
    /// The slices of `SliceTests.csvLines` as files, each validated with --state-out
    /// (`command` "validate", or "convert" with --validation-state); their state paths.
    static func sliceStates(in dir: URL, command: String, whole: String) throws -> [String] {
        var states: [String] = []
        for (i, cut) in SliceTests.csvCuts.enumerated() {
            let end =
                i + 1 < SliceTests.csvCuts.count
                ? SliceTests.csvCuts[i + 1].0 - 1 : SliceTests.csvLines.count
            let part = dir.appendingPathComponent("part-\(i).csv").path
            try Data((SliceTests.csvLines[(cut.0 - 1)..<end].joined(separator: "\n") + "\n").utf8)
                .write(to: URL(fileURLWithPath: part))
            let state = dir.appendingPathComponent("part-\(i).state").path
            let slice = [
                "--from", "csv", "--columns", SliceTests.csvLines[0], "--source-name", whole,
                "--first-record", String(cut.1), "--first-line",
                String(cut.0),
            ]
            let saving =
                command == "validate"
                ? ["--state-out", state] : ["--validation-state", state, "--to", "ndjson", "-q"]
            let r = try BinaryRunner.run(
                [command, part] + slice + saving + ["--assume-zone", "Asia/Shanghai"])
            // validate exits 1 on a slice with an error (--fail-on error); convert 0.
            #expect(command == "validate" ? r.status <= 1 : r.status == 0, "\(r.stderr)")
            states.append(state)
        }
        return states
    }

    @Test(
        "slices validated apart and merged in two steps report as the whole file, in text and JSON",
        arguments: ["validate", "convert"])
    func mergedSlices(command: String) throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("orders.csv").path
        try Data((SliceTests.csvLines.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: whole))
        let states = try Self.sliceStates(in: dir, command: command, whole: whole)
        let pair = dir.appendingPathComponent("pair.state").path
        let first = try BinaryRunner.run([
            "validate", "--merge", states[2], states[0], "--state-out", pair,
        ])
        #expect(first.status == 1, "\(first.stderr)")
        for report in ["text", "json"] {
            let single = try BinaryRunner.run([
                "validate", whole, "--assume-zone", "Asia/Shanghai", "--report", report,
            ])
            let merged = try BinaryRunner.run([
                "validate", "--merge", states[1], pair, "--report", report,
            ])
            #expect(merged.status == single.status && merged.status == 1, "\(merged.stderr)")
            #expect(merged.stdout == single.stdout)
        }
        // What the merge must carry across the slices, checked by hand in csvLines: the
        // wide row on line 8 (slice 2), A1's UTC clock beside +08:00 (slice 1), the naive
        // time of A2 (slice 2).
        let text = try BinaryRunner.run(["validate", "--merge", states[1], pair]).stdout
        #expect(text.contains("E005") && text.contains("orders.csv:8:"))
        #expect(text.contains("TZ102") && text.contains("A1: +00:00 ×1, +08:00 ×1"))
        #expect(text.contains("TZ101"))
    }

    @Test(
        "a state cut short or a file that is no state: exit 65 naming the file; input options with --merge: exit 64"
    )
    func unreadableState() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("orders.csv").path
        try Data((SliceTests.csvLines.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: whole))
        let states = try Self.sliceStates(in: dir, command: "validate", whole: whole)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: states[1]))
        let cut = dir.appendingPathComponent("cut.state").path
        try bytes.prefix(bytes.count - 3).write(to: URL(fileURLWithPath: cut))
        let truncated = try BinaryRunner.run(["validate", "--merge", states[0], cut])
        #expect(truncated.status == 65)
        #expect(truncated.stderr.contains("'\(cut)' is cut short"), "\(truncated.stderr)")
        let foreign = try BinaryRunner.run(["validate", "--merge", states[0], whole])
        #expect(foreign.status == 65)
        #expect(
            foreign.stderr.contains("'\(whole)' is not a timeline validation state"),
            "\(foreign.stderr)")
        let zone = try BinaryRunner.run(["validate", "--merge", states[0], "--zone", "UTC"])
        #expect(zone.status == 64)
        #expect(zone.stderr.contains("--zone does not apply with --merge"), "\(zone.stderr)")
    }

    @Test(
        "states cut by partition (--split-out), each partition finished (--finish-partitions), merged: the whole file's report"
    )
    func mergedByPartition() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let whole = dir.appendingPathComponent("orders.csv").path
        try Data((SliceTests.csvLines.joined(separator: "\n") + "\n").utf8).write(
            to: URL(fileURLWithPath: whole))
        let states = try Self.sliceStates(in: dir, command: "validate", whole: whole)
        for (i, state) in states.enumerated() {
            let split = try BinaryRunner.run([
                "validate", "--merge", state, "--split-out",
                dir.appendingPathComponent("pieces/\(i)").path,
            ])
            #expect(split.status == 0 && split.stdout.isEmpty, "\(split.stderr)")
        }
        var finished: [String] = []
        for p in 0..<16 {
            let name = "partition-" + (p < 10 ? "0" : "") + "\(p).state"
            let pieces = states.indices.map {
                dir.appendingPathComponent("pieces/\($0)/\(name)").path
            }
            #expect(pieces.allSatisfy { FileManager.default.fileExists(atPath: $0) }, "\(name)")
            let out = dir.appendingPathComponent("finished-\(name)").path
            let finish = try BinaryRunner.run(
                ["validate", "--merge"] + pieces + ["--finish-partitions", "--state-out", out])
            #expect(finish.status == 0 && finish.stdout.isEmpty, "\(finish.stderr)")
            finished.append(out)
        }
        let single = try BinaryRunner.run(["validate", whole, "--assume-zone", "Asia/Shanghai"])
        let merged = try BinaryRunner.run(["validate", "--merge"] + finished.reversed())
        #expect(merged.status == 1 && merged.stdout == single.stdout, "\(merged.stderr)")
        // One piece alone: no report (exit 65, saying what is missing); written on as a step of a merge: a note.
        let piece = dir.appendingPathComponent("pieces/0/partition-03.state").path
        let alone = try BinaryRunner.run(["validate", "--merge", piece])
        #expect(
            alone.status == 65
                && alone.stderr.contains("only part of the validation: no state holds partition 0"),
            "\(alone.stderr)")
        let step = try BinaryRunner.run([
            "validate", "--merge", piece, "--state-out",
            dir.appendingPathComponent("step.state").path,
        ])
        #expect(
            step.status == 0 && step.stdout.isEmpty
                && step.stderr.contains("no report until every partition is merged in"),
            "\(step.stderr)")
        let noOut = try BinaryRunner.run(["validate", "--merge", piece, "--finish-partitions"])
        #expect(
            noOut.status == 64 && noOut.stderr.contains("--finish-partitions needs --state-out"),
            "\(noOut.stderr)")
        let noMerge = try BinaryRunner.run([
            "validate", whole, "--split-out", dir.appendingPathComponent("x").path,
        ])
        #expect(
            noMerge.status == 64
                && noMerge.stderr.contains("--split-out works on state files: it needs --merge"),
            "\(noMerge.stderr)")
    }
}
