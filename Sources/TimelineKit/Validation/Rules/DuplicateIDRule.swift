/// TZ113 (warning): the same event id more than once.
struct DuplicateIDRule: ValidationRule {
    var code: FindingCode { .duplicateID }

    func check(_ context: ValidationContext) -> Finding? {
        var seen: [String: [Event]] = [:]
        for e in context.events { seen[e.id, default: []].append(e) }
        let duplicated = seen.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }
        guard !duplicated.isEmpty else { return nil }
        let count = duplicated.reduce(0) { $0 + $1.value.count }
        return Finding(
            code: code, severity: .warning, count: count,
            message: "\(duplicated.count) id(s) occur more than once (\(duplicated.prefix(3).map { "'\($0.key)' ×\($0.value.count)" }.joined(separator: ", "))); "
                + "systems keyed by id will keep only one — map a unique column with --map id=COLUMN",
            examples: duplicated.flatMap { $0.value.map { $0.example(value: $0.id) } })
    }
}
