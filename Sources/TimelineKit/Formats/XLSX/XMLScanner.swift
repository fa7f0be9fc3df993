/// A small pull reader for the XML of an XLSX workbook's parts: start tags with their
/// attributes, end tags and text, the five predefined entities and character references,
/// CDATA. Comments and processing instructions are skipped; a DOCTYPE is refused (OOXML
/// parts have none, and what a DTD declares is where readers part ways). Namespace prefixes are dropped from names (`x:row` is `row`), as the parts
/// use one vocabulary. Malformed markup ends in `XMLScanner.Failure`, never a trap.
struct XMLScanner {
    enum Token {
        case start(name: String, attributes: [String: String], selfClosing: Bool)
        case end(name: String)
        case text(String)
    }

    struct Failure: Error, Sendable {
        let message: String
    }

    private let bytes: [UInt8]
    private var i = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    mutating func next() throws(Failure) -> Token? {
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<") else {
                let start = i
                while i < bytes.count, bytes[i] != UInt8(ascii: "<") { i += 1 }
                return .text(try Self.decode(bytes[start..<i]))
            }
            if has("<?") {
                try skip(past: "?>")
            } else if has("<!--") {
                try skip(past: "-->")
            } else if has("<![CDATA[") {
                let start = i + 9
                try skip(past: "]]>")
                return .text(String(decoding: bytes[start..<(i - 3)], as: UTF8.self))
            } else if has("<!DOCTYPE") {
                throw Failure(message: "a DOCTYPE, which no part of a workbook has")
            } else if has("<!") {
                try skip(past: ">")
            } else if has("</") {
                i += 2
                let name = readName()
                try skip(past: ">")
                return .end(name: name)
            } else {
                i += 1
                return try startTag()
            }
        }
        return nil
    }

    private func has(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard i + count <= bytes.count else { return false }
        return text.withUTF8Buffer { prefix in
            (0..<count).allSatisfy { bytes[i + $0] == prefix[$0] }
        }
    }

    private mutating func skip(past text: StaticString) throws(Failure) {
        while i < bytes.count {
            if has(text) {
                i += text.utf8CodeUnitCount
                return
            }
            i += 1
        }
        throw Failure(message: "XML ends inside markup")
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        !(b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == UInt8(ascii: ">")
            || b == UInt8(ascii: "/") || b == UInt8(ascii: "="))
    }

    /// A name, without its namespace prefix.
    private mutating func readName() -> String {
        let start = i
        var local = i
        while i < bytes.count, Self.isNameByte(bytes[i]) {
            if bytes[i] == UInt8(ascii: ":") { local = i + 1 }
            i += 1
        }
        return String(decoding: bytes[max(start, local)..<i], as: UTF8.self)
    }

    private mutating func skipSpace() {
        while i < bytes.count,
            bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D
        { i += 1 }
    }

    private mutating func startTag() throws(Failure) -> Token {
        let name = readName()
        guard !name.isEmpty else { throw Failure(message: "XML tag without a name") }
        var attributes: [String: String] = [:]
        while true {
            skipSpace()
            guard i < bytes.count else {
                throw Failure(message: "XML ends inside the tag <\(name)>")
            }
            if bytes[i] == UInt8(ascii: ">") {
                i += 1
                return .start(name: name, attributes: attributes, selfClosing: false)
            }
            if has("/>") {
                i += 2
                return .start(name: name, attributes: attributes, selfClosing: true)
            }
            let key = readName()
            guard !key.isEmpty else { throw Failure(message: "malformed attribute in <\(name)>") }
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "=") else {
                throw Failure(message: "attribute '\(key)' of <\(name)> has no value")
            }
            i += 1
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'")
            else {
                throw Failure(message: "attribute '\(key)' of <\(name)> is not quoted")
            }
            let quote = bytes[i]
            i += 1
            let start = i
            while i < bytes.count, bytes[i] != quote { i += 1 }
            guard i < bytes.count else {
                throw Failure(message: "XML ends inside an attribute of <\(name)>")
            }
            attributes[key] = try Self.decode(bytes[start..<i])
            i += 1
        }
    }

    /// Text with its entity and character references replaced.
    static func decode(_ raw: ArraySlice<UInt8>) throws(Failure) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            guard raw[i] == UInt8(ascii: "&") else {
                out.append(raw[i])
                i += 1
                continue
            }
            guard let semicolon = raw[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                throw Failure(message: "an '&' in XML text that starts no reference")
            }
            let name = String(decoding: raw[(i + 1)..<semicolon], as: UTF8.self)
            switch name {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                let hex = name.hasPrefix("#x") || name.hasPrefix("#X")
                guard name.hasPrefix("#"),
                    let code = UInt32(name.dropFirst(hex ? 2 : 1), radix: hex ? 16 : 10),
                    let scalar = Unicode.Scalar(code)
                else {
                    throw Failure(message: "unknown XML reference '&\(name);'")
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            i = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
