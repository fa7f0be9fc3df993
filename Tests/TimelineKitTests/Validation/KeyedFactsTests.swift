import Foundation
import Testing

@testable import TimelineKit

/// The checks over series and ids read back by partition (`KeyedFactStore`): the report
/// must not depend on how the facts were partitioned, held or spilled.
@Suite("Validation in bounded memory (keyed facts by partition)")
struct KeyedFactsTests {
    /// Orders over two files that share a base name (so the ids importers give collide),
    /// some with a source id repeated, some mixing a UTC clock into +08:00 rows, some whose
    /// later rows are UTC readings labelled +08:00 (in order only 8 hours later).
    static func events(seed: UInt64) throws -> [Event] {
        var random = SplitMix64(seed: seed)
        var events: [Event] = []
        for file in ["a/orders.csv", "b/orders.csv", "trace.json"] {
            for _ in 0..<120 {
                let series = "SO-\(random.next() % 150)"
                let base = 1_718_150_400 + Int(random.next() % (86_400 * 30))
                let shifted = random.next() % 10 == 0
                for step in 0..<4 {
                    let line = events.count % 500 + 2
                    var seconds = base + step * 3_600
                    var offset = random.next() % 6 == 0 ? 0 : 8 * 3_600
                    if shifted && step >= 2 {
                        seconds -= 8 * 3_600
                        offset = 8 * 3_600
                    }
                    let written =
                        LocalDateTime(secondsAsIfUTC: Int64(seconds + offset), nanosecond: 0)
                        .isoString(fractionDigits: 0)
                        + UTCOffset(seconds: offset).isoString
                    // Mostly the id importers give a record without one (equal across the two
                    // files named orders.csv when their lines are), else a repeated source id.
                    let id =
                        random.next() % 8 == 0
                        ? "dup-\(random.next() % 40)"
                        : Event.generatedID(
                            prefix: Event.generatedIDPrefix(file: file), record: line)
                    events.append(
                        try ValidatorTests.event(
                            id, written, series: series, file: file, line: line))
                }
            }
        }
        return events
    }

    static func report(_ events: [Event], memory: Int, directory: String?, batch: Int) throws
        -> String
    {
        let context = ValidationContext(
            displayZone: try ZoneResolver().resolve("Asia/Shanghai"), assumedZone: nil)
        let validator = Validator(context, memory: memory, directory: directory)
        for start in stride(from: 0, to: events.count, by: batch) {
            let observation = ValidationObservation(capacity: batch, validator: validator)
            EventRef.forEach(in: events, range: start..<min(events.count, start + batch)) {
                observation.add($0)
            }
            observation.digest().absorb()
        }
        let report = try validator.report(records: events.count)
        return String(decoding: report.json, as: UTF8.self)
    }

    @Test(
        "the report is the same in memory, spilled, and split again past the budget, over several seeds"
    )
    func sameReport() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "timeline-keyed-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for seed in [1, 2, 3] as [UInt64] {
            let events = try Self.events(seed: seed)
            let inMemory = try Self.report(events, memory: 1 << 30, directory: nil, batch: 4096)
            // The report this data must give, so an empty report cannot pass.
            for code in ["TZ102", "TZ107", "TZ113"] {
                #expect(inMemory.contains("\"\(code)\""), "seed \(seed): \(code)")
            }
            // 2 MB: the first batches held as they are, then (batches of 7) past the budget
            // and encoded with every later one; 128 KB: spilled to files, partitions read back
            // whole; 16 KB: every partition is split again by further bits of the hash.
            for memory in [2 << 20, 128 << 10, 16 << 10] {
                for batch in [7, 500] {
                    let bounded = try Self.report(
                        events, memory: memory, directory: directory, batch: batch)
                    #expect(
                        bounded == inMemory, "seed \(seed), memory \(memory), batches of \(batch)")
                }
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty,
                "partition files are unlinked at once")
        }
    }

    @Test(
        "what TZ102 and TZ107 make of held batches as they come counts against the budget with the batches"
    )
    func absorbedStateCounts() throws {
        let events = try Self.events(seed: 4)
        var batch = ValidationBatch(capacity: events.count)
        EventRef.forEach(in: events, range: 0..<events.count) { batch.add($0) }
        batch.compact()
        // Two thirds of the budget is just above the batch's own bytes: held alone, it fits.
        let memory = (batch.approximateBytes + 1) * 3 / 2 + 3
        func encodes(ignoring ignored: Set<FindingCode>) throws -> Bool {
            let context = ValidationContext(
                displayZone: try ZoneResolver().resolve("Asia/Shanghai"), assumedZone: nil,
                ignored: ignored)
            let validator = Validator(
                context, memory: memory, directory: FileManager.default.temporaryDirectory.path)
            let observation = ValidationObservation(capacity: events.count, validator: validator)
            EventRef.forEach(in: events, range: 0..<events.count) { observation.add($0) }
            observation.digest().absorb()
            _ = try validator.report(records: events.count)
            return validator.encoding
        }
        #expect(try encodes(ignoring: []), "the batch and the two rules' state pass the budget")
        #expect(try !encodes(ignoring: [.mixedOffsets, .suspectZoneShift]), "the batch alone fits")
    }

    @Test("a store gives every record back once, a key's records in one partition and in order")
    func storeKeepsKeysTogether() throws {
        let events = try (0..<2_000).map { i in
            try ValidatorTests.event("K\(i % 37)", "2024-06-12T00:00:00Z", file: "f", line: i)
        }
        var sent: [String: [Int32]] = [:]
        for (i, e) in events.enumerated() { sent[e.id, default: []].append(Int32(i)) }
        var batch = ValidationBatch(capacity: 0)
        EventRef.forEach(in: events, range: 0..<events.count) { batch.add($0) }
        let records = KeyedFactCodec.encode(batch, key: .id)
        // In memory; spilled; spilled and every partition split again (1 KB).
        for (memory, directory) in [
            (1 << 30, nil), (4 << 10, FileManager.default.temporaryDirectory.path),
            (1 << 10, FileManager.default.temporaryDirectory.path),
        ] {
            let store = KeyedFactStore(budget: memory, directory: directory)
            try store.append(records)
            #expect(store.spilled == (directory != nil))
            var got: [String: [Int32]] = [:]
            var partitionsOfKey: [String: Int] = [:]
            var misnumbered = 0
            try store.forEachPartition { number, partition throws(TimelineError) in
                var replay = ValidationBatch(replaying: ["f"], capacity: 0)
                var scratch: [UInt8] = []
                try partition.forEachRecord { key, bytes, payload throws(TimelineError) in
                    // A partition split again is still handed over with its number at level 0.
                    if KeyedFactCodec.partition(of: key, level: 0) != number { misnumbered += 1 }
                    do throws(BinaryReader.Corrupt) {
                        try KeyedFactCodec.decode(
                            bytes, at: payload, into: &replay, scratch: &scratch)
                    } catch {
                        throw TimelineError(.ioError, "a record did not decode")
                    }
                }
                var keys: Set<String> = []
                for e in replay.facts {
                    let id = replay.withIDBytes(e, orGenerated: []) { $0.string }
                    got[id, default: []].append(e.line)
                    keys.insert(id)
                }
                for key in keys { partitionsOfKey[key, default: 0] += 1 }
            }
            #expect(got == sent, "memory \(memory)")
            #expect(misnumbered == 0, "memory \(memory)")
            #expect(
                partitionsOfKey.values.allSatisfy { $0 == 1 },
                "memory \(memory): a key in one partition")
        }
    }
}
