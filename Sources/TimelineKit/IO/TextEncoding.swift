/// Text encodings an input may be in (`--encoding`).
package enum TextEncoding: String, CaseIterable, Sendable {
    /// UTF-8, the default; a byte-order mark is skipped.
    case utf8 = "utf-8"
    /// GB18030, as Chinese bank and wallet exports write it (a superset of GBK and GB2312).
    case gb18030
    /// UTF-16 with a byte-order mark (big-endian without one).
    case utf16 = "utf-16"
    /// ISO 8859-1.
    case latin1
    /// Windows-1252 (ISO 8859-1 with `€`, `–`, `’` … in 0x80–0x9F), as European banks'
    /// exports write it.
    case windows1252 = "windows-1252"
    /// ISO 8859-15 (ISO 8859-1 with `€`, `Œ`, `Š` …).
    case latin9 = "iso-8859-15"
    /// Shift_JIS as Windows writes it (CP932: with NEC and IBM extensions such as `㈱`),
    /// Japanese banks' exports.
    case shiftJIS = "shift_jis"
    /// EUC-KR as Windows writes it (CP949, unified hangul code: every syllable), Korean
    /// banks' exports.
    case eucKR = "euc-kr"
    /// Big5 as Windows writes it (CP950), Taiwanese and Hong Kong exports.
    case big5
}

extension TextEncoding {
    /// The name notes use: `GB18030`, `Shift_JIS`, `Windows-1252`.
    var displayName: String {
        switch self {
        case .utf8: return "UTF-8"
        case .gb18030: return "GB18030"
        case .utf16: return "UTF-16"
        case .latin1: return "ISO 8859-1"
        case .windows1252: return "Windows-1252"
        case .latin9: return "ISO 8859-15"
        case .shiftJIS: return "Shift_JIS"
        case .eucKR: return "EUC-KR"
        case .big5: return "Big5"
        }
    }
}
