/// A JSON syntax error at a byte offset; the caller turns the offset into line and column.
package struct JSONSyntaxError: Error, Hashable, Sendable {
    package var offset: Int
    package var message: String
}

/// A byte-level JSON (RFC 8259) parser over a UTF-8 buffer that can be driven one value at
/// a time, so a reader can walk a large array element by element and know where each
/// element starts. Numbers are kept as text; nesting is limited to `maximumDepth`.
package struct JSONParser: ~Copyable {
    package let bytes: [UInt8]
    package private(set) var offset: Int
    package static let maximumDepth = 256

    package init(bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    package var isAtEnd: Bool { offset >= bytes.count }

    /// Skips JSON whitespace and returns the next byte without consuming it.
    package mutating func peek() -> UInt8? {
        skipWhitespace()
        return offset < bytes.count ? bytes[offset] : nil
    }

    package mutating func skipWhitespace() {
        while offset < bytes.count {
            switch bytes[offset] {
            case 0x20, 0x0A, 0x0D, 0x09: offset += 1
            default: return
            }
        }
    }

    /// Consumes `byte` (after whitespace) or throws naming what was expected.
    package mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntaxError) {
        guard peek() == byte else { throw error("expected \(what), found \(describeNext())") }
        offset += 1
    }

    /// Consumes `byte` if it comes next (after whitespace).
    package mutating func consume(_ byte: UInt8) -> Bool {
        if peek() == byte {
            offset += 1
            return true
        }
        return false
    }

    package mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        try parseValue(depth: 0)
    }

    /// Parses a value that sits `depth` levels inside the document, so that the nesting
    /// limit counts from the document's top as it does when the whole document is parsed.
    package mutating func parseValue(nestedAt depth: Int) throws(JSONSyntaxError) -> JSONValue {
        try parseValue(depth: depth)
    }

    /// Parses `bytes` as exactly one JSON value (surrounding whitespace allowed); `what`
    /// names it in the error for anything after it ("after the record").
    package static func parseComplete(_ bytes: [UInt8], what: String) throws(JSONSyntaxError)
        -> JSONValue
    {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if !parser.isAtEnd {
            throw parser.error("unexpected \(parser.describeNext()) after \(what)")
        }
        return value
    }

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONParser.maximumDepth else {
            throw error("nesting deeper than \(JSONParser.maximumDepth) levels")
        }
        guard let b = peek() else { throw error("unexpected end of input, expected a value") }
        switch b {
        case UInt8(ascii: "{"):
            offset += 1
            var pairs: [(String, JSONValue)] = []
            if consume(UInt8(ascii: "}")) { return .object(pairs) }
            repeat {
                guard peek() == UInt8(ascii: "\"") else {
                    throw error("expected a string key, found \(describeNext())")
                }
                let key = try parseString()
                try expect(UInt8(ascii: ":"), "':' after an object key")
                pairs.append((key, try parseValue(depth: depth + 1)))
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"), "',' or '}' in an object")
            return .object(pairs)
        case UInt8(ascii: "["):
            offset += 1
            var items: [JSONValue] = []
            if consume(UInt8(ascii: "]")) { return .array(items) }
            repeat {
                items.append(try parseValue(depth: depth + 1))
            } while consume(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"), "',' or ']' in an array")
            return .array(items)
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default:
            throw error("expected a value, found \(describeNext())")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard offset + count <= bytes.count,
            bytes.withByteView({ $0[offset..<offset + count].equals(word) })
        else {
            throw error("expected a value, found \(describeNext())")
        }
        offset += count
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = offset
        if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.offset
            while p.offset < p.bytes.count, p.bytes[p.offset] >= 0x30, p.bytes[p.offset] <= 0x39 {
                p.offset += 1
            }
            return p.offset - s
        }
        let intDigits = digits(&self)
        guard intDigits > 0 else { throw error("invalid number") }
        if intDigits > 1 && bytes[offset - intDigits] == UInt8(ascii: "0") {
            throw JSONSyntaxError(offset: start, message: "invalid number: leading zero")
        }
        if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
            offset += 1
            guard digits(&self) > 0 else { throw error("invalid number: no digits after '.'") }
        }
        if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
            offset += 1
            if offset < bytes.count,
                bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-")
            {
                offset += 1
            }
            guard digits(&self) > 0 else { throw error("invalid number: no digits in exponent") }
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// Parses a string starting at the current `"`.
    package mutating func parseString() throws(JSONSyntaxError) -> String {
        guard peek() == UInt8(ascii: "\"") else {
            throw error("expected a string, found \(describeNext())")
        }
        offset += 1
        let start = offset
        // Fast path: no escapes, no control characters: the closing quote found and the
        // text validated a word at a time (nearly every string of real records).
        let quote = UInt8(ascii: "\"")
        let backslash = UInt8(ascii: "\\")
        let plain = bytes.withByteView { view -> (end: Int, text: String?)? in
            let end = view.firstIndex(ofControlOr: quote, backslash, from: start)
            guard end < view.count, view[end] == quote else { return nil }
            return (end, view[start..<end].validatedString)
        }
        if let plain {
            guard let s = plain.text else {
                throw JSONSyntaxError(offset: start, message: "invalid UTF-8 in a string")
            }
            offset = plain.end + 1
            return s
        }
        // Escapes, control characters, invalid UTF-8 or no closing quote: byte by byte.
        var out: [UInt8] = []
        while offset < bytes.count {
            let b = bytes[offset]
            if b == UInt8(ascii: "\"") {
                offset += 1
                guard let s = out.withByteView({ $0.validatedString }) else {
                    throw JSONSyntaxError(offset: start, message: "invalid UTF-8 in a string")
                }
                return s
            }
            if b < 0x20 {
                throw error("control character U+\(hex4(Int(b))) in a string; escape it")
            }
            if b != UInt8(ascii: "\\") {
                out.append(b)
                offset += 1
                continue
            }
            offset += 1
            guard offset < bytes.count else { break }
            let e = bytes[offset]
            offset += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hexQuad()
                if (0xD800..<0xDC00).contains(scalar) {
                    guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                        bytes[offset + 1] == UInt8(ascii: "u")
                    else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    offset += 2
                    let low = try hexQuad()
                    guard (0xDC00..<0xE000).contains(low) else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if (0xDC00..<0xE000).contains(scalar) {
                    throw error("unpaired surrogate in \\u escape")
                }
                out.append(
                    contentsOf: Array(String(Character(Unicode.Scalar(UInt32(scalar))!)).utf8))
            default:
                throw JSONSyntaxError(
                    offset: offset - 2,
                    message: "invalid escape '\\\(Character(Unicode.Scalar(e)))' in a string")
            }
        }
        throw JSONSyntaxError(offset: start - 1, message: "unterminated string")
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> Int {
        guard offset + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var v = 0
        for _ in 0..<4 {
            let b = bytes[offset]
            let d: Int
            switch b {
            case 0x30...0x39: d = Int(b) - 0x30
            case 0x41...0x46: d = Int(b) - 0x41 + 10
            case 0x61...0x66: d = Int(b) - 0x61 + 10
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
            offset += 1
        }
        return v
    }

    package func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: offset, message: message)
    }

    /// `'x'` for the next byte, or `end of input`.
    package func describeNext() -> String {
        guard offset < bytes.count else { return "end of input" }
        let b = bytes[offset]
        if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16, uppercase: true))"
    }
}

func hex4(_ v: Int) -> String {
    let s = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - s.count)) + s
}
