/// TZ113 (warning): the same event id more than once.
final class DuplicateIDRule: ValidationRule {
    var code: FindingCode { .duplicateID }

    /// Where an id was first seen and how often; the example for an occurrence is its file,
    /// line and the id itself, so no event text is kept.
    private struct Seen {
        var file: Int32
        var line: Int32
        var count: Int32
    }

    private var seen: [String: Seen] = [:]
    private var files: [String] = []
    private var fileIndex: [String: Int32] = [:]
    /// Occurrences after the first, for ids seen more than once (the examples need them).
    private var repeats: [String: [(file: Int32, line: Int32)]] = [:]

    func observe(_ e: Event) {
        let file = index(of: e.source?.file ?? "-")
        let line = Int32(clamping: e.source?.line ?? -1)
        // One hash lookup: count through the dictionary's in-place accessor.
        let count = { (s: inout Seen) -> Int32 in
            s.count += 1
            return s.count
        }(&seen[e.id, default: Seen(file: file, line: line, count: 0)])
        if count > 1 && count <= Int32(Finding.maximumExamples) {
            repeats[e.id, default: []].append((file, line))
        }
    }

    private func index(of file: String) -> Int32 {
        if let last = files.last, last == file { return Int32(files.count - 1) }
        if let i = fileIndex[file] { return i }
        files.append(file)
        fileIndex[file] = Int32(files.count - 1)
        return Int32(files.count - 1)
    }

    func finish() -> Finding? {
        guard !repeats.isEmpty else { return nil }
        let duplicated = repeats.keys.sorted().map { ($0, seen[$0]!) }
        let count = duplicated.reduce(0) { $0 + Int($1.1.count) }
        var examples: [Finding.Example] = []
        for (id, first) in duplicated where examples.count < Finding.maximumExamples {
            for (file, line) in [(first.file, first.line)] + repeats[id]! {
                examples.append(Finding.Example(file: files[Int(file)], line: line < 0 ? nil : Int(line), value: id, note: nil))
            }
        }
        return Finding(
            code: code, severity: .warning, count: count,
            message: "\(duplicated.count) id(s) occur more than once (\(duplicated.prefix(3).map { "'\($0.0)' ×\($0.1.count)" }.joined(separator: ", "))); "
                + "systems keyed by id will keep only one — map a unique column with --map id=COLUMN",
            examples: examples)
    }
}
