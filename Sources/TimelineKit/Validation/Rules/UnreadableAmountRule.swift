/// E003 (error): an amount that cannot be read as a number (`12,50` without
/// `--decimal-comma`, a word). The record is rejected.
enum UnreadableAmountRule: RuleDeclaration {
    static let code = FindingCode.unreadableAmount
    static let readingAdvice: String? = "amounts that are not numbers such as -12.50 or ¥1,024.00; pass --decimal-comma for 1.234,50, or map another column with --map amount=COLUMN"
}

extension FindingCode {
    /// E003: an amount that is not a number.
    public static let unreadableAmount = FindingCode("E003", name: "unreadable-amount")
}
