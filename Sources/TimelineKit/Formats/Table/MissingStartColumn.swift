/// A table none of whose columns holds the start time: the error that names its columns,
/// those whose names suggest a time first, and the flag that names one.
struct MissingStartColumn {
    let header: [String]

    /// The columns whose names suggest a time (`HeaderWords`), in header order.
    var candidates: [String] {
        header.filter { HeaderWords.rank($0) < HeaderWords.none }
    }

    func error(file: String, line: Int?) -> TimelineError {
        let shown = header.prefix(30).map { "'\($0)'" }.joined(separator: ", ")
        let more = header.count > 30 ? " and \(header.count - 30) more" : ""
        var notes: [String] = []
        if let first = candidates.first {
            let others = candidates.dropFirst().map { "'\($0)'" }.joined(separator: ", ")
            notes.append(
                "'\(first)'" + (others.isEmpty ? "" : " (or \(others))")
                    + " sounds like a time but its values did not read as times; name it with \(.map, "start=\(Self.quoted(first))") and see why"
            )
        } else {
            notes.append("name the column that holds it with \(.map, "start=COLUMN")")
        }
        return TimelineError(
            .data,
            "no column was recognised as the start time; the columns are \(shown)\(more)",
            at: SourceLocation(file: file, line: line), code: FindingCode.missingStart.rawValue,
            notes: notes)
    }

    /// A column name as a shell reads it back (quoted when it holds spaces or quotes).
    static func quoted(_ name: String) -> String {
        name.allSatisfy { $0.isLetter || $0.isNumber || "_-./".contains($0) }
            ? name : "'" + name.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
