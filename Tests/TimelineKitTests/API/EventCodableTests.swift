import Foundation
import Testing
import TimelineKit

/// `Codable` and `canonicalJSON` against the canonical format the command line reads and
/// writes (samples/events.ndjson is canonical NDJSON, every instant checked with zoneinfo).
@Suite("Event and TimeValue Codable")
struct EventCodableTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("samples/events.ndjson")

    @Test(
        "JSONEncoder then JSONDecoder gives back every sample event; canonicalJSON is the sample's line"
    )
    func roundTrip() throws {
        let lines = try String(contentsOf: Self.sample, encoding: .utf8).split(separator: "\n").map(
            String.init)
        let events = try lines.map { line throws in try Event(canonicalJSON: line) }
        #expect(events.count == 8)
        for (event, line) in zip(events, lines) {
            #expect(event.canonicalJSON == line)
            let data = try JSONEncoder().encode(event)
            #expect(try JSONDecoder().decode(Event.self, from: data) == event)
        }
        // What Timeline.read gives is the same events (plus where they were read, for lines
        // that do not say).
        let read = try Timeline.read(.file(Self.sample)).events
        #expect(
            zip(read, events).allSatisfy { r, e in
                var r = r
                if e.source == nil { r.source = nil }
                return r == e
            })
        let all = try JSONEncoder().encode(events)
        #expect(try JSONDecoder().decode([Event].self, from: all) == events)
    }

    @Test("a time value's fields as the canonical format writes them")
    func timeValue() throws {
        let value = try TimeValue.parse("2024-06-12T08:00:00.5+08:00")
        let json =
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as! [String: String]
        #expect(
            json == [
                "instant": "2024-06-12T00:00:00.5Z", "local": "2024-06-12T08:00:00.5",
                "offset": "+08:00", "basis": "offset",
                "raw": "2024-06-12T08:00:00.5+08:00",
            ])
        #expect(
            try JSONDecoder().decode(TimeValue.self, from: JSONEncoder().encode(value)) == value)
    }

    @Test("decoding checks what the canonical reader checks")
    func decodingChecks() {
        let inconsistent =
            #"{"id":"b","start":{"instant":"2024-06-12T00:00:00Z","local":"2024-06-12T09:00:00","offset":"+08:00","basis":"offset"},"title":"x"}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Event.self, from: Data(inconsistent.utf8))
        }
        #expect(throws: TimelineError.self) { try Event(canonicalJSON: inconsistent) }
        let badStatus =
            #"{"id":"b","start":{"date":"2024-06-12","basis":"date"},"title":"x","status":"done"}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Event.self, from: Data(badStatus.utf8))
        }
    }
}
