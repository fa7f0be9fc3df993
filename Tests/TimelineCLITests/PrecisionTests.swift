import Foundation
import Testing

/// `timeline validate` over every real-world file the repository carries (the ICS corpus,
/// the samples, the export samples of the presets) against Fixtures/precision/expected.tsv:
/// the warnings and errors each must report, each justified there. A new warning on a clean
/// file fails until someone justifies or fixes it; a file without a row fails too.
@Suite("validate: precision on the repository's real files")
struct PrecisionTests {
    struct Row: CustomTestStringConvertible, Sendable {
        var file: String
        var options: [String]
        var findings: [String]
        var why: String
        var testDescription: String { file }
    }

    static let rows: [Row] = {
        let url = BinaryRunner.packageRoot.appendingPathComponent(
            "Tests/TimelineCLITests/Fixtures/precision/expected.tsv")
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
            let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Row(
                file: c[0], options: c[1].split(separator: " ").map(String.init),
                findings: c[2].split(separator: " ").map(String.init),
                why: c.count > 3 ? c[3] : "")
        }
    }()

    /// The real files: the ICS corpus, samples/ and samples/presets/ (their READMEs aside).
    static func realFiles() throws -> [String] {
        let root = BinaryRunner.packageRoot
        var files: [String] = []
        for dir in [
            "Tests/TimelineKitTests/Resources/corpus/ics/ical4j",
            "Tests/TimelineKitTests/Resources/corpus/ics/icalendar", "samples",
            "samples/presets",
        ] {
            for name in try FileManager.default.contentsOfDirectory(
                atPath: root.appendingPathComponent(dir).path
            ).sorted() {
                var isDirectory: ObjCBool = false
                let path = "\(dir)/\(name)"
                _ = FileManager.default.fileExists(
                    atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory)
                if !isDirectory.boolValue && !name.hasSuffix(".md") { files.append(path) }
            }
        }
        return files
    }

    @Test("every real file has a row, and every row a reason")
    func everyFileListed() throws {
        let listed = Set(Self.rows.map(\.file))
        for file in try Self.realFiles() {
            #expect(listed.contains(file), "\(file) has no row in precision/expected.tsv")
        }
        #expect(Self.rows.count >= 50)
        for row in Self.rows { #expect(!row.why.isEmpty, "\(row.file): say why") }
    }

    @Test(
        "each real file reports exactly the warnings and errors its row justifies", arguments: rows)
    func findings(row: Row) throws {
        let r = try BinaryRunner.run(
            ["validate", row.file, "--report", "json", "--fail-on", "never"] + row.options)
        #expect(r.status == 0, "\(r.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let found = (json["findings"] as! [[String: Any]]).compactMap { f -> String? in
            let severity = f["severity"] as! String
            return severity == "info" ? nil : "\(f["code"] as! String):\(severity)"
        }
        #expect(found == row.findings, "\(row.file): \(r.stdout)")
    }
}
