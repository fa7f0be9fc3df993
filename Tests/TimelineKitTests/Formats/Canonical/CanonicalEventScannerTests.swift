import Foundation
import Testing

@testable import TimelineKit

/// The scanner against the tree decoder it stands in for: on every line it reads, the event
/// and warnings must be the decoder's; the lines it leaves are the decoder's to judge.
@Suite("Canonical event scanner")
struct CanonicalEventScannerTests {
    /// The tree decoder's verdict on a line: the event and warnings, or nil when it rejects it.
    static func treeDecoded(_ line: [UInt8]) -> (Event, [CanonicalDecoder.Warning])? {
        guard let value = try? JSONParser.parseComplete(line, what: "the event") else { return nil }
        var warnings: [CanonicalDecoder.Warning] = []
        guard let event = try? CanonicalDecoder.event(from: value, warnings: &warnings) else {
            return nil
        }
        return (event, warnings)
    }

    static func scanned(_ line: [UInt8], with scanner: inout CanonicalEventScanner) -> (
        Event, [CanonicalDecoder.Warning]
    )? {
        var warnings: [CanonicalDecoder.Warning] = []
        guard let event = line.withByteView({ scanner.event($0, warnings: &warnings) }) else {
            return nil
        }
        return (event, warnings)
    }

    static func scanned(_ line: String) -> (Event, [CanonicalDecoder.Warning])? {
        var scanner = CanonicalEventScanner()
        return scanned(Array(line.utf8), with: &scanner)
    }

    static func encoded(_ event: Event) -> [UInt8] {
        var bytes: [UInt8] = []
        CanonicalEncoder.append(event, to: &bytes)
        return bytes
    }

    /// Events with every field, every basis, fractions, zones that agree, contradict (TZ106)
    /// or are unknown (TZ110), amounts, lists, attributes in several scripts, a few texts that
    /// need escapes.
    static func randomEvents(count: Int, seed: UInt64) -> [Event] {
        var random = SplitMix64(seed: seed)
        let texts = [
            "Order placed", "已签收", "note 7", "Shenzhen, Guangdong", "", "a \"quoted\" word",
            "tab\there", "Zürich ✓",
        ]
        let zones = ["Asia/Shanghai", "America/New_York", "Europe/Berlin", "MyTimezone", "UTC"]
        func text() -> String { texts[Int(random.next() % UInt64(texts.count))] }
        func maybe<T>(_ make: () -> T) -> T? { random.next() % 3 == 0 ? make() : nil }
        func time() -> TimeValue {
            let raw = maybe { "raw " + text() }
            if random.next() % 7 == 0 {
                return TimeValue(
                    date: CivilDate(daysSinceEpoch: Int64(random.next() % 40_000)), raw: raw)
            }
            let digits = Int(random.next() % 4) * 3
            let nanos =
                digits == 0
                ? 0
                : Int32(random.next() % 1_000_000_000) / Int32(pow(10, Double(9 - digits)))
                    * Int32(pow(10, Double(9 - digits)))
            let instant = Instant(
                seconds: 1_500_000_000 + Int64(random.next() % 300_000_000), nanoseconds: nanos)
            let zone =
                random.next() % 2 == 0 ? zones[Int(random.next() % UInt64(zones.count))] : nil
            // The zone's own offset mostly, now and then one it contradicts.
            var offset = UTCOffset(seconds: Int(random.next() % 29) * 1_800 - 12 * 3_600)
            if let zone, let rules = ZoneResolver.ianaRules(zone), random.next() % 5 != 0 {
                offset = rules.offset(at: instant)
            }
            let bases: [TimeBasis] = zone == nil ? [.offset, .epoch] : [.zone, .assumed, .offset]
            return TimeValue(
                instant: instant, offset: offset, zone: zone,
                basis: bases[Int(random.next() % UInt64(bases.count))],
                fractionDigits: digits, raw: raw)
        }
        return (0..<count).map { i in
            var event = Event(id: "e\(i)", start: time(), title: text())
            event.end = maybe(time)
            event.recorded = maybe(time)
            event.detail = maybe(text)
            event.category = maybe(text)
            event.location = maybe(text)
            event.series = maybe { "SO-\(random.next() % 100)" }
            event.status = maybe { EventStatus.allCases[Int(random.next() % 4)] }
            event.amount = maybe {
                Amount(
                    value: DecimalNumber(
                        coefficient: Int128(
                            Int64(bitPattern: random.next() % 2_000_000) - 1_000_000),
                        scale: Int(random.next() % 3)),
                    currency: maybe { "CNY" }, neutral: random.next() % 4 == 0)
            }
            event.links = maybe { ["https://example.com/\(i)", text()] } ?? []
            event.tags = maybe { [text()] } ?? []
            event.attributes = maybe { ["note": text(), "渠道": text()] } ?? [:]
            event.source = maybe {
                SourceReference(
                    format: "csv", file: random.next() % 2 == 0 ? "orders.csv" : "/data/其他.csv",
                    record: i + 1, line: maybe { i + 2 })
            }
            return event
        }
    }

    @Test(
        "the encoder's lines: every one without an escape is read, as the tree decoder reads it, warnings included"
    )
    func encodedLines() throws {
        var scanner = CanonicalEventScanner()
        var read = 0
        var escaped = 0
        var warned = 0
        for event in Self.randomEvents(count: 3_000, seed: 17) {
            let line = Self.encoded(event)
            let tree = try #require(Self.treeDecoded(line))
            #expect(tree.0 == event)
            guard let scanned = Self.scanned(line, with: &scanner) else {
                #expect(
                    line.contains(UInt8(ascii: "\\")),
                    "not read: \(String(decoding: line, as: UTF8.self))")
                escaped += 1
                continue
            }
            #expect(scanned.0 == tree.0)
            #expect(scanned.1 == tree.1)
            read += 1
            if !scanned.1.isEmpty { warned += 1 }
        }
        // The generator must reach both kinds of line and both warnings.
        #expect(read > 1_000 && escaped > 100 && warned > 100)
    }

    @Test(
        "the sample's lines, respaced and with their keys in another order, read as the tree decoder reads them"
    )
    func respacedSample() throws {
        let sample = try String(
            contentsOf: TestResources.packageRoot.appendingPathComponent("samples/events.ndjson"),
            encoding: .utf8)
        for line in sample.split(separator: "\n").map(String.init) {
            let spaced = line.replacingOccurrences(of: "\":", with: "\" :\t").replacingOccurrences(
                of: ",\"", with: " , \"")
            let tree = try #require(Self.treeDecoded(Array(line.utf8)))
            for variant in [line, " " + spaced + " \r"] {
                // A line with an escape ("Hive box 3F\nPickup code") is the tree decoder's.
                guard let scanned = Self.scanned(variant) else {
                    #expect(line.contains("\\"), "not read: \(variant)")
                    continue
                }
                #expect(scanned.0 == tree.0)
                #expect(scanned.1 == tree.1)
            }
        }
        let reordered =
            #"{"title":"t","source":{"record":3,"file":"f.csv","format":"csv"},"start":{"basis":"offset","offset":"+08:00","local":"2024-06-12T08:00:00","instant":"2024-06-12T00:00:00Z"},"id":"x"}"#
        let scanned = try #require(Self.scanned(reordered))
        #expect(scanned.0 == Self.treeDecoded(Array(reordered.utf8))?.0)
        #expect(scanned.0.source == SourceReference(format: "csv", file: "f.csv", record: 3))
    }

    @Test(
        "lines the tree decoder must judge are left to it",
        arguments: [
            #"{"id":"x","id":"y","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T08:00:00","offset":"+08:00","basis":"offset"},"title":"t"}"#,
            #"{"id":"x","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T08:00:00","offset":"+08:00","basis":"offset"},"title":"t","extra":1}"#,
            #"{"id":"x\u0041","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T08:00:00","offset":"+08:00","basis":"offset"},"title":"t"}"#,
            #"{"id":"x","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T08:00:00","offset":"−08:00","basis":"offset"},"title":"t"}"#,
            #"{"id":"x","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T08:00:00","offset":"+08:00","basis":"offset","note":"n"},"title":"t"}"#,
            #"{"id":"x","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T08:00:00","offset":"+08:00","basis":"offset"},"title":"t"} x"#,
            #"{"id":"x","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T08:00:00","offset":"+08:00","basis":"offset"},"title":"t","source":{"format":"csv","file":"f","record":1e2}}"#,
            #"{"id":"x","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T08:00:00","offset":"+08:00","basis":"offset"},"title":null}"#,
        ])
    func leftToTheTree(line: String) throws {
        #expect(Self.scanned(line) == nil)
    }

    @Test(
        "record and line numbers of any length: up to 18 digits read, longer left to the tree decoder, none overflows"
    )
    func longNumbers() throws {
        for digits in 1...40 {
            let number = String(repeating: "9", count: digits)
            let line =
                #"{"id":"x","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T08:00:00","offset":"+08:00","basis":"offset"},"title":"t","source":{"format":"csv","file":"f","record":"#
                + number + #","line":"# + number + "}}"
            let scanned = Self.scanned(line)
            if digits <= 18 {
                let event = try #require(scanned, "\(digits) digits")
                #expect(event.0.source?.record == Int(number))
                #expect(event.0 == Self.treeDecoded(Array(line.utf8))?.0)
            } else {
                #expect(scanned == nil, "\(digits) digits")
            }
        }
    }

    @Test(
        "bytes changed anywhere in real lines: what the scanner reads, the tree decoder reads the same; what the decoder rejects, the scanner leaves"
    )
    func mutatedLines() throws {
        var random = SplitMix64(seed: 23)
        let sample = try String(
            contentsOf: TestResources.packageRoot.appendingPathComponent("samples/events.ndjson"),
            encoding: .utf8)
        let lines =
            sample.split(separator: "\n").map { Array($0.utf8) }
            + Self.randomEvents(count: 200, seed: 5).map(Self.encoded)
        let insertions: [UInt8] = Array("\"\\,:{}[] 0129.-+eZTtrn".utf8) + [0x01, 0x80, 0xC3, 0xFF]
        var scanner = CanonicalEventScanner()
        var agreed = 0
        var rejected = 0
        for _ in 0..<40_000 {
            let line = random.mutated(
                lines[Int(random.next() % UInt64(lines.count))], edits: 2, alphabet: insertions)
            let tree = Self.treeDecoded(line)
            guard let scanned = Self.scanned(line, with: &scanner) else { continue }
            let text = String(decoding: line, as: UTF8.self)
            guard let tree else {
                Issue.record("read a line the tree decoder rejects: \(text)")
                rejected += 1
                continue
            }
            #expect(scanned.0 == tree.0, "\(text)")
            #expect(scanned.1 == tree.1, "\(text)")
            agreed += 1
        }
        #expect(rejected == 0)
        #expect(agreed > 1_000)  // mutations that leave a line valid: a digit for a digit, a space
    }
}
