import TimelineKit

/// `timeline zones`: how zone names resolve (`ZoneResolver`), or every known name.
enum ZonesCommand: Command {
    static let name = "zones"
    static let abstract = "Resolve zone names, or list them"
    static let summary =
        "Resolve zone names (IANA, legacy, Windows, abbreviations) or list every known name."
    static let usage =
        "timeline zones [NAME ...] [--at INSTANT] [--abbrev ABBR=ZONE ...] | timeline zones --list"
    static let discussion: String? = """
        For each NAME prints one tab-separated line: the name, its kind (utc, iana, legacy, windows,
        vendor, abbreviation, userAbbreviation), the IANA zone it resolves to, the offset at --at, and a
        summary of its rule over the following year (DST offsets and the next change). An ambiguous
        abbreviation prints its candidates; an unknown name is an error. Exit 65 if any name failed.
        """
    static let positional: (name: String, help: String)? = ("NAME ...", "Zone names to resolve.")
    static let examples: [(command: String, explanation: String)] = [
        (
            "timeline zones Asia/Shanghai 'Pacific Standard Time' US/Eastern JST",
            "An IANA id, a Windows name (as Outlook writes it), a legacy link and an abbreviation"
        ),
        (
            "timeline zones CST --abbrev CST=America/Chicago --at 2024-07-01T00:00:00Z",
            "Resolve an ambiguous abbreviation and show its offset on a given day"
        ),
        ("timeline zones --list | grep -i windows", "Every Windows zone name and its IANA zone"),
    ]

    struct Options: OptionGroup {
        let list = Option.flag(
            "list", help: "Print every known name, its kind and the IANA zone it maps to.")
        let at = Option<Instant?>.value(
            "at", "INSTANT", help: "The moment for offsets and the next change (RFC 3339).",
            initial: nil, default: "now"
        ) {
            text throws(UsageError) in
            guard let instant = InstantArgument.parse(text) else {
                throw UsageError(
                    message:
                        "invalid value '\(text)' for '--at'; expected an RFC 3339 time such as 2024-07-01T00:00:00Z"
                )
            }
            return instant
        }
        let abbrev = Option.list(
            "abbrev", "ABBR=ZONE", help: "Resolve an abbreviation, e.g. CST=Asia/Shanghai.")
    }

    static func run(_ args: Arguments<Options>, _ env: CommandEnvironment) throws(TimelineError)
        -> ExitCode
    {
        let out = env.standardOutput
        if args[\.list] {
            var text = ""
            for row in ZoneResolver.allNames() {
                text += "\(row.name)\t\(row.kind.rawValue)\t\(row.target)\n"
            }
            try out.write(text)
            try out.commit()
            return .success
        }
        guard !args.positionals.isEmpty else {
            throw TimelineError(.usage, "name at least one zone, or pass --list")
        }
        let resolver: ZoneResolver
        do throws(UsageError) {
            resolver = try DateOptionGroup.resolver(abbreviations: args[\.abbrev])
        } catch {
            throw TimelineError(.usage, error.message)
        }
        let at = args[\.at] ?? env.clock()
        var failures = 0
        var text = ""
        for name in args.positionals {
            do throws(ZoneResolutionError) {
                let zone = try resolver.resolve(name)
                let offset = zone.fixedOffset ?? zone.rules.offset(at: at)
                text +=
                    "\(name)\t\(zone.kind.rawValue)\t\(zone.identifier)\t\(offset.isoString)\t\(zone.ruleSummary(after: at))\n"
            } catch {
                failures += 1
                if case .ambiguousAbbreviation(_, let candidates) = error {
                    let list = candidates.map { c in
                        "\(c) (\(ZoneResolver.ianaRules(c)?.offset(at: at).isoString ?? "?"))"
                    }
                    text +=
                        "\(name)\tambiguous\t-\t-\tcandidates: \(list.joined(separator: ", "))\n"
                }
                env.print(
                    Diagnostic(
                        .error, error.message, code: error == .unknownZone(name) ? "TZ110" : "TZ109"
                    ))
            }
        }
        try out.write(text)
        try out.commit()
        return failures > 0 ? .dataError : .success
    }
}
