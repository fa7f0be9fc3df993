/// E007 (error): a record whose bytes are not valid UTF-8 (the input is in another
/// encoding). The record is rejected naming the byte offset.
enum InvalidEncodingRule: RuleDeclaration {
    static let code = FindingCode.invalidEncoding
    static let summary = "bytes that are not text in the input's encoding"
    static let readingAdvice: String? =
        "records that are not valid UTF-8; pass the file's encoding with \(.encoding) (gb18030, shift_jis, euc-kr, big5, windows-1252, iso-8859-15, latin1, utf-16)"
}

extension FindingCode {
    /// E007: a record that is not valid UTF-8.
    public static let invalidEncoding = FindingCode("E007", name: "invalid-encoding")
}
