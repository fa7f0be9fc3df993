import Foundation
import Testing

@testable import TimelineKit

@Suite("Canonical reader and writer")
struct CanonicalFormatTests {
    struct Run {
        var events: [Event] = []
        var rejects: [RejectedRecord] = []
        var diagnostics: [Diagnostic] = []
    }

    static func read(_ text: String, name: String = "in.ndjson") throws -> Run {
        var run = Run()
        let context = ImportContext(
            options: ReadOptions(), format: "ndjson", dateParser: DateParser(),
            onEvent: { run.events.append($0) }, onReject: { run.rejects.append($0) },
            onDiagnostic: { run.diagnostics.append($0) })
        try CanonicalImporter().read(
            from: InputReader(name: name, bytes: Array(text.utf8)), context: context)
        return run
    }

    static func write(_ events: [Event], with exporter: any TimelineExporter) throws -> String {
        let out = OutputWriter(inMemory: "mem")
        try exporter.begin(DocumentHeader(zone: "UTC"), to: out)
        for e in events { try exporter.write(e, to: out) }
        try exporter.finish(to: out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    static func sample() throws -> String {
        try String(
            contentsOf: TestResources.packageRoot.appendingPathComponent("samples/events.ndjson"),
            encoding: .utf8)
    }

    @Test(
        "NDJSON of many blocks (decoded on the worker threads) gives the document's events in order; a warning once; bad lines rejected in place"
    )
    func manyBlocks() throws {
        let sample = try Self.sample().split(separator: "\n").map(String.init)
        var lines: [String] = []
        for i in 0..<3_000 {
            var line = sample[i % sample.count]
            line = line.replacingOccurrences(of: "\"id\":\"", with: "\"id\":\"\(i)-")
            if i == 1_700 { line = "{not json" }
            if i == 2_100 {
                line =
                    #"{"id":"z","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T02:00:00","offset":"+02:00","zone":"Asia/Shanghai","basis":"zone"},"title":"t"}"#
            }
            if i == 2_200 {
                line =
                    #"{"id":"z2","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T02:00:00","offset":"+02:00","zone":"Asia/Shanghai","basis":"zone"},"title":"t"}"#
            }
            lines.append(line)
            if i % 500 == 0 { lines.append("") }
        }
        let ndjson = try Self.read(lines.joined(separator: "\n") + "\n")
        let document = try Self.read(
            "{\"schema\":\"timeline/1\",\"events\":["
                + lines.filter { !$0.isEmpty && $0 != "{not json" }.joined(separator: ",") + "]}",
            name: "in.json")
        #expect(ndjson.events.count == 2_999)
        #expect(ndjson.events == document.events)
        // line 1,701 of the events, after 4 blank lines (after events 0, 500, 1000, 1500)
        #expect(ndjson.rejects.map(\.location.line) == [1_705])
        // The offset that contradicts its zone is reported once, at its first line.
        let tz106 = ndjson.diagnostics.filter { $0.code == "TZ106" }
        #expect(tz106.count == 1)
        // event 2,100: its 2,101st line, after 5 blank lines
        #expect(tz106.first?.location?.line == 2_106)
    }

    @Test(
        "a document spread over lines, as jq writes it, reads as the compact one: every event, a warning once, a bad event rejected in place"
    )
    func spreadDocument() throws {
        let sample = try Self.sample().split(separator: "\n").map(String.init)
        var events = (0..<400).map {
            sample[$0 % sample.count].replacingOccurrences(of: "\"id\":\"", with: "\"id\":\"\($0)-")
        }
        events[150] =
            #"{"id":"z","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T02:00:00","offset":"+02:00","zone":"Asia/Shanghai","basis":"zone"},"title":"t"}"#
        events[250] =
            #"{"id":"bad","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T08:00:00","offset":"+08:00","basis":"offset"},"title":"t","extra":1}"#
        let compact = try Self.read(
            #"{"schema":"timeline/1","events":["# + events.joined(separator: ",") + "]}",
            name: "in.json")
        let spread = try Self.read(
            "{\n  \"schema\": \"timeline/1\",\n  \"events\": [\n    "
                + events.joined(separator: ",\n    ") + "\n  ]\n}\n", name: "in.json")
        #expect(compact.events.count == 399)
        #expect(spread.events == compact.events)
        #expect(spread.events.map(\.id).prefix(2) == ["0-SO-1001-1", "1-SO-1001-2"])
        // the 251st event, after three lines of head
        #expect(spread.rejects.map(\.location.line) == [254])
        #expect(spread.rejects.first?.reason.contains("extra") == true)
        #expect(spread.diagnostics.filter { $0.code == "TZ106" }.map(\.location?.line) == [154])
        #expect(compact.diagnostics.filter { $0.code == "TZ106" }.count == 1)
    }

    /// What reading `text` delivered before it stopped, and the error it stopped with.
    static func readUntilFault(_ text: String, name: String, chunkSize: Int? = nil) -> (
        Run, TimelineError?
    ) {
        readUntilFault(Array(text.utf8), name: name, chunkSize: chunkSize)
    }

    static func readUntilFault(_ bytes: [UInt8], name: String, chunkSize: Int? = nil) -> (
        Run, TimelineError?
    ) {
        var run = Run()
        let context = ImportContext(
            options: ReadOptions(), format: "json", dateParser: DateParser(),
            onEvent: { run.events.append($0) }, onReject: { run.rejects.append($0) },
            onDiagnostic: { run.diagnostics.append($0) })
        do throws(TimelineError) {
            try CanonicalImporter().read(
                from: InputReader(name: name, bytes: bytes, chunkSize: chunkSize), context: context)
            return (run, nil)
        } catch {
            return (run, error)
        }
    }

    @Test(
        "a document of many blocks (its events decoded on the worker threads): a fault late in it stops the run at its line and column, after every event before it"
    )
    func faultLateInDocument() throws {
        let sample = try Self.sample().split(separator: "\n").map(String.init)
        let events = (0..<3_000).map {
            sample[$0 % sample.count].replacingOccurrences(of: "\"id\":\"", with: "\"id\":\"\($0)-")
        }
        func document(_ events: [String]) -> String {
            "{\"schema\":\"timeline/1\",\"events\":[\n" + events.joined(separator: ",\n") + "\n]}\n"
        }
        #expect(
            document(events).utf8.count > 4 * RecordBlocks.targetSize,
            "the document spans several blocks")
        let whole = Self.readUntilFault(document(events), name: "in.json")
        #expect(whole.1 == nil && whole.0.events.count == 3_000)
        // Event 2,600 (line 2,602: the head is line 1) is not JSON: '}' where a value must be, column 19.
        var broken = events
        broken[2_600] = #"{"id":"x","title":}"#
        let (run, error) = Self.readUntilFault(document(broken), name: "in.json")
        #expect(
            error?.diagnostic.message == "invalid JSON: expected a value, found '}'",
            "\(String(describing: error))")
        #expect(
            error?.diagnostic.location?.line == 2_602 && error?.diagnostic.location?.column == 19,
            "\(String(describing: error?.diagnostic.location))"
        )
        #expect(run.events.map(\.id) == whole.0.events.prefix(2_600).map(\.id))
        // A second comma where event 2,001 must begin: the first ends line 2,002, the second opens line 2,003.
        var doubled = events
        doubled[2_001] = "," + doubled[2_001]
        let (before, comma) = Self.readUntilFault(document(doubled), name: "in.json")
        #expect(
            comma?.diagnostic.message.hasSuffix("found ','") == true, "\(String(describing: comma))"
        )
        #expect(
            comma?.diagnostic.location?.line == 2_003 && comma?.diagnostic.location?.column == 1,
            "\(String(describing: comma?.diagnostic.location))")
        #expect(before.events.count == 2_001)
        // Cut inside an event: the end of input is where the parser stops.
        let bytes = Array(document(events).utf8)
        let cut = String(decoding: bytes.prefix(bytes.count * 9 / 10), as: UTF8.self)
        let (_, end) = Self.readUntilFault(cut, name: "in.json")
        #expect(
            end?.diagnostic.message.contains("end of input") == true, "\(String(describing: end))")
    }

    /// Documents well formed and not, over CR, LF and CRLF line ends, for reading in chunks.
    static func chunkedDocuments() throws -> [(name: String, bytes: [UInt8])] {
        let sample = try Self.sample().split(separator: "\n").map(String.init)
        let events = (0..<60).map {
            sample[$0 % sample.count].replacingOccurrences(of: "\"id\":\"", with: "\"id\":\"\($0)-")
        }
        let spread =
            "{\n  \"schema\": \"timeline/1\",\n  \"zone\": \"UTC\",\n  \"events\": [\n    "
            + events.joined(separator: ",\n    ") + "\n  ]\n}\n"
        var broken = events
        broken[40] = #"{"id":"x","title" "t"}"#
        var unknown = events
        unknown[20] =
            #"{"id":"u","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T08:00:00","offset":"+08:00","basis":"offset"},"title":"t","extra":1}"#
        var documents: [(String, [UInt8])] = [
            ("spread", Array(spread.utf8)),
            ("crlf", Array(spread.replacingOccurrences(of: "\n", with: "\r\n").utf8)),
            ("cr", Array(spread.replacingOccurrences(of: "\n", with: "\r").utf8)),
            (
                "compact",
                Array(
                    (#"{"schema":"timeline/1","events":["# + unknown.joined(separator: ",") + "]}")
                        .utf8)
            ),
            ("bare array", Array(("[\n" + events.joined(separator: ",\n") + "\n]").utf8)),
            (
                "events first",
                Array(
                    (#"{"events":["# + events.prefix(3).joined(separator: ",")
                        + #"],"schema":"timeline/1","zone":{"a":[1,2]}}"#).utf8)
            ),
            (
                "fault in an event",
                Array(
                    ("{\"schema\":\"timeline/1\",\"events\":[\n" + broken.joined(separator: ",\n")
                        + "\n]}").utf8)
            ),
            (
                "double comma",
                Array(
                    spread.replacingOccurrences(
                        of: "},\n    {\"id\":\"30-", with: "},,\n    {\"id\":\"30-"
                    ).utf8)
            ),
            (
                "trailing comma",
                Array(spread.replacingOccurrences(of: "\n  ]\n}", with: ",\n  ]\n}").utf8)
            ),
            ("cut inside an event", Array(Array(spread.utf8).prefix(spread.utf8.count * 2 / 3))),
            ("garbage after", Array((spread + " x").utf8)),
            ("unknown field", Array(#"{"schema":"timeline/1","more":[1,2,3],"events":[]}"#.utf8)),
            ("other schema", Array(#"{"schema": "timeline/2", "events":[]}"#.utf8)),
            ("no events", Array("{\n\"schema\":\"timeline/1\"\n}".utf8)),
        ]
        // A byte that is not UTF-8 inside a string late in the document.
        var invalid = Array(spread.utf8)
        invalid[invalid.count * 3 / 4] = 0xFF
        documents.append(("invalid UTF-8", invalid))
        return documents
    }

    @Test(
        "a document read in chunks of any size gives what it gives read at once: events, rejects, warnings, and the error where it stops"
    )
    func chunkedDocument() throws {
        for (name, bytes) in try Self.chunkedDocuments() {
            let (whole, wholeError) = Self.readUntilFault(
                bytes, name: "in.json", chunkSize: bytes.count + 1)
            for chunk in [1, 2, 3, 7, 64, 1_000] {
                let (run, error) = Self.readUntilFault(bytes, name: "in.json", chunkSize: chunk)
                let what = "\(name), chunks of \(chunk)"
                #expect(run.events == whole.events, "\(what)")
                #expect(run.rejects.map(\.location) == whole.rejects.map(\.location), "\(what)")
                #expect(run.diagnostics == whole.diagnostics, "\(what)")
                #expect(
                    error?.diagnostic == wholeError?.diagnostic,
                    "\(what): \(String(describing: error)) against \(String(describing: wholeError))"
                )
            }
        }
        // The cases above do stop where they are broken (hand-checked places), or read through.
        let stops = Dictionary(
            uniqueKeysWithValues: try Self.chunkedDocuments().map {
                ($0.name, Self.readUntilFault($0.bytes, name: "in.json").1?.diagnostic)
            })
        #expect(
            stops["spread"]! == nil && stops["crlf"]! == nil && stops["cr"]! == nil
                && stops["events first"]! == nil)
        #expect(
            stops["fault in an event"]??.location?.line == 42
                && stops["fault in an event"]??.location?.column == 19)
        #expect(
            stops["double comma"]??.location?.line == 34
                && stops["double comma"]??.location?.column == 320)
        #expect(
            stops["garbage after"]??.message == "invalid JSON: unexpected 'x' after the document")
        #expect(stops["unknown field"]??.location?.column == 24)
    }

    @Test("documents damaged at random read the same in chunks of 5 bytes as at once")
    func damagedDocumentsInChunks() throws {
        let spread = try Self.chunkedDocuments()[0].bytes
        let alphabet = Array(#"{}[],:" \ntru0-1.eE"#.utf8) + [0xFF, 0xC3]
        var random = SplitMix64(seed: 17)
        var stopped = 0
        for _ in 0..<300 {
            var bytes = spread
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let at = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
                }
            }
            if random.next() % 4 == 0 {
                bytes = Array(bytes.prefix(Int(random.next() % UInt64(bytes.count))))
            }
            let (whole, wholeError) = Self.readUntilFault(
                bytes, name: "in.json", chunkSize: bytes.count + 1)
            let (run, error) = Self.readUntilFault(bytes, name: "in.json", chunkSize: 5)
            if wholeError != nil { stopped += 1 }
            #expect(
                run.events == whole.events
                    && run.rejects.map(\.location) == whole.rejects.map(\.location))
            #expect(
                error?.diagnostic == wholeError?.diagnostic,
                "\(String(describing: error)) against \(String(describing: wholeError))")
        }
        #expect(stopped > 100, "most damage stops the run: \(stopped) of 300")
    }

    @Test("a document is read through a window of a block or so, not whole")
    func documentWindow() throws {
        let element = #"{"id":"e","title":"a \"quoted\" title, with [brackets] and {braces}"}"#
        let text =
            "{\"schema\":\"timeline/1\",\"events\":["
            + Array(repeating: element, count: 20_000).joined(separator: ",\n") + "]}"
        let window = JSONInputWindow(
            input: InputReader(name: "t", bytes: Array(text.utf8), chunkSize: 4_096))
        var largest = 0
        var elements = 0
        _ = try window.step(value: false) { p throws(JSONSyntaxError) in
            try p.expect(UInt8(ascii: "{"), "'{'")
        }
        while try window.step(value: true, { p throws(JSONSyntaxError) in try p.parseString() })
            != "events"
        {
            _ = try window.step { p throws(JSONSyntaxError) in
                try p.expect(UInt8(ascii: ":"), "':'")
            }
            _ = try window.step(value: true) { p throws(JSONSyntaxError) in try p.parseValue() }
            _ = try window.step { $0.consume(UInt8(ascii: ",")) }
        }
        _ = try window.step { p throws(JSONSyntaxError) in try p.expect(UInt8(ascii: ":"), "':'") }
        _ = try window.step { p throws(JSONSyntaxError) in try p.expect(UInt8(ascii: "["), "'['") }
        repeat {
            let (start, end, complete) = try window.nextValue()
            #expect(
                complete
                    && Array(window.bytes[(start - window.base)..<(end - window.base)])
                        == Array(element.utf8)
            )
            elements += 1
            largest = max(largest, window.bytes.count)
            window.move(to: end)
        } while try window.step({ $0.consume(UInt8(ascii: ",")) })
        #expect(elements == 20_000)
        #expect(text.utf8.count > 1_000_000 && largest < 3 * 4_096, "held at most \(largest) bytes")
    }

    @Test(
        "the hand-written sample NDJSON → events → NDJSON is byte-identical, and so is via the document form"
    )
    func roundTrip() throws {
        let text = try Self.sample()
        let run = try Self.read(text)
        #expect(run.rejects.isEmpty)
        #expect(run.events.count == 8)
        #expect(try Self.write(run.events, with: CanonicalNDJSONExporter()) == text)
        let document = try Self.write(run.events, with: CanonicalDocumentExporter())
        #expect(
            document.hasPrefix(
                "{\"schema\":\"timeline/1\",\"zone\":\"UTC\",\"events\":[\n{\"id\":\"SO-1001-1\""))
        let again = try Self.read(document, name: "in.json")
        #expect(again.events == run.events)
        #expect(try Self.write(again.events, with: CanonicalNDJSONExporter()) == text)
    }

    @Test("decoded values match the sample text (checked by hand)")
    func decodedValues() throws {
        let events = try Self.read(try Self.sample()).events
        let transit = try #require(events.first { $0.id == "SO-1001-4" })
        #expect(transit.start.instant == Instant(seconds: 1_718_197_500, nanoseconds: 500_000_000))
        #expect(transit.start.fractionDigits == 1)
        #expect(transit.start.basis == .zone)
        #expect(transit.recorded?.fractionDigits == 3)
        let payment = try #require(events.first { $0.id == "SO-1001-2" })
        #expect(payment.amount == Amount(value: DecimalNumber("-199.00")!, currency: "CNY"))
        let holiday = try #require(events.first { $0.id == "holiday-2024-06-10" })
        #expect(holiday.start.date == CivilDate(year: 2024, month: 6, day: 10))
        #expect(
            holiday.source
                == SourceReference(format: "ics", file: "calendar.ics", record: 2, line: 17))
    }

    @Test(
        "inconsistent or mistyped events are rejected with file, line and reason",
        arguments: [
            (
                #"{"id":"a","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T09:00:00","offset":"+08:00","basis":"offset"},"title":"t"}"#,
                "instant '2024-06-12T00:00:00Z' is not local '2024-06-12T09:00:00' minus offset '+08:00'"
            ),
            (
                #"{"id":7,"start":{"date":"2024-06-12","basis":"date"},"title":"t"}"#,
                "field 'id' must be a string, found number"
            ),
            (
                #"{"id":"a","start":{"date":"2024-02-30","basis":"date"},"title":"t"}"#,
                "'2024-02-30' is not a YYYY-MM-DD date"
            ),
            (
                #"{"id":"a","start":{"date":"2024-06-12","basis":"date"}}"#,
                "missing required field 'title'"
            ),
            (
                #"{"id":"a","start":{"date":"2024-06-12","basis":"date"},"title":"t","amount":{"value":"1,00"}}"#,
                "is not a plain decimal"
            ),
            (
                #"{"id":"a","start":{"date":"2024-06-12","basis":"date"},"title":"t","colour":"red"}"#,
                "unknown event field 'colour'"
            ),
            (
                #"{"id":"a","start":{"instant":"2024-06-12T00:00:00.5Z","local":"2024-06-12T08:00:00.50","offset":"+08:00","basis":"offset"},"title":"t"}"#,
                "has 1 fraction digits but 'local' has 2"
            ),
            (#"{"id":"a", "start": oops}"#, "invalid JSON"),
        ])
    func rejects(line: String, reason: String) throws {
        let good = #"{"id":"ok","start":{"date":"2024-06-12","basis":"date"},"title":"fine"}"#
        let run = try Self.read(good + "\n\n" + line + "\n" + good + "\n")
        #expect(run.events.count == 2)
        #expect(run.rejects.count == 1)
        let r = try #require(run.rejects.first)
        #expect(r.location.file == "in.ndjson")
        #expect(r.location.line == 3)
        #expect(r.reason.contains(reason), "\(r.reason)")
        #expect(r.raw == line)
    }

    @Test("an offset that contradicts its zone is kept and warned about")
    func zoneMismatch() throws {
        let line =
            #"{"id":"a","start":{"instant":"2024-07-01T13:00:00Z","local":"2024-07-01T08:00:00","offset":"-05:00","zone":"America/New_York","basis":"zone"},"title":"t"}"#
        let run = try Self.read(line)
        #expect(run.events.count == 1)
        #expect(run.diagnostics.first?.code == "TZ106")
        #expect(run.diagnostics.first?.location?.line == 1)
    }

    @Test(
        "a zone name the tz database lacks (a calendar's own VTIMEZONE) is kept, warned about once per file"
    )
    func unknownZoneKept() throws {
        // What `timeline convert` writes for an event in a file-defined zone (a name no corpus
        // file defines: the ICS tests register theirs for the process).
        func line(_ id: String, _ day: Int) -> String {
            #"{"id":"\#(id)","start":{"instant":"2024-06-\#(day)T03:00:00Z","local":"2024-06-\#(day)T00:00:00","offset":"-03:00","zone":"(UTC-03:00) Example City","basis":"zone"},"title":"t"}"#
        }
        let run = try Self.read(
            [line("a", 12), line("b", 13), line("c", 14)].joined(separator: "\n"))
        #expect(run.rejects.isEmpty)
        #expect(
            run.events.map { $0.start.zone }
                == Array(repeating: "(UTC-03:00) Example City", count: 3))
        #expect(run.events[1].start.instant == Instant(seconds: 1_718_247_600))
        #expect(run.diagnostics.count == 1)
        #expect(run.diagnostics.first?.code == "TZ110")
        #expect(run.diagnostics.first?.location?.line == 1)
        #expect(
            run.diagnostics.first?.message.contains("unknown time zone '(UTC-03:00) Example City'")
                == true)
    }

    @Test("a broken document converts the events before the fault and names line and column")
    func brokenDocument() throws {
        let text =
            "{\"schema\":\"timeline/1\",\"zone\":\"UTC\",\"events\":[\n"
            + #"{"id":"a","start":{"date":"2024-06-12","basis":"date"},"title":"t"},"# + "\n"
            + #"{"id":"b","start":{"date":"2024-06-13","basis":"date"},"title":"t"#
        var events: [Event] = []
        let context = ImportContext(
            options: ReadOptions(), format: "json", dateParser: DateParser(),
            onEvent: { events.append($0) }, onReject: { _ in },
            onDiagnostic: { _ in })
        do {
            try CanonicalImporter().read(
                from: InputReader(name: "doc.json", bytes: Array(text.utf8)), context: context)
            Issue.record("no error")
        } catch {
            #expect(error.kind == .data)
            #expect(
                error.diagnostic.location == SourceLocation(file: "doc.json", line: 3, column: 64))
            #expect(error.diagnostic.message == "invalid JSON: unterminated string")
        }
        #expect(events.map(\.id) == ["a"])
    }

    @Test(
        "sorting: dates before the timed events of their day in the display zone, then recorded, then input order"
    )
    func sorting() throws {
        let events = try Self.read(try Self.sample()).events
        let shanghai = try #require(ZoneResolver.ianaRules("Asia/Shanghai"))
        #expect(
            events.sortedForTimeline(.asc, zone: shanghai).map(\.id) == [
                "legacy-1969", "holiday-2024-06-10", "SO-1001-1", "SO-1001-2", "SO-1001-3",
                "refund-7", "SO-1001-4", "SO-1001-5",
            ])
        #expect(events.sortedForTimeline(.desc, zone: shanghai).map(\.id).first == "SO-1001-5")
        #expect(events.sortedForTimeline(.input, zone: shanghai) == events)
        // SO-1001-1 is 2024-06-11T15:42Z: 23:42 on the 11th in Shanghai but still the 11th
        // in UTC; in Honolulu (-10:00) it is 05:42 on the 11th. A date on the 11th sorts
        // before every timed event of the 11th.
        let date = Event(
            id: "d", start: TimeValue(date: CivilDate(year: 2024, month: 6, day: 11)!), title: "")
        let order = ([events[0], date]).sortedForTimeline(
            .asc, zone: ZoneResolver.ianaRules("Pacific/Honolulu")!)
        #expect(order.map(\.id) == ["d", "SO-1001-1"])
    }
}
