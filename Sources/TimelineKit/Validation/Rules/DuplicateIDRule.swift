/// TZ113 (warning): the same event id more than once.
final class DuplicateIDRule: ValidationRule {
    var code: FindingCode { .duplicateID }

    /// Ids by number (their bytes only), with where each was first seen and how often; the
    /// example for an occurrence is its file, line and the id itself, so no event text is kept.
    private var ids = ByteStringIndex()
    private var counts: [Int32] = []
    private var firstSeen: [Place] = []
    /// Occurrences after the first, for ids seen more than once (the examples need them).
    private var repeats: [Int: [Place]] = [:]

    struct Place {
        var file: Int32  // the file's number (in a digest: the batch's)
        var line: Int32  // -1: none
    }

    /// A batch's ids in order: their bytes back to back, hashed (the costly part, done on
    /// the worker thread).
    struct Digest {
        var bytes: [UInt8] = []
        var ends: [Int] = []
        var hashes: [UInt64] = []
        var places: [Place] = []
    }

    func digest(_ batch: ValidationBatch) -> Digest {
        var d = Digest()
        d.ends.reserveCapacity(batch.facts.count)
        d.hashes.reserveCapacity(batch.facts.count)
        d.places.reserveCapacity(batch.facts.count)
        for e in batch.facts {
            var id = e.event.pointee.id
            id.withUTF8 { bytes in
                d.bytes.append(contentsOf: bytes)
                d.hashes.append(StringIndex.hash(bytes: UnsafeRawBufferPointer(bytes)))
            }
            d.ends.append(d.bytes.count)
            d.places.append(Place(file: e.file, line: e.line))
        }
        return d
    }

    func absorb(_ d: consuming Digest, _ numbers: BatchNumbers) {
        d.bytes.withUnsafeBytes { bytes in
            for i in d.ends.indices {
                var place = d.places[i]
                place.file = numbers.files[Int(place.file)]
                let start = i == 0 ? 0 : d.ends[i - 1]
                let (n, isNew) = ids.number(of: UnsafeRawBufferPointer(rebasing: bytes[start..<d.ends[i]]), hash: d.hashes[i])
                if isNew {
                    counts.append(1)
                    firstSeen.append(place)
                    continue
                }
                counts[n] += 1
                if counts[n] <= Int32(Finding.maximumExamples) { repeats[n, default: []].append(place) }
            }
        }
    }

    func finish(_ names: RunNames) -> Finding? {
        guard !repeats.isEmpty else { return nil }
        let duplicated = repeats.keys.map { (ids[$0], $0) }.sorted { $0.0 < $1.0 }
        let count = duplicated.reduce(0) { $0 + Int(counts[$1.1]) }
        var examples: [Finding.Example] = []
        for (id, n) in duplicated where examples.count < Finding.maximumExamples {
            for place in [firstSeen[n]] + repeats[n]! {
                examples.append(Finding.Example(file: names.files.strings[Int(place.file)], line: place.line < 0 ? nil : Int(place.line), value: id))
            }
        }
        return Finding(
            code: code, severity: .warning, count: count,
            message: "\(duplicated.count) id(s) occur more than once (\(duplicated.prefix(3).map { "'\($0.0)' ×\(counts[$0.1])" }.joined(separator: ", "))); "
                + "systems keyed by id will keep only one — map a unique column with --map id=COLUMN",
            examples: examples)
    }
}
