/// E002 (error): a record with no start time at all: its start column is empty, no column
/// was recognised as the start, or an ICS component has no DTSTART (nor DUE for a to-do).
enum MissingStartRule: RuleDeclaration {
    static let code = FindingCode.missingStart
    static let summary = "a record with no start time"
    static let readingAdvice: String? =
        "records with no start time (an empty or unrecognised start column, a calendar component without DTSTART); map the start column with \(.map, "start=COLUMN"), or fix the source"
}

extension FindingCode {
    /// E002: a record with no start time.
    public static let missingStart = FindingCode("E002", name: "missing-start")
}
