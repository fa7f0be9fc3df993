import Testing

@testable import TimelineKit

/// The word files beside the presets (`Sources/TimelineKit/Mapping/Words`): each parses, each
/// key names what it should, and nothing is left out or said twice.
@Suite("built-in words")
struct BuiltInWordsTests {
    @Test("every key names a field, a status or a direction, and each has words")
    func keys() {
        let files = [
            (
                "header-names.json", BuiltInWords.headerNames,
                Set(MappedField.allCases.map(\.rawValue))
            ),
            ("statuses.json", BuiltInWords.statuses, Set(EventStatus.allCases.map(\.rawValue))),
            (
                "directions.json", BuiltInWords.directions,
                Set(AmountDirection.allCases.map(\.rawValue))
            ),
        ]
        for (file, lists, allowed) in files {
            #expect(!lists.isEmpty, "\(file) does not parse as an object of word lists")
            for (key, words) in lists {
                #expect(allowed.contains(key), "\(file): '\(key)' is none of \(allowed.sorted())")
                #expect(!words.isEmpty || key == "neutral", "\(file): '\(key)' has no words")
            }
            #expect(Set(lists.map(\.key)).count == lists.count, "\(file): a key twice")
        }
        // Every status and direction has its list (the header names leave some fields to flags).
        #expect(Set(BuiltInWords.statuses.map(\.key)) == Set(EventStatus.allCases.map(\.rawValue)))
        #expect(
            Set(BuiltInWords.directions.map(\.key)) == Set(AmountDirection.allCases.map(\.rawValue))
        )
    }

    @Test("a word means one status, one direction; a header name feeds one field")
    func distinct() {
        for (file, lists) in [
            ("header-names.json", BuiltInWords.headerNames),
            ("statuses.json", BuiltInWords.statuses), ("directions.json", BuiltInWords.directions),
        ] {
            var seen: [String: String] = [:]
            for (key, words) in lists {
                for word in words {
                    let normal =
                        file == "header-names.json" ? FieldMapping.key(word) : word.lowercased()
                    if let other = seen[normal], other != key {
                        Issue.record("\(file): '\(word)' is both \(other) and \(key)")
                    }
                    seen[normal] = key
                }
            }
        }
    }
}
