/// TZ113 (warning): the same event id more than once.
struct DuplicateIDRule: ValidationRule {
    var code: FindingCode { .duplicateID }

    func check(_ context: ValidationContext) -> Finding? {
        // Indices, not events: copying every event into the dictionary cost more than the check.
        var seen: [String: [Int]] = [:]
        seen.reserveCapacity(context.events.count)
        for (i, e) in context.events.enumerated() { seen[e.id, default: []].append(i) }
        let duplicated = seen.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value.map { context.events[$0] }) }
        guard !duplicated.isEmpty else { return nil }
        let count = duplicated.reduce(0) { $0 + $1.1.count }
        return Finding(
            code: code, severity: .warning, count: count,
            message: "\(duplicated.count) id(s) occur more than once (\(duplicated.prefix(3).map { "'\($0.0)' ×\($0.1.count)" }.joined(separator: ", "))); "
                + "systems keyed by id will keep only one — map a unique column with --map id=COLUMN",
            examples: duplicated.flatMap { $0.1.map { $0.example(value: $0.id) } })
    }
}
