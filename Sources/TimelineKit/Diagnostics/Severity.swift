/// How serious a diagnostic or a finding is. `error`: something failed (a record rejected,
/// a run stopped) or the data is wrong as written; `warning`: something is probably wrong
/// and a person should look (a day shift, a contradiction); `info`: worth knowing (a
/// decision made, a format detected), nothing wrong by itself. The command line prints a
/// diagnostic's `info` as `note:`, as compilers do.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    /// Something failed, or the data is wrong as written.
    case error
    /// Something is probably wrong; a person should look.
    case warning
    /// Worth knowing; nothing wrong by itself.
    case info

    var rank: Int {
        switch self {
        case .error: return 2
        case .warning: return 1
        case .info: return 0
        }
    }

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

extension Severity {
    /// The word a diagnostic line shows: `error`, `warning`, `note`.
    package var diagnosticLabel: String { self == .info ? "note" : rawValue }
}
