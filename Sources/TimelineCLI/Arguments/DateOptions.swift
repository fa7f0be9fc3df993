import TimelineKit

/// The date-reading options shared by `convert`, `validate` and `dates`.
enum DateOptions {
    static let specs: [OptionSpec] = [
        .value(
            "date-format", "PATTERN",
            "A date pattern tried after the built-in fast paths, in the order given: strptime style with '%' (%d/%m/%Y %H:%M) or LDML style (dd/MM/yyyy HH:mm, quote literals: yyyy-MM-dd'T'HH:mm).",
            repeatable: true),
        .value(
            "assume-zone", "ZONE",
            "Zone for values that carry no offset or zone (IANA id, Windows name, UTC). Such values are recorded with basis 'assumed'.",
            default: "none: such values are errors"),
        .flag("day-first", "Read 03/04/2024 as 3 April."),
        .flag("month-first", "Read 03/04/2024 as 4 March."),
        .value("on-gap", "POLICY", "A local time skipped by a DST change: shift it forward by the gap, or reject it.", default: "shift", choices: GapPolicy.allCases.map(\.rawValue)),
        .value("on-overlap", "POLICY", "A local time repeated by a DST change: take the earlier or later instant, or reject it.", default: "earlier", choices: OverlapPolicy.allCases.map(\.rawValue)),
        .value("abbrev", "ABBR=ZONE", "Resolve a zone abbreviation, e.g. CST=Asia/Shanghai. Ambiguous abbreviations (CST, IST, BST, AST, EST, …) are refused without it.", repeatable: true),
    ]

    static let zoneSpec = OptionSpec.value(
        "zone", "ZONE", "Display zone: times are shown and days counted in it.", default: "the --assume-zone zone, else UTC")

    /// Builds parsing options from the arguments, or throws a usage error.
    static func make(_ args: ParsedArguments) throws(UsageError) -> DateParsingOptions {
        var options = DateParsingOptions()
        var overrides: [String: String] = [:]
        for pair in args.all("abbrev") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw UsageError(message: "invalid value '\(pair)' for '--abbrev'; expected ABBR=ZONE, e.g. CST=Asia/Shanghai")
            }
            guard ZoneResolver.ianaRules(parts[1]) != nil else {
                throw UsageError(message: "invalid value '\(pair)' for '--abbrev': unknown time zone '\(parts[1])'; use an IANA id such as 'Asia/Shanghai'")
            }
            overrides[parts[0]] = parts[1]
        }
        options.zoneResolver = ZoneResolver(abbreviationOverrides: overrides)
        for text in args.all("date-format") {
            do {
                options.patterns.append(try DatePattern(text))
            } catch {
                throw UsageError(message: error.message)
            }
        }
        if let zone = args.value("assume-zone") {
            options.assumedZone = try resolveZone(zone, option: "assume-zone", resolver: options.zoneResolver)
        }
        switch (args.has("day-first"), args.has("month-first")) {
        case (true, true): throw UsageError(message: "'--day-first' and '--month-first' cannot be used together")
        case (true, false): options.fieldOrder = .dayFirst
        case (false, true): options.fieldOrder = .monthFirst
        case (false, false): break
        }
        if let g = args.value("on-gap") { options.onGap = GapPolicy(rawValue: g)! }
        if let o = args.value("on-overlap") { options.onOverlap = OverlapPolicy(rawValue: o)! }
        return options
    }

    /// The display zone: `--zone`, else the assumed zone, else UTC.
    static func displayZone(_ args: ParsedArguments, _ options: DateParsingOptions) throws(UsageError) -> ResolvedZone {
        if let z = args.value("zone") { return try resolveZone(z, option: "zone", resolver: options.zoneResolver) }
        if let assumed = options.assumedZone { return ResolvedZone(rules: assumed.rules, kind: assumed.kind, fixedOffset: nil) }
        return .utc
    }

    static func resolveZone(_ name: String, option: String, resolver: ZoneResolver) throws(UsageError) -> ResolvedZone {
        do {
            return try resolver.resolve(name)
        } catch {
            throw UsageError(message: "invalid value '\(name)' for '--\(option)': \(error.message)")
        }
    }
}
