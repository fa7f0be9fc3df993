import Foundation
import Testing
import TimelineKit

/// `--to parquet`: read back by pyarrow, DuckDB and polars (scripts/parquet-oracle.py), every
/// value of every row equals the `--fields` NDJSON of the same columns, which the oracle
/// parses with Python's standard library alone (instants to integer nanoseconds, amounts to
/// `Decimal`). The footer's encodings and statistics are read by pyarrow.
@Suite("convert --to parquet")
struct ParquetOutputTests {
    /// Every column of the canonical schema, in the file's order.
    static let columns =
        [
            "id", "title", "detail", "status", "category", "location", "series",
        ]
        + ["start", "end", "recorded"].flatMap { t in
            ["instant", "local", "offset", "zone", "basis", "date", "raw"].map { "\(t).\($0)" }
        } + [
            "amount.value", "amount.currency", "amount.neutral", "links", "tags", "attributes",
            "source.format", "source.file", "source.record", "source.line",
        ]

    static let samples = [
        "samples/orders.csv", "samples/wallet-statement.csv", "samples/courier-trace.json",
        "samples/events.ndjson", "samples/calendar.ics",
    ]

    /// Converts `input` to Parquet and to the NDJSON of `fields`, and has the oracle compare
    /// them; returns the Parquet file's path.
    @discardableResult
    static func convertAndCompare(
        _ input: String, in dir: URL, extra: [String] = [], fields: [String] = columns,
        engines: String = "pyarrow,duckdb,polars"
    ) throws -> String {
        let parquet = dir.appendingPathComponent("out.parquet").path
        let ndjson = dir.appendingPathComponent("out.ndjson").path
        let common = [input, "--assume-zone", "Asia/Shanghai", "-q"] + extra
        let p = try BinaryRunner.run(
            ["convert"] + common + ["--to", "parquet", "-o", parquet]
                + (fields == columns ? [] : ["--fields", fields.joined(separator: ",")]))
        #expect(p.status == 0, "\(p.stderr)")
        let n = try BinaryRunner.run(
            ["convert"] + common + [
                "--to", "ndjson", "--fields", fields.joined(separator: ","), "-o", ndjson,
            ])
        #expect(n.status == 0, "\(n.stderr)")
        let oracle = try BinaryRunner.python(
            "scripts/parquet-oracle.py", ["compare", parquet, ndjson, "--engines", engines])
        #expect(oracle.succeeded, "\(String(decoding: oracle.output, as: UTF8.self))")
        return parquet
    }

    static func metadata(_ parquet: String) throws -> [String: Any] {
        let run = try BinaryRunner.python("scripts/parquet-oracle.py", ["metadata", parquet])
        #expect(run.succeeded)
        return try #require(JSONSerialization.jsonObject(with: run.output) as? [String: Any])
    }

    @Test("every sample: each engine reads the NDJSON's values", arguments: samples)
    func samplesReadBack(sample: String) throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.convertAndCompare(sample, in: dir)
    }

    /// Random events: instants from 1700 to 2200 with 0–9 fraction digits, dates, offsets of
    /// whole minutes and seconds, amounts with 0–18 fraction digits up to 20 integer digits,
    /// lists, attributes, text with quotes, line breaks and CJK.
    static func randomEvents(_ count: Int, seed: UInt64) -> [Event] {
        var random = SeededRandom(state: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
        let words = ["Order placed", "签收", "a \"quoted\" word", "line\nbreak", "tab\there", "é"]
        let zones = ["Asia/Shanghai", "Europe/Berlin", "America/New_York", nil]
        func time() -> TimeValue {
            if chance(15) {
                let date = CivilDate(daysSinceEpoch: Int64(random.next() % 40_000) - 20_000)
                return TimeValue(date: date, raw: chance(50) ? date.isoString : nil)
            }
            let seconds = Int64(random.next() % 15_778_800_000) - 8_520_000_000
            let digits = pick([0, 3, 6, 9, 1, 4])
            var nanos = Int32(random.next() % 1_000_000_000)
            var scale: Int32 = 1
            for _ in digits..<9 { scale *= 10 }
            nanos = nanos / scale * scale
            let offset = UTCOffset(seconds: pick([0, 28_800, -18_000, 19_800, 1_172, -3_600]))
            let zone = pick(zones)
            return TimeValue(
                instant: Instant(seconds: seconds, nanoseconds: nanos), offset: offset,
                zone: zone,
                basis: zone == nil ? pick([.offset, .epoch]) : pick([.zone, .assumed]),
                fractionDigits: digits, raw: chance(50) ? "raw \(seconds)" : nil)
        }
        return (0..<count).map { i in
            var amount: Amount?
            if chance(60) {
                let scale = Int(random.next() % 19)
                var limit: Int128 = 1
                for _ in 0..<(scale + 20) { limit *= 10 }
                let magnitude = Int128(random.next() >> 1) * Int128(random.next() >> 1) % limit
                amount = Amount(
                    value: DecimalNumber(
                        coefficient: chance(50) ? -magnitude : magnitude, scale: scale),
                    currency: pick(["CNY", "USD", "EUR", nil]), neutral: chance(10))
            }
            return Event(
                id: "e\(i)", start: time(), end: chance(20) ? time() : nil, title: pick(words),
                detail: chance(50) ? "detail \(random.next() % 1000)" : nil,
                status: chance(70)
                    ? pick([.completed, .processing, .pending, .cancelled, .refunded]) : nil,
                category: chance(30) ? pick(words) : nil, amount: amount,
                location: chance(30) ? pick(["Shenzhen", "Berlin"]) : nil,
                series: chance(80) ? "S-\(random.next() % 5000)" : nil,
                recorded: chance(20) ? time() : nil,
                links: (0..<Int(random.next() % 3)).map { "https://example.com/\($0)" },
                tags: (0..<Int(random.next() % 4)).map { _ in pick(words) },
                attributes: Dictionary(
                    uniqueKeysWithValues: (0..<Int(random.next() % 4)).map {
                        ("k\($0)", pick(words))
                    }))
        }
    }

    /// `randomEvents` written as NDJSON into `dir`.
    static func randomEventsFile(_ count: Int, seed: UInt64, in dir: URL) throws -> URL {
        let input = dir.appendingPathComponent("random.ndjson")
        try Timeline.data(Self.randomEvents(count, seed: seed), as: .named("ndjson")!)
            .write(to: input)
        return input
    }

    /// (scripts/check-parquet reads 200,000 generated orders back the same way, with the
    /// optimised build.)
    @Test("30,000 random events, in row groups of 8,000: every value read back")
    func randomEventsReadBack() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.randomEventsFile(30_000, seed: 57, in: dir)
        let parquet = try Self.convertAndCompare(
            input.path, in: dir, extra: ["--sort", "input", "--parquet-row-group", "8000"])
        let meta = try Self.metadata(parquet)
        #expect(meta["rows"] as? Int == 30_000)
        #expect(meta["row_groups"] as? Int == 4)
    }

    @Test("a row group keeps within a quarter of --memory: more of them, the same values")
    func rowGroupsWithinMemory() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = try Self.randomEventsFile(30_000, seed: 58, in: dir)
        let whole = try Self.metadata(
            Self.convertAndCompare(input.path, in: dir, extra: ["--sort", "input"]))
        #expect(whole["row_groups"] as? Int == 1)
        // A megabyte of memory: row groups of at most a megabyte of values (the check falls
        // every 4,096 events), so 30,000 events of about 100 bytes need several.
        let small = try Self.metadata(
            Self.convertAndCompare(
                input.path, in: dir, extra: ["--sort", "input", "--memory", "1MB"]))
        #expect(small["rows"] as? Int == 30_000)
        #expect((small["row_groups"] as? Int ?? 0) >= 2)
    }

    @Test("the footer: dictionaries where values repeat, Snappy, start.instant's min and max")
    func footer() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let parquet = try Self.convertAndCompare("samples/orders.csv", in: dir)
        let columns = try #require(Self.metadata(parquet)["columns"] as? [String: [String: Any]])
        for name in ["status", "series", "start.basis", "amount.currency", "source.format"] {
            #expect(columns[name]?["dictionary"] as? Bool == true, "\(name)")
            #expect(
                (columns[name]?["encodings"] as? [String])?.contains("RLE_DICTIONARY") == true)
        }
        #expect(columns["id"]?["dictionary"] as? Bool == false)
        #expect(columns.values.allSatisfy { $0["compression"] as? String == "SNAPPY" })
        // samples/orders.csv's earliest and latest starts, read off the file by hand:
        // 2024-06-11T15:42:10Z (SO-1001 placed) and 2024-06-14T22:40:00Z (SO-1003 shipped).
        let stats = try #require(columns["start.instant"]?["statistics"] as? [[Any]])
        #expect(stats.first?[0] as? String == "2024-06-11 15:42:10+00:00")
        #expect(stats.first?[1] as? String == "2024-06-14 22:40:00+00:00")

        let plain = try Self.convertAndCompare(
            "samples/orders.csv", in: dir, extra: ["--parquet-compression", "none"])
        let plainColumns = try #require(
            Self.metadata(plain)["columns"] as? [String: [String: Any]])
        #expect(plainColumns.values.allSatisfy { $0["compression"] as? String == "UNCOMPRESSED" })
    }

    @Test("--fields selects columns; an object path stands for its parts")
    func fieldsSelectColumns() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.convertAndCompare(
            "samples/wallet-statement.csv", in: dir,
            fields: ["id", "start.instant", "title", "amount.value", "series", "attributes.交易单号"])
        let parquet = dir.appendingPathComponent("amount.parquet").path
        let run = try BinaryRunner.run([
            "convert", "samples/wallet-statement.csv", "--assume-zone", "Asia/Shanghai", "--to",
            "parquet", "--fields", "id,amount", "-o", parquet, "-q",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let columns = try #require(Self.metadata(parquet)["columns"] as? [String: Any])
        #expect(
            Set(columns.keys) == ["id", "amount.value", "amount.currency", "amount.neutral"])
    }

    @Test("the same input gives the same bytes")
    func deterministic() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let files = ["a", "b"].map { dir.appendingPathComponent("\($0).parquet").path }
        for file in files {
            let run = try BinaryRunner.run(
                ["convert", "samples/calendar.ics", "--to", "parquet", "-o", file, "-q"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let bytes = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        #expect(bytes[0].count > 100)
        #expect(bytes[0] == bytes[1])
    }

    @Test("an event Parquet cannot hold is rejected with its reason; the others are written")
    func outsideParquetLimits() throws {
        let dir = try BinaryRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let parquet = dir.appendingPathComponent("out.parquet").path
        let run = try BinaryRunner.run(
            ["convert", "-", "--from", "csv", "--to", "parquet", "-o", parquet, "-q"],
            stdin: """
                id,time,title,amount
                old,1600-01-01T00:00:00Z,founding,
                ok,2024-06-12T00:00:00Z,kept,1.50
                huge,2024-06-12T00:00:00Z,no,123456789012345678901

                """)
        // Rejected, as any record that cannot be written is (the run succeeds without
        // --strict); the event Parquet holds is written.
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "start '1600-01-01T00:00:00Z' is outside the years a Parquet TIMESTAMP(NANOS) holds"
            ), "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "amount '123456789012345678901' has more than 20 digits before the decimal point"),
            "\(run.stderr)")
        #expect(try Self.metadata(parquet)["rows"] as? Int == 1)
    }

    /// DECIMAL(38, 18) holds 20 digits before the point: 99,999,999,999,999,999,999.5 is the
    /// largest kind of amount written.
    @Test("20 integer digits fit DECIMAL(38, 18)")
    func amountRange() throws {
        let fits = try BinaryRunner.run(
            ["convert", "-", "--from", "csv", "--to", "parquet", "-o", "/dev/null", "-q"],
            stdin: "id,time,title,amount\nbig,2024-06-12T00:00:00Z,ok,99999999999999999999.5\n")
        #expect(fits.status == 0, "\(fits.stderr)")
    }

    @Test("the library's writer refuses such an event with its id")
    func writerRefuses() throws {
        let old = Event(
            id: "old", start: TimeValue(date: CivilDate(year: 2024, month: 6, day: 12)!),
            title: "fine")
        let far = Event(
            id: "far",
            start: TimeValue(
                instant: Instant(seconds: -12_000_000_000), offset: .utc, basis: .offset),
            title: "too early")
        let writer = try TimelineWriter(format: .named("parquet")!)
        try writer.write(old)
        #expect(throws: TimelineError.self) { try writer.write(far) }
        do {
            try writer.write(far)
        } catch {
            #expect(error.diagnostic.message.hasPrefix("event 'far': start '"))
        }
    }
}
