import TimelineKit

/// `timeline dates`: `DateStreamConverter` over standard input.
enum DatesCommand: Command {
    static let name = "dates"
    static let abstract = "Clean a stream of date/time strings, one per line"
    static let summary =
        "Clean a stream of date/time strings: one value per line in, one exact value per line out."
    static let usage = """
        timeline dates [--date-format F ...] [--assume-zone Z] [--zone Z] [--output-format F] [FILE]
               timeline dates --csv|--tsv --column NAME [--column NAME ...] [options] [FILE]
               timeline dates --ndjson --field PATH [--field PATH ...] [options] [FILE]
               timeline dates --in-text [--year YYYY] [--epoch] [--only-first] [options] [FILE]
        """
    static let discussion: String? = """
        Reads FILE (or standard input), one value per line, and writes one line per value in the same
        order, so the output can be pasted beside the input. Values are tried as ISO 8601/RFC 3339, RFC
        2822, epoch numbers (9–11 digits seconds, 13 ms, 16 µs, 19 ns), your --date-format patterns,
        then common shapes (12/06/2024 08:00, Jun 12, 2024 8:00 PM, 2024年6月12日 下午3:05, …). A value that
        cannot be read gives an empty line and an error on stderr with its line number. All-day values
        stay YYYY-MM-DD. Without --day-first/--month-first the order is decided from the first 1,000
        values (a field above 12 decides it). Two-digit years: 00–68 → 20xx, 69–99 → 19xx.
        With --csv (or --tsv) and --column NAME, the input is a CSV file (FILE or standard input)
        written back byte for byte — header, quoting, delimiters, line ends, a byte-order mark, every
        other field — with the values of the named columns rewritten; each column's day/month order
        is decided from its own first 1,000 values. A value that cannot be read is left as it was
        (--on-error empty: emptied), reported on stderr with its line and column, and its record
        written to --rejects FILE. --ndjson --field a.b does the same for a field of JSON lines.
        With --in-text, timestamps inside each line (log lines, access logs) are found and rewritten,
        every other byte kept: ISO 8601/RFC 3339 with a time (and 2024-06-12 08:11:17,123), RFC 2822,
        the Common Log Format (01/Jun/2024:00:00:01 +0800), your --date-format patterns; syslog's
        'Jun 12 08:11:17' only with --year, epoch numbers only with --epoch. Version numbers, IPs,
        ids and prices are left alone. The summary counts lines, timestamps and failures.
        Exit status: 0; 65 with --strict when any value failed, or when values had no offset or zone
        and no --assume-zone was given.
        """
    static let examples: [(command: String, explanation: String)] = [
        (
            "printf '2024-06-12 08:00:00\\n12/06/2024 8:00 PM\\n1718179200000\\n' | timeline dates --assume-zone Asia/Shanghai --day-first",
            "Three shapes of server time, read as Shanghai local time, written as UTC"
        ),
        (
            "cut -d, -f3 orders.csv | timeline dates --zone Asia/Shanghai --output-format date",
            "The customer's calendar day of each UTC timestamp"
        ),
        (
            "timeline dates --date-format '%d.%m.%Y %H:%M' --assume-zone Europe/Berlin --output-format epoch < log.txt",
            "A custom shape to epoch seconds"
        ),
        (
            "timeline dates --csv --column time samples/orders.csv --zone Asia/Shanghai",
            "The order file back as it was, its time column in Shanghai time"
        ),
        (
            "timeline dates --in-text < access.log",
            "An access log with its [01/Jun/2024:00:00:01 +0800] times in UTC, the rest as it was"
        ),
    ]

    struct Options: OptionGroup {
        let outputFormat = Option<DateOutputFormat>.value(
            "output-format", "FORMAT",
            help:
                "rfc3339 (the digits each value has), rfc3339:N (N fraction digits for every value), date, epoch or epoch-ms (whole units; epoch:N, epoch-ms:N with N fraction digits), or a pattern such as 'yyyy-MM-dd HH:mm' or '%d/%m/%Y'.",
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
        let csv = Option.flag(
            "csv",
            help:
                "The input is a CSV file: rewrite the --column fields in place, every other byte as read."
        )
        let tsv = Option.flag("tsv", help: "As --csv, tab-separated.")
        let column = Option.list(
            "column", "NAME",
            help: "With --csv/--tsv: a column (by its header name) whose dates are rewritten.")
        let onError = Option<DateFieldOnError>.choice(
            "on-error", "WHAT",
            help:
                "With --csv/--tsv/--ndjson: a value that cannot be read is kept as it was, or emptied.",
            default: .keep)
        let rejects = Option.text(
            "rejects", "FILE",
            help:
                "With --csv/--tsv/--ndjson: also write each record with a value that could not be read to FILE (a CSV's header first)."
        )
        let ndjson = Option.flag(
            "ndjson",
            help:
                "The input is NDJSON: rewrite the --field values in place, every other byte as read."
        )
        let field = Option.list(
            "field", "PATH",
            help:
                "With --ndjson: a field (dotted path into nested objects, e.g. order.created_at) whose dates are rewritten."
        )
        let inText = Option.flag(
            "in-text",
            help: "Find timestamps inside each line and rewrite them, every other byte as read.")
        let year = Option<Int?>.value(
            "year", "YYYY",
            help: "With --in-text: the year of syslog times (Jun 12 08:11:17), which carry none.",
            initial: nil
        ) { text throws(UsageError) in
            guard let y = Int(text), (1...9999).contains(y) else {
                throw UsageError(
                    message: "invalid value '\(text)' for '--year'; expected a year such as 2024")
            }
            return y
        }
        let epoch = Option.flag(
            "epoch",
            help:
                "With --in-text: also rewrite epoch numbers (10 digits: seconds, 13: milliseconds)."
        )
        let onlyFirst = Option.flag(
            "only-first", help: "With --in-text: rewrite the first timestamp of each line only.")
        let progress = ProgressOptionGroup()
    }

    /// The options of each mode that rewrites in place.
    private static let inPlaceOptions: [(mode: String, options: [String])] = [
        ("--csv or --tsv", ["column"]), ("--ndjson", ["field"]),
        ("--in-text", ["year", "epoch", "only-first"]),
    ]

    static func run(_ args: Arguments<Options>, _ env: CommandEnvironment) throws(TimelineError)
        -> ExitCode
    {
        if args[\.csv] || args[\.tsv] || args[\.ndjson] || args[\.inText] {
            return try inPlace(args, env)
        }
        for option in ["column", "field", "year", "epoch", "only-first", "on-error", "rejects"]
        where args.parsed.texts[option] != nil {
            throw TimelineError(
                .usage, "--\(option) applies to --csv, --tsv, --ndjson or --in-text",
                notes: ["e.g. timeline dates --csv --column time orders.csv"])
        }
        guard args.positionals.count <= 1 else {
            throw TimelineError(
                .usage,
                "'timeline dates' reads one file (or standard input); \(args.positionals.count) were given",
                notes: ["e.g. cat a.txt b.txt | timeline dates"])
        }
        let path = args.positionals.first ?? "-"
        if path == "-" { env.noteTypedInput([]) }
        let (options, zone) = try dateSettings(args)
        let converter = DateStreamConverter(
            parser: DateParser(options: options), format: args[\.outputFormat], zone: zone.rules)
        let progress = args.group.progress.make(
            args.parsed, env: env, quiet: false, outputToStandardOutput: true)
        let input = try InputReader(path: path)
        let meter = ReadMeter()
        input.meter = meter
        let size = TimelineSource.file(path: path).byteCount
        let summary = try converter.run(
            input, to: env.standardOutput,
            onNotice: { line, notice in
                env.error(
                    "line \(line): warning: [\(notice.code)] \(SettingText.rendered(notice.message, for: .commandLine))\n"
                )
            },
            onFailure: { line, raw, error in
                env.error(
                    "line \(line): error: [\(error.code)] \(SettingText.rendered(error.message(for: raw), for: .commandLine))\n"
                )
            },
            onProgress: {
                progress.show(lines: $0, bytesRead: meter.bytes, totalBytes: size, "reading dates")
            })
        try env.standardOutput.commit()
        progress.clear()
        if summary.failed > 0 {
            env.error("timeline: \(summary.failed) of \(summary.lines) values could not be read\n")
        }
        if summary.naive > 0 {
            throw TimelineError(
                .data,
                "\(summary.naive) value(s) have no UTC offset or zone; pass --assume-zone ZONE (e.g. --assume-zone Asia/Shanghai)"
            )
        }
        if summary.failed > 0 && args[\.strict] { return .dataError }
        return .success
    }

    /// `--csv`, `--tsv`, `--ndjson`, `--in-text`: the input written back with its dates rewritten in place.
    private static func inPlace(_ args: Arguments<Options>, _ env: CommandEnvironment)
        throws(TimelineError) -> ExitCode
    {
        let modes = [
            (args[\.csv] || args[\.tsv], "--csv or --tsv"), (args[\.ndjson], "--ndjson"),
            (args[\.inText], "--in-text"),
        ].filter(\.0).map(\.1)
        guard modes.count == 1, !(args[\.csv] && args[\.tsv]) else {
            throw TimelineError(.usage, "choose one of --csv, --tsv, --ndjson and --in-text")
        }
        for (mode, options) in inPlaceOptions where mode != modes[0] {
            for option in options where args.parsed.texts[option] != nil {
                throw TimelineError(.usage, "--\(option) applies to \(mode) input")
            }
        }
        if modes[0] == "--csv or --tsv" && args[\.column].isEmpty {
            throw TimelineError(
                .usage, "--csv needs the columns to rewrite: --column NAME (repeatable)",
                notes: ["e.g. timeline dates --csv --column time orders.csv"])
        }
        if args[\.ndjson] && args[\.field].isEmpty {
            throw TimelineError(
                .usage, "--ndjson needs the fields to rewrite: --field PATH (repeatable)",
                notes: ["e.g. timeline dates --ndjson --field created_at orders.ndjson"])
        }
        if args[\.inText] && args.parsed.texts["rejects"] != nil {
            throw TimelineError(.usage, "--rejects applies to --csv, --tsv and --ndjson input")
        }
        guard args.positionals.count <= 1 else {
            throw TimelineError(
                .usage,
                "\(modes[0]) reads one file (or standard input); \(args.positionals.count) were given"
            )
        }
        let (options, zone) = try dateSettings(args)
        let source = TimelineSource.file(path: args.positionals.first ?? "-")
        try source.checkReadable()
        let format = args[\.outputFormat]
        let run:
            (
                InputReader, OutputWriter, (Int, DateNotice) -> Void, (DateFieldFailure) -> Void,
                (Int) -> Void
            ) throws(TimelineError) ->
                DateFieldSummary
        if args[\.inText] {
            let job = TextDateRewriter(
                options: options, format: format, zone: zone.rules, syslogYear: args[\.year],
                epochs: args[\.epoch], onlyFirst: args[\.onlyFirst])
            run = { i, o, n, f, p throws(TimelineError) in
                try job.run(i, to: o, onNotice: n, onFailure: f, onProgress: p)
            }
        } else if args[\.ndjson] {
            let job = NDJSONDateFields(
                fields: args[\.field], options: options, format: format, zone: zone.rules,
                onError: args[\.onError])
            run = { i, o, n, f, p throws(TimelineError) in
                try job.run(i, to: o, onNotice: n, onFailure: f, onProgress: p)
            }
        } else {
            let job = CSVDateColumns(
                columns: args[\.column], options: options, format: format, zone: zone.rules,
                delimiter: args[\.tsv] ? "\t" : nil,
                onError: args[\.onError])
            run = { i, o, n, f, p throws(TimelineError) in
                try job.run(i, to: o, onNotice: n, onFailure: f, onProgress: p)
            }
        }
        let rejects = try args[\.rejects].map { path throws(TimelineError) in
            try OutputWriter(path: path)
        }
        var lastRejected: Int?
        let progress = args.group.progress.make(
            args.parsed, env: env, quiet: false, outputToStandardOutput: true)
        let input = try source.open()
        let meter = ReadMeter()
        input.meter = meter
        let size = source.byteCount
        let summary: DateFieldSummary
        do throws(TimelineError) {
            summary = try run(
                input, env.standardOutput,
                { line, notice in
                    env.error(
                        "\(source.name):\(line): warning: [\(notice.code)] \(SettingText.rendered(notice.message, for: .commandLine))\n"
                    )
                },
                { f in
                    let place =
                        f.column.isEmpty
                        ? "" : "\(args[\.ndjson] ? "field" : "column") '\(f.column)': "
                    env.error(
                        "\(source.name):\(f.line): error: [\(f.error.code)] \(place)\(SettingText.rendered(f.error.message(for: f.value), for: .commandLine))\n"
                    )
                    if let rejects, lastRejected != f.line {
                        if lastRejected == nil { try? rejects.write(f.header) }
                        try? rejects.write(f.record)
                        lastRejected = f.line
                    }
                },
                {
                    progress.show(
                        lines: $0, bytesRead: meter.bytes, totalBytes: size, "rewriting dates")
                })
        } catch {
            rejects?.discard()
            throw error
        }
        try env.standardOutput.commit()
        try rejects?.commit()
        progress.clear()
        if args[\.inText] {
            env.error(
                "timeline: \(summary.records) lines, \(summary.rewritten + summary.failed) timestamps, \(summary.rewritten) rewritten, \(summary.failed) could not be read (left as they were)\n"
            )
        } else if summary.failed > 0 {
            env.error(
                "timeline: \(summary.failed) of \(summary.rewritten + summary.failed) values could not be read (left \(args[\.onError] == .keep ? "as they were" : "empty"))\n"
            )
        }
        if summary.naive > 0 {
            throw TimelineError(
                .data,
                "\(summary.naive) value(s) have no UTC offset or zone; pass --assume-zone ZONE (e.g. --assume-zone Asia/Shanghai)"
            )
        }
        if summary.failed > 0 && args[\.strict] { return .dataError }
        return .success
    }

    /// How values are read, and the zone they are written in (`--zone`, else UTC).
    private static func dateSettings(_ args: Arguments<Options>) throws(TimelineError) -> (
        DateParsingOptions, ResolvedZone
    ) {
        do throws(UsageError) {
            let options = try args.group.dates.make(args.parsed)
            let zone =
                try args[\.zone].map { z throws(UsageError) in
                    try DateOptionGroup.resolve(z, option: "zone", resolver: options.zoneResolver)
                }
                ?? .utc
            return (options, zone)
        } catch {
            throw TimelineError(.usage, error.message)
        }
    }
}
