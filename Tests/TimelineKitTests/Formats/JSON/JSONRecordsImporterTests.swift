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

    @Test("each record is mapped by its own keys: a field first seen on a later record is mapped there", arguments: ["ndjson", "json"])
    func changingKeys(format: String) throws {
        let records = [
            #"{"title": "no time yet", "note": "x"}"#,
            #"{"time": "2024-06-12T10:00:00Z", "title": "b"}"#,
            #"{"time": "2024-06-12T11:00:00Z", "title": "c", "amount": "5.00"}"#,
            #"{"amount": "-2", "title": "d", "time": "2024-06-12T12:00:00+08:00", "status": "delivered"}"#,
            #"{"time": "2024-06-12T13:00:00Z", "title": "e"}"#,
        ]
        let text = format == "ndjson" ? records.joined(separator: "\n") + "\n" : "[" + records.joined(separator: ",\n") + "]"
        let r = try Self.read(text, format: format)
        // The first record has no time field: rejected for that, not the others.
        #expect(r.rejects.map(\.code) == [.missingStart])
        #expect(r.events.map(\.title) == ["b", "c", "d", "e"])
        #expect(r.events.map { $0.amount?.value.description } == [nil, "5.00", "-2", nil])
        #expect(r.events.map(\.status) == [nil, nil, .completed, nil])
        #expect(r.events[2].start.rfc3339 == "2024-06-12T12:00:00+08:00")
    }
}
