/// Appends compact JSON with deterministic formatting: no spaces, keys in the order given,
/// non-ASCII text as UTF-8, control characters and `"` `\` escaped.
package struct JSONWriter {
    package var bytes: [UInt8] = []

    package init() {}

    /// `s` quoted and escaped (one implementation: `FixedWriter.jsonString`).
    package mutating func string(_ s: String) {
        FixedWriter.appending(to: &bytes, capacity: FixedWriter.jsonStringBound(s)) {
            $0.jsonString(s)
        }
    }

    package mutating func raw(_ s: StaticString) {
        s.withByteView { $0.append(to: &bytes) }
    }

    package mutating func value(_ v: JSONValue) {
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
