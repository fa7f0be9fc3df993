import Foundation
import Testing
import TimelineKit

/// `timeline validate` on one small fixture per finding code (Fixtures/validate/cases.tsv
/// says which flags each runs with and what it must raise), and on clean data.
@Suite("validate: one fixture per code")
struct ValidateTests {
    static let dir = BinaryRunner.packageRoot.appendingPathComponent(
        "Tests/TimelineCLITests/Fixtures/validate")

    struct Case: CustomTestStringConvertible, Sendable {
        var file: String
        var arguments: [String]
        var code: String
        var severity: String
        var testDescription: String { "\(code) \(file)" }
    }

    static let cases: [Case] = {
        let text =
            (try? String(contentsOf: dir.appendingPathComponent("cases.tsv"), encoding: .utf8))
            ?? ""
        return text.split(separator: "\n").dropFirst().map { line in
            let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Case(
                file: c[0], arguments: c[1].split(separator: " ").map(String.init), code: c[2],
                severity: c[3])
        }
    }()

    static func findings(_ file: String, _ arguments: [String]) throws -> (
        status: Int32, findings: [[String: Any]]
    ) {
        let r = try BinaryRunner.run(
            ["validate", dir.appendingPathComponent(file).path, "--report", "json"] + arguments)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        return (r.status, json["findings"] as! [[String: Any]])
    }

    @Test("every code the registered rules declare has a fixture")
    func coverage() {
        #expect(Set(Self.cases.map(\.code)) == Set(FindingCode.all.map(\.rawValue)))
    }

    @Test(
        "--ignore leaves a code out of the report; an unknown code is a usage error that lists them"
    )
    func ignore() throws {
        let (_, all) = try Self.findings("tz107.csv", ["--zone", "Asia/Shanghai"])
        #expect(all.map { $0["code"] as! String } == ["TZ102", "TZ103", "TZ107"])
        let (_, some) = try Self.findings(
            "tz107.csv", ["--zone", "Asia/Shanghai", "--ignore", "TZ102", "--ignore", "tz103"])
        #expect(some.map { $0["code"] as! String } == ["TZ107"])
        // A comma list, as people type it, says the same.
        let (_, listed) = try Self.findings(
            "tz107.csv", ["--zone", "Asia/Shanghai", "--ignore", "TZ102, tz103"])
        #expect(listed.map { $0["code"] as! String } == ["TZ107"])
        let (_, rejected) = try Self.findings("e005.csv", ["--ignore", "E005"])
        #expect(rejected.isEmpty)
        let bad = try BinaryRunner.run(["validate", "-", "--ignore", "TZ999"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("invalid value 'TZ999' for '--ignore'; codes are TZ101, TZ102"))
    }

    @Test("each fixture raises its code with its severity, file and line", arguments: cases)
    func raises(_ c: Case) throws {
        let (status, findings) = try Self.findings(c.file, c.arguments)
        let f = try #require(
            findings.first { $0["code"] as? String == c.code }, "\(findings.map { $0["code"]! })")
        #expect(f["severity"] as? String == c.severity)
        let example = try #require((f["examples"] as? [[String: Any]])?.first)
        #expect((example["file"] as? String)?.hasSuffix(c.file) == true)
        #expect(example["line"] as? Int != nil)
        #expect(status == (findings.contains { $0["severity"] as? String == "error" } ? 1 : 0))
    }

    @Test("clean data raises nothing")
    func clean() throws {
        let (status, findings) = try Self.findings("clean.csv", ["--zone", "Asia/Shanghai"])
        #expect(findings.isEmpty, "\(findings)")
        #expect(status == 0)
    }

    /// An order shipped from Berlin (+02:00 rows naming Europe/Berlin) and delivered in New
    /// York (-04:00 rows naming America/New_York), and one in New York across the November
    /// DST change: every offset is its named zone's (checked by hand), so nothing is wrong.
    /// The same rows without their zones mix offsets no single zone explains, one after the
    /// other as the parcel travels: a journey, still clean. Written in UTC (`Z`) once in New
    /// York, they are two clocks.
    @Test(
        "rows that name their zone, each offset right for it, raise no TZ102; unnamed, a journey raises none; two clocks do"
    )
    func internationalOrders() throws {
        let named = try Self.findings(
            "clean-international.csv", ["--map", "zone=tz", "--zone", "UTC"])
        #expect(named.findings.isEmpty, "\(named.findings)")
        // The same rows with the tz column cut off.
        let text = try String(
            contentsOf: Self.dir.appendingPathComponent("clean-international.csv"), encoding: .utf8)
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bare = dir.appendingPathComponent("no-zones.csv")
        try Data(
            text.split(separator: "\n").map {
                $0.split(separator: ",").dropLast().joined(separator: ",") + "\n"
            }.joined().utf8
        ).write(to: bare)
        let unnamed = try BinaryRunner.run([
            "validate", bare.path, "--zone", "UTC", "--report", "json", "--fail-on", "never",
        ])
        #expect(
            unnamed.status == 0 && !unnamed.stdout.contains(#""code":"TZ102""#), "\(unnamed.stdout)"
        )
        let utc = dir.appendingPathComponent("utc-clock.csv")
        let bareText = try String(contentsOf: bare, encoding: .utf8)
        try Data(
            bareText.replacingOccurrences(
                of: "2024-06-15T14:30:00-04:00", with: "2024-06-15T18:30:00Z"
            )
            .replacingOccurrences(of: "2024-06-15T14:35:00-04:00", with: "2024-06-15T18:35:00Z")
            .utf8
        ).write(to: utc)
        let clocks = try BinaryRunner.run([
            "validate", utc.path, "--zone", "UTC", "--report", "json", "--fail-on", "never",
        ])
        #expect(
            clocks.stdout.contains(#""code":"TZ102""#)
                && clocks.stdout.contains("DE-1: +00:00 ×2, +02:00 ×3"), "\(clocks.stdout)")
    }

    /// The rule findings do not depend on how events arrive: from CSV they are observed in
    /// batches mapped on worker threads, from canonical NDJSON one at a time. The same events
    /// (the NDJSON is the CSV converted, sources kept) must give the same codes and counts.
    @Test(
        "events read one at a time (canonical NDJSON) give the findings of the same events read in batches (CSV)",
        arguments: ["tz102.csv", "tz103.csv", "tz107.csv", "tz108.csv", "tz113.csv", "tz114.csv"])
    func sameFindingsEitherPath(_ file: String) throws {
        let c = try #require(Self.cases.first { $0.file == file })
        let ndjson = FileManager.default.temporaryDirectory.appendingPathComponent(
            "validate-\(UUID().uuidString).ndjson")
        defer { try? FileManager.default.removeItem(at: ndjson) }
        let converted = try BinaryRunner.run(
            [
                "convert", Self.dir.appendingPathComponent(file).path, "--to", "ndjson", "--sort",
                "input", "-o", ndjson.path, "-q",
            ] + c.arguments)
        #expect(converted.status == 0, "\(converted.stderr)")
        func summary(_ findings: [[String: Any]]) -> [String] {
            findings.map { "\($0["code"]!) \($0["count"]!)" }.sorted()
        }
        let fromCSV = try Self.findings(file, c.arguments).findings
        let r = try BinaryRunner.run(["validate", ndjson.path, "--report", "json"] + c.arguments)
        let fromNDJSON =
            try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        #expect(summary(fromCSV).contains { $0.hasPrefix(c.code + " ") })
        #expect(summary(fromNDJSON["findings"] as! [[String: Any]]) == summary(fromCSV))
    }
}

@Suite("validate: bounded memory")
struct ValidateMemoryTests {
    @Test(
        "a validation larger than --memory spills by partition and reports the same bytes; 74 when it cannot spill"
    )
    func spilling() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // 20,000 rows of 5,000 orders; every 97th row repeats an id, every 7th order mixes a
        // UTC clock into its +08:00 rows: TZ102 and TZ113 over every partition.
        var csv = "id,order,time,title\n"
        for i in 0..<20_000 {
            let order = i % 5_000
            let utc = order % 7 == 0 && i / 5_000 % 2 == 0
            let hour = 10 + i / 5_000
            csv +=
                "\(i % 97 == 0 ? "R\(i % 13)" : "E\(i)"),SO-\(order),2024-06-12T\(utc ? "0\(hour - 8)" : "\(hour)"):00:00\(utc ? "Z" : "+08:00"),an event title \(i)\n"
        }
        let input = dir.appendingPathComponent("orders.csv")
        try csv.write(to: input, atomically: true, encoding: .utf8)
        let common = [
            "validate", input.path, "--map", "series=order", "--zone", "Asia/Shanghai", "--report",
            "json",
        ]
        let spilled = try BinaryRunner.run(common + ["--memory", "1MB", "--temp-dir", dir.path])
        let inMemory = try BinaryRunner.run(common + ["--memory", "1GB"])
        #expect(spilled.status == 0 && inMemory.status == 0, "\(spilled.stderr)")
        #expect(spilled.stdout == inMemory.stdout)
        #expect(inMemory.stdout.contains("\"TZ102\"") && inMemory.stdout.contains("\"TZ113\""))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["orders.csv"])
        let missing = dir.appendingPathComponent("missing").path
        let failed = try BinaryRunner.run(common + ["--memory", "1MB", "--temp-dir", missing])
        #expect(failed.status == 74)
        #expect(
            failed.stderr.contains(
                "cannot create a temporary file in '\(missing)' for the validation's facts"),
            "\(failed.stderr)")
    }
}
