import Foundation
import Testing

@testable import TimelineKit

/// Sorted sections drawn from records: the encoder's record holds the event's section and the
/// event; the cutter finds where sections change whatever chunks the records arrive in.
@Suite("Section records")
struct SectionRecordsTests {
    static let shanghai = try! ZoneResolver().resolve("Asia/Shanghai").rules

    /// Six events: two on 12 June in Shanghai (one of them 23:30 UTC on the 11th), three on
    /// the 13th, one all-day on the 14th; ids E0…E5.
    static var events: [Event] {
        let starts: [TimeValue] = [
            try! TimeValue.parse("2024-06-11T23:30:00Z"),
            try! TimeValue.parse("2024-06-12T09:00:00+08:00"),
            try! TimeValue.parse("2024-06-13T00:00:00+08:00"),
            try! TimeValue.parse("2024-06-13T10:00:00+08:00"),
            try! TimeValue.parse("2024-06-13T15:59:59Z"),
            TimeValue(date: CivilDate(year: 2024, month: 6, day: 14)!, raw: nil),
        ]
        return starts.enumerated().map { i, start in
            var e = Event.blank
            e.id = "E\(i)"
            e.start = start
            e.title = "event \(i)"
            return e
        }
    }

    @Test("sections are cut where the day changes, wherever the chunks end")
    func cutting() throws {
        let encoder = SectionRecordEncoder(unit: .day, zone: Self.shanghai)
        var records: [[UInt8]] = []
        for e in Self.events {
            var bytes = EncodedBytes()
            encoder.encode(e, into: &bytes)
            records.append(bytes.take())
        }
        // Every way to cut the six records into chunks at record boundaries.
        for mask in 0..<(1 << 5) {
            var chunks: [[UInt8]] = [records[0]]
            for i in 1..<records.count {
                if mask & (1 << (i - 1)) != 0 { chunks.append([]) }
                chunks[chunks.count - 1] += records[i]
            }
            var cutter = SectionRecordCutter()
            var sections: [TimelineGroup] = []
            let emit = { (bytes: [UInt8]) throws(TimelineError) in
                sections.append(try encoder.section(of: bytes))
            }
            for chunk in chunks { try cutter.add(chunk, emit: emit) }
            try cutter.finish(emit: emit)
            #expect(sections.map(\.key) == ["2024-06-12", "2024-06-13", "2024-06-14"], "\(mask)")
            #expect(
                sections.map { $0.events.map(\.id) } == [
                    ["E0", "E1"], ["E2", "E3", "E4"], ["E5"],
                ],
                "\(mask)")
        }
    }

    @Test("a section's events are the events encoded, field for field")
    func roundTrip() throws {
        let encoder = SectionRecordEncoder(unit: .month, zone: Self.shanghai)
        var bytes = EncodedBytes()
        for e in Self.events { encoder.encode(e, into: &bytes) }
        let section = try encoder.section(of: bytes.take())
        #expect(section.key == "2024-06")
        #expect(section.events == Self.events)
    }

    @Test("damaged records are an error, not a crash")
    func damaged() throws {
        let encoder = SectionRecordEncoder(unit: .day, zone: Self.shanghai)
        var bytes = EncodedBytes()
        encoder.encode(Self.events[0], into: &bytes)
        let record = bytes.take()
        #expect(throws: TimelineError.self) { try encoder.section(of: Array(record.dropLast(3))) }
    }
}
