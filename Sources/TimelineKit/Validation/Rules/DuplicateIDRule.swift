/// TZ113 (warning): the same event id more than once.
final class DuplicateIDRule: ValidationRule {
    var code: FindingCode { .duplicateID }

    /// Ids by number, with where each was first seen and how often; the example for an
    /// occurrence is its file, line and the id itself, so no event text is kept.
    private var ids = StringIndex()
    private var counts: [Int32] = []
    private var firstSeen: [Place] = []
    /// Occurrences after the first, for ids seen more than once (the examples need them).
    private var repeats: [Int: [Place]] = [:]
    private var files = StringIndex()

    struct Place {
        var file: Int32  // a number in `files` (in a digest: in the digest's `files`)
        var line: Int32  // -1: none
    }

    /// A batch's ids in order, hashed (the costly part, done on the worker thread).
    struct Digest {
        var ids: [String] = []
        var hashes: [UInt64] = []
        var places: [Place] = []
        var files: [String] = []
    }

    func digest(_ events: UnsafeBufferPointer<EventFacts>) -> Digest {
        var d = Digest()
        d.ids.reserveCapacity(events.count)
        d.hashes.reserveCapacity(events.count)
        d.places.reserveCapacity(events.count)
        events.forEachFact { e in
            let file = e.pointee.file
            if d.files.last != file { d.files.append(file) }
            d.ids.append(e.pointee.id)
            d.hashes.append(StringIndex.hash(e.pointee.id))
            d.places.append(Place(file: Int32(d.files.count - 1), line: Int32(clamping: e.pointee.line ?? -1)))
        }
        return d
    }

    func absorb(_ d: consuming Digest) {
        let fileNumbers = d.files.map { Int32(files.number(of: $0).number) }
        for i in d.ids.indices {
            var place = d.places[i]
            place.file = fileNumbers[Int(place.file)]
            let (n, isNew) = ids.number(of: d.ids[i], hash: d.hashes[i])
            if isNew {
                counts.append(1)
                firstSeen.append(place)
                continue
            }
            counts[n] += 1
            if counts[n] <= Int32(Finding.maximumExamples) { repeats[n, default: []].append(place) }
        }
    }

    func finish() -> Finding? {
        guard !repeats.isEmpty else { return nil }
        let duplicated = repeats.keys.map { (ids.strings[$0], $0) }.sorted { $0.0 < $1.0 }
        let count = duplicated.reduce(0) { $0 + Int(counts[$1.1]) }
        var examples: [Finding.Example] = []
        for (id, n) in duplicated where examples.count < Finding.maximumExamples {
            for place in [firstSeen[n]] + repeats[n]! {
                examples.append(Finding.Example(file: files.strings[Int(place.file)], line: place.line < 0 ? nil : Int(place.line), value: id))
            }
        }
        return Finding(
            code: code, severity: .warning, count: count,
            message: "\(duplicated.count) id(s) occur more than once (\(duplicated.prefix(3).map { "'\($0.0)' ×\(counts[$0.1])" }.joined(separator: ", "))); "
                + "systems keyed by id will keep only one — map a unique column with --map id=COLUMN",
            examples: examples)
    }
}
