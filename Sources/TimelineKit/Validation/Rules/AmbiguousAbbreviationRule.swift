/// TZ109 (error): a zone abbreviation with several meanings (`CST`, `IST`, `BST`, …) that
/// `--abbrev` does not resolve. Found while reading; the record is rejected.
enum AmbiguousAbbreviationRule: RuleDeclaration {
    static let code = FindingCode.ambiguousAbbreviation
    static let summary = "a zone abbreviation that names several zones (CST, IST)"
    static let readingAdvice: String? =
        "zone abbreviations with several meanings; resolve them with \(.abbrev, "ABBR=Area/City")"
}

extension FindingCode {
    /// TZ109: a zone abbreviation with several meanings.
    public static let ambiguousAbbreviation = FindingCode("TZ109", name: "ambiguous-abbreviation")
}
