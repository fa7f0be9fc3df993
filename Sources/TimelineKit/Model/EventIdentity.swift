/// How an event holds its id: the source's own text, or the parts of the one generated for a
/// record that has none (`Event.generatedID`). Most records of an order export or a statement
/// have no id of their own; held in parts, their ids are written by the encoders straight
/// from the file's prefix and the record number, and become a string only when something
/// reads `Event.id`.
///
/// Two identities are equal when their texts are: a generated id equals the same text given.
package enum EventIdentity: Sendable {
    case given(String)
    /// `prefix` (an `Event.generatedIDPrefix`) followed by `record` in decimal.
    case generated(prefix: String, record: Int)

    /// The id as a string.
    package var text: String {
        switch self {
        case .given(let text): return text
        case .generated(let prefix, let record):
            return Event.generatedID(prefix: prefix, record: record)
        }
    }

    /// The most UTF-8 bytes `text` has.
    package var utf8CountBound: Int {
        switch self {
        case .given(let text): return text.utf8.count
        case .generated(let prefix, _): return prefix.utf8.count + 20
        }
    }
}

extension EventIdentity: Hashable {
    package static func == (a: EventIdentity, b: EventIdentity) -> Bool {
        switch (a, b) {
        case (.given(let x), .given(let y)): return x == y
        case (.generated(let p, let m), .generated(let q, let n)) where p == q: return m == n
        default: return a.text == b.text
        }
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(text)
    }
}
