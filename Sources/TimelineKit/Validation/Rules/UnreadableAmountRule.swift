/// E003 (error): an amount that cannot be read as a number: a word, a value written with
/// the other decimal mark than its column's (`26,99` among decimal points), or one that
/// could be read either way when nothing decides (`1.450`). The record is rejected.
enum UnreadableAmountRule: RuleDeclaration {
    static let code = FindingCode.unreadableAmount
    static let summary = "an amount that cannot be read as an exact number"
    static let readingAdvice: String? =
        "amounts that are not numbers such as -12.50 or ¥1,024.00; a decimal mark the column leaves open (1.450) takes \(.decimalComma) or \(.decimalPoint); or map another column with \(.map, "amount=COLUMN")"
}

extension FindingCode {
    /// E003: an amount that is not a number.
    public static let unreadableAmount = FindingCode("E003", name: "unreadable-amount")
}
