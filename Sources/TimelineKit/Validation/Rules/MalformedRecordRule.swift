/// E006 (error): a record that cannot be read at all: a CSV row with an unterminated quote
/// or text after a closing quote, an NDJSON line that is not JSON or not an object, an
/// event of the canonical format that breaks its schema.
enum MalformedRecordRule: RuleDeclaration {
    static let code = FindingCode.malformedRecord
    static let summary = "a record that cannot be read in its format"
    static let readingAdvice: String? =
        "records that are not well-formed in their format; see the first reason, and fix the source"
}

extension FindingCode {
    /// E006: a record not well-formed in its format.
    public static let malformedRecord = FindingCode("E006", name: "malformed-record")
}
