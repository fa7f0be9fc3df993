/// E005 (error): a CSV row with more or fewer fields than the header. The record is rejected
/// with its fields, so a `--rejects` file keeps them.
enum FieldCountRule: RuleDeclaration {
    static let code = FindingCode.fieldCount
    static let summary = "a CSV row with more or fewer fields than its header"
    static let readingAdvice: String? =
        "rows with more or fewer fields than the header; check the delimiter (\(.delimiter)) and quoting in the source"
}

extension FindingCode {
    /// E005: a CSV row with more or fewer fields than the header.
    public static let fieldCount = FindingCode("E005", name: "field-count")
}
