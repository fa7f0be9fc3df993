import Foundation
import Testing

@testable import TimelineKit

/// Runs an importer on text and collects what it emits, rejects and reports.
struct ImportRun {
    var events: [Event] = []
    var rejects: [RejectedRecord] = []
    var diagnostics: [Diagnostic] = []
    var error: TimelineError?

    init(
        _ importer: some TimelineImporter, _ text: String, name: String = "in.csv",
        format: String = "csv",
        configure: (inout ReadOptions) throws -> Void = { _ in }
    ) throws {
        var options = ReadOptions()
        options.dates.assumedZone = try ZoneResolver().resolve("Asia/Shanghai")
        try configure(&options)
        var events: [Event] = []
        var rejects: [RejectedRecord] = []
        var diagnostics: [Diagnostic] = []
        let context = ImportContext(
            options: options, format: format, dateParser: DateParser(options: options.dates),
            onEvent: { events.append($0) }, onReject: { rejects.append($0) },
            onDiagnostic: { diagnostics.append($0) })
        do {
            try importer.read(
                from: InputReader(name: name, bytes: Array(text.utf8), chunkSize: 7),
                context: context)
        } catch {
            self.error = error
        }
        self.events = events
        self.rejects = rejects
        self.diagnostics = diagnostics
    }
}

@Suite("CSV and JSON importers: mapping, amounts, rejects")
struct ImporterTests {
    @Test(
        "day/month order from the column's own values, as `timeline dates` decides it: CSV, NDJSON and JSON arrays alike"
    )
    func fieldOrderFromTheColumn() throws {
        // 13/04 can only be 13 April, so the column is day-first and 03/04 is 3 April; the
        // end column's 05/04 follows the same order (5 April). Without the look-ahead the
        // first record was rejected as ambiguous (TZ112).
        let csv = "time,end,title\n03/04/2024 08:00,05/04/2024 09:00,a\n13/04/2024 09:00,,b\n"
        let ndjson =
            "{\"time\":\"03/04/2024 08:00\",\"end\":\"05/04/2024 09:00\",\"title\":\"a\"}\n{\"time\":\"13/04/2024 09:00\",\"title\":\"b\"}\n"
        let array =
            "[{\"time\":\"03/04/2024 08:00\",\"end\":\"05/04/2024 09:00\",\"title\":\"a\"},{\"time\":\"13/04/2024 09:00\",\"title\":\"b\"}]"
        for run in [
            try ImportRun(CSVImporter(), csv),
            try ImportRun(JSONRecordsImporter(), ndjson, name: "in.ndjson", format: "ndjson"),
            try ImportRun(JSONRecordsImporter(), array, name: "in.json", format: "json"),
        ] {
            #expect(run.rejects.isEmpty, "\(run.rejects.map(\.reason))")
            // Shanghai is +08:00: 08:00 local on 3 April is 00:00Z.
            #expect(
                run.events.map { $0.start.instant?.isoString(fractionDigits: 0) } == [
                    "2024-04-03T00:00:00Z", "2024-04-13T01:00:00Z",
                ])
            #expect(
                run.events.first?.end?.instant?.isoString(fractionDigits: 0)
                    == "2024-04-05T01:00:00Z")
        }
        // A flag wins over the values: with --month-first 03/04 is 4 March.
        let flagged = try ImportRun(CSVImporter(), csv) { $0.dates.fieldOrder = .monthFirst }
        #expect(
            flagged.events.first?.start.instant?.isoString(fractionDigits: 0)
                == "2024-03-04T00:00:00Z")
        // Values that never decide it stay ambiguous.
        let undecided = try ImportRun(CSVImporter(), "time,title\n03/04/2024 08:00,a\n")
        #expect(undecided.rejects.map(\.code) == [.fieldOrderAmbiguous])
    }

    @Test("English headers map by name; unmapped columns become attributes; nothing is lost")
    func englishDefaults() throws {
        let run = try ImportRun(
            CSVImporter(),
            """
            order_id,event,status,time,amount,currency,note,warehouse
            SO-1,Order placed,placed,2024-06-11T15:42:10Z,,,first,WH-3
            SO-1,Paid,paid,2024-06-11T23:44:02+08:00,"1,199.00",CNY,,
            """)
        #expect(run.rejects.isEmpty)
        #expect(run.events.count == 2)
        let e = run.events[1]
        #expect(e.id == "in.csv:2")
        #expect(e.series == "SO-1" && e.title == "Paid" && e.status == .completed)
        #expect(e.amount == Amount(value: DecimalNumber("1199.00")!, currency: "CNY"))
        #expect(e.start.instant?.isoString(fractionDigits: 0) == "2024-06-11T15:44:02Z")
        #expect(run.events[0].attributes == ["warehouse": "WH-3"])
        #expect(run.events[0].detail == "first")
        #expect(
            run.events[0].source
                == SourceReference(format: "csv", file: "in.csv", record: 1, line: 2))
    }

    @Test("Chinese headers: 交易时间, 商品, 金额(元), 收/支, 当前状态, 交易单号")
    func chineseDefaults() throws {
        let run = try ImportRun(
            CSVImporter(),
            """
            交易时间,交易对方,商品,收/支,金额(元),当前状态,交易单号
            2024-06-13 08:15:22,瑞幸咖啡,生椰拿铁,支出,¥15.90,支付成功,42001
            2024-06-12 19:30:00,京东商城,耳机退款,收入,"¥1,199.00",已全额退款,50002
            """
        ) {
            $0.mapping.mapping = try {
                var m = FieldMapping()
                try m.add("direction=收/支")
                return m
            }()
        }
        #expect(run.rejects.isEmpty)
        #expect(run.events.map(\.id) == ["42001", "50002"])
        #expect(run.events.map(\.title) == ["生椰拿铁", "耳机退款"])
        #expect(run.events.map { $0.amount?.value.description } == ["-15.90", "1199.00"])
        #expect(run.events.map { $0.amount?.currency } == ["CNY", "CNY"])
        // 耳机退款 is itself the refund: money that came back is done (issue 52).
        #expect(run.events.map(\.status) == [.completed, .completed])
        #expect(run.events[0].attributes == ["交易对方": "瑞幸咖啡"])
        // 08:15:22 in Shanghai is 00:15:22Z (by hand: UTC+8, no DST).
        #expect(run.events[0].start.instant?.isoString(fractionDigits: 0) == "2024-06-13T00:15:22Z")
        #expect(run.events[0].start.basis == .assumed)
    }

    @Test("--map start=date+time joins columns; --map zone=COL places each row in its zone")
    func joinsAndZones() throws {
        let run = try ImportRun(
            CSVImporter(),
            """
            day,clock,tz,what
            2024-06-12,08:00,America/New_York,a
            12/06/2024,08:00,Europe/London,b
            2024-06-12,08:00,Mars/Base,c
            """
        ) {
            try $0.mapping.mapping.add("start=day+clock")
            try $0.mapping.mapping.add("zone=tz")
            $0.dates.fieldOrder = .dayFirst
        }
        #expect(
            run.events.map { $0.start.instant?.isoString(fractionDigits: 0) } == [
                "2024-06-12T12:00:00Z", "2024-06-12T07:00:00Z",
            ])
        #expect(run.events.map(\.start.basis) == [.zone, .zone])
        #expect(run.events[0].attributes == ["what": "a"])  // 'what' is no default title header
        #expect(run.rejects.count == 1)
        #expect(run.rejects.first?.code == .unknownZone)
        #expect(run.rejects.first?.location.line == 4)
    }

    @Test("every reject reason carries its line; read = written + rejected")
    func rejects() throws {
        let text = """
            time,title,amount
            2024-06-12T08:00:00Z,ok,1
            ,no time,2
            yesterday,bad time,3
            2024-06-12T08:00:00Z,bad amount,12.5.0
            2024-06-12T08:00:00Z,too,many,fields

            2024-06-12T09:00:00Z,ok again,
            """
        let run = try ImportRun(CSVImporter(), text)
        #expect(run.events.map(\.title) == ["ok", "ok again"])
        #expect(run.rejects.map { $0.location.line } == [3, 4, 5, 6])
        // missing start, bad date, bad amount, field count
        #expect(run.rejects.map(\.code.rawValue) == ["E002", "E001", "E003", "E005"])
        #expect(run.rejects[0].reason == "no start time: column 'time' is empty")
        #expect(
            run.rejects[1].reason.hasPrefix(
                "start (column 'time'): cannot read 'yesterday' as a date/time"))
        #expect(run.rejects[3].reason == "expected 3 fields (as in the header), found 4")
        #expect(run.rejects[3].fields == ["2024-06-12T08:00:00Z", "too", "many", "fields"])
        #expect(run.events.count + run.rejects.count == 6)  // the blank line is not a record
    }

    @Test(
        "JSON: a wrapped array keeps its sibling fields on every event; newest-first input is kept in input order"
    )
    func courierTrace() throws {
        let text = """
            {"nu": "SF1", "state": "3", "data": [
              {"time": "2024-06-13 18:02:41", "context": "签收", "status": "签收"},
              {"time": "2024-06-12 10:02:33", "context": "揽收", "status": "揽收", "extra": {"a": [1, 2]}}
            ]}
            """
        let run = try ImportRun(JSONRecordsImporter(), text, name: "t.json", format: "json")
        #expect(run.rejects.isEmpty && run.error == nil)
        #expect(run.events.map(\.series) == ["SF1", "SF1"])
        #expect(run.events.map(\.status) == [.completed, .processing])
        #expect(run.events[1].attributes == ["state": "3", "extra": #"{"a":[1,2]}"#])
        #expect(run.events[1].source?.line == 3)
    }

    @Test(
        "JSON: --records PATH with dotted --map paths; NDJSON lines; a truncated document keeps what came before"
    )
    func jsonShapes() throws {
        let nested = try ImportRun(
            JSONRecordsImporter(),
            #"{"result": {"page": 2, "traces": [{"meta": {"at": "2024-06-12T08:00:00Z"}, "msg": "x"}]}}"#,
            name: "t.json",
            format: "json"
        ) {
            $0.json.recordsPath = "result.traces"
            try $0.mapping.mapping.add("start=meta.at")
            try $0.mapping.mapping.add("title=msg")
        }
        #expect(nested.events.map(\.title) == ["x"])
        #expect(
            nested.events.first?.attributes == [
                "page": "2", "meta": #"{"at":"2024-06-12T08:00:00Z"}"#,
            ])
        let ndjson = try ImportRun(
            JSONRecordsImporter(),
            "{\"time\": 1718179200, \"title\": \"a\"}\n\n{\"time\": \"bad\"}\n[1]\n",
            name: "t.ndjson", format: "ndjson")
        #expect(ndjson.events.map(\.title) == ["a"])
        #expect(ndjson.events.first?.start.basis == .epoch)
        #expect(ndjson.rejects.map { $0.location.line } == [3, 4])
        let truncated = try ImportRun(
            JSONRecordsImporter(),
            "[{\"time\": \"2024-06-12T08:00:00Z\", \"title\": \"kept\"},\n {\"time\": \"2024",
            name: "t.json", format: "json")
        #expect(truncated.events.map(\.title) == ["kept"])
        #expect(truncated.error?.kind == .data)
        #expect(truncated.error?.diagnostic.location?.line == 2)
        #expect(truncated.error?.diagnostic.message == "invalid JSON: unterminated string")
    }

    @Test("canonical documents still read through the json importer")
    func canonicalThroughJSON() throws {
        let text = try String(
            contentsOf: TestResources.packageRoot.appendingPathComponent("samples/events.ndjson"),
            encoding: .utf8)
        let run = try ImportRun(JSONRecordsImporter(), text, name: "e.ndjson", format: "ndjson")
        #expect(run.events.count == 8 && run.rejects.isEmpty)
    }

    @Test("CSV output re-imports to the same events")
    func csvRoundTrip() throws {
        let original = try ImportRun(
            CSVImporter(),
            """
            id,time,title,status,amount,currency,tags,memo field,=cmd
            a1,2024-06-12T08:00:00.5+08:00,"Say ""hi"", then go",delivered,-12.50,CNY,x;y,"multi
            line",1
            a2,2024-06-12,all day,,,,,,
            """)
        var options = WriteOptions()
        options.displayZone = try ZoneResolver().resolve("Asia/Shanghai")
        let exporter = CSVExporter(options: options)
        let out = OutputWriter(inMemory: "mem")
        try exporter.begin(DocumentHeader(zone: "Asia/Shanghai"), to: out)
        for e in original.events { try exporter.write(e, to: out) }
        try exporter.finish(to: out)
        let csv = String(decoding: out.bytes, as: UTF8.self)
        #expect(
            csv.hasPrefix(
                "id,start,zone,end,title,detail,status,category,amount,currency,direction,location,series,recorded,links,tags,=cmd,memo field,other_attributes\r\n"
            ))
        let again = try ImportRun(CSVImporter(), csv)
        #expect(again.rejects.isEmpty)
        #expect(again.events.map(\.id) == original.events.map(\.id))
        #expect(again.events.map(\.start.instant) == original.events.map(\.start.instant))
        #expect(again.events.map(\.start.date) == original.events.map(\.start.date))
        #expect(
            again.events.map(\.start.fractionDigits) == original.events.map(\.start.fractionDigits))
        #expect(again.events.map(\.title) == original.events.map(\.title))
        #expect(again.events.map(\.amount) == original.events.map(\.amount))
        #expect(again.events.map(\.status) == original.events.map(\.status))
        #expect(again.events.map(\.tags) == original.events.map(\.tags))
        #expect(again.events.map(\.attributes) == original.events.map(\.attributes))
    }

    @Test(
        "--safe-csv neutralises formula-looking cells: by their first scalar, after a tab or line break; plain numbers stay numbers"
    )
    func safeCSV() throws {
        var options = WriteOptions()
        options.csv.safe = true
        let exporter = CSVExporter(options: options)
        let out = OutputWriter(inMemory: "mem")
        let attributes = [
            "a": "-2", "b": "+3.50", "c": "-1+1", "d": "\t=cmd", "e": "=\u{0303}1+1", "f": "\r@x",
            "g": "1.", "h": "-",
        ]
        let e = Event(
            id: "=1+1", start: TimeValue(date: CivilDate(year: 2024, month: 6, day: 12)!),
            title: "@SUM(A1)", attributes: attributes)
        try exporter.write(e, to: out)
        try exporter.finish(to: out)
        let row = String(decoding: out.bytes, as: UTF8.self).components(separatedBy: "\r\n")[1]
        // By hand: -2 and +3.50 are numbers; the rest begin with what a spreadsheet reads as
        // a formula (a CR-led cell is quoted, the quote outside the prefix); "1." is no
        // formula, and "-" alone is not a number.
        #expect(
            row
                == "'=1+1,2024-06-12,,,'@SUM(A1),,,,,,,,,,,,-2,+3.50,'-1+1,'\t=cmd,'=\u{0303}1+1,\"'\r@x\",1.,'-,"
        )
    }
}

@Suite("CSV importer in blocks")
struct CSVBlockImportTests {
    @Test(
        "CSV cut into blocks for worker threads: record numbers, lines, rejects and order as read",
        arguments: [1, 8, 40, 1 << 17])
    func csvBlocks(blockSize: Int) throws {
        var importer = CSVImporter()
        importer.blockSize = blockSize
        // Hand-numbered: the blank line 3 is not a record; line 5's quoted field runs to
        // line 6; lines 7 and 8 are rejected but still counted (records 4 and 5).
        let run = try ImportRun(
            importer,
            """
            time,title,amount
            2024-06-11T15:42:10Z,one,

            "2024-06-11T16:00:00Z",two,
            2024-06-11T17:00:00Z,"multi
            line",
            bad-date,four,
            2024-06-11T18:00:00Z,five,x1
            2024-06-11T19:00:00Z,six,1.50
            """)
        #expect(run.events.map(\.id) == ["in.csv:1", "in.csv:2", "in.csv:3", "in.csv:6"])
        #expect(run.events.map(\.title) == ["one", "two", "multi\nline", "six"])
        #expect(run.events.map { $0.source?.line } == [2, 4, 5, 9])
        #expect(run.rejects.map(\.location.line) == [7, 8])
        #expect(run.rejects.map(\.raw) == ["bad-date,four,", "2024-06-11T18:00:00Z,five,x1"])
        #expect(
            run.rejects.map(\.fields) == [
                ["bad-date", "four", ""], ["2024-06-11T18:00:00Z", "five", "x1"],
            ])
    }
}
