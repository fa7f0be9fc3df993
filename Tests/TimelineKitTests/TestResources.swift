import Foundation

/// Files under `Tests/TimelineKitTests/Resources/`.
enum TestResources {
    static func url(_ path: String) -> URL {
        Bundle.module.url(forResource: "Resources", withExtension: nil)!.appendingPathComponent(
            path)
    }

    static func text(_ path: String) throws -> String {
        try String(contentsOf: url(path), encoding: .utf8)
    }

    /// Rows of a tab-separated file with a header line, as dictionaries.
    static func tsv(_ path: String) throws -> [[String: String]] {
        var lines = try text(path).split(separator: "\n", omittingEmptySubsequences: true).map(
            String.init)
        let header = lines.removeFirst().split(separator: "\t", omittingEmptySubsequences: false)
            .map(String.init)
        return lines.map { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(
                String.init)
            var row: [String: String] = [:]
            for (i, name) in header.enumerated() { row[name] = i < cells.count ? cells[i] : "" }
            return row
        }
    }

    /// The repository root (for samples and schemas).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
}
