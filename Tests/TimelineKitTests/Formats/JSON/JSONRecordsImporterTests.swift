import Foundation
import Testing

@testable import TimelineKit

/// JSON records whose keys change from record to record; expected values by hand.
@Suite("JSON records importer")
struct JSONRecordsImporterTests {
    static func read(_ text: String, format: String) throws -> ReadResult {
        var options = ReadOptions()
        options.format = FileFormat.named(format)
        return try Timeline.read(.string(text, name: "records.\(format)"), options: options)
    }

    @Test(
        "each record is mapped by its own keys: a field first seen on a later record is mapped there",
        arguments: ["ndjson", "json"])
    func changingKeys(format: String) throws {
        let records = [
            #"{"title": "no time yet", "note": "x"}"#,
            #"{"time": "2024-06-12T10:00:00Z", "title": "b"}"#,
            #"{"time": "2024-06-12T11:00:00Z", "title": "c", "amount": "5.00"}"#,
            #"{"amount": "-2", "title": "d", "time": "2024-06-12T12:00:00+08:00", "status": "delivered"}"#,
            #"{"time": "2024-06-12T13:00:00Z", "title": "e"}"#,
        ]
        let text =
            format == "ndjson"
            ? records.joined(separator: "\n") + "\n" : "[" + records.joined(separator: ",\n") + "]"
        let r = try Self.read(text, format: format)
        // The first record has no time field: rejected for that, not the others.
        #expect(r.rejects.map(\.code) == [.missingStart])
        #expect(r.events.map(\.title) == ["b", "c", "d", "e"])
        #expect(r.events.map { $0.amount?.value.description } == [nil, "5.00", "-2", nil])
        #expect(r.events.map(\.status) == [nil, nil, .completed, nil])
        #expect(r.events[2].start.rfc3339 == "2024-06-12T12:00:00+08:00")
    }

    @Test(
        "past the first 1,000 records, key sets alternating record by record: no field or attribute of one record reaches the next",
        arguments: ["ndjson", "json"])
    func alternatingKeys(format: String) throws {
        let records = (0..<3_000).map { i in
            switch i % 3 {
            case 0:
                return
                    #"{"id": "r\#(i)", "time": "2024-06-12T08:00:00Z", "title": "t", "amount": "\#(i).25", "status": "delivered"}"#
            case 1:
                return
                    #"{"title": "t", "time": "2024-06-12T09:00:00Z", "id": "r\#(i)", "note": "n\#(i)", "channel": "web"}"#
            default:
                return
                    #"{"time": "2024-06-12T10:00:00Z", "id": "r\#(i)", "customer": {"name": "c\#(i)"}, "title": "t"}"#
            }
        }
        let text =
            format == "ndjson"
            ? records.joined(separator: "\n") + "\n" : "[" + records.joined(separator: ",\n") + "]"
        let events = try Self.read(text, format: format).events
        #expect(events.count == 3_000)
        for (i, event) in events.enumerated() {
            #expect(event.id == "r\(i)")
            #expect(event.amount?.value.description == (i % 3 == 0 ? "\(i).25" : nil), "r\(i)")
            #expect(event.status == (i % 3 == 0 ? .completed : nil), "r\(i)")
            #expect(event.detail == (i % 3 == 1 ? "n\(i)" : nil), "r\(i)")
            #expect(
                event.attributes
                    == (i % 3 == 1
                        ? ["channel": "web"]
                        : i % 3 == 2 ? ["customer": #"{"name":"c\#(i)"}"#] : [:]),
                "r\(i)")
        }
    }

    @Test(
        "NDJSON past the first 1,000 records is mapped on the worker threads to the same events as a JSON array, in order"
    )
    func parallelLines() throws {
        var records: [String] = []
        for i in 0..<4_500 {
            switch i % 7 {
            case 0:
                records.append(
                    #"{"id": "r\#(i)", "time": "2024-06-12T08:00:00Z", "title": "a", "amount": "1.50"}"#
                )
            case 1: records.append(#"{"title": "no time", "id": "r\#(i)"}"#)
            case 2: records.append("not json \(i)")
            case 3:
                records.append(
                    #"{"id": "r\#(i)", "time": "12/06/2024 08:00", "title": "day first", "zone": "Asia/Shanghai"}"#
                )
            case 4:
                records.append(
                    #"{"time": "2024-03-10T02:30:00", "zone": "America/New_York", "title": "in the gap", "id": "r\#(i)"}"#
                )
            case 5: records.append("")
            default:
                records.append(
                    #"{"id": "r\#(i)", "when": "x", "time": 1718179200, "title": "epoch", "status": "delivered"}"#
                )
            }
        }
        records.append(
            #"{"id": "last", "time": "13/06/2024 09:00", "title": "day first by itself", "zone": "UTC"}"#
        )
        let lines = try Self.read(records.joined(separator: "\n") + "\n", format: "ndjson")
        let array = try Self.read(
            "["
                + records.filter { !$0.isEmpty }.map { $0.hasPrefix("{") ? $0 : "\"\($0)\"" }
                .joined(separator: ",\n") + "]", format: "json")
        func strip(_ e: Event) -> Event {
            var e = e
            e.source = nil
            return e
        }
        #expect(lines.events.count == array.events.count)
        #expect(lines.events.map(strip) == array.events.map(strip))
        // r4497 (12/06/2024) is ambiguous: rejected
        #expect(lines.events.map(\.id).suffix(2) == ["r4498", "last"])
        #expect(lines.rejects.map(\.code) == array.rejects.map(\.code))
        // Every record is numbered and lined as read: blank lines are not records.
        #expect(lines.events.last?.source?.line == 4_501)
        // 643 of the first 4,500 lines are blank (i % 7 == 5): the last record is number 3,858.
        #expect(lines.events.last?.source?.record == 3_858)
        #expect(
            lines.diagnostics.filter { $0.code == "TZ104" }.count
                == array.diagnostics.filter { $0.code == "TZ104" }.count)
    }

    @Test(
        "a JSON array past the first 1,000 records (on the worker threads): every record before a broken one converts, then the run stops at its line and column"
    )
    func arrayFault() throws {
        var elements: [String] = []
        for i in 0..<3_000 {
            elements.append(
                i == 2_500
                    ? "{\"time\": \"2024-06-12T08:00:00Z\",\n \"title\": tru}"
                    : #"{"time": "2024-06-12T08:00:00Z", "title": "e\#(i)"}"#)
        }
        let text = "[\n" + elements.joined(separator: ",\n") + "\n]\n"
        var events: [Event] = []
        var options = ReadOptions()
        options.format = FileFormat.named("json")
        let context = ImportContext(
            options: options, format: "json", dateParser: DateParser(),
            onEvent: { events.append($0) }, onReject: { _ in }, onDiagnostic: { _ in })
        #expect {
            try JSONRecordsImporter().read(
                from: InputReader(name: "a.json", bytes: Array(text.utf8)), context: context)
        } throws: { error in
            // Element i starts on line i + 2; the broken one's second line holds 'tru' at column 11.
            let d = (error as? TimelineError)?.diagnostic
            return d?.location?.line == 2_503 && d?.location?.column == 11
                && d?.message.hasPrefix("invalid JSON") == true
        }
        #expect(events.count == 2_500)
        #expect(events.map(\.title) == (0..<2_500).map { "e\($0)" })
    }

    @Test(
        "a document that is an array whose elements hold the records: found inside them, and by --records '[].…'"
    )
    func recordsInsideElements() throws {
        let text = """
            [{"shipment": {"idShip": "6A1", "event": [
              {"code": "DI1", "label": "Votre colis est livré.", "date": "2024-06-14T12:05:00+02:00", "order": 2},
              {"code": "DR1", "label": "Votre colis est prêt à être expédié.", "date": "2024-06-11T16:20:00+02:00", "order": 1}]}},
             {"shipment": {"idShip": "6A2", "event": [
              {"code": "MD2", "label": "Votre colis est en cours de livraison.", "date": "2024-06-13T08:31:00+02:00", "order": 1}]}}]
            """
        let r = try Self.read(text, format: "json")
        #expect(
            r.events.map(\.title) == [
                "Votre colis est livré.", "Votre colis est prêt à être expédié.",
                "Votre colis est en cours de livraison.",
            ])
        // The sentences say the status; each event's series is its shipment, not its place.
        #expect(r.events.map(\.status) == [.completed, .pending, .processing])
        #expect(r.events.map(\.series) == ["6A1", "6A1", "6A2"])
        var options = ReadOptions()
        options.format = FileFormat.named("json")
        options.json.recordsPath = "[].shipment.event"
        #expect(
            try Timeline.read(.string(text, name: "records.json"), options: options).events.count
                == 3)
    }
}
