import Foundation
import Testing
import TimelineKit

/// The public front door, used only through its public API (no `@testable`), as an app or
/// a script would. Expected values are worked out by hand from the inputs written here or
/// from the samples (whose instants were checked with Python's zoneinfo).
@Suite("Timeline: reading, writing, converting, validating")
struct TimelineTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var shanghai: ReadOptions {
        var options = ReadOptions()
        options.dates.assumedZone = try! ZoneResolver().resolve("Asia/Shanghai")
        return options
    }

    static let csv = """
        order,time,title,amount
        SO-1,2024-06-12 08:00,placed,
        SO-1,2024-06-12T01:30:00Z,paid,¥199.00
        SO-1,yesterday,shipped,
        SO-1,2024-06-12 09:00,refund,(12.50)

        """

    @Test("read a CSV string: events in input order, each reject with its line, code and reason")
    func readString() throws {
        let result = try Timeline.read(
            .string(Self.csv, name: "orders.csv"), options: Self.shanghai)
        // 08:00 Shanghai is 00:00Z; 01:30Z is as written; 09:00 Shanghai is 01:00Z.
        #expect(
            result.events.map { $0.start.instant?.isoString(fractionDigits: 0) } == [
                "2024-06-12T00:00:00Z", "2024-06-12T01:30:00Z", "2024-06-12T01:00:00Z",
            ])
        #expect(result.events.map { $0.start.basis } == [.assumed, .offset, .assumed])
        #expect(result.events.map { $0.amount?.value.description } == [nil, "199.00", "-12.50"])
        #expect(result.events.map(\.id) == ["orders.csv:1", "orders.csv:2", "orders.csv:4"])
        #expect(result.rejects.map(\.location.line) == [4])
        #expect(result.rejects.first?.code == .unparseable)
        #expect(result.rejects.first?.reason.contains("cannot read 'yesterday'") == true)
    }

    @Test("read a file URL and Data; several sources merge in order")
    func readFileAndData() throws {
        let orders = Self.root.appendingPathComponent("samples/orders.csv")
        var options = Self.shanghai
        let fromFile = try Timeline.read(.file(orders), options: options)
        #expect(fromFile.events.count == 12 && fromFile.rejects.isEmpty)
        #expect(fromFile.events.first?.source?.file == orders.path)
        let fromData = try Timeline.read(
            .data(try Data(contentsOf: orders), name: "orders.csv"), options: options)
        #expect(fromData.events.map(\.start) == fromFile.events.map(\.start))
        options.format = .named("csv")
        let both = try Timeline.read(
            [.string(Self.csv, name: "a"), .data(try Data(contentsOf: orders), name: "b")],
            options: options)
        #expect(both.events.count == 3 + 12)
        #expect(both.events.first?.source?.file == "a" && both.events.last?.source?.file == "b")
    }

    @Test("a missing file is an error of kind inputUnavailable")
    func missingFile() {
        #expect(throws: TimelineError.self) { try Timeline.read(.file(path: "/nonexistent/x.csv")) }
        do {
            _ = try Timeline.read(.file(path: "/nonexistent/x.csv"))
        } catch {
            #expect(error.kind == .inputUnavailable)
        }
    }

    /// A CSV of `rows` rows, the i-th at 2024-01-01T00:00:00Z plus i minutes.
    static func bigCSV(_ rows: Int) -> String {
        var text = "time,title\n"
        for i in 0..<rows {
            text += "2024-01-01T\(String(format: "%02d:%02d", i / 60 % 24, i % 60)):00Z,e\(i)\n"
        }
        return text
    }

    @Test("events as a sequence: read while iterated, in order, rejects collected")
    func syncSequence() throws {
        let events = Timeline.events(
            in: .string(Self.bigCSV(20_000) + "not a time,bad\n", name: "big.csv"))
        var titles: [String] = []
        for e in events { titles.append(e.title) }
        #expect(titles.count == 20_000)
        #expect(titles.first == "e0" && titles.last == "e19999")
        #expect(events.error == nil)
        #expect(events.rejects.map(\.location.line) == [20_002])
    }

    @Test("leaving the loop early stops reading; an error ends the iteration and is kept")
    func syncSequenceEarlyEndAndError() throws {
        let events = Timeline.events(in: .string(Self.bigCSV(50_000), name: "big.csv"))
        var seen = 0
        for _ in events {
            seen += 1
            if seen == 10 { break }
        }
        #expect(seen == 10)
        let missing = Timeline.events(in: .file(path: "/nonexistent/x.csv"))
        #expect(Array(missing).isEmpty)
        #expect(missing.error?.kind == .inputUnavailable)
    }

    @Test("events as an AsyncSequence: the same events; an error is thrown")
    func asyncSequence() async throws {
        var titles: [String] = []
        for try await e in Timeline.events(in: .string(Self.bigCSV(5_000), name: "big.csv")).async {
            titles.append(e.title)
        }
        #expect(titles.count == 5_000 && titles.last == "e4999")
        await #expect(throws: TimelineError.self) {
            for try await _ in Timeline.events(in: .file(path: "/nonexistent/x.csv")).async {}
        }
    }

    @Test("write and data: the bytes the converter writes, in every writable format")
    func writeMatchesConvert() throws {
        let source = TimelineSource.file(Self.root.appendingPathComponent("samples/events.ndjson"))
        let events = try Timeline.read(source).events
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "timeline-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for format in FileFormat.all where format.isWritable {
            var options = ConvertOptions()
            options.outputFormat = format
            options.sort = .input
            options.write.now = Instant(seconds: 1_718_280_000)
            let out = dir.appendingPathComponent("out.\(format.id)")
            _ = try Timeline.convert([source], to: .file(out), options: options)
            let data = try Timeline.data(events, as: format, options: options.write)
            #expect(data == (try Data(contentsOf: out)), "\(format.id)")
        }
        // NDJSON of canonical input is that input, byte for byte.
        let ndjson = try Timeline.data(events, as: .named("ndjson")!)
        #expect(
            ndjson
                == (try Data(contentsOf: Self.root.appendingPathComponent("samples/events.ndjson")))
        )
    }

    @Test("a writer dropped before finish() leaves no file; finish() puts it in place")
    func atomicWriter() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "timeline-writer-\(UUID().uuidString).ndjson"
        ).path
        let event = Event(
            id: "a", start: TimeValue(date: CivilDate(year: 2024, month: 6, day: 12)!),
            title: "holiday")
        do {
            let writer = try TimelineWriter(
                format: .named("ndjson")!, destination: .file(path: path))
            try writer.write(event)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        let writer = try TimelineWriter(format: .named("ndjson")!, destination: .file(path: path))
        try writer.write(event)
        try writer.finish()
        #expect(
            try String(contentsOfFile: path, encoding: .utf8)
                == #"{"id":"a","start":{"date":"2024-06-12","basis":"date"},"title":"holiday"}"#
                + "\n")
        try FileManager.default.removeItem(atPath: path)
    }

    @Test(
        "convert: strict fails with no output; naive values without a zone fail; callbacks see everything"
    )
    func convertPolicies() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "timeline-convert-\(UUID().uuidString).json"
        ).path
        var options = ConvertOptions()
        options.read = Self.shanghai
        options.strict = true
        var rejected: [Int?] = []
        var finished: ConvertResult?
        options.onReject = { rejected.append($0.location.line) }
        options.onFinish = { finished = $0 }
        #expect(throws: TimelineError.self) {
            try Timeline.convert(
                [.string(Self.csv, name: "o.csv")], to: .file(path: path), options: options)
        }
        #expect(rejected == [4])
        #expect(
            finished?.recordsRead == 4 && finished?.eventsWritten == 3
                && finished?.recordsRejected == 1 && finished?.naiveValues == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
        options = ConvertOptions()
        do {
            _ = try Timeline.convert(
                [.string(Self.csv, name: "o.csv")], to: .file(path: path), options: options)
            Issue.record("naive values without a zone converted")
        } catch {
            #expect(
                error.kind == .data && error.diagnostic.message.contains("no UTC offset or zone"))
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test(
        "validate events already read: the day-shift and mixed-offset rules fire as on the command line"
    )
    func validateEvents() throws {
        // The command line's TZ102 fixture, read and then validated as values.
        let events = try Timeline.read(
            .file(
                Self.root.appendingPathComponent(
                    "Tests/TimelineCLITests/Fixtures/validate/tz102.csv"))
        ).events
        var options = ValidationOptions()
        options.displayZone = try ZoneResolver().resolve("Asia/Shanghai")
        let report = Timeline.validate(events, options: options)
        #expect(report.findings.map(\.code) == [.mixedOffsets])
        #expect(report.records == 2 && report.zone == "Asia/Shanghai")
        options.ignored = [.mixedOffsets]
        #expect(Timeline.validate(events, options: options).findings.isEmpty)
    }
}
