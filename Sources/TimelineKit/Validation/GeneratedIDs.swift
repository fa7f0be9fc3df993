/// Which files' generated ids (`Event.generatedID`, `orders.csv:12`) can equal another id of
/// a run, so that the duplicate-id check compares only those: a generated id is its file's
/// base name and its record number, so it equals another id only when another file has the
/// same base name, the file is read twice (its record numbers start again), or a source id
/// starts with the same `name:`. A run of one file and no such source id — the usual one —
/// compares none of its generated ids, which it would otherwise make and hash one by one.
enum GeneratedIDs {
    /// Marks in each batch (its files by their run numbers in `numbers`) whether the
    /// generated ids of each of its files may collide; `names` are the run's files.
    static func markCollisions(
        in held: inout [(batch: ValidationBatch, numbers: BatchNumbers)], names: [String]
    ) {
        var mayCollide = [Bool](repeating: false, count: names.count)
        var filesByPrefix: [[UInt8]: [Int]] = [:]
        for (f, name) in names.enumerated() {
            filesByPrefix[Array(Event.generatedIDPrefix(file: name).utf8), default: []].append(f)
        }
        for files in filesByPrefix.values where files.count > 1 {
            for f in files { mayCollide[f] = true }
        }
        var lastRecord = [Int](repeating: Int.min, count: names.count)
        for (batch, numbers) in held {
            let files = numbers.files
            for e in batch.facts {
                guard let id = e.id else {
                    let f = Int(files[Int(e.file)])
                    if e.record <= lastRecord[f] { mayCollide[f] = true }
                    lastRecord[f] = e.record
                    continue
                }
                batch.ids.withBytes(id) { bytes in
                    // Every `name:` the id starts with that is a file's prefix.
                    for i in 0..<bytes.count where bytes[i] == UInt8(ascii: ":") {
                        guard let sharing = filesByPrefix[bytes[0..<(i + 1)].array] else {
                            continue
                        }
                        for f in sharing { mayCollide[f] = true }
                    }
                }
            }
        }
        for i in held.indices {
            held[i].batch.generatedIDsMayCollide = held[i].numbers.files.map { mayCollide[Int($0)] }
        }
    }
}
