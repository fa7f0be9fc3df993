import Foundation
import Testing

/// The progress line, through a pseudo-terminal (`script` from util-linux gives the run a
/// terminal for standard output and standard error): its phases and percentages appear on
/// a terminal, nothing without one or with `-q`, and the output is the same either way.
@Suite("Progress on a terminal", .serialized)
struct ProgressTests {
    /// A file of 200,000 orders (about 11 MB), sorted within 1 MB: runs spill and merge.
    static let input: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "progress-\(UUID().uuidString).csv")
        var text = "id,time,title,amount\n"
        text.reserveCapacity(12 << 20)
        for i in 0..<200_000 {
            let minute = (i * 7_919) % 1_440
            text +=
                "O\(i),2024-06-\(10 + i % 9)T\(minute / 60 < 10 ? "0" : "")\(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60):00+08:00,Order \(i),\(i % 1000).50\n"
        }
        try! Data(text.utf8).write(to: url)
        return url
    }()

    /// `command` run by `script` on a pseudo-terminal; what the terminal showed.
    static func onTerminal(_ arguments: [String]) throws -> String {
        let command = ([BinaryRunner.executable.path] + arguments).map { "'\($0)'" }.joined(
            separator: " ")
        let r = try BinaryRunner.run(["-qec", command, "/dev/null"], program: "/usr/bin/script")
        return r.stdout
    }

    static func convert(_ out: URL, _ more: [String] = []) -> [String] {
        ["convert", input.path, "--to", "ndjson", "--memory", "1MB", "-o", out.path] + more
    }

    @Test(
        "a terminal shows the reading percentage, the runs on disk and the merge; -q shows none, --no-progress neither"
    )
    func phases() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let shown = try Self.onTerminal(Self.convert(dir.appendingPathComponent("a.ndjson")))
        let lines = shown.split(separator: "\r").map {
            $0.replacingOccurrences(of: "\u{1B}[K", with: "")
        }
        #expect(
            lines.contains { $0.hasPrefix("reading ") && $0.contains("% (") && $0.contains("MB)") })
        #expect(lines.contains { $0.contains("sorted runs on disk") })
        #expect(lines.contains { $0.hasPrefix("merging ") && $0.contains("of 200,000 events)") })
        #expect(shown.hasSuffix("timeline: read 200000 records, wrote 200000, rejected 0\r\n"))

        let quiet = try Self.onTerminal(
            Self.convert(dir.appendingPathComponent("b.ndjson"), ["-q"]))
        #expect(quiet.isEmpty)
        // No terminal: the summary alone.
        let piped = try BinaryRunner.run(Self.convert(dir.appendingPathComponent("d.ndjson")))
        #expect(piped.stderr == "timeline: read 200000 records, wrote 200000, rejected 0\n")
        let outputs = try ["a", "b", "d"].map {
            try Data(contentsOf: dir.appendingPathComponent("\($0).ndjson"))
        }
        #expect(outputs[0].count > 40 << 20)
        #expect(outputs.allSatisfy { $0 == outputs[0] })
    }

    @Test("dates in a file: the percent of its bytes and the lines")
    func datesInAFile() throws {
        let command =
            "'\(BinaryRunner.executable.path)' dates --csv --column time '\(Self.input.path)' > /dev/null"
        let r = try BinaryRunner.run(["-qec", command, "/dev/null"], program: "/usr/bin/script")
        let lines = r.stdout.split(separator: "\r").map {
            $0.replacingOccurrences(of: "\u{1B}[K", with: "")
        }
        #expect(
            lines.contains {
                $0.hasPrefix("rewriting dates ") && $0.contains("% (") && $0.contains(" lines")
            },
            "\(lines.prefix(5))")
    }

    @Test("output to the terminal: no progress spliced into it")
    func outputOnTheTerminal() throws {
        let shown = try Self.onTerminal([
            "convert", Self.input.path, "--to", "ndjson", "--sort", "input",
        ])
        #expect(!shown.contains("\u{1B}[K"))
        #expect(shown.utf8.filter { $0 == 0x0A }.count == 200_001)
        #expect(shown.contains("timeline: read 200000 records, wrote 200000, rejected 0\r\n"))
    }
}
