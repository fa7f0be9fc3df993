import TimelineKit

/// `timeline dates`: `DateStreamConverter` over standard input.
enum DatesCommand: Command {
    static let name = "dates"
    static let abstract = "Clean a stream of date/time strings, one per line"
    static let summary = "Clean a stream of date/time strings: one value per line in, one exact value per line out."
    static let usage = "timeline dates [--date-format F ...] [--assume-zone Z] [--zone Z] [--output-format F] < values"
    static let discussion: String? = """
        Reads standard input, one value per line, and writes one line per value in the same order, so
        the output can be pasted beside the input. Values are tried as ISO 8601/RFC 3339, RFC 2822,
        epoch numbers (9–11 digits seconds, 13 ms, 16 µs, 19 ns), your --date-format patterns, then
        common shapes (12/06/2024 08:00, Jun 12, 2024 8:00 PM, 2024年6月12日 下午3:05, …). A value that
        cannot be read gives an empty line and an error on stderr with its line number. All-day values
        stay YYYY-MM-DD. Without --day-first/--month-first the order is decided from the first 1,000
        values (a field above 12 decides it). Two-digit years: 00–68 → 20xx, 69–99 → 19xx.
        Exit status: 0; 65 with --strict when any value failed, or when values had no offset or zone
        and no --assume-zone was given.
        """
    static let examples: [(command: String, explanation: String)] = [
        ("printf '2024-06-12 08:00:00\\n12/06/2024 8:00 PM\\n1718179200000\\n' | timeline dates --assume-zone Asia/Shanghai --day-first", "Three shapes of server time, read as Shanghai local time, written as UTC"),
        ("cut -d, -f3 orders.csv | timeline dates --zone Asia/Shanghai --output-format date", "The customer's calendar day of each UTC timestamp"),
        ("timeline dates --date-format '%d.%m.%Y %H:%M' --assume-zone Europe/Berlin --output-format epoch < log.txt", "A custom shape to epoch seconds"),
    ]

    struct Options: OptionGroup {
        let outputFormat = Option<DateOutputFormat>.value(
            "output-format", "FORMAT", help: "rfc3339, date, epoch, epoch-ms, or a pattern such as 'yyyy-MM-dd HH:mm' or '%d/%m/%Y'.",
            initial: .rfc3339, default: "rfc3339"
        ) { text throws(UsageError) in
            do throws(DatePattern.CompileError) {
                return try DateOutputFormat(text)
            } catch {
                throw UsageError(message: error.message)
            }
        }
        let zone = Option.text("zone", "ZONE", help: "Output zone.", default: "UTC, written Z")
        let dates = DateOptionGroup()
        let strict = Option.flag("strict", help: "Exit 65 if any value could not be read.")
    }

    static func run(_ args: Arguments<Options>, _ env: CommandEnvironment) throws(TimelineError) -> ExitCode {
        guard args.positionals.isEmpty else {
            throw TimelineError(.usage, "'timeline dates' reads standard input; unexpected argument '\(args.positionals[0])' (use: timeline dates < \(args.positionals[0]))")
        }
        let options: DateParsingOptions
        let zone: ResolvedZone
        do throws(UsageError) {
            options = try args.group.dates.make(args.parsed)
            zone = try args[\.zone].map { z throws(UsageError) in try DateOptionGroup.resolve(z, option: "zone", resolver: options.zoneResolver) } ?? .utc
        } catch {
            throw TimelineError(.usage, error.message)
        }
        let converter = DateStreamConverter(parser: DateParser(options: options), format: args[\.outputFormat], zone: zone.rules)
        let progress = ProgressIndicator(environment: env)
        let summary = try converter.run(
            try InputReader(path: "-"), to: env.standardOutput,
            onNotice: { line, notice in env.error("line \(line): warning: [\(notice.code)] \(notice.message)\n") },
            onFailure: { line, raw, error in env.error("line \(line): error: [\(error.code)] \(error.message(for: raw))\n") },
            onProgress: { progress.update($0, "reading dates") })
        try env.standardOutput.commit()
        progress.clear()
        if summary.failed > 0 {
            env.error("timeline: \(summary.failed) of \(summary.lines) values could not be read\n")
        }
        if summary.naive > 0 {
            throw TimelineError(.data, "\(summary.naive) value(s) have no UTC offset or zone; pass --assume-zone ZONE (e.g. --assume-zone Asia/Shanghai)")
        }
        if summary.failed > 0 && args[\.strict] { return .dataError }
        return .success
    }
}
