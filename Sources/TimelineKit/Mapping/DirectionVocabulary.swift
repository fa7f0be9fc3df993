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
public struct DirectionVocabulary: Sendable {
    private var words: [String: AmountDirection]

    /// The built-in words, by direction (docs/mapping.md lists them; a test compares the two).
    package static let builtIn: [(AmountDirection, [String])] = [
        (.income, [
            "income", "in", "credit", "cr", "+", "收入", "收", "入账", "收款", "bij", "haben", "h", "eingang", "crédit", "credito", "crédito",
            "entrada", "avere", "entrate", "入金", "預かり", "振替預かり", "입금",
        ]),
        (.expense, [
            "expense", "out", "debit", "dr", "-", "支出", "支", "出账", "付款", "af", "soll", "s", "ausgang", "débit", "debito", "débito", "saída",
            "saida", "dare", "uscite", "出金", "支払い", "振替支払い", "출금",
        ]),
        (.neutral, ["", "/", "neutral", "memo", "不计收支", "其他"]),
    ]

    /// The built-in words.
    public init() {
        var w: [String: AmountDirection] = [:]
        for (direction, list) in Self.builtIn { for word in list { w[word] = direction } }
        words = w
    }

    /// Adds or overrides `WORD=in|out|neutral`.
    public mutating func add(_ spec: String) throws(TimelineError) {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let direction = AmountDirection(rawValue: parts[1].trimmingSpaces.lowercased()) else {
            throw TimelineError(.usage, "invalid --direction-map '\(spec)'; expected WORD=in, WORD=out or WORD=neutral (e.g. Bij=in)")
        }
        words[parts[0].trimmingSpaces.lowercased()] = direction
    }

    /// The direction a word names, or nil when it is not known.
    package func direction(for word: String) -> AmountDirection? {
        words[word.trimmingSpaces.lowercased()]
    }
}
