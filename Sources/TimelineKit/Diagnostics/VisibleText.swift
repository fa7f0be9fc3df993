/// Text from the data shown to people — the text and Markdown timelines, diagnostics, the
/// validation report — with what a terminal or a reader would act on or hide made visible:
/// a control character (C0 but a tab, DEL, C1) as `\x1b`, `\n`, `\u{9b}`, so no escape
/// sequence clears a screen, retitles a window or fakes a line; a bidirectional control
/// or an invisible character as `<U+202E>`, so `invoice_<U+202E>gpj.exe` cannot pass for
/// `invoice_exe.jpg`. NUL is shown as `\x00` rather than dropped: nothing the data holds
/// disappears. Text with none of these is returned as it is.
package enum VisibleText {
    /// - Parameter lineBreaks: keep LF (and CRLF) as line breaks, for a multi-line detail.
    package static func forPeople(_ text: String, lineBreaks: Bool = false) -> String {
        if text.withByteView({ $0.isPrintableASCII }) { return text }
        guard text.unicodeScalars.contains(where: { isHidden($0) }) else { return text }
        var out = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (i, scalar) in scalars.enumerated() {
            let endsLine =
                scalar == "\n"
                || (scalar == "\r" && i + 1 < scalars.count && scalars[i + 1] == "\n")
            if lineBreaks && endsLine {
                if scalar == "\n" { out.append(scalar) }  // a CRLF is one break
                continue
            }
            guard isHidden(scalar) else {
                out.append(scalar)
                continue
            }
            let shown: String
            switch scalar.value {
            case 0x0A: shown = "\\n"
            case ..<0x20, 0x7F: shown = "\\x" + hex(scalar.value, 2)
            case 0x80...0x9F: shown = "\\u{" + hex(scalar.value, 2) + "}"
            default: shown = "<U+" + hex(scalar.value, 4) + ">"
            }
            out.append(contentsOf: shown.unicodeScalars)
        }
        return String(out)
    }

    /// Whether `scalar` is acted on or hidden rather than shown: controls but a tab,
    /// bidirectional controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069) and
    /// invisible ones (U+200B–U+200D, U+2060, U+FEFF).
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: return false
        case ..<0x20, 0x7F...0x9F: return true
        case 0x061C, 0x200B...0x200F, 0x202A...0x202E, 0x2060, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }

    private static func hex(_ value: UInt32, _ digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: digits == 4)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
