/// TZ113 (warning): the same event id more than once.
///
/// Ids of the form importers give records without one — the file's base name, a colon and
/// the record number (`orders.csv:12`) — are unique by construction unless two files share
/// a base name (or one is read twice), or a source id happens to read the same. An id of
/// exactly that form for its own event is therefore not put in the id table but in a slot
/// per record number of its base name (a few bytes, no hashing); a second event in the
/// same slot moves the id to the table, and at the end every table id of that form is
/// checked against the slots. Other ids go to the table as they come.
final class DuplicateIDRule: PartitionedRule {
    static let code = FindingCode.duplicateID
    static let partitionKey = PartitionKey.id

    init(_ context: ValidationContext) {}
    private var seen = Occurrences()

    /// Every id seen and where. A value type the rule holds as one property, so absorbing
    /// a batch is one access to the rule's state, not one (checked at run time) per id.
    struct Occurrences {
        /// Ids by number (their bytes only), with where each was first seen and how often;
        /// the example for an occurrence is its file, line and the id itself, so no event
        /// text is kept.
        var ids = ByteStringIndex()
        var counts: [Int32] = []
        var firstSeen: [Place] = []
        /// Occurrences after the first, for ids seen more than once (the examples need them).
        var repeats: [Int: [Place]] = [:]
        /// Own-form ids: per id prefix (base name and colon, numbered in `prefixes`), a slot
        /// per record number.
        var prefixes = StringIndex()
        var slots: [ChunkedArray<Slot>] = []
    }

    struct Place {
        var file: Int32  // the file's number (in a digest: the batch's)
        var line: Int32  // -1: none
    }

    /// Where the own-form id of one record number was first seen; `table` is its number in
    /// `ids` once seen again (-1 before).
    struct Slot {
        var place = Place(file: -1, line: -1)
        var table: Int32 = -1
    }

    /// One id of a batch: where it was seen, and either the record number of an own-form id
    /// or the id (in the batch's arena, shared) with its hash — the costly part, done on
    /// the worker thread.
    struct Occurrence {
        var place: Place
        var record: Int
        var id: TextArena.Text?
        var hash: UInt64 = 0
    }

    /// A batch's ids in order, and the own-form id prefix of each of its files.
    struct Digest {
        var occurrences: [Occurrence] = []
        var ids: TextArena
        var prefixes: [String]
    }

    func digest(_ batch: ValidationBatch) -> Digest {
        var d = Digest(ids: batch.ids, prefixes: batch.generatedIDPrefixes.map { String(decoding: $0, as: UTF8.self) })
        d.occurrences.reserveCapacity(batch.facts.count)
        for e in batch.facts {
            let place = Place(file: e.file, line: e.line)
            guard let id = e.id else {
                d.occurrences.append(Occurrence(place: place, record: e.record))
                continue
            }
            d.occurrences.append(Occurrence(
                place: place, record: e.record, id: id, hash: batch.ids.withBytes(id) { StringIndex.hash(bytes: $0) }))
        }
        return d
    }

    func absorb(_ d: consuming Digest, _ numbers: BatchNumbers) {
        seen.absorb(d, numbers)
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
        seen.countOwnFormReadings()
        let (ids, counts, firstSeen, repeats) = (seen.ids, seen.counts, seen.firstSeen, seen.repeats)
        var part = Part(ids: repeats.count, events: repeats.keys.reduce(0) { $0 + Int(counts[$1]) })
        let smallest = MixedOffsetsRule.smallest(Finding.maximumExamples, of: Array(repeats.keys)) { ids[$0] < ids[$1] }
        for n in smallest {
            // An own-form occurrence found at the end, or one moved to the table late, may
            // have come first.
            let places = ([firstSeen[n]] + repeats[n]!).sorted { ($0.file, $0.line) < ($1.file, $1.line) }
            part.first.append((ids[n], Int(counts[n]), places.map { place in
                Finding.Example(file: names.files.strings[Int(place.file)], line: place.line < 0 ? nil : Int(place.line), value: ids[n])
            }))
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
            message: "\(ids) id(s) occur more than once (\(first.prefix(3).map { "'\($0.id)' ×\($0.count)" }.joined(separator: ", "))); "
                + "systems keyed by id will keep only one — map a unique column with --map id=COLUMN",
            examples: examples)
    }

    /// The prefix number and record number an id of the own form reads as, if it does.
    static func ownForm(_ id: ByteView, prefixes: [[UInt8]]) -> (Int, Int)? {
        guard let colon = id.lastIndex(of: UInt8(ascii: ":")),
            let base = prefixes.firstIndex(where: { $0.count == colon + 1 && id.hasPrefix($0) }),
            let record = Event.generatedRecord(id, prefix: prefixes[base])
        else { return nil }
        return (base, record)
    }
}

extension DuplicateIDRule.Occurrences {
    typealias Place = DuplicateIDRule.Place
    typealias Slot = DuplicateIDRule.Slot

    /// Takes a batch's ids in input order, so the occurrences kept as examples never
    /// depend on where batches begin.
    mutating func absorb(_ d: consuming DuplicateIDRule.Digest, _ numbers: BatchNumbers) {
        let baseOfFile = d.prefixes.map { prefix in
            let (base, isNew) = prefixes.number(of: prefix)
            if isNew { slots.append(ChunkedArray()) }
            return base
        }
        for o in d.occurrences {
            var place = o.place
            place.file = numbers.files[Int(place.file)]
            if let id = o.id {
                count(d.ids.withBytes(id) { ids.number(of: $0, hash: o.hash) }, at: place)
            } else {
                countOwnForm(base: baseOfFile[Int(o.place.file)], record: o.record, at: place)
            }
        }
    }

    private mutating func countOwnForm(base: Int, record: Int, at place: Place) {
        if record >= slots[base].count { slots[base].append(repeating: Slot(), count: record + 1 - slots[base].count) }
        let slot = slots[base][record]
        if slot.place.file < 0 {
            slots[base][record].place = place
            return
        }
        // Seen again (one base name for two files): from now on the id is in the table.
        if slot.table < 0 {
            let id = prefixes.strings[base] + String(record)
            let n = id.withByteView { ids.number(of: $0, hash: StringIndex.hash(bytes: $0)) }
            count(n, at: slot.place)
            slots[base][record].table = Int32(n.number)
        }
        count((Int(slots[base][record].table), false), at: place)
    }

    private mutating func count(_ id: (number: Int, isNew: Bool), at place: Place) {
        let n = id.number
        if id.isNew {
            counts.append(1)
            firstSeen.append(place)
            return
        }
        counts[n] += 1
        if counts[n] <= Int32(Finding.maximumExamples) { repeats[n, default: []].append(place) }
    }

    /// Counts the source ids that read as another record's own-form id: that record is one
    /// more occurrence of them.
    mutating func countOwnFormReadings() {
        guard !slots.allSatisfy(\.isEmpty) else { return }
        let prefixBytes = prefixes.strings.map { Array($0.utf8) }
        for n in 0..<ids.count {
            guard let (base, record) = ids.withBytes(n, { DuplicateIDRule.ownForm($0, prefixes: prefixBytes) }),
                record < slots[base].count, slots[base][record].place.file >= 0, slots[base][record].table != Int32(n)
            else { continue }
            counts[n] += 1
            if counts[n] <= Int32(Finding.maximumExamples) { repeats[n, default: []].append(slots[base][record].place) }
        }
    }
}

extension FindingCode {
    /// TZ113: the same id more than once.
    public static let duplicateID = FindingCode("TZ113", name: "duplicate-id")
}
