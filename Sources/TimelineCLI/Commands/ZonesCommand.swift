import Foundation
import TimelineKit

enum ZonesCommand {
    static let spec = CommandSpec(
        name: "zones",
        summary: "Resolve zone names (IANA, legacy, Windows, abbreviations) or list every known name.",
        usage: "timeline zones [NAME ...] [--at INSTANT] [--abbrev ABBR=ZONE ...] | timeline zones --list",
        discussion: """
            For each NAME prints one tab-separated line: the name, its kind (utc, iana, legacy, windows,
            vendor, abbreviation, userAbbreviation), the IANA zone it resolves to, the offset at --at, and a
            summary of its rule over the following year (DST offsets and the next change). An ambiguous
            abbreviation prints its candidates; an unknown name is an error. Exit 65 if any name failed.
            """,
        positional: ("NAME ...", "Zone names to resolve."),
        options: [
            .flag("list", "Print every known name, its kind and the IANA zone it maps to."),
            .value("at", "INSTANT", "The moment for offsets and the next change (RFC 3339).", default: "now"),
            .value("abbrev", "ABBR=ZONE", "Resolve an abbreviation, e.g. CST=Asia/Shanghai.", repeatable: true),
        ],
        examples: [
            ("timeline zones Asia/Shanghai 'Pacific Standard Time' US/Eastern JST", "An IANA id, a Windows name (as Outlook writes it), a legacy link and an abbreviation"),
            ("timeline zones CST --abbrev CST=America/Chicago --at 2024-07-01T00:00:00Z", "Resolve an ambiguous abbreviation and show its offset on a given day"),
            ("timeline zones --list | grep -i windows", "Every Windows zone name and its IANA zone"),
        ])

    static func run(_ args: ParsedArguments, _ env: CommandEnvironment) throws(TimelineError) -> ExitCode {
        let out = env.standardOutput
        if args.has("list") {
            var text = ""
            for row in ZoneResolver.allNames() { text += "\(row.name)\t\(row.kind.rawValue)\t\(row.target)\n" }
            try out.write(text)
            try out.commit()
            return .success
        }
        guard !args.positionals.isEmpty else {
            throw TimelineError(.usage, "name at least one zone, or pass --list")
        }
        let options: DateParsingOptions
        do throws(UsageError) {
            options = try DateOptions.make(args)
        } catch {
            throw TimelineError(.usage, error.message)
        }
        let at: Instant
        if let text = args.value("at") {
            guard case .success(let parsed) = DateParser().parse(text), let instant = parsed.value.instant else {
                throw TimelineError(.usage, "invalid value '\(text)' for '--at'; expected an RFC 3339 time such as 2024-07-01T00:00:00Z")
            }
            at = instant
        } else {
            at = Instant(seconds: Int64(Date().timeIntervalSince1970.rounded(.down)))
        }
        var failures = 0
        var text = ""
        for name in args.positionals {
            do throws(ZoneResolutionError) {
                let zone = try options.zoneResolver.resolve(name)
                let offset = zone.fixedOffset ?? zone.rules.offset(at: at)
                text += "\(name)\t\(zone.kind.rawValue)\t\(zone.identifier)\t\(offset.isoString)\t\(ruleSummary(zone, at: at))\n"
            } catch {
                failures += 1
                if case .ambiguousAbbreviation(_, let candidates) = error {
                    let list = candidates.map { c in "\(c) (\(ZoneResolver.ianaRules(c)?.offset(at: at).isoString ?? "?"))" }
                    text += "\(name)\tambiguous\t-\t-\tcandidates: \(list.joined(separator: ", "))\n"
                }
                env.print(Diagnostic(.error, error.message, code: error == .unknownZone(name) ? "TZ110" : "TZ109"))
            }
        }
        try out.write(text)
        try out.commit()
        return failures > 0 ? .dataError : .success
    }

    /// `no DST`, or the offsets seen in the year after `at` and the next change.
    static func ruleSummary(_ zone: ResolvedZone, at: Instant) -> String {
        if zone.fixedOffset != nil { return "fixed offset (abbreviation)" }
        var offsets: Set<Int> = [zone.rules.offset(at: at).seconds]
        var cursor = at.seconds
        var next: (Int64, UTCOffset)?
        while let t = zone.rules.nextTransition(afterEpochSeconds: cursor), t.at < at.seconds + 366 * 86_400 {
            if next == nil { next = (t.at, t.offset) }
            offsets.insert(t.offset.seconds)
            cursor = t.at
        }
        guard let (when, to) = next else { return "no change within a year" }
        let list = offsets.sorted().map { UTCOffset(seconds: $0).isoString }.joined(separator: "/")
        return "offsets \(list); next change \(Instant(seconds: when).isoString(fractionDigits: 0)) to \(to.isoString)"
    }
}

enum SchemaCommand {
    static let spec = CommandSpec(
        name: "schema",
        summary: "Print the canonical timeline JSON Schema (or the validation report schema).",
        usage: "timeline schema [--report]",
        discussion: "The schemas are JSON Schema 2020-12, the same bytes as Schemas/ in the source tree.",
        positional: nil,
        options: [.flag("report", "Print the validation report schema instead.")],
        examples: [
            ("timeline schema > timeline.schema.json", "Save the document/event schema"),
            ("timeline schema --report | python3 -m json.tool", "Inspect the validation report schema"),
        ])

    static func run(_ args: ParsedArguments, _ env: CommandEnvironment) throws(TimelineError) -> ExitCode {
        guard args.positionals.isEmpty else { throw TimelineError(.usage, "unexpected argument '\(args.positionals[0])'") }
        try env.standardOutput.write((args.has("report") ? EmbeddedSchemas.validationReport : EmbeddedSchemas.timeline) + "\n")
        try env.standardOutput.commit()
        return .success
    }
}
