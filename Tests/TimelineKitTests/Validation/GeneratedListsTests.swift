import Foundation
import Testing

@testable import TimelineKit

/// The lists made from declarations: the rule registry (from the rules in
/// `Validation/Rules/`, in the order of their codes) and the table of codes in
/// docs/validation.md (from each rule's code, name and summary). Each test fails when its file
/// is stale; `scripts/generate-lists` (these tests with `TIMELINE_REGENERATE=1`) rewrites them.
@Suite("generated lists")
struct GeneratedListsTests {
    static let root = TestResources.packageRoot
    static var regenerating: Bool {
        ProcessInfo.processInfo.environment["TIMELINE_REGENERATE"] == "1"
    }

    /// Replaces what lies between the line holding `begin` and the line holding `end` in the
    /// file at `path` with `body` (regenerating), or says whether it is `body` already.
    static func generated(_ path: String, between begin: String, and end: String, _ body: String)
        throws -> Bool
    {
        let url = root.appendingPathComponent(path)
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let b = text.range(of: begin),
            let lineEnd = text[b.upperBound...].firstIndex(of: "\n"),
            let e = text.range(of: end, range: lineEnd..<text.endIndex),
            let endLine = text[..<e.lowerBound].lastIndex(of: "\n")
        else {
            Issue.record("\(path): no '\(begin)' … '\(end)' block")
            return false
        }
        let contentStart = text.index(after: lineEnd)
        let contentEnd = text.index(after: endLine)  // the start of the end marker's line
        let current = contentEnd > contentStart ? String(text[contentStart..<contentEnd]) : ""
        if regenerating && current != body {
            try
                (String(text[..<contentStart]) + body
                + String(text[max(contentEnd, contentStart)...])).write(
                    to: url, atomically: true, encoding: .utf8)
            return true
        }
        return current == body
    }

    /// Every rule declared in `Rules/`: its type and its code, from the source text (a rule
    /// names its code as a member of `FindingCode`, declared `FindingCode("TZ111", …)`).
    static func declaredRules() throws -> [(type: String, code: String)] {
        let folder = root.appendingPathComponent("Sources/TimelineKit/Validation/Rules")
        var texts: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where file.hasSuffix(".swift") {
            texts[file] = try String(
                contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        }
        var codes: [String: String] = [:]
        for text in texts.values {
            for match in text.matches(of: /static let (\w+) = FindingCode\("(\w+)"/) {
                codes[String(match.1)] = String(match.2)
            }
        }
        var rules: [(type: String, code: String)] = []
        for (file, text) in texts {
            guard let member = text.firstMatch(of: /static let code = FindingCode\.(\w+)/)?.1 else {
                continue
            }
            // The type that declares it: the last type declared before it.
            let before = text[..<text.firstRange(of: "static let code = FindingCode")!.lowerBound]
            guard let type = before.matches(of: /(?:final class|struct|enum) (\w+)/).last?.1,
                let code = codes[String(member)]
            else {
                Issue.record("\(file): a rule whose type or code cannot be found")
                continue
            }
            rules.append((String(type), code))
        }
        return rules.sorted { order($0.code) < order($1.code) }
    }

    /// TZ codes before E codes, each by number.
    static func order(_ code: String) -> (Int, Int) {
        let prefix = code.prefix { $0.isLetter }
        return (prefix == "TZ" ? 0 : 1, Int(code.dropFirst(prefix.count)) ?? 0)
    }

    @Test("the rule registry lists every rule in Rules/, in the order of their codes")
    func registry() throws {
        let body = try Self.declaredRules().map { "            \($0.type).self,\n" }.joined()
        let list = "        [\n" + body + "        ]\n"
        #expect(
            try Self.generated(
                "Sources/TimelineKit/Validation/RuleRegistry.swift", between: "// generated: rules",
                and: "// end of generated rules", list),
            "RuleRegistry.swift is stale: run scripts/generate-lists")
        #expect(FindingCode.all.map(\.rawValue) == (try Self.declaredRules().map(\.code)))
    }

    @Test("docs/validation.md's table of codes is made from the rules")
    func codesTable() throws {
        let context = ValidationContext(displayZone: .utc, assumedZone: nil)
        var rows = "| code | name | about | found |\n|---|---|---|---|\n"
        for rule in RuleRegistry.all {
            let overEvents =
                rule.makeCheck(context) != nil || rule.makePartitionedCheck(context) != nil
            let found = [
                rule.readingAdvice != nil ? "while reading" : nil,
                overEvents ? "over the events" : nil,
            ].compactMap { $0 }.joined(
                separator: ", ")
            rows +=
                "| [\(rule.code.rawValue)](#\(rule.code.rawValue.lowercased())-\(rule.code.name)) | `\(rule.code.name)` | \(SettingText.rendered(rule.summary, for: .commandLine)) | \(found) |\n"
        }
        #expect(
            try Self.generated(
                "docs/validation.md", between: "scripts/generate-lists; a test fails when it",
                and: "<!-- end of generated codes -->", rows),
            "docs/validation.md's table is stale: run scripts/generate-lists")
        // Every code has its section, in registry order.
        let doc = try String(
            contentsOf: Self.root.appendingPathComponent("docs/validation.md"), encoding: .utf8)
        let sections = doc.split(separator: "\n").filter {
            $0.hasPrefix("## TZ") || $0.hasPrefix("## E0")
        }.map { String($0.dropFirst(3)) }
        #expect(sections == RuleRegistry.all.map { "\($0.code.rawValue) \($0.code.name)" })
    }

    @Test("the format registry lists every format plug-in")
    func formats() throws {
        let folder = Self.root.appendingPathComponent("Sources/TimelineKit/Formats")
        var declared: Set<String> = []
        for case let file as String in FileManager.default.enumerator(atPath: folder.path)!
        where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: /enum (\w+): FormatPlugin/) {
                declared.insert(String(match.1))
            }
        }
        #expect(Set(FormatRegistry.all.map { String(describing: $0) }) == declared)
    }
}
