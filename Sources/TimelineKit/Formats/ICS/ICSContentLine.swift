/// One unfolded iCalendar content line: `NAME;PARAM=value,value:VALUE` (RFC 5545 §3.1).
struct ICSContentLine {
    /// Upper-cased, whitespace removed (`REFRESH - INTERVAL` → `REFRESH-INTERVAL`).
    let name: String
    /// Parameters in order; names upper-cased, values unquoted, RFC 6868 `^n ^' ^^` decoded.
    var parameters: [(name: String, values: [String])]
    /// The raw value (TEXT unescaping is the caller's choice: URIs keep their `%`-escapes).
    var value: String
    /// The physical line where the (folded) line starts.
    var line: Int
    /// A hash of `name`, so that looking a property up by name compares integers first.
    let nameKey: UInt64

    init(name: String, parameters: [(name: String, values: [String])], value: String, line: Int) {
        self.name = name
        self.parameters = parameters
        self.value = value
        self.line = line
        nameKey = StringIndex.hash(name)
    }

    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }

    /// Parses one logical line, tolerating whitespace around `;` `=` and `:` in the name
    /// and parameter part. Works on UTF-8 bytes: every delimiter is ASCII.
    static func parse(_ text: String, line: Int) -> Result<ICSContentLine, ICSLineError> {
        text.withByteView { b -> Result<ICSContentLine, ICSLineError> in
            let n = b.count
            var i = 0
            @inline(__always) func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
            /// Bytes `from..<to` as a string without spaces or tabs (names are written
            /// `REFRESH - INTERVAL` by some producers).
            func compact(_ from: Int, _ to: Int) -> String {
                let slice = b[from..<to]
                if !slice.contains(where: isSpace) { return slice.string }
                return String(decoding: slice.array.filter { !isSpace($0) }, as: UTF8.self)
            }
            while i < n, b[i] != 0x3B, b[i] != 0x3A { i += 1 }  // ; :
            let name = compact(0, i)
            guard i < n, !name.isEmpty else {
                return .failure(
                    ICSLineError(
                        line: line,
                        message:
                            "content line '\(Self.shorten(text))' has no ':' between name and value"
                    ))
            }
            var parameters: [(String, [String])] = []
            while i < n, b[i] == 0x3B {
                i += 1
                let nameStart = i
                while i < n, b[i] != 0x3D, b[i] != 0x3B, b[i] != 0x3A { i += 1 }  // = ; :
                let pname = compact(nameStart, i)
                var values: [String] = []
                if i < n, b[i] == 0x3D {
                    i += 1
                    repeat {
                        while i < n, isSpace(b[i]) { i += 1 }
                        var v: String
                        if i < n, b[i] == 0x22 {
                            i += 1
                            let start = i
                            while i < n, b[i] != 0x22 { i += 1 }
                            v = b[start..<i].string
                            if i < n { i += 1 }
                            while i < n, isSpace(b[i]) { i += 1 }
                        } else {
                            let start = i
                            while i < n, b[i] != 0x2C, b[i] != 0x3B, b[i] != 0x3A {
                                // A backslash-escaped ';' ':' ',' in an unquoted value (seen in
                                // real files, not RFC 5545) stays part of the value.
                                if b[i] == 0x5C, i + 1 < n,
                                    b[i + 1] == 0x3B || b[i + 1] == 0x3A || b[i + 1] == 0x2C
                                {
                                    i += 2
                                    continue
                                }
                                i += 1
                            }
                            v = b[start..<i].string.trimmingSpaces
                        }
                        values.append(decodeCaret(v))
                        if i < n, b[i] == 0x2C {
                            i += 1
                            continue
                        }
                        break
                    } while true
                }
                if !pname.isEmpty { parameters.append((upper(pname), values)) }
            }
            guard i < n, b[i] == 0x3A else {
                return .failure(
                    ICSLineError(
                        line: line,
                        message:
                            "content line '\(Self.shorten(text))' has no ':' after its parameters"))
            }
            let value = b[(i + 1)...].string
            return .success(
                ICSContentLine(name: upper(name), parameters: parameters, value: value, line: line))
        }
    }

    /// Upper-cased, without allocating when it already is (nearly always).
    @inline(__always)
    static func upper(_ s: String) -> String {
        let lower = s.withByteView { $0.contains { $0 >= 0x61 && $0 <= 0x7A } }
        return lower ? s.uppercased() : s
    }

    /// RFC 6868 caret encoding in parameter values: `^n` newline, `^'` double quote, `^^` caret.
    static func decodeCaret(_ s: String) -> String {
        guard s.utf8.contains(0x5E) else { return s }  // '^' (a byte test: no Foundation search)
        var out = ""
        var it = s.makeIterator()
        while let c = it.next() {
            guard c == "^" else {
                out.append(c)
                continue
            }
            switch it.next() {
            case "n"?, "N"?: out.append("\n")
            case "'"?: out.append("\"")
            case "^"?: out.append("^")
            case let other?:
                out.append("^")
                out.append(other)
            case nil: out.append("^")
            }
        }
        return out
    }

    static func shorten(_ s: String) -> String { s.count > 40 ? String(s.prefix(40)) + "…" : s }
}

struct ICSLineError: Error {
    var line: Int
    var message: String
}

/// RFC 5545 TEXT values: `\\` `\;` `\,` `\n`/`\N` unescaped in one left-to-right pass.
enum ICSText {
    static func unescape(_ s: String) -> String {
        guard s.withByteView({ $0.contains(0x5C) }) else { return s }
        return s.withByteView { p in
            // Runs between backslashes are copied whole into room as long as the text.
            FixedWriter.string(capacity: p.count) { out in
                var i = 0
                while i < p.count {
                    let run = p.firstIndex(of: 0x5C, from: i) ?? p.count
                    if run > i { out.bytes(p[i..<run]) }
                    guard run < p.count else { break }
                    // A backslash: the escape it starts, or itself at the very end.
                    guard run + 1 < p.count else {
                        out.byte(0x5C)
                        break
                    }
                    let b = p[run + 1]
                    switch b {
                    case UInt8(ascii: "n"), UInt8(ascii: "N"):
                        out.byte(0x0A)
                    case 0x5C, 0x3B, 0x2C, 0x3A:
                        out.byte(b)
                    default:
                        out.byte(0x5C)
                        out.byte(b)
                    }
                    i = run + 2
                }
            }
        }
    }

    /// Splits a list value (CATEGORIES) at commas that are not escaped, then unescapes each.
    static func splitList(_ s: String) -> [String] {
        // ASCII (nearly every category list): split at unescaped commas byte by byte.
        // Otherwise by Character, so that a comma carrying a combining mark stays text.
        if let parts = s.withByteView({ p -> [String]? in
            guard p.isASCII else { return nil }
            var parts: [String] = []
            var start = 0
            var i = 0
            while i < p.count {
                if p[i] == 0x5C {
                    i += 2
                    continue
                }
                if p[i] == 0x2C {
                    parts.append(p[start..<i].string)
                    start = i + 1
                }
                i += 1
            }
            parts.append(p[start..<p.count].string)
            return parts
        }) {
            return parts.map(unescape).filter { !$0.isEmpty }
        }
        var parts: [String] = []
        var current = ""
        var escaped = false
        for c in s {
            if escaped {
                current.append("\\")
                current.append(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "," {
                parts.append(current)
                current = ""
            } else {
                current.append(c)
            }
        }
        if escaped { current.append("\\") }
        parts.append(current)
        return parts.map(unescape).filter { !$0.isEmpty }
    }

    /// Whether `s` holds a control character other than a tab (which no content line may).
    static func hasControl(_ s: Substring) -> Bool {
        s.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }

    /// TEXT escaping, byte by byte: `\\` `\;` `\,`, a line break (LF, CRLF or a lone CR)
    /// as `\n`; another control character but a tab, which TEXT cannot hold, as U+FFFD.
    /// Text without any of those bytes is returned as it is.
    static func escape(_ s: String) -> String {
        s.withByteView { bytes -> String in
            guard
                bytes.contains(where: {
                    $0 == 0x5C || $0 == 0x3B || $0 == 0x2C || ($0 < 0x20 && $0 != 0x09)
                        || $0 == 0x7F
                })
            else { return s }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 8)
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                switch b {
                case 0x5C, 0x3B, 0x2C: out += [0x5C, b]
                case 0x0D:
                    out += [0x5C, UInt8(ascii: "n")]
                    if i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
                case 0x0A: out += [0x5C, UInt8(ascii: "n")]
                case 0x09: out.append(b)
                case ..<0x20, 0x7F: out += [0xEF, 0xBF, 0xBD]
                default: out.append(b)
                }
                i += 1
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}

/// Links as iCalendar URIs (`URL`, `ATTACH`): only `http`, `https` and `mailto`, which a
/// calendar opens without running anything, and with every byte a URI may not hold
/// percent-encoded (RFC 3986: controls, space, non-ASCII, `"<>\\^`{|}`), so a value is
/// always one line.
enum ICSURI {
    static func safe(_ link: String) -> String? {
        let lower = link.prefix(8).lowercased()
        guard
            lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:")
        else { return nil }
        let bytes = Array(link.utf8)
        guard bytes.contains(where: needsEncoding) else { return link }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        for b in bytes {
            if needsEncoding(b) {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0xF)]]
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func needsEncoding(_ b: UInt8) -> Bool {
        switch b {
        case ...0x20, 0x7F...: return true
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"),
            UInt8(ascii: "^"), UInt8(ascii: "`"), UInt8(ascii: "{"),
            UInt8(ascii: "|"), UInt8(ascii: "}"):
            return true
        default: return false
        }
    }
}
