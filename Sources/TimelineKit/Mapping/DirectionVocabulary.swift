/// Income/expense words that sign an amount (`--map direction=COLUMN`).
package enum AmountDirection: String, CaseIterable, Sendable {
    case income = "in"
    case expense = "out"
    case neutral

    /// The amount with the sign this direction gives it (magnitude kept).
    package func apply(to value: DecimalNumber) -> DecimalNumber {
        switch self {
        case .income: return value.isNegative ? value.negated : value
        case .expense: return value.isNegative ? value : value.negated
        case .neutral: return value
        }
    }
}

/// The words of a direction column, case-insensitive, extended or overridden by
/// `--direction-map WORD=in|out|neutral`.
package struct DirectionVocabulary: Sendable {
    private var words: [String: AmountDirection]

    /// The built-in words, by direction (`Words/directions.json`; docs/mapping.md lists them,
    /// a test compares the two).
    package static let builtIn: [(AmountDirection, [String])] = BuiltInWords.directions.compactMap {
        key, words in
        AmountDirection(rawValue: key).map { ($0, words) }
    }

    /// The built-in words.
    public init() {
        var w: [String: AmountDirection] = [:]
        for (direction, list) in Self.builtIn { for word in list { w[word] = direction } }
        words = w
    }

    /// Adds or overrides `WORD=in|out|neutral`.
    public mutating func add(_ spec: String) throws(TimelineError) {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2,
            let direction = AmountDirection(rawValue: parts[1].trimmingSpaces.lowercased())
        else {
            throw TimelineError(
                .usage,
                "invalid \(.directionMap, "'\(spec)'"); expected WORD=in, WORD=out or WORD=neutral (e.g. Bij=in)"
            )
        }
        words[parts[0].trimmingSpaces.lowercased()] = direction
    }

    /// The direction a word names, or nil when it is not known.
    package func direction(for word: String) -> AmountDirection? {
        words[word.trimmingSpaces.lowercased()]
    }
}
