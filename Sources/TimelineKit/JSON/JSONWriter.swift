/// Appends compact JSON with deterministic formatting: no spaces, keys in the order given,
/// non-ASCII text as UTF-8, control characters and `"` `\` escaped.
public struct JSONWriter {
    public var bytes: [UInt8] = []

    public init() {}

    public mutating func string(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escaping: append them whole (native strings lend their
        // storage; bridged or small ones take the byte loop below).
        let clean = s.utf8.withContiguousStorageIfAvailable { p -> Bool in
            for b in p where b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F { return false }
            bytes.append(contentsOf: p)
            return true
        }
        if clean == true {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: Array("\\u\(hex4(Int(b)).lowercased())".utf8))
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func raw(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    public mutating func value(_ v: JSONValue) {
        switch v {
        case .null: raw("null")
        case .bool(let b): b ? raw("true") : raw("false")
        case .number(let n): bytes.append(contentsOf: Array(n.utf8))
        case .string(let s): string(s)
        case .array(let items):
            bytes.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                value(item)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let pairs):
            bytes.append(UInt8(ascii: "{"))
            for (i, (k, item)) in pairs.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                string(k)
                bytes.append(UInt8(ascii: ":"))
                value(item)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }
}
