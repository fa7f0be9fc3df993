import Foundation

// `Codable` for events and time values in the canonical JSON shape (docs/canonical-format.md):
// the fields, value forms and checks of the canonical format, written and read by the same
// code as `timeline convert --to ndjson` and `--from timeline`. A `JSONEncoder` chooses its
// own key order and spacing; `canonicalJSON` gives the exact bytes the command line writes.

extension Event: Codable {
    /// Writes the event's canonical JSON object.
    public func encode(to encoder: any Encoder) throws {
        try canonicalValue.encode(to: encoder)
    }

    /// Reads a canonical JSON object, with the checks of the canonical reader (every time
    /// value's instant must be its local time minus its offset; statuses and bases must be
    /// the canonical words).
    /// - Throws: `DecodingError.dataCorrupted` saying what is wrong.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        var warnings: [CanonicalDecoder.Warning] = []
        do {
            self = try CanonicalDecoder.event(from: json, warnings: &warnings)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// The event as one line of canonical NDJSON (without the newline), byte for byte as
    /// the command line writes it.
    public var canonicalJSON: String {
        var bytes: [UInt8] = []
        CanonicalEncoder.append(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads one canonical event (an NDJSON line of `timeline convert --to ndjson`).
    /// - Throws: `.data` naming what is wrong.
    public init(canonicalJSON text: String) throws(TimelineError) {
        let json: JSONValue
        do throws(JSONSyntaxError) {
            json = try JSONParser.parseComplete(Array(text.utf8), what: "the event")
        } catch {
            throw TimelineError(.data, "invalid JSON: \(error.message)", code: "json-syntax")
        }
        var warnings: [CanonicalDecoder.Warning] = []
        do throws(CanonicalDecoder.Failure) {
            self = try CanonicalDecoder.event(from: json, warnings: &warnings)
        } catch {
            throw TimelineError(.data, error.message, code: FindingCode.malformedRecord.rawValue)
        }
    }

    private var canonicalValue: JSONValue {
        // Parsing what the encoder wrote cannot fail: it is the canonical writer's own output.
        try! JSONParser.parseComplete(Array(canonicalJSON.utf8), what: "the event")
    }
}

extension TimeValue: Codable {
    /// Writes `{"instant","local","offset","zone","basis","raw"}` or `{"date","basis","raw"}`.
    public func encode(to encoder: any Encoder) throws {
        var w = JSONWriter()
        CanonicalEncoder.append(self, to: &w)
        try (try! JSONParser.parseComplete(w.bytes, what: "the time value")).encode(to: encoder)
    }

    /// Reads a canonical time value, with the canonical reader's checks.
    /// - Throws: `DecodingError.dataCorrupted` saying what is wrong.
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        var warnings: [CanonicalDecoder.Warning] = []
        do {
            self = try CanonicalDecoder.time(json, "value", &warnings)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }
}

/// Any JSON value through `Codable`, so the canonical reader and writer can serve
/// `Encoder`s and `Decoder`s.
extension JSONValue: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let text):
            var c = encoder.singleValueContainer()
            if let i = Int(text) { try c.encode(i) } else { try c.encode(Double(text) ?? 0) }
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .object(let pairs):
            var c = encoder.container(keyedBy: Key.self)
            for (k, v) in pairs { try c.encode(v, forKey: Key(stringValue: k)) }
        }
    }

    package init(from decoder: any Decoder) throws {
        if let c = try? decoder.container(keyedBy: Key.self) {
            self = .object(
                try c.allKeys.map { ($0.stringValue, try c.decode(JSONValue.self, forKey: $0)) })
            return
        }
        if var c = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !c.isAtEnd { items.append(try c.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int.self) {
            self = .number(String(i))
        } else if let d = try? c.decode(Double.self) {
            self = .number(String(d))
        } else {
            self = .string(try c.decode(String.self))
        }
    }
}
