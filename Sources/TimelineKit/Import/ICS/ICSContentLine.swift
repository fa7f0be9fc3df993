/// One unfolded iCalendar content line: `NAME;PARAM=value,value:VALUE` (RFC 5545 §3.1).
struct ICSContentLine {
    /// Upper-cased, whitespace removed (`REFRESH - INTERVAL` → `REFRESH-INTERVAL`).
    var name: String
    /// Parameters in order; names upper-cased, values unquoted, RFC 6868 `^n ^' ^^` decoded.
    var parameters: [(name: String, values: [String])]
    /// The raw value (TEXT unescaping is the caller's choice: URIs keep their `%`-escapes).
    var value: String
    /// The physical line where the (folded) line starts.
    var line: Int

    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.values.first
    }

    /// Parses one logical line, tolerating whitespace around `;` `=` and `:` in the name
    /// and parameter part. Returns an error message for a line with no `:` at all.
    static func parse(_ text: String, line: Int) -> Result<ICSContentLine, ICSLineError> {
        let chars = Array(text.unicodeScalars)
        var i = 0
        var name = ""
        while i < chars.count, chars[i] != ";", chars[i] != ":" {
            if chars[i] != " " && chars[i] != "\t" { name.unicodeScalars.append(chars[i]) }
            i += 1
        }
        guard i < chars.count, !name.isEmpty else {
            return .failure(ICSLineError(line: line, message: "content line '\(Self.shorten(text))' has no ':' between name and value"))
        }
        var parameters: [(String, [String])] = []
        while i < chars.count, chars[i] == ";" {
            i += 1
            var pname = ""
            while i < chars.count, chars[i] != "=", chars[i] != ";", chars[i] != ":" {
                if chars[i] != " " && chars[i] != "\t" { pname.unicodeScalars.append(chars[i]) }
                i += 1
            }
            var values: [String] = []
            if i < chars.count, chars[i] == "=" {
                i += 1
                repeat {
                    while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
                    var v = ""
                    if i < chars.count, chars[i] == "\"" {
                        i += 1
                        while i < chars.count, chars[i] != "\"" {
                            v.unicodeScalars.append(chars[i])
                            i += 1
                        }
                        if i < chars.count { i += 1 }  // closing quote
                        while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 }
                    } else {
                        while i < chars.count, chars[i] != ",", chars[i] != ";", chars[i] != ":" {
                            // A backslash-escaped ';' ':' ',' in an unquoted value (seen in
                            // real files, not RFC 5545) stays part of the value.
                            if chars[i] == "\\", i + 1 < chars.count, ";:,".unicodeScalars.contains(chars[i + 1]) {
                                v.unicodeScalars.append(chars[i])
                                v.unicodeScalars.append(chars[i + 1])
                                i += 2
                                continue
                            }
                            v.unicodeScalars.append(chars[i])
                            i += 1
                        }
                        v = v.trimmingSpaces
                    }
                    values.append(decodeCaret(v))
                    if i < chars.count, chars[i] == "," {
                        i += 1
                        continue
                    }
                    break
                } while true
            }
            if !pname.isEmpty { parameters.append((pname.uppercased(), values)) }
        }
        guard i < chars.count, chars[i] == ":" else {
            return .failure(ICSLineError(line: line, message: "content line '\(Self.shorten(text))' has no ':' after its parameters"))
        }
        var value = ""
        value.unicodeScalars.append(contentsOf: chars[(i + 1)...])
        return .success(ICSContentLine(name: name.uppercased(), parameters: parameters, value: value, line: line))
    }

    /// RFC 6868 caret encoding in parameter values: `^n` newline, `^'` double quote, `^^` caret.
    static func decodeCaret(_ s: String) -> String {
        guard s.contains("^") else { return s }
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
            case let other?: out.append("^"); out.append(other)
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
        guard s.contains("\\") else { return s }
        var out = ""
        var it = s.makeIterator()
        while let c = it.next() {
            guard c == "\\" else {
                out.append(c)
                continue
            }
            switch it.next() {
            case "n"?, "N"?: out.append("\n")
            case "\\"?: out.append("\\")
            case ";"?: out.append(";")
            case ","?: out.append(",")
            case ":"?: out.append(":")
            case let other?: out.append("\\"); out.append(other)
            case nil: out.append("\\")
            }
        }
        return out
    }

    /// Splits a list value (CATEGORIES) at commas that are not escaped, then unescapes each.
    static func splitList(_ s: String) -> [String] {
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

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": break
            default: out.append(c)
            }
        }
        return out
    }
}
