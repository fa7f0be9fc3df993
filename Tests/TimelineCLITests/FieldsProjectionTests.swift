import Foundation
import Testing

/// `--fields`: each record holds exactly the selected paths of the canonical event. The
/// oracle is the full canonical NDJSON of the same run, parsed by Foundation's
/// `JSONSerialization` and looked up path by path; the CSV example is worked out by hand.
@Suite("convert --fields")
struct FieldsProjectionTests {
    static let paths = [
        "id", "title", "detail", "status", "category", "location", "series",
        "start", "start.instant", "start.local", "start.offset", "start.zone", "start.basis",
        "start.date", "start.raw", "end", "end.instant", "end.date", "recorded.instant",
        "amount", "amount.value", "amount.currency", "amount.neutral", "links", "tags",
        "attributes", "attributes.note", "attributes.交易单号", "source", "source.format",
        "source.file", "source.record", "source.line",
    ]

    static let samples: [[String]] = [
        ["samples/orders.csv"], ["samples/wallet-statement.csv"], ["samples/courier-trace.json"],
        ["samples/events.ndjson"], ["samples/calendar.ics"],
    ]

    static func objects(_ ndjson: String) throws -> [[String: Any]] {
        try ndjson.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The value at a dotted path of a canonical event: the member, or the member of an
    /// object member (attributes' keys may hold dots: only the first one splits).
    static func lookup(_ path: String, in event: [String: Any]) -> Any {
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard let first = event[parts[0]] else {
            // Absent lists and objects are written empty by the projection.
            switch path {
            case "links", "tags": return [Any]()
            case "attributes": return [String: Any]()
            case "amount.neutral": return event["amount"] == nil ? NSNull() : false
            default: return NSNull()
            }
        }
        guard parts.count == 2 else { return first }
        guard let object = first as? [String: Any] else { return NSNull() }
        if path == "amount.neutral" { return object["neutral"] ?? false }
        return object[parts[1]] ?? NSNull()
    }

    static func same(_ a: Any, _ b: Any) -> Bool {
        NSDictionary(dictionary: ["v": a]).isEqual(to: ["v": b])
    }

    @Test(
        "NDJSON: every selected path, in order, equal to the canonical event's", arguments: samples)
    func ndjsonMatchesCanonical(args: [String]) throws {
        let common =
            args + ["--assume-zone", "Asia/Shanghai", "--to", "ndjson", "--sort", "input", "-q"]
        let full = try BinaryRunner.run(["convert"] + common)
        let projected = try BinaryRunner.run(
            ["convert"] + common + ["--fields", Self.paths.joined(separator: ",")])
        #expect(projected.status == 0, "\(projected.stderr)")
        let events = try Self.objects(full.stdout)
        let records = try Self.objects(projected.stdout)
        #expect(events.count == records.count && !events.isEmpty)
        for (event, record) in zip(events, records) {
            #expect(record.count == Self.paths.count)
            for path in Self.paths {
                let got = record[path] ?? "missing"
                #expect(Self.same(got, Self.lookup(path, in: event)), "\(args[0]) \(path): \(got)")
            }
        }
        // Keys in the order given.
        let first = try #require(projected.stdout.split(separator: "\n").first)
        let positions = Self.paths.map { first.range(of: "\"\($0)\":")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0! < $1! })
    }

    @Test("JSON: the NDJSON objects in one array; sorted output too")
    func jsonArray() throws {
        for sort in ["input", "asc"] {
            let common = [
                "convert", "samples/orders.csv", "--assume-zone", "Asia/Shanghai", "--sort", sort,
                "--fields", "id,start.instant,amount.value", "-q",
            ]
            let lines = try BinaryRunner.run(common + ["--to", "ndjson"])
            let array = try BinaryRunner.run(common + ["--to", "json"])
            let parsed = try #require(
                JSONSerialization.jsonObject(with: Data(array.stdout.utf8)) as? [[String: Any]])
            let expected = try Self.objects(lines.stdout)
            #expect(parsed.count == 12 && expected.count == 12)
            #expect(Self.same(parsed, expected))
        }
    }

    @Test("CSV and TSV: a header of the paths, empty cells for missing values, quoting as RFC 4180")
    func delimited() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.csv")
        try Data(
            "time,title,amount,currency,shelf\n2024-06-12T09:05:00+08:00,\"Coffee, large\",-15.90,CNY,\"said \"\"hi\"\"\"\n2024-06-13,Holiday,,,\n"
                .utf8
        ).write(to: input)
        let fields = "title,start.instant,start.date,amount.value,attributes.shelf,source.line"
        let csv = try BinaryRunner.run(
            ["convert", input.path, "--to", "csv", "--sort", "input", "--fields", fields, "-q"])
        #expect(csv.status == 0, "\(csv.stderr)")
        #expect(
            csv.stdout
                == "title,start.instant,start.date,amount.value,attributes.shelf,source.line\r\n"
                + "\"Coffee, large\",2024-06-12T01:05:00Z,,-15.90,\"said \"\"hi\"\"\",2\r\n"
                + "Holiday,,2024-06-13,,,3\r\n")
        let tsv = try BinaryRunner.run(
            [
                "convert", input.path, "--to", "tsv", "--sort", "input", "--fields",
                "title,source.line", "-q",
            ])
        #expect(tsv.stdout == "title\tsource.line\r\nCoffee, large\t2\r\nHoliday\t3\r\n")
    }

    @Test(
        "refused: an unknown path (with the nearest), a format of whole events, --group",
        arguments: [
            (["--fields", "id,start.instnt"], "did you mean 'start.instant'?"),
            (["--fields", "id,id"], "field 'id' is named twice"),
            (
                ["--fields", "id", "--to", "text"],
                "--fields writes csv, tsv, json, ndjson, parquet only, not 'text'"
            ),
            (
                ["--fields", "id", "--to", "json", "--group", "day"],
                "cannot be combined with --group"
            ),
        ])
    func refused(flags: [String], message: String) throws {
        let r = try BinaryRunner.run(
            ["convert", "samples/orders.csv", "--assume-zone", "Asia/Shanghai"] + flags)
        #expect(r.status == 64)
        #expect(r.stderr.contains(message), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }
}
