/// Text encodings an input may be in (`--encoding`).
public enum TextEncoding: String, CaseIterable, Sendable {
    /// UTF-8, the default; a byte-order mark is skipped.
    case utf8 = "utf-8"
    /// GB18030, as Chinese bank and wallet exports write it (a superset of GBK and GB2312).
    case gb18030
    /// UTF-16 with a byte-order mark (big-endian without one).
    case utf16 = "utf-16"
    /// ISO 8859-1.
    case latin1
}
