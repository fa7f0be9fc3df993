import Foundation

/// The words the row for `key` of a table in `docs/NAME` lists (`| `key` | a, `b`, (empty) |`,
/// indented or not): backticks taken off, `(empty)` as the empty word; nil without such a
/// row. With `after`, only the rows of the table under that header line count.
func documentedWords(_ key: String, in name: String, after header: String? = nil) throws
    -> [String]?
{
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    var text = try String(contentsOf: root.appendingPathComponent("docs/\(name)"), encoding: .utf8)
    if let header {
        guard let table = text.components(separatedBy: header).dropFirst().first else { return nil }
        text = table.split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }.joined(
            separator: "\n")
    }
    let prefix = "| `\(key)` | "
    guard
        let line = text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
            .first(where: { $0.hasPrefix(prefix) })
    else {
        return nil
    }
    return line.dropFirst(prefix.count).dropLast(2).components(separatedBy: ", ").map {
        $0 == "(empty)" ? "" : $0.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
    }
}

/// The keys of the rows of the table under `header` in `docs/NAME`, in order.
func documentedKeys(in name: String, after header: String) throws -> [String] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let text = try String(contentsOf: root.appendingPathComponent("docs/\(name)"), encoding: .utf8)
    guard let table = text.components(separatedBy: header).dropFirst().first else { return [] }
    return table.split(separator: "\n").dropFirst().prefix { $0.hasPrefix("|") }.compactMap { row in
        row.split(separator: "`").dropFirst().first.map(String.init)
    }
}
