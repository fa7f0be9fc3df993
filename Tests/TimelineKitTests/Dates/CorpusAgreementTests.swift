import Foundation
import Testing

@testable import TimelineKit

/// Runs two mature parsers' own test suites (vendored in `Resources/corpus/dates/`, see its INDEX.md)
/// with the settings each row's test used, and measures agreement. Every disagreement must
/// be a deliberate, documented choice listed in `Resources/corpus-differences.tsv`; a listed
/// row that starts agreeing fails too, so the list never goes stale.
@Suite("Agreement with araddon/dateparse and python-dateutil test suites")
struct CorpusAgreementTests {
    struct Row: Hashable {
        var corpus: String
        var input: String
        var expected: String
        var notes: String
    }

    static let corpusDirectory = TestResources.url("corpus/dates")

    static func rows(_ file: String) throws -> [Row] {
        let text = try String(
            contentsOf: corpusDirectory.appendingPathComponent(file), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(
                String.init)
            let input = cells[0].replacingOccurrences(of: "\\x00", with: "\u{0}")
            return Row(
                corpus: file.hasPrefix("araddon") ? "araddon" : "dateutil", input: input,
                expected: cells[1], notes: cells.count > 2 ? cells[2] : "")
        }
    }

    /// The parser configured as the row's upstream test was: its zone (`ParseIn(loc=…)`,
    /// else UTC as both suites assume for naive values) and its day/month preference (both
    /// libraries default to month-first; `dayfirst=True` / `RetryAmbiguousDateWithSwap`
    /// switch to day-first; `ParseStrict` has none).
    static func parser(for row: Row) -> DateParser {
        var options = DateParsingOptions()
        var zone = "UTC"
        if let range = row.notes.range(of: #"loc=[A-Za-z_/]+"#, options: .regularExpression) {
            zone = String(row.notes[range].dropFirst(4))
        } else if row.notes.contains("ParseLocal"),
            let range = row.notes.range(of: #"time.Local=[A-Za-z_/]+"#, options: .regularExpression)
        {
            zone = String(row.notes[range].dropFirst(11))
        }
        // dateutil's tzinfos={'EST': America/New_York, 'BRST': -10800} is our --abbrev.
        var abbreviations: [String: String] = [:]
        if row.notes.contains("tzinfos={") {
            let pattern = #"'([A-Z]+)': (-?[0-9]+|[A-Za-z_]+/[A-Za-z_]+)"#
            let regex = try! NSRegularExpression(pattern: pattern)
            let text = row.notes as NSString
            for m in regex.matches(in: row.notes, range: NSRange(location: 0, length: text.length))
            {
                let name = text.substring(with: m.range(at: 1))
                let target = text.substring(with: m.range(at: 2))
                if let seconds = Int(target) {
                    guard seconds % 3600 == 0 else { continue }
                    let hours = -seconds / 3600  // POSIX sign: Etc/GMT+3 is UTC-03:00
                    abbreviations[name] =
                        hours == 0 ? "Etc/UTC" : "Etc/GMT\(hours > 0 ? "+" : "")\(hours)"
                } else {
                    abbreviations[name] = target
                }
            }
        }
        options.zoneResolver = ZoneResolver(abbreviationOverrides: abbreviations)
        options.assumedZone = try! options.zoneResolver.resolve(zone)
        // The peers' day/month settings are preferences (dateutil's `dayfirst`, dateparse's
        // `PreferMonthFirst`): a value such as 25-09-2003 that only reads the other way is
        // read that way. That is how a column's inferred order works here, not `--day-first`
        // (which refuses such a value).
        let parser = DateParser(options: options)
        if row.notes.contains("ParseStrict") {
            parser.setFieldOrder(nil)
        } else if row.notes.contains("dayfirst=True") || row.notes.contains("swaps to day-first")
            || row.notes.contains("PreferMonthFirst(false)")
        {
            parser.setFieldOrder(.dayFirst)
        } else {
            parser.setFieldOrder(.monthFirst)
        }
        return parser
    }

    /// What we produced, in the notation of the corpus files.
    static func describe(_ result: Result<ParsedTimeValue, DateParseError>) -> String {
        switch result {
        case .failure(let e): return "ERROR(\(e.code))"
        case .success(let p):
            if let d = p.value.date { return "date:\(d.isoString)" }
            return p.value.rfc3339
        }
    }

    static func agrees(_ row: Row, _ result: Result<ParsedTimeValue, DateParseError>) -> Bool {
        guard row.expected != "ERROR" else {
            if case .failure = result { return true }
            return false
        }
        guard case .success(let parsed) = result else { return false }
        let value = parsed.value
        if row.expected.hasSuffix("Z") {
            // An exact UTC instant. An all-day date agrees when the peer's answer is that
            // day's midnight in the zone the row assumed (its only way to say "a date").
            guard case .success(let e) = DateParser().parse(row.expected),
                let want = e.value.instant
            else { return false }
            if let got = value.instant { return got == want }
            guard let d = value.date, let zone = parser(for: row).options.assumedZone,
                case .success(let midnight) = DateParser().place(
                    LocalDateTime(date: d, hour: 0, minute: 0)!, in: zone.rules, basis: .assumed,
                    fractionDigits: 0)
            else { return false }
            return midnight.value.instant == want
        }
        if case .success(let e) = DateParser().parse(row.expected), e.value.basis == .offset {
            // An aware dateutil result: the same instant in the same offset.
            return value.instant == e.value.instant && value.offset == e.value.offset
        }
        // A naive wall time (dateutil without tzinfo, or with ignoretz=True).
        var utc = DateParsingOptions()
        utc.assumedZone = .utc
        guard case .success(let e) = DateParser(options: utc).parse(row.expected),
            let wall = e.value.local
        else { return false }
        if let got = value.local { return got == wall }
        if let d = value.date { return wall == LocalDateTime(date: d, hour: 0, minute: 0)! }
        return false
    }

    static func differencesList() throws -> [String: String] {
        var listed: [String: String] = [:]
        for row in try TestResources.tsv("corpus-differences.tsv") {
            listed["\(row["corpus"]!)\t\(row["input"]!)"] = row["reason"]!
        }
        return listed
    }

    /// False for rows whose upstream test used a setting this toolkit deliberately does not
    /// offer: filling missing fields from a `default=` date, `fuzzy` search in prose, custom
    /// `parserinfo` vocabularies, the process's `TZ`, dropping zones (`ignoretz`), or an XFAIL
    /// wish that the peer itself does not meet.
    static func usesOfferedSettings(_ row: Row) -> Bool {
        !["default=", "fuzzy", "parserinfo", "TZ=", "ignoretz", "XFAIL"].contains {
            row.notes.contains($0)
        }
    }

    @Test(
        "at least 94% agreement on rows whose settings we offer (less the peers' documented quirks); every disagreement is listed with a reason"
    )
    func agreement() throws {
        let rows = try Self.rows("araddon-dateparse.tsv") + Self.rows("python-dateutil.tsv")
        #expect(rows.count > 600)
        let listed = try Self.differencesList()
        var agreeing = 0
        var inScope = 0
        var inScopeAgreeing = 0
        var peerQuirks = 0  // in-scope rows whose expected value is a peer quirk named in INDEX.md
        var unlisted: [String] = []
        var disagreeingKeys: Set<String> = []
        for row in rows {
            let result = Self.parser(for: row).parse(row.input)
            let key = "\(row.corpus)\t\(row.input.replacingOccurrences(of: "\u{0}", with: "\\x00"))"
            let agrees = Self.agrees(row, result)
            if Self.usesOfferedSettings(row) {
                inScope += 1
                if agrees { inScopeAgreeing += 1 }
                if !agrees, listed[key]?.contains("quirk per INDEX.md") == true { peerQuirks += 1 }
            }
            if agrees {
                agreeing += 1
            } else {
                disagreeingKeys.insert(key)
                if listed[key] == nil {
                    unlisted.append(
                        "\(key)\t\(row.expected)\t\(Self.describe(result))\t\(row.notes)")
                }
            }
        }
        let stale = listed.keys.filter { !disagreeingKeys.contains($0) }.sorted()
        func percent(_ a: Int, _ b: Int) -> String {
            "\(a)/\(b) = \(String(format: "%.1f", Double(a) / Double(b) * 100))%"
        }
        let rate = Double(inScopeAgreeing) / Double(inScope - peerQuirks)
        if ProcessInfo.processInfo.environment["CORPUS_REPORT"] != nil {
            print(
                "corpus agreement: all rows \(percent(agreeing, rows.count)); rows with settings we offer \(percent(inScopeAgreeing, inScope)); "
                    + "those less the peer quirks named in INDEX.md \(percent(inScopeAgreeing, inScope - peerQuirks))"
            )
            for u in unlisted { print("UNLISTED\t\(u)") }
            for s in stale { print("STALE\t\(s)") }
        }
        #expect(
            unlisted.isEmpty,
            "disagreements not listed in corpus-differences.tsv:\n\(unlisted.joined(separator: "\n"))"
        )
        #expect(
            stale.isEmpty, "listed as different but now agreeing:\n\(stale.joined(separator: "\n"))"
        )
        #expect(
            rate >= 0.94,
            "agreement \(inScopeAgreeing)/\(inScope - peerQuirks) on rows whose settings we offer, less peer quirks"
        )
    }
}
