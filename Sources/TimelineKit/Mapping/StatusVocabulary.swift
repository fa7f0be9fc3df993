import Foundation

/// Source words for the canonical statuses (docs/canonical-format.md), case-insensitive, extended or
/// overridden by `--status-map WORD=STATUS`.
package struct StatusVocabulary: Sendable {
    private var words: [String: EventStatus]
    /// The words `add` gave (`--status-map`), which a preset's words do not replace.
    private var added: [String: EventStatus] = [:]

    /// The built-in words, by status (`Words/statuses.json`; docs/mapping.md lists them, a
    /// test compares the two).
    package static let builtIn: [(EventStatus, [String])] = BuiltInWords.statuses.compactMap {
        key, words in
        EventStatus(rawValue: key).map { ($0, words) }
    }

    /// Whether a text is written in an alphabet (Latin, Greek, Cyrillic …: every scalar below
    /// the CJK blocks at U+2E80), whose phrases are read by their words.
    static func isAlphabetic(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value < 0x2E80 }
    }

    /// The longest text, in bytes, read as a status phrase.
    static let longestPhrase = 256

    /// The built-in words.
    public init() {
        var w: [String: EventStatus] = [:]
        for (status, list) in Self.builtIn { for word in list { w[word] = status } }
        words = w
    }

    /// Adds or overrides `WORD=STATUS`.
    public mutating func add(_ spec: String) throws(TimelineError) {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let status = EventStatus(rawValue: parts[1].lowercased()) else {
            throw TimelineError(
                .usage,
                "invalid \(.statusMap) '\(spec)'; expected WORD=STATUS with STATUS one of \(EventStatus.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        words[parts[0].lowercased()] = status
        added[parts[0].lowercased()] = status
    }

    /// This vocabulary with a service's own words beneath it: each word of `words` that
    /// is not already one of these (`--status-map` wins over a preset).
    package func under(_ words: [(word: String, status: EventStatus)]) -> StatusVocabulary {
        var result = self
        for (word, status) in words where added[word.lowercased()] == nil {
            result.words[word.lowercased()] = status
        }
        return result
    }

    /// The status for a source word, or nil when the word is not known. A phrase is known by
    /// its first words (`Out For Delivery Today`, `Delivered, In/At Mailbox`), by a camel-case
    /// code's words (`OutForDelivery`), after a bracketed mark (JD's `(删除)等待出库`), and a
    /// Chinese one by the one status the known words it holds agree on
    /// (`卖家已发货，等待买家确认`). Nothing is matched inside a phrase of an alphabet, where
    /// a word before it may turn it round (`not delivered`): a carrier's sentences are known
    /// by their first words (`Objeto entregue …`, `Votre colis est livré.`).
    public func status(for word: String) -> EventStatus? {
        // A status is a word or a short phrase: a long text (a title of a megabyte) is not
        // split into words to find out.
        guard word.utf8.count <= Self.longestPhrase else { return nil }
        let text = word.trimmingSpaces.lowercased()
        if let known = words[text] { return known }
        guard !text.isEmpty else { return nil }
        if let first = text.unicodeScalars.first,
            first == "(" || first == "（" || first == "[" || first == "【",
            let close = text.firstIndex(where: { ")）]】".contains($0) })
        {
            return status(for: String(text[text.index(after: close)...]))
        }
        if Self.isAlphabetic(text) {
            let spaced = word.trimmingSpaces.split { !$0.isLetter && !$0.isNumber && $0 != "-" }.map
            { $0.lowercased() }
            // The longest run of first words that is a known phrase.
            for count in stride(from: min(spaced.count, 5), through: 1, by: -1) {
                if let known = words[spaced.prefix(count).joined(separator: " ")] { return known }
            }
            if spaced.count == 1 {
                let camel = HeaderWords.orderedWords(word.trimmingSpaces)
                if camel.count > 1, let known = words[camel.joined(separator: " ")] { return known }
            }
            return nil
        }
        // The known words it holds, less those inside a longer one it holds (退款成功, not 成功).
        let held = words.filter { !Self.isAlphabetic($0.key) && text.contains($0.key) }
        let found = Set(
            held.filter { word in !held.keys.contains { $0 != word.key && $0.contains(word.key) } }
                .values)
        return found.count == 1 ? found.first : nil
    }
}
