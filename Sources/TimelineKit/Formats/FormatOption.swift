/// An option a format declares, for the command line to offer: its name, help and values,
/// and what it sets in the reading or writing options (`Target`).
package struct FormatOption<Target>: Sendable {
    package enum Kind: Sendable {
        /// No value: `--no-header`.
        case flag
        /// One value (`--delimiter C`), or one per use when repeatable.
        case value(name: String, choices: [String]?, repeatable: Bool)
    }

    /// The long name without dashes.
    package var name: String
    package var kind: Kind
    package var help: String
    /// The default as help shows it; nil when there is none to show.
    package var defaultText: String?
    /// Sets the option in `target`: called once with the values given (none for a flag),
    /// only when the option was given. Throws a usage error for a value it cannot take.
    package var apply:
        @Sendable (_ values: [String], _ target: inout Target) throws(TimelineError) -> Void

    package init(
        _ name: String, _ kind: Kind, help: String, default defaultText: String? = nil,
        apply:
            @escaping @Sendable (_ values: [String], _ target: inout Target) throws(TimelineError)
            -> Void
    ) {
        self.name = name
        self.kind = kind
        self.help = help
        self.defaultText = defaultText
        self.apply = apply
    }
}
