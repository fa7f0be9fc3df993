import Testing

@testable import TimelineKit

@Suite("Validation rules")
struct ValidatorTests {
    static func event(
        _ id: String, _ start: String, series: String? = "S", file: String = "f.csv", line: Int = 1,
        end: String? = nil, location: String? = nil
    ) throws -> Event {
        var options = DateParsingOptions()
        options.assumedZone = try ZoneResolver().resolve("Asia/Shanghai")
        let parser = DateParser(options: options)
        var e = Event(id: id, start: try parser.parse(start).get().value, title: id, series: series)
        e.location = location
        if let end { e.end = try parser.parse(end).get().value }
        e.source = SourceReference(format: "csv", file: file, record: line, line: line)
        return e
    }

    /// The findings for `events`, digested as one batch. Every rule test also checks the
    /// digests' merging: batches of 1, 2 and 3 events must give the same report, byte for byte.
    static func run(_ events: [Event], zone: String = "Asia/Shanghai") throws -> [FindingCode:
        Finding]
    {
        let context = ValidationContext(
            displayZone: try ZoneResolver().resolve(zone), assumedZone: nil)
        let report = Validator(context).run(events: events, batchSize: .max, records: events.count)
        for size in [1, 2, 3] {
            let inBatches = Validator(context).run(
                events: events, batchSize: size, records: events.count)
            #expect(
                String(decoding: inBatches.json, as: UTF8.self)
                    == String(decoding: report.json, as: UTF8.self), "batches of \(size)")
        }
        return Dictionary(report.findings.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
    }

    @Test("TZ102: a UTC server clock mixed with a UTC+8 phone clock; New York across DST is fine")
    func mixedOffsets() throws {
        let mixed = try Self.run([
            Self.event("a", "2024-06-12T08:00:00+08:00"), Self.event("b", "2024-06-12T01:00:00Z"),
            Self.event("c", "2024-06-12T10:00:00+08:00"),
        ])
        #expect(mixed[.mixedOffsets]?.count == 3)
        #expect(mixed[.mixedOffsets]?.message.contains("S: +00:00 ×1, +08:00 ×2") == true)
        let newYork = try Self.run(
            [
                Self.event("a", "2024-03-01T08:00:00-05:00"),
                Self.event("b", "2024-07-01T08:00:00-04:00"),
            ], zone: "America/New_York")
        #expect(newYork[.mixedOffsets] == nil)
    }

    /// Offsets that follow each other in time, none `Z`, are a journey; interleaved, or one of
    /// them `Z`, two clocks. Expected by hand from the rule in docs/validation.md.
    @Test(
        "TZ102: a parcel from Shenzhen to Leipzig is a journey; interleaved offsets or a Z are two clocks"
    )
    func journeys() throws {
        func e(_ id: String, _ t: String, _ place: String? = nil) throws -> Event {
            try Self.event(id, t, location: place)
        }
        let journey = [
            try e("a", "2024-06-08T21:14:05+08:00", "Shenzhen"),
            try e("b", "2024-06-10T23:55:00+08:00", "Hong Kong"),
            try e("c", "2024-06-11T06:40:00+02:00", "Leipzig"),
            try e("d", "2024-06-12T14:02:10+02:00", "Muenchen"),
        ]
        #expect(try Self.run(journey)[.mixedOffsets] == nil)
        // Listed newest first, as carriers do: the order of the file does not matter.
        #expect(try Self.run(journey.reversed())[.mixedOffsets] == nil)
        // A label printed at the sender's office offset, at no place, before the scans.
        let label = [try e("l", "2024-06-08T10:00:00-05:00")] + journey
        #expect(try Self.run(label)[.mixedOffsets] == nil)
        // Without places, the offsets still follow each other: a traveller's workouts.
        #expect(
            try Self.run(
                journey.map {
                    var x = $0
                    x.location = nil
                    return x
                })[.mixedOffsets] == nil)
        // Back at +08:00 after +02:00 with no place to tell: two clocks.
        let interleaved = [
            try e("a", "2024-06-08T21:14:05+08:00"), try e("b", "2024-06-09T06:40:00+02:00"),
            try e("c", "2024-06-10T08:00:00+08:00"),
        ]
        #expect(try Self.run(interleaved)[.mixedOffsets]?.count == 3)
        // One way, but the second clock is UTC itself: a server's.
        let server = [
            try e("a", "2024-06-08T21:14:05+08:00"), try e("b", "2024-06-09T01:00:00Z"),
            try e("c", "2024-06-09T02:00:00Z"),
        ]
        #expect(try Self.run(server)[.mixedOffsets]?.count == 3)
        // Two offsets at one instant overlap.
        let same = [
            try e("a", "2024-06-09T09:00:00+08:00"), try e("b", "2024-06-09T03:00:00+02:00"),
        ]
        #expect(try Self.run(same)[.mixedOffsets]?.count == 2)
    }

    @Test("TZ103: the UTC time that lands on the next day in UTC+8, counted per day")
    func dayShift() throws {
        let found = try Self.run([
            Self.event("a", "2024-06-11T17:30:00Z"), Self.event("b", "2024-06-11T12:00:00Z"),
            Self.event("c", "2024-06-12"),
        ])
        let f = try #require(found[.dayShift])
        // 17:30Z is 01:30 on the 12th in Shanghai; 12:00Z stays the 11th; the date never moves
        #expect(f.count == 1)
        #expect(f.message.contains("2024-06-11 → 2024-06-12: 1"))
        #expect(f.examples.first?.line == 1)
        #expect(
            try Self.run([Self.event("a", "2024-06-11T17:30:00Z")], zone: "UTC")[.dayShift] == nil)
    }

    @Test("TZ108: dates stored as midnight that change day in the display zone")
    func dateAsMidnight() throws {
        let events = try ["2024-06-10", "2024-06-11", "2024-06-12"].enumerated().map {
            try Self.event("d\($0.offset)", $0.element + "T00:00:00Z", file: "dates.csv")
        }
        #expect(try Self.run(events, zone: "America/New_York")[.dateAsMidnight]?.count == 3)
        // 08:00 the same day
        #expect(try Self.run(events, zone: "Asia/Shanghai")[.dateAsMidnight] == nil)
    }

    @Test(
        "TZ107: a feed writing UTC clock readings labelled +08:00 is out of its own order by 8 hours"
    )
    func suspectShift() throws {
        func e(_ id: String, _ t: String, _ line: Int) throws -> Event {
            try Self.event(id, t, series: "SF1", file: "trace.json", line: line)
        }
        // Listed in order. The +08:00 rows are UTC clock readings with a local label, so their
        // instants are 8 hours early (by hand: delivered really 2024-06-12T06:00Z, written
        // 06:00+08:00 = 2024-06-11T22:00Z, before the 2024-06-12T00:00Z of the first row).
        let events = [
            try e("placed", "2024-06-12T00:00:00Z", 1), try e("shipped", "2024-06-12T04:00:00Z", 2),
            try e("transit", "2024-06-12T05:00:00+08:00", 3),
            try e("delivered", "2024-06-12T06:00:00+08:00", 4),
        ]
        let f = try #require(try Self.run(events)[.suspectZoneShift])
        #expect(f.count == 2)
        #expect(f.message.contains("SF1: the +08:00 times by +8 h"))
        // Newest first, as courier traces list events, and in order: nothing to report.
        let newestFirst = [
            try e("d", "2024-06-12T14:00:00+08:00", 1), try e("t", "2024-06-12T05:00:00Z", 2),
            try e("p", "2024-06-12T08:00:00+08:00", 3),
        ]
        #expect(try Self.run(newestFirst)[.suspectZoneShift] == nil)
        // Correctly labelled but "paid" (completed) before "shipped" (processing): no evidence.
        var paid = try e("paid", "2024-06-12T08:05:00+08:00", 2)
        paid.status = .completed
        var shipped = try e("shipped", "2024-06-12T01:00:00Z", 3)
        shipped.status = .processing
        #expect(
            try Self.run([try e("placed", "2024-06-12T08:00:00+08:00", 1), paid, shipped])[
                .suspectZoneShift] == nil)
    }

    @Test(
        "TZ107 with one offset: a courier's UTC scans labelled +08:00, as a run at the end or interleaved and named by a source column"
    )
    func suspectShiftOneOffset() throws {
        func e(_ id: String, _ t: String, _ line: Int, source: String? = nil) throws -> Event {
            var event = try Self.event(id, t, series: "SO-1", file: "orders.csv", line: line)
            if let source { event.attributes["Source"] = source }
            return event
        }
        // By hand: the scans happened at 13:30, 17:00 and 10:00 the next day, Beijing time; the
        // courier wrote its UTC clock (05:30, 09:00, 02:00) with the shop's +08:00 label.
        let run = [
            try e("placed", "2024-06-12T08:00:00+08:00", 1),
            try e("paid", "2024-06-12T08:05:00+08:00", 2),
            try e("shipped", "2024-06-12T12:00:00+08:00", 3),
            try e("picked up", "2024-06-12T05:30:00+08:00", 4),
            try e("in transit", "2024-06-12T09:00:00+08:00", 5),
            try e("delivered", "2024-06-13T02:00:00+08:00", 6),
        ]
        let f = try #require(try Self.run(run)[.suspectZoneShift])
        #expect(f.count == 3)
        #expect(f.message.contains("SO-1: a run of 3 +08:00 times by +8 h"))
        #expect(f.examples.map(\.line) == [4, 5, 6])
        // Interleaved with the shop's events: the source column says which are the courier's.
        let interleaved = [
            try e("placed", "2024-06-12T08:00:00+08:00", 1, source: "shop"),
            try e("paid", "2024-06-12T08:05:00+08:00", 2, source: "shop"),
            try e("picked up", "2024-06-12T01:00:00+08:00", 3, source: "courier"),
            try e("notice", "2024-06-12T09:30:00+08:00", 4, source: "shop"),
            try e("in transit", "2024-06-12T03:00:00+08:00", 5, source: "courier"),
            try e("delivered", "2024-06-12T06:00:00+08:00", 6, source: "courier"),
            try e("review", "2024-06-12T14:30:00+08:00", 7, source: "shop"),
        ]
        let g = try #require(try Self.run(interleaved)[.suspectZoneShift])
        #expect(g.message.contains("SO-1: one origin's +08:00 times by +8 h"))
        #expect(g.examples.map(\.line) == [3, 5, 6])
        // Without the column the courier's scans are still each between a quarter of the
        // shift and the whole shift early (7 h 05, 6 h 30, 3 h 30 by hand) and +8 h mends them
        // all: scattered, found without naming their source.
        let unnamed = try interleaved.map { event -> Event in
            var copy = event
            copy.attributes = [:]
            return copy
        }
        let h = try #require(try Self.run(unnamed)[.suspectZoneShift])
        #expect(h.message.contains("SO-1: 3 scattered +08:00 times by +8 h"), "\(h.message)")
        #expect(h.examples.map(\.line) == [3, 5, 6])
        // Two events swapped by less than a quarter of the shift (listed a few minutes out of
        // order): not evidence of a wrong label.
        let swapped = [
            try e("placed", "2024-06-12T08:00:00+08:00", 1),
            try e("paid", "2024-06-12T09:50:00+08:00", 2),
            try e("shipped", "2024-06-12T08:30:00+08:00", 3),
            try e("delivered", "2024-06-13T10:00:00+08:00", 4),
        ]
        #expect(try Self.run(swapped)[.suspectZoneShift] == nil)
    }

    @Test("TZ107 raises nothing on clean one-offset series, with sources and small listing slips")
    func suspectShiftNoFalseAlarms() throws {
        var rng = SplitMix64(seed: 107)
        var events: [Event] = []
        for series in 0..<2_000 {
            let offset = [28_800, -18_000, 0, 19_800][series % 4]
            var seconds = 1_718_000_000 + Int64(rng.next() % 100_000_000)
            var listed: [(Int64, String)] = []
            for i in 0..<Int(3 + rng.next() % 10) {
                seconds += Int64(600 + rng.next() % 40_000)  // 10 minutes to 11 hours apart
                listed.append((seconds, i % 3 == 0 ? "shop" : "courier"))
            }
            // One in five series is listed with two neighbours a few minutes apart swapped.
            if series % 5 == 0, listed.count >= 4 {
                listed[2].0 = listed[1].0 + Int64(rng.next() % 1_800) + 60
                listed.swapAt(1, 2)
            }
            for (i, (t, source)) in listed.enumerated() {
                let instant = Instant(seconds: t)
                var e = Event(
                    id: "s\(series)-\(i)",
                    start: TimeValue(
                        instant: instant, offset: UTCOffset(seconds: offset), basis: .offset),
                    title: "e",
                    series: "S\(series)")
                e.attributes["channel"] = source
                e.source = SourceReference(
                    format: "csv", file: "clean.csv", record: i + 1, line: events.count + 2)
                events.append(e)
            }
        }
        #expect(try Self.run(events, zone: "UTC")[.suspectZoneShift] == nil)
    }

    @Test("TZ111: epoch seconds mixed with milliseconds, and an implausible date")
    func epochUnits() throws {
        // 1718179200 s and 1718179260000 ms are both 2024-06-12; 171817920 s is 1975-06-12T15:12:00Z
        // (checked with Python: datetime.fromtimestamp(171817920, timezone.utc)).
        let found = try Self.run([
            Self.event("a", "1718179200"), Self.event("b", "1718179260000"),
            Self.event("c", "1718179320"),
        ])
        #expect(found[.epochUnit]?.count == 1)
        #expect(found[.epochUnit]?.message.contains("f.csv: milliseconds ×1, seconds ×2") == true)
        #expect(
            try Self.run([Self.event("a", "171817920")])[.epochUnit]?.examples.first?.note
                == "reads as 1975-06-12T15:12:00Z")
        #expect(
            try Self.run([Self.event("a", "1718179200"), Self.event("b", "1718179320")])[.epochUnit]
                == nil)
    }

    @Test(
        "TZ113 counts ids of the generated form (base name:record) like any other: two files with one base name, a source id that reads the same"
    )
    func generatedIDs() throws {
        // `event` sets record = line. Expected by hand: "orders.csv:1" three times (records
        // 1 of a/orders.csv and b/orders.csv, and a source id in notes.csv line 9);
        // "orders.csv:2" once as its own generated id and once as a source id on line 1 of
        // notes.csv (which comes after, as notes.csv is the third file seen); "orders.csv:3"
        // and "notes.csv:1"-like ids that are not their event's own form are unique.
        let found = try Self.run([
            Self.event("orders.csv:1", "2024-06-12T08:00:00+08:00", file: "a/orders.csv", line: 1),
            Self.event("orders.csv:2", "2024-06-12T08:01:00+08:00", file: "a/orders.csv", line: 2),
            Self.event("orders.csv:1", "2024-06-12T08:02:00+08:00", file: "b/orders.csv", line: 1),
            Self.event("orders.csv:2", "2024-06-12T08:03:00+08:00", file: "notes.csv", line: 1),
            Self.event("orders.csv:3", "2024-06-12T08:04:00+08:00", file: "notes.csv", line: 2),
            Self.event("orders.csv:01", "2024-06-12T08:05:00+08:00", file: "notes.csv", line: 3),
            Self.event("orders.csv:1", "2024-06-12T08:06:00+08:00", file: "notes.csv", line: 9),
        ])
        let finding = try #require(found[.duplicateID])
        #expect(finding.count == 5)
        #expect(
            finding.examples.map { "\($0.value)@\($0.file):\($0.line ?? 0)" } == [
                "orders.csv:1@a/orders.csv:1", "orders.csv:1@b/orders.csv:1",
                "orders.csv:1@notes.csv:9",
                "orders.csv:2@a/orders.csv:2", "orders.csv:2@notes.csv:1",
            ])
    }

    @Test("TZ113 duplicate ids, TZ114 end before start, TZ101 assumed zone")
    func others() throws {
        let found = try Self.run([
            Self.event("x", "2024-06-12T08:00:00+08:00"),
            Self.event("x", "2024-06-12T09:00:00+08:00"),
            Self.event("y", "2024-06-12T10:00:00+08:00", end: "2024-06-12T09:00:00+08:00"),
            Self.event("z", "2024-06-12 11:00"),
        ])
        #expect(found[.duplicateID]?.count == 2)
        #expect(found[.endBeforeStart]?.severity == .error)
        #expect(found[.naiveTime]?.severity == .warning)
        #expect(found[.naiveTime]?.count == 1)
    }

    @Test(
        "no false alarms: thousands of clean events across 40 zones and DST changes raise nothing at warning level"
    )
    func noFalseAlarms() throws {
        var rng = SplitMix64(seed: 99)
        for name in ZoneResolverTests.propertyZones {
            let zone = try ZoneResolver().resolve(name)
            var events: [Event] = []
            for series in 0..<25 {  // 40 zones × 25 = 1,000 series, 12,000 events
                var seconds = Int64(rng.next() % 2_000_000_000) - 500_000_000
                for i in 0..<12 {
                    // up to ~3 months apart: crosses DST changes
                    seconds += Int64(rng.next() % 9_000_000)
                    let instant = Instant(seconds: seconds)
                    let value = TimeValue(
                        instant: instant, offset: zone.rules.offset(at: instant), basis: .offset)
                    var e = Event(
                        id: "\(name)-\(series)-\(i)", start: value, title: "clean",
                        series: "\(name)-\(series)")
                    // progresses with time
                    e.status = i < 4 ? .pending : i < 8 ? .processing : .completed
                    e.source = SourceReference(
                        format: "csv", file: "\(name).csv", record: i + 1, line: i + 2)
                    events.append(e)
                }
            }
            let report = Validator(ValidationContext(displayZone: zone, assumedZone: nil)).run(
                events: events, records: events.count)
            #expect(
                report.findings.filter { $0.severity >= .warning }.isEmpty,
                "\(name): \(report.findings.map { "\($0.code.rawValue) \($0.message)" })")
        }
    }

    @Test("rejects and date notices become findings by their codes")
    func importFindings() throws {
        let rejects = [
            RejectedRecord(
                location: SourceLocation(file: "f", line: 3), raw: "x", reason: "no zone",
                code: .naiveTime),
            RejectedRecord(
                location: SourceLocation(file: "f", line: 4), raw: "y", reason: "cannot read",
                code: .unparseable),
            RejectedRecord(
                location: SourceLocation(file: "f", line: 5), raw: "z", reason: "3 fields",
                code: .fieldCount),
        ]
        let notices = [
            Diagnostic(.warning, "gap", at: SourceLocation(file: "f", line: 6), code: "TZ104")
        ]
        var imported = ImportFindings()
        for r in rejects { imported.add(reject: r) }
        for n in notices { imported.add(notice: n) }
        let report = try Validator(ValidationContext(displayZone: .utc, assumedZone: nil)).report(
            records: 4, imported: imported)
        // Errors first, then by code; the CSV field-count reject is a finding of its own
        // (E005, with advice about delimiters), not an unparseable date.
        #expect(report.findings.map(\.code.rawValue) == ["E001", "E005", "TZ101", "TZ104"])
        #expect(report.findings.map(\.count) == [1, 1, 1, 1])
        #expect(report.findings[1].message.contains("check the delimiter"))
        #expect(report.fails(at: .error) && report.rejected == 3)
    }

    @Test(
        "a million rejects keep their count, the first reason and five examples, not every record")
    func manyRejects() throws {
        var imported = ImportFindings()
        for line in 1...1_000_000 {
            imported.add(
                reject: RejectedRecord(
                    location: SourceLocation(file: "f", line: line), raw: "r\(line)",
                    reason: "reason \(line)", code: .unparseable)
            )
        }
        let report = try Validator(ValidationContext(displayZone: .utc, assumedZone: nil)).report(
            records: 1_000_000, imported: imported)
        let finding = try #require(report.findings.first)
        #expect(report.rejected == 1_000_000 && finding.count == 1_000_000)
        #expect(
            finding.message.hasPrefix("1000000 record(s) rejected: ")
                && finding.message.hasSuffix("the first: reason 1"))
        #expect(finding.examples.map(\.value) == ["r1", "r2", "r3", "r4", "r5"])
    }
}
