import Foundation
import Testing

/// Real outputs checked against Schemas/ by Python's `jsonschema` (installed by
/// scripts/install-test-deps), an implementation independent of ours.
@Suite("JSON Schemas", .serialized)
struct SchemaTests {
    static func validate(schema: String, file: URL, ndjson: Bool = false) throws
        -> BinaryRunner.Output
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            ["python3", "scripts/validate-json-schema.py", "Schemas/\(schema)", file.path]
            + (ndjson ? ["--ndjson"] : [])
        process.currentDirectoryURL = BinaryRunner.packageRoot
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return BinaryRunner.Output(
            status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self),
            stderr: "")
    }

    @Test("timeline schema prints Schemas/ byte for byte")
    func embedded() throws {
        for (args, file) in [
            (["schema"], "timeline.schema.json"),
            (["schema", "--report"], "validation-report.schema.json"),
        ] {
            let r = try BinaryRunner.run(args)
            let expected = try String(
                contentsOf: BinaryRunner.packageRoot.appendingPathComponent("Schemas/\(file)"),
                encoding: .utf8)
            #expect(r.status == 0)
            #expect(r.stdout == expected, "run scripts/embed-schemas after editing Schemas/")
        }
    }

    @Test("the converted sample validates as a document and as NDJSON events")
    func outputsValidate() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for (format, ndjson, extra) in [
            ("json", false, [String]()), ("ndjson", true, []), ("timeline", false, []),
            ("json", false, ["--group", "day"]),
            ("json", false, ["--group", "month"]),
        ] {
            let out = dir.appendingPathComponent("out.\(format)")
            let r = try BinaryRunner.run(
                [
                    "convert", "samples/events.ndjson", "--to", format, "-o", out.path, "--zone",
                    "Asia/Shanghai",
                ] + extra)
            #expect(r.status == 0)
            let v = try Self.validate(schema: "timeline.schema.json", file: out, ndjson: ndjson)
            #expect(v.status == 0, "\(v.stdout)")
        }
    }

    @Test("the checker is live: a broken event fails it")
    func negative() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("bad.ndjson")
        try
            #"{"id":"a","start":{"instant":"2024-06-12 00:00:00","local":"x","offset":"8","basis":"guess"},"title":1}"#
            .write(
                to: bad, atomically: true, encoding: .utf8)
        let v = try Self.validate(schema: "timeline.schema.json", file: bad, ndjson: true)
        #expect(v.status == 1)
    }

    @Test("real validation reports fit the report schema; validate exits 1 at --fail-on")
    func realReports() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for args in [
            ["samples/orders.csv", "--zone", "Asia/Shanghai"], ["samples/wallet-statement.csv"],
            ["samples/events.ndjson"],
        ] {
            let r = try BinaryRunner.run(["validate"] + args + ["--report", "json"])
            let path = dir.appendingPathComponent("report.json")
            try r.stdout.write(to: path, atomically: true, encoding: .utf8)
            let v = try Self.validate(schema: "validation-report.schema.json", file: path)
            #expect(v.status == 0, "\(args): \(v.stdout)")
        }
        #expect(
            try BinaryRunner.run(["validate", "samples/orders.csv", "--zone", "Asia/Shanghai"])
                .status == 0)
        #expect(
            try BinaryRunner.run([
                "validate", "samples/orders.csv", "--zone", "Asia/Shanghai", "--fail-on", "warning",
            ]).status == 1)
        let naive = try BinaryRunner.run(["validate", "samples/wallet-statement.csv"])
        #expect(naive.status == 1)
        #expect(
            naive.stdout.contains(
                "TZ101 naive-time (6): 6 record(s) rejected: times with no offset or zone; name their zone with --assume-zone ZONE"
            )
        )
    }

    @Test("the documented validation report example fits the report schema; a wrong one does not")
    func reportSchema() throws {
        let fixtures = BinaryRunner.packageRoot.appendingPathComponent(
            "Tests/TimelineCLITests/Fixtures")
        #expect(
            try Self.validate(
                schema: "validation-report.schema.json",
                file: fixtures.appendingPathComponent("report-example.json")
            ).status == 0)
        let invalid = try Self.validate(
            schema: "validation-report.schema.json",
            file: fixtures.appendingPathComponent("report-invalid.json"))
        #expect(invalid.status == 1)
        #expect(invalid.stdout.contains("'fatal' is not one of"))
    }
}
