import Foundation
import Testing

@testable import TimelineKit

/// The sort that spills to disk gives exactly the in-memory sort's output.
@Suite("External sort")
struct ExternalSorterTests {
    /// A CSV of `rows` events whose times repeat (many ties), with every kind of value the
    /// codec carries: offsets, zones, naive times, dates, fractions, amounts, attributes.
    static func csv(rows: Int, seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        var text = "id,time,title,amount,currency,recorded,tags,note,city\n"
        for i in 0..<rows {
            let day = 10 + Int(rng.next() % 5)
            let hour = Int(rng.next() % 3)
            let time: String
            switch rng.next() % 5 {
            case 0: time = "2024-06-\(day)T0\(hour):00:00Z"
            case 1: time = "2024-06-\(day)T0\(hour):00:00.5+08:00"
            case 2: time = "2024-06-\(day)T0\(hour):00:00[Asia/Shanghai]"
            case 3: time = "2024-06-\(day) 0\(hour):00:00"
            default: time = "2024-06-\(day)"
            }
            let amount = rng.next() % 3 == 0 ? "\(Int(rng.next() % 10_000))/100" : ""
            let recorded = rng.next() % 4 == 0 ? "2024-06-0\(1 + rng.next() % 9)T00:00:00Z" : ""
            text +=
                "E\(i),\(time),event \(i) with a title longer than fifteen bytes,\(amount.isEmpty ? "" : "\(Double(rng.next() % 10_000) / 100)"),"
            text +=
                "\(amount.isEmpty ? "" : "CNY"),\(recorded),\"a,b\",note \(i),\(rng.next() % 2 == 0 ? "杭州" : "")\n"
        }
        return text
    }

    /// `name` names the input file, which events carry: conversions compared must share it.
    static func convert(
        _ text: String, name: String, sort: TimelineKit.SortOrder, spillTo directory: URL?,
        format: String = "ndjson"
    ) throws
        -> String
    {
        var options = ConvertOptions()
        options.read.format = .named("csv")
        options.read.dates.assumedZone = try ZoneResolver().resolve("Asia/Shanghai")
        options.outputFormat = .named(format)!
        options.sort = sort
        options.sortDirectory = directory?.path
        options.sortMemory = 64 << 10  // a few dozen events a run
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sorted-\(UUID().uuidString)")
        // A file is read in blocks of records (a string in one): every block outgrows the budget.
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("\(name).csv")
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: input)
        }
        try text.write(to: input, atomically: false, encoding: .utf8)
        _ = try Timeline.convert([.file(input)], to: .file(out), options: options)
        return try String(contentsOf: out, encoding: .utf8)
    }

    @Test(
        "many runs give the same bytes as the in-memory sort, ties in input order across runs",
        arguments: [TimelineKit.SortOrder.asc, .desc])
    func identity(order: TimelineKit.SortOrder) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "runs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for seed in [1, 2] as [UInt64] {
            let text = Self.csv(rows: 3_000, seed: seed)
            let name = "identity-\(order)-\(seed)"
            let spilled = try Self.convert(text, name: name, sort: order, spillTo: dir)
            let inMemory = try Self.convert(text, name: name, sort: order, spillTo: nil)
            #expect(spilled == inMemory, "seed \(seed)")
            #expect(spilled.split(separator: "\n").count == 3_000)
            // The runs' files are gone (unlinked as soon as they were made).
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
        }
    }

    @Test("ties keep input order: equal times come out E0, E1, E2, … in both directions")
    func ties() throws {
        let dir = FileManager.default.temporaryDirectory
        var text = "id,time,title\n"
        for i in 0..<2_000 {
            text += "E\(i),2024-06-12T08:00:00Z,the same moment for every one of them\n"
        }
        for order in [TimelineKit.SortOrder.asc, .desc] {
            let ids = try Self.convert(text, name: "ties-\(order)", sort: order, spillTo: dir)
                .split(separator: "\n").map { line in
                    String(line.dropFirst(7).prefix { $0 != "\"" })
                }
            #expect(ids == (0..<2_000).map { "E\($0)" })
        }
    }

    @Test(
        "NDJSON sorted as encoded records equals the event sort's JSON document, line for line",
        arguments: [TimelineKit.SortOrder.asc, .desc])
    func encodedEqualsEventSort(order: TimelineKit.SortOrder) throws {
        // NDJSON output is sorted as encoded bytes (EncodedRecordSorter); a JSON document is
        // sorted as events (ExternalSorter) and writes each event as the same line NDJSON does.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "runs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = Self.csv(rows: 20_000, seed: 3)
        let ndjson = try Self.convert(text, name: "encoded-\(order)", sort: order, spillTo: dir)
        let document = try Self.convert(
            text, name: "encoded-\(order)", sort: order, spillTo: dir, format: "json")
        var lines = document.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        lines = lines.dropLast(2)  // "]}" and the empty string after the last newline
        let events = lines.enumerated().map { i, line in
            i + 1 < lines.count ? line.dropLast() : line
        }  // the comma
        #expect(ndjson.split(separator: "\n").map(String.init) == events.map(String.init))
        #expect(events.count == 20_000)
    }

    @Test(
        "text, HTML and Markdown cut from the merge of many runs equal the exporter ordering every event itself",
        arguments: ["text", "html", "markdown"])
    func sectionsFromTheMerge(format: String) throws {
        // Sorted, these outputs are cut one day at a time from the merge of sorted records
        // (SectionRecords; HTML's month totals gathered while reading); with --sort input
        // they are handed every event and order and group them at the end
        // (TimelineGrouping.group).
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "runs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = Self.csv(rows: 5_000, seed: 4)
        let merged = try Self.convert(
            text, name: "sections-\(format)", sort: .asc, spillTo: dir, format: format)
        let whole = try Self.convert(
            text, name: "sections-\(format)", sort: .input, spillTo: nil, format: format)
        #expect(merged == whole)
        #expect(merged.utf8.count > 100_000)
    }

    @Test("sorting encoded records in many runs reports each run, then the merge")
    func encodedPhases() throws {
        var options = ConvertOptions()
        options.read.format = .named("csv")
        options.outputFormat = .named("ndjson")!
        options.sortDirectory = FileManager.default.temporaryDirectory.path
        options.sortMemory = 64 << 10
        var steps: [ConvertProgress] = []
        options.onProgress = { steps.append($0) }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(
            "phases-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        var text = "id,time,title\n"
        for i in 0..<20_000 {
            text +=
                "E\(i),2024-06-12T\(String(format: "%02d:%02d", (i * 7) % 24, i % 60)):00Z,a title long enough to be on the heap\n"
        }
        // From a file, which is read in blocks of records: each block here outgrows the budget.
        let input = FileManager.default.temporaryDirectory.appendingPathComponent(
            "phases-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: input) }
        try text.write(to: input, atomically: false, encoding: .utf8)
        _ = try Timeline.convert(
            [.file(input)], to: .file(out), options: options)
        let spills = Self.runsSpilled(steps)
        #expect(spills.count > 5)
        #expect(spills == Array(1...max(spills.count, 1)))
        // Read from a file: the bytes read grow to its size, which is known.
        let reading = steps.filter { $0.phase == .reading }
        #expect(reading.allSatisfy { $0.totalBytes == text.utf8.count })
        #expect(zip(reading, reading.dropFirst()).allSatisfy { $0.bytesRead <= $1.bytesRead })
        #expect(reading.last?.bytesRead == text.utf8.count)
        let ids = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").map {
            $0.dropFirst(7).prefix { $0 != "\"" }
        }
        // By hand: ascending time, ties (the same hour and minute) in input order.
        let expected = (0..<20_000).sorted { a, b in
            let ka = ((a * 7) % 24, a % 60)
            let kb = ((b * 7) % 24, b % 60)
            return ka != kb ? ka < kb : a < b
        }
        #expect(ids.map(String.init) == expected.map { "E\($0)" })
    }

    @Test("the phases are reported: each run spilled, then the merge of all of them")
    func phases() throws {
        var options = ConvertOptions()
        options.read.format = .named("csv")
        options.outputFormat = .named("csv")!  // sorted as events (ExternalSorter)
        options.sortDirectory = FileManager.default.temporaryDirectory.path
        options.sortMemory = 64 << 10
        var steps: [ConvertProgress] = []
        options.onProgress = { steps.append($0) }
        options.progressInterval = 500
        let out = FileManager.default.temporaryDirectory.appendingPathComponent(
            "phases-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        var text = "id,time,title\n"
        for i in 0..<1_000 {
            text +=
                "E\(i),2024-06-12T08:\(String(format: "%02d", (i * 7) % 60)):00Z,a title long enough to be on the heap\n"
        }
        _ = try Timeline.convert(
            [.string(text, name: "e.csv")], to: .file(out), options: options)
        let spills = Self.runsSpilled(steps)
        #expect(spills.count > 2)
        #expect(spills == Array(1...max(spills.count, 1)))
        // The merge of the spilled runs and the one held: 1,000 events, every 500.
        let merging = steps.filter { $0.phase == .merging }
        #expect(merging.map(\.eventsWritten) == [0, 500, 1_000])
        #expect(merging.allSatisfy { $0.eventsToWrite == 1_000 && $0.runsOnDisk == spills.count })
        #expect(merging.map(\.fractionDone) == [0, 0.5, 1])
        #expect(steps.first?.phase == .reading && steps.last?.phase == .merging)
    }

    /// The runs on disk as each was reported while reading, in order.
    static func runsSpilled(_ steps: [ConvertProgress]) -> [Int] {
        var runs: [Int] = []
        for step in steps where step.phase == .reading && step.runsOnDisk > (runs.last ?? 0) {
            runs.append(step.runsOnDisk)
        }
        return runs
    }

    @Test("every field round-trips through a run record")
    func codec() throws {
        var e = Event.blank
        e.id = "ÿ-1"
        e.start = TimeValue(
            instant: Instant(seconds: -62_135_596_800, nanoseconds: 5),
            offset: UTCOffset(seconds: -34_200), zone: "America/St_Johns", basis: .zone,
            fractionDigits: 9, raw: "raw")
        e.end = TimeValue(date: CivilDate(year: 9999, month: 12, day: 31)!, raw: nil)
        e.title = "标题"
        e.detail = ""
        e.status = .cancelled
        e.category = "c"
        e.amount = Amount(
            value: DecimalNumber(
                coefficient: Int128(-170_141_183_460_469_231_731_687_303_715_884_105_727), scale: 18
            ), currency: "CNY", neutral: true
        )
        e.location = "l"
        e.series = "s"
        e.recorded = TimeValue(
            instant: Instant(seconds: 1, nanoseconds: 0), offset: .utc, basis: .epoch)
        e.links = ["a", ""]
        e.tags = ["t"]
        e.attributes = ["k": "v", "": "empty key"]
        e.source = SourceReference(format: "csv", file: "f.csv", record: 3, line: nil)
        var bytes: [UInt8] = [9, 9]
        EventRunCodec.append(e, to: &bytes)
        EventRunCodec.append(Event.blank, to: &bytes)
        let (first, next) = try EventRunCodec.decode(bytes, at: 2)
        #expect(first == e)
        let (second, end) = try EventRunCodec.decode(bytes, at: next)
        #expect(second == Event.blank && end == bytes.count)
        #expect(throws: EventRunCodec.Corrupt.self) {
            try EventRunCodec.decode(Array(bytes.prefix(next - 1)), at: 2)
        }
        // A batch's bytes hold the same records.
        var batch = EncodedBytes(capacity: 2)
        batch.appending { $0 += [9, 9] }
        EventRunCodec.append(e, to: &batch)
        EventRunCodec.append(Event.blank, to: &batch)
        #expect(batch.take() == bytes)
    }
}
