import Testing

@testable import TimelineKit

/// Compares the engine with tables written by `scripts/oracles/generate.py` (Python's
/// `zoneinfo` and `datetime.fromisoformat`); CI regenerates them and fails on any drift.
@Suite("Agreement with Python's zoneinfo and fromisoformat")
struct OracleAgreementTests {
    static func utc(_ text: String) -> Instant {
        let p = DateParser().parse(text)
        guard case .success(let v) = p, let i = v.value.instant else {
            fatalError("bad oracle value \(text)")
        }
        return i
    }

    @Test("every ISO 8601 row reads to the oracle's instant, naive time or date")
    func iso8601() throws {
        let rows = try TestResources.tsv("oracles/iso8601.tsv")
        #expect(rows.count >= 25)
        for row in rows {
            let input = row["input"]!
            let result = DateParser().parse(input)
            switch row["kind"]! {
            case "instant":
                let expected = row["value"]!  // YYYY-MM-DDTHH:MM:SS.nnnnnnnnnZ
                guard case .success(let parsed) = result, let instant = parsed.value.instant else {
                    Issue.record("\(input): expected an instant, got \(result)")
                    continue
                }
                #expect(instant.isoString(fractionDigits: 9) == expected, "\(input)")
                #expect(parsed.value.basis == .offset, "\(input)")
            case "naive":
                #expect(result == .failure(.naive), "\(input)")
                var options = DateParsingOptions()
                options.assumedZone = .utc
                guard case .success(let parsed) = DateParser(options: options).parse(input) else {
                    Issue.record("\(input) with --assume-zone UTC failed")
                    continue
                }
                #expect(
                    parsed.value.instant!.isoString(fractionDigits: 9) == row["value"]! + "Z",
                    "\(input)")
            case "date":
                guard case .success(let parsed) = result else {
                    Issue.record("\(input): \(result)")
                    continue
                }
                #expect(parsed.value.date?.isoString == row["value"]!, "\(input)")
            default:
                Issue.record("unknown kind in oracle")
            }
        }
    }

    @Test("DST gaps and overlaps match zoneinfo's fold=0 / fold=1 instants")
    func localTimes() throws {
        let rows = try TestResources.tsv("oracles/zone-local-times.tsv")
        #expect(rows.contains { $0["kind"] == "gap" } && rows.contains { $0["kind"] == "overlap" })
        for row in rows {
            let zone = try ZoneResolver().resolve(row["zone"]!)
            let fold0 = Self.utc(row["fold0_utc"]!)
            let fold1 = Self.utc(row["fold1_utc"]!)
            for (policy, expected) in [(OverlapPolicy.earlier, fold0), (.later, fold1)] {
                var options = DateParsingOptions()
                options.assumedZone = zone
                options.onOverlap = policy
                let result = DateParser(options: options).parse(row["local"]!)
                guard case .success(let parsed) = result else {
                    Issue.record("\(row): \(result)")
                    continue
                }
                switch row["kind"]! {
                case "unique":
                    #expect(parsed.value.instant == fold0, "\(row)")
                    #expect(parsed.notice == nil, "\(row)")
                case "overlap":
                    #expect(parsed.value.instant == expected, "\(row) \(policy)")
                    guard case .ambiguousLocalTime? = parsed.notice else {
                        Issue.record("no overlap notice for \(row)")
                        continue
                    }
                case "gap":
                    // Shift forward: the pre-gap offset applied, i.e. zoneinfo's fold=0.
                    #expect(parsed.value.instant == fold0, "\(row)")
                    guard case .nonexistentLocalTime? = parsed.notice else {
                        Issue.record("no gap notice for \(row)")
                        continue
                    }
                    #expect(parsed.value.offset == zone.rules.offset(at: fold0), "\(row)")
                default:
                    Issue.record("unknown kind")
                }
            }
            var reject = DateParsingOptions()
            reject.assumedZone = zone
            reject.onGap = .reject
            reject.onOverlap = .reject
            let rejected = DateParser(options: reject).parse(row["local"]!)
            switch row["kind"]! {
            case "gap": #expect(rejected.failureCode == "TZ104", "\(row)")
            case "overlap": #expect(rejected.failureCode == "TZ105", "\(row)")
            default: #expect(rejected.failureCode == nil, "\(row)")
            }
        }
    }
}

extension Result where Failure == DateParseError {
    var failureCode: String? {
        if case .failure(let e) = self { return e.code.rawValue }
        return nil
    }
}
