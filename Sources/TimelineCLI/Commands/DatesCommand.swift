import TimelineKit

enum DatesCommand {
    static let spec = CommandSpec(
        name: "dates",
        summary: "Clean a stream of date/time strings: one value per line in, one exact value per line out.",
        usage: "timeline dates [--date-format F ...] [--assume-zone Z] [--zone Z] [--output-format F] < values",
        discussion: """
            Reads standard input, one value per line, and writes one line per value in the same order, so
            the output can be pasted beside the input. Values are tried as ISO 8601/RFC 3339, RFC 2822,
            epoch numbers (9–11 digits seconds, 13 ms, 16 µs, 19 ns), your --date-format patterns, then
            common shapes (12/06/2024 08:00, Jun 12, 2024 8:00 PM, 2024年6月12日 下午3:05, …). A value that
            cannot be read gives an empty line and an error on stderr with its line number. All-day values
            stay YYYY-MM-DD. Without --day-first/--month-first the order is decided from the first 1,000
            values (a field above 12 decides it). Two-digit years: 00–68 → 20xx, 69–99 → 19xx.
            Exit status: 0; 65 with --strict when any value failed, or when values had no offset or zone
            and no --assume-zone was given.
            """,
        positional: nil,
        options: [
            .value("output-format", "FORMAT", "rfc3339, date, epoch, epoch-ms, or a pattern such as 'yyyy-MM-dd HH:mm' or '%d/%m/%Y'.", default: "rfc3339"),
            OptionSpec.value("zone", "ZONE", "Output zone.", default: "UTC, written Z"),
        ] + DateOptions.specs + [
            .flag("strict", "Exit 65 if any value could not be read."),
        ],
        examples: [
            ("printf '2024-06-12 08:00:00\\n12/06/2024 8:00 PM\\n1718179200000\\n' | timeline dates --assume-zone Asia/Shanghai --day-first", "Three shapes of server time, read as Shanghai local time, written as UTC"),
            ("cut -d, -f3 orders.csv | timeline dates --zone Asia/Shanghai --output-format date", "The customer's calendar day of each UTC timestamp"),
            ("timeline dates --date-format '%d.%m.%Y %H:%M' --assume-zone Europe/Berlin --output-format epoch < log.txt", "A custom shape to epoch seconds"),
        ])

    static func run(_ args: ParsedArguments, _ env: CommandEnvironment) throws(TimelineError) -> ExitCode {
        guard args.positionals.isEmpty else {
            throw TimelineError(.usage, "'timeline dates' reads standard input; unexpected argument '\(args.positionals[0])' (use: timeline dates < \(args.positionals[0]))")
        }
        let options: DateParsingOptions
        let zone: ResolvedZone
        let format: DateOutputFormat
        do throws(UsageError) {
            options = try DateOptions.make(args)
            zone = try args.value("zone").map { z throws(UsageError) in try DateOptions.resolveZone(z, option: "zone", resolver: options.zoneResolver) } ?? .utc
            do throws(DatePattern.CompileError) {
                format = try DateOutputFormat(args.value("output-format") ?? "rfc3339")
            } catch {
                throw UsageError(message: error.message)
            }
        } catch {
            throw TimelineError(.usage, error.message)
        }
        let converter = DateStreamConverter(parser: DateParser(options: options), format: format, zone: zone.rules)
        let progress = ProgressIndicator(environment: env)
        let summary = try converter.run(
            try InputReader(path: "-"), to: env.standardOutput,
            onNotice: { line, notice in env.error("line \(line): warning: [\(notice.code)] \(notice.message)\n") },
            onFailure: { line, raw, error in env.error("line \(line): error: [\(error.code)] \(error.message(for: raw))\n") },
            onProgress: { progress.update($0, "reading dates") })
        try env.standardOutput.commit()
        progress.clear()
        let (failed, naive, lineNumber) = (summary.failed, summary.naive, summary.lines)
        if failed > 0 {
            env.error("timeline: \(failed) of \(lineNumber) values could not be read\n")
        }
        if naive > 0 {
            throw TimelineError(.data, "\(naive) value(s) have no UTC offset or zone; pass --assume-zone ZONE (e.g. --assume-zone Asia/Shanghai)")
        }
        if failed > 0 && args.has("strict") { return .dataError }
        return .success
    }
}
