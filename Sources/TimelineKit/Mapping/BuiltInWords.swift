/// The words the toolkit knows in the languages it reads, kept as data beside the presets:
/// each a file in `Sources/TimelineKit/Mapping/Words`, compiled into the library. A bank's
/// words are added there, not in code. docs/mapping.md lists them (tests compare the two,
/// and check every key names a field, a status or a direction).
enum BuiltInWords {
    /// Default header names per mapped field, most specific first (`header-names.json`).
    static let headerNames = lists(PackageResources.header_names_json)
    /// Source words per canonical status (`statuses.json`).
    static let statuses = lists(PackageResources.statuses_json)
    /// Words of a direction column per direction, `in`, `out` and `neutral` (`directions.json`).
    static let directions = lists(PackageResources.directions_json)

    /// A JSON object of arrays of strings, in the file's order; empty when it is not one.
    static func lists(_ bytes: [UInt8]) -> [(key: String, words: [String])] {
        guard case .object(let pairs)? = try? JSONParser.parseComplete(bytes, what: "a word list")
        else { return [] }
        return pairs.map { key, value in
            guard case .array(let items) = value else { return (key, []) }
            return (
                key,
                items.compactMap { item in
                    if case .string(let text) = item { return text } else { return nil }
                }
            )
        }
    }
}
