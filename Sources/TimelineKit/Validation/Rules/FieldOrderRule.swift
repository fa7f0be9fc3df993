/// TZ112 (error): a date that reads either day-first or month-first (`03/04/2024`) with
/// nothing to decide it. Found while reading; the record is rejected.
enum FieldOrderRule: RuleDeclaration {
    static let code = FindingCode.fieldOrderAmbiguous
    static let summary = "dates whose day/month order no value and no flag decides"
    static let readingAdvice: String? =
        "dates that read either day-first or month-first; pass \(.dayFirst) or \(.monthFirst)"
}

extension FindingCode {
    /// TZ112: a date that reads either day-first or month-first.
    public static let fieldOrderAmbiguous = FindingCode("TZ112", name: "field-order-ambiguous")
}
