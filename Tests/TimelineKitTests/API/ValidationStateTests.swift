import Foundation
import Testing

@testable import TimelineKit

/// Validations of the parts of an input merged (`ValidationState`): whatever the parts and
/// however their states are grouped and ordered, the merged report is the one run over the
/// whole input gives, byte for byte.
@Suite("Validation states: merged parts report as one run")
struct ValidationStateTests {
    static let header = "event_id,order_id,status,time,end,note"

    /// Order rows with every kind of finding the rules make from events and from reading:
    /// ids repeated far apart (TZ113), series mixing a UTC clock into +08:00 rows (TZ102)
    /// and near midnight (TZ103), series whose later rows are UTC readings labelled +08:00
    /// (TZ107), naive times read in New York (TZ101) some in its DST gap (TZ104), ends
    /// before starts (TZ114), epoch values in two units (TZ111), and records that cannot be
    /// read (a short row, a time that is no date). The last row is always a plain one, so no
    /// run takes the file's last rows for a footer.
    static func orders(seed: UInt64, rows: Int) -> [String] {
        var random = SplitMix64(seed: seed)
        func pick(_ n: UInt64) -> Int { Int(random.next() % n) }
        var lines: [String] = []
        for i in 0..<rows {
            let series = "SO-\(pick(12))"
            let id = pick(9) == 0 ? "dup-\(pick(6))" : "E\(i)"
            let day = 10 + pick(5)
            let hour = pick(24)
            func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            var time = "2024-06-\(two(day))T\(two(hour)):\(two(pick(60))):00+08:00"
            var end = ""
            var note = "ok"
            switch i == rows - 1 ? 99 : pick(20) {
            case 0, 1: time = "2024-06-\(two(day))T\(two(15 + pick(9))):30:00Z"
            case 2: time = "2024-03-10 0\(1 + pick(2)):\(two(pick(60))):00"
            case 3: end = "2024-06-\(two(day - 1))T00:00:00+08:00"
            case 4: time = String(1_718_150_400 + pick(86_400))
            case 5: time = String(1_718_150_400_000 + Int(random.next() % 86_400_000))
            case 6:
                lines.append("\(id),\(series),broken")
                continue
            case 7: time = "not a date"
            case 8: time = "2024-06-\(two(day))T\(two(8 + pick(4))):00:00+08:00"
            case 9: note = "\"a, quoted \"\"note\"\"\""
            default: break
            }
            lines.append("\(id),\(series),s\(pick(4)),\(time),\(end),\(note)")
        }
        return lines
    }

    /// A file whose dates are all stored as midnight in +09:00 (TZ108 in Shanghai).
    static let midnights = [
        "event_id,time", "D1,2024-06-12T00:00:00+09:00", "D2,2024-06-13T00:00:00+09:00",
        "D3,2024-06-14T00:00:00+09:00",
    ]

    static var options: ValidationOptions {
        get throws {
            var options = ValidationOptions()
            options.displayZone = try ZoneResolver().resolve("Asia/Shanghai")
            options.read.dates.assumedZone = try ZoneResolver().resolve("America/New_York")
            options.read.format = .named("csv")
            return options
        }
    }

    /// The state of rows `range` of `lines` (the data rows of orders.csv), as a slice.
    static func sliceState(_ lines: [String], _ range: Range<Int>) throws -> ValidationState {
        var options = try options
        options.read.csv.columns = .names(header.split(separator: ",").map(String.init))
        let text = lines[range].joined(separator: "\n") + "\n"
        let source = TimelineSource.string(text, name: "part").slice(
            of: "orders.csv", firstRecord: range.lowerBound + 1, firstLine: range.lowerBound + 2)
        return try Timeline.validateKeepingState([source], options: options).state
    }

    static func wholeReport(_ lines: [String]) throws -> ValidationReport {
        let orders = TimelineSource.string(
            ([header] + lines).joined(separator: "\n") + "\n", name: "orders.csv")
        let dates = TimelineSource.string(
            midnights.joined(separator: "\n") + "\n", name: "dates.csv")
        return try Timeline.validate([dates, orders], options: options)
    }

    /// Merges `states` pairwise in a random grouping, each merge read back from its bytes.
    static func mergeRandomly(_ states: [ValidationState], _ random: inout SplitMix64) throws
        -> ValidationState
    {
        var pool = states
        while pool.count > 1 {
            let i = Int(random.next() % UInt64(pool.count))
            let a = pool.remove(at: i)
            let j = Int(random.next() % UInt64(pool.count))
            let b = pool.remove(at: j)
            let merged = try ValidationState.merging(random.next() % 2 == 0 ? [a, b] : [b, a])
            pool.append(try ValidationState(bytes: merged.bytes, name: "merged"))
        }
        return pool[0]
    }

    @Test(
        "random partitions of random inputs, merged in random groupings and orders, report as one run",
        arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func mergedEqualsOneRun(seed: UInt64) throws {
        var random = SplitMix64(seed: seed &* 7_919)
        let lines = Self.orders(seed: seed, rows: 150 + Int(random.next() % 250))
        let whole = try Self.wholeReport(lines)
        // The single run must see what the merge has to carry across parts.
        let codes = Set(whole.findings.map(\.code.rawValue))
        for code in [
            "TZ101", "TZ102", "TZ103", "TZ104", "TZ108", "TZ111", "TZ113", "TZ114", "E001", "E005",
        ] {
            #expect(
                codes.contains(code), "seed \(seed): the fixture has no \(code): \(codes.sorted())")
        }
        var cuts = Set<Int>()
        for _ in 0..<(1 + Int(random.next() % 9)) {
            cuts.insert(1 + Int(random.next() % UInt64(lines.count - 1)))
        }
        let bounds = [0] + cuts.sorted() + [lines.count]
        var states = try zip(bounds, bounds.dropFirst()).map { try Self.sliceState(lines, $0..<$1) }
        var options = try Self.options
        options.read.format = .named("csv")
        states.append(
            try Timeline.validateKeepingState(
                [.string(Self.midnights.joined(separator: "\n") + "\n", name: "dates.csv")],
                options: options
            ).state)
        let merged = try Self.mergeRandomly(states, &random)
        #expect(merged.sliceCount == bounds.count)
        let report = try merged.report()
        #expect(
            String(decoding: report.json, as: UTF8.self)
                == String(decoding: whole.json, as: UTF8.self), "seed \(seed), cuts \(bounds)")
        #expect(report.text == whole.text)
        // Spilling while merging changes nothing.
        let directory = FileManager.default.temporaryDirectory.path
        #expect(try merged.report(memory: 4096, temporaryDirectory: directory).json == whole.json)
    }

    @Test("a state's bytes are the same every time, and read back to the same bytes")
    func deterministicBytes() throws {
        let lines = Self.orders(seed: 9, rows: 200)
        let a = try Self.sliceState(lines, 0..<120).bytes
        let b = try Self.sliceState(lines, 0..<120).bytes
        #expect(a == b)
        #expect(try ValidationState(bytes: a, name: "a").bytes == a)
        #expect(
            a.starts(with: Array("TLVSTATE".utf8))
                && a.suffix(8).elementsEqual(Array("TLVS-END".utf8)))
    }

    /// The message of the error `body` throws, and its kind.
    static func failure(_ body: () throws(TimelineError) -> Void) -> TimelineError? {
        do throws(TimelineError) {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test(
        "a state cut short, damaged, foreign or of another version is a data error naming the file")
    func unreadableStates() throws {
        let bytes = try Self.sliceState(Self.orders(seed: 3, rows: 80), 0..<80).bytes
        var cuts = [0, 4, 8, 11, 12, 20, bytes.count / 2, bytes.count - 9, bytes.count - 1]
        cuts += (0..<40).map { $0 * bytes.count / 40 }
        for n in cuts {
            let error = Self.failure { () throws(TimelineError) in
                _ = try ValidationState(bytes: Array(bytes.prefix(n)), name: "part-7.state")
            }
            #expect(
                error?.kind == .data
                    && error?.diagnostic.message.hasPrefix("'part-7.state' ") == true,
                "cut at \(n) of \(bytes.count): \(String(describing: error))")
        }
        var damaged = bytes
        damaged[bytes.count / 2] ^= 0x20
        let checksum = Self.failure { () throws(TimelineError) in
            _ = try ValidationState(bytes: damaged, name: "d.state")
        }
        #expect(
            checksum?.kind == .data && checksum?.diagnostic.message.contains("checksum") == true,
            "\(String(describing: checksum))")
        let csv = Self.failure { () throws(TimelineError) in
            _ = try ValidationState(bytes: Array("event_id,time\n".utf8), name: "orders.csv")
        }
        #expect(
            csv?.diagnostic.message
                == "'orders.csv' is not a timeline validation state (it does not begin with TLVSTATE)"
        )
        var later = bytes
        later[8] = 4
        let version = Self.failure { () throws(TimelineError) in
            _ = try ValidationState(bytes: later, name: "v.state")
        }
        #expect(
            version?.kind == .data
                && version?.diagnostic.message.contains(
                    "format version 4; this timeline reads version 3") == true
        )
        let extra = Self.failure { () throws(TimelineError) in
            _ = try ValidationState(bytes: bytes + [0], name: "x.state")
        }
        #expect(extra?.diagnostic.message == "'x.state' has bytes after its end")
    }

    @Test(
        "a state merged twice counts once; two runs claiming one slice, or states of different zones, are refused"
    )
    func refusedMerges() throws {
        let lines = Self.orders(seed: 4, rows: 50)
        let part = try Self.sliceState(lines, 0..<50)
        #expect(try ValidationState.merging([part, part]).bytes == part.bytes)
        #expect(try ValidationState.merging([part, part]).report().json == part.report().json)
        // Another input validated as the same slice of orders.csv.
        let other = try Self.sliceState(Self.orders(seed: 5, rows: 50), 0..<50)
        let twice = Self.failure { () throws(TimelineError) in
            _ = try ValidationState.merging([part, other])
        }
        #expect(
            twice?.kind == .data
                && twice?.diagnostic.message.contains(
                    "hold the validation of orders.csv from record 1 with different contents")
                    == true,
            "\(String(describing: twice))")
        var options = try Self.options
        options.displayZone = .utc
        let utc = try Timeline.validateKeepingState(
            [.string("event_id,time\nX,2024-06-12T00:00:00Z\n", name: "x.csv")], options: options
        ).state
        let zones = Self.failure { () throws(TimelineError) in
            _ = try ValidationState.merging([part, utc])
        }
        #expect(
            zones?.kind == .usage
                && zones?.diagnostic.message.contains("days counted in UTC") == true,
            "\(String(describing: zones))")
    }

    @Test(
        "random partitions merged partition by partition (split, each partition's pieces finished, the finished merged) report as one run",
        arguments: [11, 12, 13, 14] as [UInt64])
    func mergedByPartition(seed: UInt64) throws {
        var random = SplitMix64(seed: seed &* 104_729)
        let lines = Self.orders(seed: seed, rows: 200 + Int(random.next() % 300))
        let whole = try Self.wholeReport(lines)
        #expect(
            Set(whole.findings.map(\.code.rawValue)).isSuperset(of: ["TZ102", "TZ113"]),
            "seed \(seed): the fixture lacks what crosses parts")
        var cuts = Set<Int>()
        for _ in 0..<(2 + Int(random.next() % 8)) {
            cuts.insert(1 + Int(random.next() % UInt64(lines.count - 1)))
        }
        let bounds = [0] + cuts.sorted() + [lines.count]
        var states = try zip(bounds, bounds.dropFirst()).map { try Self.sliceState(lines, $0..<$1) }
        states.append(
            try Timeline.validateKeepingState(
                [.string(Self.midnights.joined(separator: "\n") + "\n", name: "dates.csv")],
                options: Self.options
            )
            .state)
        // Each part's pieces, read back from their bytes, gathered by partition.
        var byPartition = [[ValidationState]](repeating: [], count: ValidationState.partitionCount)
        for state in states {
            let pieces = state.splitByPartition()
            #expect(pieces.count == ValidationState.partitionCount)
            for (p, piece) in pieces.enumerated() {
                byPartition[p].append(try ValidationState(bytes: piece.bytes, name: "piece-\(p)"))
            }
        }
        #expect(!byPartition[0][0].isComplete)
        var finished: [ValidationState] = []
        for pieces in byPartition {
            let merged = try Self.mergeRandomly(pieces, &random)
            finished.append(
                try ValidationState(bytes: try merged.finishingPartitions().bytes, name: "finished")
            )
        }
        finished.shuffle(using: &random)
        let final = try Self.mergeRandomly(finished, &random)
        #expect(final.isComplete && final.sliceCount == states.count)
        #expect(
            String(decoding: try final.report().json, as: UTF8.self)
                == String(decoding: whole.json, as: UTF8.self), "seed \(seed), cuts \(bounds)")
        #expect(try final.report().text == whole.text)
        // What reaches the driver keeps findings, not facts: far smaller than the parts' states.
        let full = states.reduce(0) { $0 + $1.bytes.count }
        #expect(final.bytes.count * 2 < full, "finished \(final.bytes.count) bytes, parts \(full)")
        // A finished partition beside the facts of the other partitions reports the same.
        let mixed = try ValidationState.merging(states + [finished[3]])
        #expect(try mixed.report().json == whole.json)
        // Finished over fewer slices than the state holds: refused, never a wrong report.
        let fewer = try ValidationState.merging(byPartition[5].dropLast()).finishingPartitions()
        let extra = Self.failure { () throws(TimelineError) in
            _ = try ValidationState.merging(states + [fewer]).report()
        }
        #expect(
            extra?.kind == .data
                && extra?.diagnostic.message.contains("partition 5 of the") == true,
            "\(String(describing: extra))")
        // Pieces of partition 5 only: nothing to report, and nothing to finish without every part.
        let part = Self.failure { () throws(TimelineError) in
            _ = try ValidationState.merging(byPartition[5]).report()
        }
        #expect(
            part?.kind == .data
                && part?.diagnostic.message.contains(
                    "only part of the validation: no state holds partition 0") == true,
            "\(String(describing: part?.diagnostic.message))")
        let none = Self.failure { () throws(TimelineError) in
            _ = try ValidationState.merging([byPartition[5][0], byPartition[6][1]])
                .finishingPartitions()
        }
        #expect(
            none?.kind == .data && none?.diagnostic.message.hasPrefix("nothing to finish") == true,
            "\(String(describing: none))")
    }

    @Test(
        "with the rules over ids and series ignored there is nothing to finish: the pieces, finished, still merge into one run's report"
    )
    func nothingToFinish() throws {
        let lines = Self.orders(seed: 31, rows: 150)
        var options = try Self.options
        options.ignored = [.duplicateID, .mixedOffsets, .suspectZoneShift]
        options.read.csv.columns = .names(Self.header.split(separator: ",").map(String.init))
        func slice(_ range: Range<Int>) throws -> ValidationState {
            let text = lines[range].joined(separator: "\n") + "\n"
            let source = TimelineSource.string(text, name: "part").slice(
                of: "orders.csv", firstRecord: range.lowerBound + 1, firstLine: range.lowerBound + 2
            )
            return try Timeline.validateKeepingState([source], options: options).state
        }
        let states = [try slice(0..<60), try slice(60..<150)]
        #expect(states.allSatisfy { $0.isComplete })
        let finished = try (0..<ValidationState.partitionCount).map { p in
            try ValidationState.merging(states.map { $0.splitByPartition()[p] })
                .finishingPartitions()
        }
        var whole = options
        whole.read.csv.columns = nil
        let one = try Timeline.validate(
            [.string(([Self.header] + lines).joined(separator: "\n") + "\n", name: "orders.csv")],
            options: whole)
        #expect(try ValidationState.merging(finished).report().json == one.json)
    }

    /// A state file's head (up to its entries) and its entries as (kind, bytes), read here
    /// by the format's description, so a test can change an entry and frame it again with
    /// its checksum (which no random damage gets past).
    static func entries(of file: [UInt8]) throws -> (
        head: [UInt8], entries: [(kind: UInt8, bytes: [UInt8])]
    ) {
        var r = BinaryReader(bytes: file, at: 12)
        _ = try r.string()
        _ = try r.byte()
        _ = try r.string()
        _ = try r.optional { (r: inout BinaryReader) throws(BinaryReader.Corrupt) in try r.string()
        }
        _ = try r.strings()
        let head = Array(file[..<r.at])
        var entries: [(UInt8, [UInt8])] = []
        for _ in 0..<(try r.count()) {
            let kind = try r.byte()
            let length = Int(try r.int())
            _ = try r.int()
            entries.append((kind, Array(file[r.at..<(r.at + length)])))
            r.at += length
        }
        return (head, entries)
    }

    static func file(head: [UInt8], entries: [(kind: UInt8, bytes: [UInt8])]) -> [UInt8] {
        var out = head
        BinaryWriter.count(entries.count, &out)
        for (kind, bytes) in entries {
            out.append(kind)
            BinaryWriter.count(bytes.count, &out)
            BinaryWriter.int(
                Int64(bitPattern: bytes.withByteView { StringIndex.hash(bytes: $0) }), &out)
            out += bytes
        }
        return out + Array("TLVS-END".utf8)
    }

    @Test(
        "an entry changed at random and framed again with its checksum: a report or a data error, never a crash"
    )
    func mutatedEntries() throws {
        let lines = Self.orders(seed: 21, rows: 120)
        let (a, b) = (try Self.sliceState(lines, 0..<70), try Self.sliceState(lines, 70..<120))
        // Slices, facts and finished partitions: partition 0 finished, the rest as facts.
        let finished = try ValidationState.merging([
            a.splitByPartition()[0], b.splitByPartition()[0],
        ]).finishingPartitions()
        let state = try ValidationState.merging([a, b, finished])
        let expected = try state.report().json
        let (head, entries) = try Self.entries(of: state.bytes)
        #expect(
            Self.file(head: head, entries: entries) == state.bytes,
            "the test reads the format as written")
        #expect(Set(entries.map(\.kind)) == [0, 1, 2])
        var random = SplitMix64(seed: 77)
        var outcomes = (reports: 0, refused: 0)
        for _ in 0..<2_000 {
            var changed = entries
            let e = Int(random.next() % UInt64(entries.count))
            guard !entries[e].bytes.isEmpty else { continue }
            changed[e].bytes = random.mutated(
                entries[e].bytes, edits: 3, alphabet: [0, 1, 2, 0x7F, 0xFF, 0x30, 0x2C])
            do throws(TimelineError) {
                let read = try ValidationState(
                    bytes: Self.file(head: head, entries: changed), name: "m.state")
                _ = try read.report(memory: 1 << 20)
                outcomes.reports += 1
            } catch {
                #expect(error.kind == .data, "\(error.diagnostic.message)")
                outcomes.refused += 1
            }
        }
        #expect(outcomes.refused > 100 && outcomes.reports > 100, "\(outcomes)")
        #expect(try state.report().json == expected)
    }
}
