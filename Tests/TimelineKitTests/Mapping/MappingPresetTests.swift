import Foundation
import Testing

@testable import TimelineKit

/// Preset files, their signatures, and the table shapes they bring (wide rows, footers).
/// Expected values by hand.
@Suite("Mapping presets")
struct MappingPresetTests {
    static func read(
        _ text: String, name: String = "export.csv",
        configure: (inout ReadOptions) -> Void = { _ in }
    ) throws -> ReadResult {
        var options = ReadOptions()
        configure(&options)
        return try Timeline.read(.string(text, name: name), options: options)
    }

    @Test("every built-in preset file is registered and loads, and cites its documentation")
    func builtIn() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources/TimelineKit/Mapping/Presets")
            .standardizedFileURL
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter {
            $0.hasSuffix(".json")
        }
        #expect(MappingPreset.builtIn.count == files.count)
        for file in files {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            #expect(
                MappingPreset.builtIn.contains { $0.definition == text },
                "\(file) is not in MappingPreset.builtIn, or does not load")
        }
        for preset in MappingPreset.builtIn {
            #expect(!preset.documentation.isEmpty, "\(preset.name)")
            #expect(!preset.signature.isEmpty, "\(preset.name)")
            #expect(MappingPreset.named(preset.name)?.definition == preset.definition)
        }
    }

    @Test("a plain mapping file is a preset with only a map; null leaves a field unfed")
    func plainAndNull() throws {
        let plain = try MappingPreset(
            json: Array(#"{"start": "when", "title": "what"}"#.utf8), name: "m.json")
        #expect(plain.name == "m.json" && plain.mapping.fields.map(\.source) == ["when", "what"])
        let nulled = try MappingPreset(
            json: Array(#"{"preset": "p", "map": {"start": "when", "id": null}}"#.utf8),
            name: "p.json")
        let r = try Self.read("id,when,what\nA-1,2024-06-12T10:00:00Z,x\n") {
            $0.preset = .fixed(nulled)
        }
        // The id column is not the id (null), so it stays an attribute and the id is generated.
        #expect(r.events.first?.id == "export.csv:1")
        #expect(r.events.first?.attributes["id"] == "A-1")
    }

    @Test(
        "a preset file's mistakes are usage errors that name the member",
        arguments: [
            (#"{"map": {"start": "t"}, "colour": "red"}"#, "unknown member 'colour'"),
            (#"{"map": {"start": "t"}, "dateOrder": "year-first"}"#, "dateOrder: 'year-first'"),
            (
                #"{"map": {"start": "t"}, "statuses": {"ok": "fine"}}"#,
                "statuses: 'fine' is not a status"
            ),
            (
                #"{"map": {"start": "t"}, "events": {"a": "A"}, "amountEvent": "b"}"#,
                "amountEvent: 'b'"
            ),
            (#"{"map": {"begin": "t"}}"#, "invalid mapping 'begin=t'"),
            (#"[1]"#, "must hold a JSON object"),
        ])
    func mistakes(text: String, message: String) {
        #expect {
            _ = try MappingPreset(json: Array(text.utf8), name: "bad.json")
        } throws: { error in
            (error as? TimelineError)?.diagnostic.message.contains(message) == true
        }
    }

    @Test(
        "signatures: all headers (names compared as the defaults compare them), a preamble marker, a JSON path or keys"
    )
    func signatures() throws {
        let paypal = try #require(MappingPreset.named("paypal"))
        let header = [
            "Date", "Time", "TimeZone", "Name", "Type", "Status", "Currency", "Gross", "Fee", "Net",
            "transaction id",
        ]
        #expect(paypal.matches(header: header, preamble: []))
        #expect(!paypal.matches(header: Array(header.dropLast()), preamble: []))
        let wechat = try #require(MappingPreset.named("wechat-pay"))
        #expect(wechat.matches(header: ["交易时间", "金额"], preamble: ["微信支付账单明细,,,"]))
        let aftership = try #require(MappingPreset.named("aftership"))
        let document = try JSONParser.parseComplete(
            Array(#"{"data": {"checkpoints": []}}"#.utf8), what: "test")
        #expect(
            aftership.matches(document: document)
                && aftership.recordsPath(in: document) == "data.checkpoints")
        let kuaidi = try #require(MappingPreset.named("kuaidi100"))
        let response = try JSONParser.parseComplete(
            Array(#"{"nu": "1", "com": "x", "ischeck": "0", "data": []}"#.utf8), what: "test")
        #expect(kuaidi.matches(document: response) && !aftership.matches(document: response))
    }

    @Test("--map wins over a preset's column, --status-map over its words")
    func userWins() throws {
        let csv =
            "Date,Time,TimeZone,Name,Type,Status,Currency,Gross,Fee,Net,Transaction ID,Memo\n"
            + "06/12/2024,10:00:00,PDT,Acme,Payment,Held,USD,-1.00,0.00,-1.00,X1,from memo\n"
        let r = try Self.read(csv) { options in
            try? options.mapping.mapping.add("title=Memo")
            try? options.mapping.statuses.add("Held=completed")
        }
        #expect(r.events.first?.title == "from memo")
        #expect(r.events.first?.status == .completed)  // the preset says pending
        #expect(r.events.first?.start.rfc3339 == "2024-06-12T10:00:00-07:00")
    }

    @Test(
        "wide rows: one event per filled column; the amount on the first; a row with an id and no time continues the one above"
    )
    func wideRows() throws {
        let csv =
            "order,placed,shipped,total\nA-1,2024-06-12T10:00:00Z,2024-06-13T09:00:00Z,9.90\nA-1,,,\n,,,1.00\nA-2,2024-06-14T08:00:00Z,,5.00\n"
        let r = try Self.read(csv) { options in
            try? options.mapping.mapping.add(events: "placed=Placed,shipped=Shipped")
            try? options.mapping.mapping.add("id=order")
        }
        #expect(r.events.map(\.id) == ["A-1/Placed", "A-1/Shipped", "A-2/Placed"])
        #expect(r.events.map { $0.amount?.value.description } == ["9.90", nil, "5.00"])
        #expect(r.events.allSatisfy { $0.series == String($0.id.prefix(3)) })
        // The row without id and time, with a record after it, is rejected (at the end it
        // would be a footer); the one with an id is a continuation.
        #expect(r.rejects.map(\.location.line) == [4])
        #expect(
            r.diagnostics.contains {
                $0.message.hasPrefix("1 row(s) have no time in any event column")
                    && $0.location?.line == 3
            })
    }

    @Test(
        "a footer (rows of another width after the last record) is reported, not rejected; the same rows mid-table are rejected"
    )
    func footer() throws {
        let table = "交易时间,交易对方,金额\n2024-06-12T10:00:00+08:00,a,1.00\n"
        let r = try Self.read(
            table + "------------------------------\n导出时间：[2024-07-01 09:00:00],\n")
        #expect(r.events.count == 1 && r.rejects.isEmpty)
        #expect(
            r.diagnostics.contains {
                $0.message.hasPrefix("lines 3–4 after the table are not records")
            })
        let mid = try Self.read(
            table + "------------------------------\n2024-06-13T10:00:00+08:00,b,2.00\n")
        #expect(mid.events.count == 2)
        #expect(mid.rejects.map(\.location.line) == [3])
        // A truncated last row of a narrow table (two of three cells) is a bad record.
        let cut = try Self.read(table + "2024-06-13T10:00:00+08:00,b\n")
        #expect(cut.rejects.map(\.location.line) == [3])
    }

    @Test("a neutral amount is kept as written and left out of the day's totals")
    func neutral() throws {
        let csv =
            "time,title,收/支,amount\n2024-06-12T10:00:00Z,a,支出,5.00\n2024-06-12T11:00:00Z,b,不计收支,100.00\n2024-06-12T12:00:00Z,c,收入,2.00\n"
        let r = try Self.read(csv) { $0.preset = .none }
        #expect(r.events.map { $0.amount?.neutral } == [false, true, false])
        #expect(r.events[1].amount?.value.description == "100.00")
        let totals = TimelineGrouping.totals(r.events)
        #expect(totals.map { "\($0.income) \($0.expense)" } == ["2.00 -5.00"])
    }
}
