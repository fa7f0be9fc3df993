/// TZ113 (warning): the same event id more than once.
///
/// Checked by partition of the id (`PartitionedRule`): the ids importers give records
/// without one (`orders.csv:12`) are made again as text (`KeyedFactCodec` writes them out
/// for a partition), so one comparison of texts finds two files sharing a base name and a
/// source id that reads the same as another record's.
final class DuplicateIDRule: PartitionedRule {
    static let code = FindingCode.duplicateID
    static let summary = "one id on several events"
    static let partitionKey = PartitionKey.id

    init(_ context: ValidationContext) {}
    private var seen = Occurrences()

    /// Every id seen and where. A value type the rule holds as one property, so reading a
    /// batch is one access to the rule's state, not one (checked at run time) per id.
    struct Occurrences {
        /// Ids by number (their bytes only), with where each was first seen and how often;
        /// the example for an occurrence is its file, line and the id itself, so no event
        /// text is kept.
        var ids = ByteStringIndex()
        var counts: [Int32] = []
        var firstSeen: [Place] = []
        /// Occurrences after the first, for ids seen more than once (the examples need them).
        var repeats: [Int: [Place]] = [:]
    }

    struct Place {
        var file: Int32  // the file's number in the run
        var line: Int32  // -1: none
    }

    func read(_ batch: ValidationBatch, _ numbers: BatchNumbers) {
        seen.read(batch, numbers)
    }

    /// What one partition found: how many ids occur more than once and how many events
    /// carry them, and the first of those ids in order with their counts and occurrences
    /// (in input order: files by first appearance, then lines).
    struct Part {
        var ids = 0
        var events = 0
        var first: [(id: String, count: Int, examples: [Finding.Example])] = []
    }

    func finishPart(_ names: RunNames) -> Part {
        let (ids, counts, firstSeen, repeats) = (
            seen.ids, seen.counts, seen.firstSeen, seen.repeats
        )
        var part = Part(ids: repeats.count, events: repeats.keys.reduce(0) { $0 + Int(counts[$1]) })
        let smallest = MixedOffsetsRule.smallest(Finding.maximumExamples, of: Array(repeats.keys)) {
            ids[$0] < ids[$1]
        }
        for n in smallest {
            // In input order: files by first appearance, then lines (a file read twice
            // interleaves).
            let places = ([firstSeen[n]] + repeats[n]!).sorted {
                ($0.file, $0.line) < ($1.file, $1.line)
            }
            part.first.append(
                (
                    ids[n], Int(counts[n]),
                    places.map { place in
                        Finding.Example(
                            file: names.files.strings[Int(place.file)],
                            line: place.line < 0 ? nil : Int(place.line), value: ids[n])
                    }
                ))
        }
        return part
    }

    static func finding(combining parts: [Part]) -> Finding? {
        let ids = parts.reduce(0) { $0 + $1.ids }
        guard ids > 0 else { return nil }
        let first = parts.flatMap(\.first).sorted { $0.id < $1.id }.prefix(Finding.maximumExamples)
        var examples: [Finding.Example] = []
        for id in first where examples.count < Finding.maximumExamples { examples += id.examples }
        return Finding(
            code: Self.code, severity: .warning, count: parts.reduce(0) { $0 + $1.events },
            message:
                "\(ids) id(s) occur more than once (\(first.prefix(3).map { "'\($0.id)' ×\($0.count)" }.joined(separator: ", "))); "
                + "systems keyed by id will keep only one — map a unique column with \(.map, "id=COLUMN")",
            examples: examples)
    }
}

extension DuplicateIDRule.Occurrences {
    /// Takes a batch's ids in input order, so the occurrences kept as examples never depend
    /// on where batches begin; a generated id is made again as text, unless the batch says it
    /// cannot equal another id (`GeneratedIDs`).
    mutating func read(_ batch: ValidationBatch, _ numbers: BatchNumbers) {
        var scratch: [UInt8] = []
        for e in batch.facts {
            let place = DuplicateIDRule.Place(file: numbers.files[Int(e.file)], line: e.line)
            if let id = e.id {
                batch.ids.withBytes(id) { add($0, at: place) }
            } else if batch.generatedIDsMayCollide(in: e.file) {
                scratch.removeAll(keepingCapacity: true)
                scratch += batch.generatedIDPrefixes[Int(e.file)]
                appendDigits(e.record, width: 1, to: &scratch)
                scratch.withByteView { add($0, at: place) }
            }
        }
    }

    private mutating func add(_ id: ByteView, at place: DuplicateIDRule.Place) {
        let (n, isNew) = ids.number(of: id, hash: StringIndex.hash(bytes: id))
        if isNew {
            counts.append(1)
            firstSeen.append(place)
            return
        }
        counts[n] += 1
        if counts[n] <= Int32(Finding.maximumExamples) { repeats[n, default: []].append(place) }
    }
}

extension DuplicateIDRule.Part: StateCodable {
    func encode(to out: inout [UInt8]) {
        FlaggedKeysCoding.encode(flagged: ids, events: events, first: first, to: &out) { id, out in
            BinaryWriter.string(id.id, &out)
            BinaryWriter.count(id.count, &out)
            id.examples.encode(to: &out)
        }
    }

    init(decoding r: inout BinaryReader) throws(BinaryReader.Corrupt) {
        (ids, events, first) = try FlaggedKeysCoding.decode(&r) {
            (r: inout BinaryReader) throws(BinaryReader.Corrupt) in
            (try r.string(), try r.number(), try r.list())
        }
    }
}

extension FindingCode {
    /// TZ113: the same id more than once.
    public static let duplicateID = FindingCode("TZ113", name: "duplicate-id")
}
