/// E004 (error): an income/expense word in the direction column (`--map direction=COLUMN`)
/// that is none of the known ones. The record is rejected.
enum UnknownDirectionRule: RuleDeclaration {
    static let code = FindingCode.unknownDirection
    static let summary = "a direction word that is neither income, expense nor neutral"
    static let readingAdvice: String? =
        "income/expense words that are not known (income/expense, credit/debit, 收入/支出, +/-); check the column mapped with \(.map, "direction=COLUMN"), or add the words with \(.directionMap, "WORD=in|out|neutral")"
}

extension FindingCode {
    /// E004: an income/expense word that is not known.
    public static let unknownDirection = FindingCode("E004", name: "unknown-direction")
}
