import Testing

@testable import TimelineKit

@Suite("EventFacts")
struct EventFactsTests {
    @Test("the facts kept per event pack into 88 bytes (a held batch keeps one per event)")
    func layout() {
        #expect(MemoryLayout<EventFacts>.stride == 88)
    }

    @Test("a time read in an assumed zone keeps that zone's number; other times keep none")
    func assumedZones() throws {
        func event(_ start: String, assuming zone: String?) throws -> Event {
            var options = DateParsingOptions()
            options.assumedZone = try zone.map { try ZoneResolver().resolve($0) }
            var e = Event(
                id: start, start: try DateParser(options: options).parse(start).get().value,
                title: "t")
            e.source = SourceReference(format: "csv", file: "f.csv", record: 1, line: 2)
            return e
        }
        let events = [
            try event("2024-06-12 08:00:00", assuming: "Asia/Shanghai"),
            try event("2024-06-12 09:00:00", assuming: "Europe/Berlin"),
            try event("2024-06-12 10:00:00", assuming: "Asia/Shanghai"),
            try event("2024-06-12T10:00:00+02:00", assuming: "Europe/Berlin"),
        ]
        var batch = ValidationBatch(capacity: events.count)
        EventRef.forEach(in: events, range: 0..<events.count) { batch.add($0) }
        #expect(batch.assumedZones == ["Asia/Shanghai", "Europe/Berlin"])
        #expect(batch.facts.map(\.assumedZone) == [0, 1, 0, -1])
    }

    @Test(
        "the origin is the value of the event's smallest origin key, whatever the case of its first letter"
    )
    func origin() throws {
        func origin(_ attributes: [String: String]) throws -> UInt32 {
            var e = Event(
                id: "a",
                start: try DateParser(options: DateParsingOptions()).parse(
                    "2024-06-12T08:00:00+08:00"
                ).get().value, title: "t")
            e.attributes = attributes
            var batch = ValidationBatch(capacity: 1)
            EventRef.forEach(in: [e], range: 0..<1) { batch.add($0) }
            return batch.facts[0].origin
        }
        func hashed(_ value: String) -> UInt32 {
            UInt32(truncatingIfNeeded: StringIndex.hash(value)) | 1
        }
        // "channel" sorts before "source": its value, for any dictionary order.
        for _ in 0..<20 {
            #expect(try origin(["source": "shop", "channel": "app", "note": "x"]) == hashed("app"))
        }
        #expect(try origin(["Courier": "SF", "location": "Shenzhen"]) == hashed("SF"))
        #expect(try origin(["渠道": "小程序"]) == hashed("小程序"))
        #expect(try origin(["note": "x", "location": "Shenzhen", "source": ""]) == 0)
    }
}
