/// E001 (error): a date, time or duration no parser accepts. Found while reading; the record
/// is rejected, naming the parser that came closest.
enum UnparseableRule: RuleDeclaration {
    static let code = FindingCode.unparseable
    static let summary = "a time no syntax of the date engine reads"
    static let readingAdvice: String? =
        "values no parser accepts; add their shape with \(.dateFormat)"
}

extension FindingCode {
    /// E001: a value no parser accepts.
    public static let unparseable = FindingCode("E001", name: "unparseable")
}
