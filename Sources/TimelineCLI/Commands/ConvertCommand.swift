import TimelineKit

/// `timeline convert`: `Timeline.convert` with flags, printed diagnostics and a summary.
enum ConvertCommand: Command {
    static let name = "convert"
    static let abstract = "Convert between formats, normalising every date"
    static let summary =
        "Convert timeline data between formats, normalising every date to an exact, zone-explicit instant."
    static let usage = "timeline convert [INPUT ...] [--from FMT] [--to FMT] [-o OUTPUT] [options]"
    static var discussion: String? {
        """
        Inputs are files or '-' for standard input (the default); several inputs are merged into one
        timeline. The input format comes from --from, else the file extension, else the content.
        Output goes to standard output unless -o names a file, which is written atomically: a run that
        fails leaves no file behind. The default --sort asc sorts within --memory, spilling sorted runs
        to --temp-dir past it; text, HTML, Markdown and --group then hold one day or month at a time
        (ICS output still holds every event). --sort input streams and writes as it reads. Every
        record is either written or rejected with its file, line and reason; a summary goes to
        standard error.
        \(FormatList.text)
        A recurring ICS series is its master event (RRULE in attributes) unless --expand FROM..UNTIL
        asks for one event per occurrence in that window.
        Columns are mapped to fields by header name (time, timestamp, created_at, 交易时间, title,
        status, 状态, amount, 金额, …) unless --map says otherwise; every other column is kept in
        the event's attributes.
        """
    }
    static let positional: (name: String, help: String)? = (
        "INPUT ...", "Files to read, or '-' for standard input. [default: -]"
    )
    static let examples: [(command: String, explanation: String)] = [
        (
            "timeline convert samples/orders.csv --to ndjson --assume-zone Asia/Shanghai",
            "An order export to canonical NDJSON"
        ),
        (
            "timeline convert samples/wallet-statement.csv --assume-zone Asia/Shanghai --map direction=收/支 --to csv",
            "A wallet statement, amounts signed by the 收/支 column"
        ),
        (
            "timeline convert samples/courier-trace.json --assume-zone Asia/Shanghai --sort asc",
            "A courier trace (newest first in the file) in time order"
        ),
        (
            "timeline convert a.ndjson b.ndjson --sort desc --zone Asia/Shanghai",
            "Merge two files, newest first, shown in Shanghai time"
        ),
        (
            "timeline convert samples/orders.csv --to text --zone Asia/Shanghai",
            "The order history as a readable timeline, days counted in Shanghai"
        ),
        (
            "timeline convert samples/orders.csv --assume-zone Asia/Shanghai --to csv --fields id,start.instant,title,amount.value,amount.currency",
            "Only the columns a warehouse table loads"
        ),
        (
            "timeline convert samples/orders.csv --assume-zone Asia/Shanghai --to parquet -o orders.parquet",
            "The order history as Parquet, for DuckDB, polars, pandas or Spark"
        ),
        (
            "timeline convert samples/orders.csv --assume-zone Asia/Shanghai --zone Asia/Shanghai --to parquet --partition-by day -o lake/orders",
            "One Parquet file per Shanghai day, in directories Spark and DuckDB discover (day=2024-06-12/)"
        ),
        (
            "timeline convert samples/events.ndjson --to json --strict --rejects rejects.ndjson",
            "Fail on any bad record and keep the bad ones for inspection"
        ),
        (
            "timeline convert part-0003.csv --header-from orders.csv --source-name orders.csv --first-record 1201 --first-line 1202 --to ndjson --sort input",
            "One slice of a larger file (a Spark partition): events named and numbered as in a run over orders.csv"
        ),
        (
            "timeline convert samples/calendar.ics --expand 2024-06-01..2024-06-30 --to text --zone Asia/Shanghai",
            "Every occurrence of the recurring stand-up in June"
        ),
    ]

    /// `--count-records`: each source's records and lines, one JSON object per line.
    static func countRecords(
        _ sources: [TimelineSource], format: FileFormat?, env: CommandEnvironment
    ) throws(TimelineError) -> ExitCode {
        for source in sources {
            let id = (format ?? FileFormat.forFile(named: source.name))?.id
            let count = try LineRecordCount(
                reading: try source.open(), csvQuotes: id == nil || id == "csv" || id == "tsv")
            try env.standardOutput.write(
                "{\"records\":\(count.records),\"lines\":\(count.lines),\"ends_in_quotes\":\(count.endsInQuotes)}\n"
            )
        }
        try env.standardOutput.commit()
        return .success
    }

    struct Options: OptionGroup {
        let from = FormatChoice.input
        let to = FormatChoice.output
        let output = Option.text(
            "output", short: "o", "FILE",
            help: "Write to FILE (atomically) instead of standard output; '-' is standard output.")
        let sort = Option<SortOrder>.choice(
            "sort", "ORDER",
            help:
                "Order by start then recorded then input order (asc, desc), or keep input order and stream (input).",
            default: .asc
        )
        let group = Option<GroupingUnit>.choice(
            "group", "UNIT",
            help:
                "Group events by calendar day or month in the display zone (json/timeline output; text groups by day unless month), with per-currency income and expense totals. Sorted, holds one group at a time; with --sort input, every event.",
            default: .none)
        let countRecords = Option.flag(
            "count-records",
            help:
                "Print the input's records and lines (with --byte-range, its split's) as {\"records\":R,\"lines\":L,\"ends_in_quotes\":false} and convert nothing: the first pass of a job that numbers its splits' records as the whole file's."
        )
        let partitionBy = Option<GroupingUnit>.choice(
            "partition-by", "UNIT",
            help:
                "Write -o DIR as a directory in the Hive layout, one partition per day or month in the display zone (DIR/day=2024-06-12/part-00000.parquet): ndjson, csv, tsv or parquet output.",
            default: .none)
        let zone = Option.text(
            "zone", "ZONE", help: "Display zone: times are shown and days counted in it.",
            default: "the --assume-zone zone, else the zone a calendar declares, else UTC")
        let dates = DateOptionGroup()
        let input = InputOptionGroup()
        let slice = SliceOptionGroup()
        let writing = OutputOptionGroup()
        let rejects = Option.text(
            "rejects", "FILE",
            help:
                "Also write rejected records to FILE: CSV (input header + reject_line, reject_reason) for .csv, else NDJSON {file, line, reason, raw}.",
            default: "reported on stderr only")
        let strict = Option.flag(
            "strict", help: "Fail (exit 65, no output file) if any record is rejected.")
        let spill = SpillOptionGroup()
        let validate = Option.flag(
            "validate",
            help:
                "Also write the validation report (see 'timeline validate') to stderr. Streams, sharing --memory with the sort."
        )
        let validationState = Option.text(
            "validation-state", "FILE",
            help:
                "Validate (as --validate) and also write the validation's mergeable state to FILE, for 'timeline validate --merge' (a distributed job's partitions)."
        )
        let ignore = IgnoreOption.declaration
        let verbose = Option.flag(
            "verbose", short: "v", help: "Report format detection and other decisions on stderr.")
        let quiet = Option.flag(
            "quiet", short: "q", help: "Do not print the summary line or the progress line.")
        let progress = ProgressOptionGroup()
    }

    /// Options only readable outputs honour, and those outputs.
    static let readableOptions: [(String, [String])] = [
        ("layout", ["text", "html", "markdown"]), ("color", ["text"]),
        ("locale", ["text", "html", "markdown"]), ("now", ["text", "html", "markdown"]),
    ]

    /// How many rejected records are printed on stderr before the rest are only counted.
    static let rejectsShown = 100

    /// Every setting of the run, from the flags, checked together.
    static func settings(_ args: Arguments<Options>, _ env: CommandEnvironment)
        throws(TimelineError) -> ConvertOptions
    {
        var options = ConvertOptions()
        let dates: DateParsingOptions
        do throws(UsageError) {
            dates = try args.group.dates.make(args.parsed)
            options.write.displayZone = try DateOptionGroup.displayZone(args[\.zone], dates)
            options.write.displayZoneChoice = DateOptionGroup.displayZoneChoice(args[\.zone], dates)
        } catch {
            throw TimelineError(.usage, error.message)
        }
        options.read = try args.group.input.make(args.parsed, dates: dates)
        options.read.format = args[\.from]
        let outputPath = args[\.output]
        let named = args[\.to] ?? outputPath.flatMap(FileFormat.forFile(named:)) ?? .named("json")!
        guard named.isWritable else {
            throw TimelineError(
                .usage,
                "cannot write '\(named.id)' (the format of '\(outputPath ?? "-")'); pass --to with one of \(FormatChoice.writable.joined(separator: ", "))"
            )
        }
        options.outputFormat = named
        // The readable outputs' options: given for another output, they would do nothing.
        for (option, formats) in Self.readableOptions
        where args.parsed.texts[option] != nil && !formats.contains(named.id) {
            throw TimelineError(
                .usage,
                "--\(option) applies to \(formats.joined(separator: ", ")) output, not '\(named.id)'",
                notes: ["e.g. --to \(formats[0]) --\(option) …, or leave --\(option) out"])
        }
        options.sort = args[\.sort]
        options.grouping = args[\.group]
        options.partitionBy = args[\.partitionBy]
        if options.partitionBy != .none && (args[\.output] == nil || args[\.output] == "-") {
            throw TimelineError(
                .usage, "--partition-by writes a directory; name it with -o DIR",
                notes: ["e.g. --partition-by day --to parquet -o lake/orders"])
        }
        try args.group.writing.apply(args.parsed, to: &options.write, env: env)
        options.write.grouping = options.grouping
        options.write.descending = options.sort == .desc
        options.strict = args[\.strict]
        options.validate = args[\.validate] || args[\.validationState] != nil
        options.keepsValidationState = args[\.validationState] != nil
        options.ignored = Set(args[\.ignore])
        options.verbose = args[\.verbose]
        (options.sortMemory, options.sortDirectory) = args.group.spill.make(args.parsed, env: env)
        return options
    }

    static func run(_ args: Arguments<Options>, _ env: CommandEnvironment) throws(TimelineError)
        -> ExitCode
    {
        var options = try settings(args, env)
        let sources = try args.group.slice.sources(args.parsed, paths: args.positionals)
        // exit 66 before any output file is created
        for source in sources { try source.checkReadable() }
        if args[\.countRecords] {
            return try countRecords(sources, format: options.read.format, env: env)
        }
        env.noteTypedInput(args.positionals)
        let destination = args[\.output].map(TimelineDestination.file(path:)) ?? .standardOutput
        if options.outputFormat.isBinary && env.stdoutIsTerminal
            && (args[\.output] == nil || args[\.output] == "-")
        {
            throw TimelineError(
                .usage,
                "\(options.outputFormat.id) output is binary and standard output is a terminal",
                notes: ["write it to a file (-o out.\(options.outputFormat.id)) or pipe it on"])
        }
        let rejectsOutput = try args[\.rejects].map { path throws(TimelineError) in
            try OutputWriter(path: path)
        }
        let rejectsWriter = rejectsOutput.map {
            RejectsWriter(output: $0, safe: options.write.csv.safe, audience: .commandLine)
        }
        var rejectWriteError: TimelineError?
        var printedRejects = 0
        let progress = args.group.progress.make(
            args.parsed, env: env, quiet: args[\.quiet],
            outputToStandardOutput: args[\.output] == nil || args[\.output] == "-")
        // With --validate, the findings the date engine reports go into the report instead.
        options.onDiagnostic =
            options.validate ? { d in if !d.isFinding { env.print(d) } } : env.print
        options.onReject = { record in
            // The first rejects go to stderr; all of them go to --rejects.
            printedRejects += 1
            if printedRejects <= Self.rejectsShown {
                env.print(
                    Diagnostic(
                        .error, "rejected: \(record.reasonText)", at: record.location,
                        code: record.code.rawValue))
            } else if printedRejects == Self.rejectsShown + 1 {
                env.error(
                    "timeline: note: more rejects are not shown here; write them all with --rejects FILE\n"
                )
            }
            do throws(TimelineError) { try rejectsWriter?.write(record) } catch {
                rejectWriteError = rejectWriteError ?? error
            }
        }
        options.onProgress = { progress.show($0) }
        options.onFinish = { result throws(TimelineError) in
            progress.clear()
            if let report = result.report { env.error(report.text(for: .commandLine)) }
            // Every output shows times in the display zone: say which when the data chose it.
            if case .declared = result.displayZoneChoice, !args[\.quiet] {
                env.error(
                    "timeline: note: times in \(result.displayZoneChoice.describing(result.displayZone, for: .commandLine)); name another with --zone\n"
                )
            }
            if let rejectWriteError { throw rejectWriteError }
            if !args[\.quiet] {
                let summary = result.summary
                let see = summary.rejected > 0 ? args[\.rejects].map { " (see \($0))" } ?? "" : ""
                env.error(
                    "timeline: read \(summary.read) records, wrote \(summary.written), rejected \(summary.rejected)\(see)\n"
                )
            }
        }
        let result: ConvertResult
        do throws(TimelineError) {
            result = try Timeline.convert(
                sources, to: destination, options: options)
        } catch {
            rejectsOutput?.discard()
            throw error
        }
        try rejectsOutput?.commit()
        if let path = args[\.validationState] { try result.validationState?.write(to: path) }
        return .success
    }
}

/// `--memory` and `--temp-dir`: how much a run holds for sorting and for the checks over
/// series and ids, and where the rest spills.
struct SpillOptionGroup: OptionGroup {
    let memory = Option<Int>.value(
        "memory", "SIZE",
        help:
            "About how much memory sorting and the checks over series and ids may take; beyond it, they spill to --temp-dir, with the same output (e.g. 64MB, 1GB).",
        initial: 256 << 20, default: "256MB"
    ) { text throws(UsageError) in
        guard let bytes = ByteSize.parse(text), bytes >= 1 << 20 else {
            throw UsageError(
                message:
                    "invalid value '\(text)' for '--memory'; expected a size of at least 1MB such as 256MB or 2GB"
            )
        }
        return bytes
    }
    let tempDir = Option.text(
        "temp-dir", "DIR",
        help:
            "Where a run that outgrows --memory spills (files removed at once, gone when the run ends however it ends).",
        default: "TMPDIR, else /tmp")

    /// The memory budget and the spill directory.
    func make(_ args: ParsedArguments, env: CommandEnvironment) -> (memory: Int, directory: String)
    {
        (args[memory], args[tempDir] ?? env.temporaryDirectory)
    }
}

/// How the output is written: the readable formats' language and reference moment, the
/// fields an ETL output keeps, and the options the writable formats declare
/// (`--time-format`, `--ics-utc`, `--layout`, …).
struct OutputOptionGroup: OptionGroup {
    let now = Option<Instant?>.value(
        "now", "INSTANT",
        help:
            "Text, HTML and Markdown output: the moment relative times (3 hours ago, yesterday, 今天) count from.",
        initial: nil,
        default: "the clock"
    ) { text throws(UsageError) in
        guard let instant = InstantArgument.parse(text) else {
            throw UsageError(
                message:
                    "invalid value '\(text)' for '--now'; expected an RFC 3339 time such as 2024-06-13T20:00:00+08:00"
            )
        }
        return instant
    }
    let locale = Option<TimelineLocale>.choice(
        "locale", "LANG", help: "Text and HTML output: language.", default: .english)
    let fields = Option<FieldSelection?>.value(
        "fields", "PATH,...",
        help:
            "NDJSON, JSON, CSV and TSV output: write only these parts of each event, by dotted path (id,start.instant,title,amount.value,series; attributes.NAME), null or empty where an event has none.",
        initial: nil, default: "the whole canonical event"
    ) { text throws(UsageError) in
        do throws(TimelineError) {
            return try FieldSelection(text)
        } catch {
            throw UsageError(message: error.diagnostic.message(for: .commandLine))
        }
    }
    let formats: [any OptionDeclaration] = FormatOptions.write

    func apply(_ args: ParsedArguments, to options: inout WriteOptions, env: CommandEnvironment)
        throws(TimelineError)
    {
        options.locale = args[locale]
        options.fields = args[fields]
        options.now = args[now] ?? env.clock()
        options.terminalColors = env.stdoutIsTerminal && !env.noColor
        for option in FormatOptions.write { try option.apply(args, to: &options) }
    }
}

/// `--from` and `--to`: the formats the registry can read and write.
enum FormatChoice {
    static var readable: [String] { FileFormat.all.filter(\.isReadable).map(\.id) }
    static var writable: [String] { FileFormat.all.filter(\.isWritable).map(\.id) }

    static let input = Option<FileFormat?>.value(
        "from", "FMT", help: "Input format.", initial: nil,
        default: "from the extension, else the content", choices: readable
    ) { text throws(UsageError) in FileFormat.named(text)! }

    static let output = Option<FileFormat?>.value(
        "to", "FMT", help: "Output format.", initial: nil,
        default: "from the -o extension, else json", choices: writable
    ) { text throws(UsageError) in FileFormat.named(text)! }
}

/// The formats, for help.
enum FormatList {
    static var text: String {
        "Readable now: \(FormatChoice.readable.joined(separator: ", ")).\nWritable now: \(FormatChoice.writable.joined(separator: ", "))."
    }
}

/// An instant given on the command line (`--now`, `--at`): RFC 3339 or anything the date
/// engine reads with an offset.
enum InstantArgument {
    static func parse(_ text: String) -> Instant? {
        guard case .success(let parsed) = DateParser().parse(text) else { return nil }
        return parsed.value.instant
    }
}

extension Diagnostic {
    /// Carries a validation finding code (the date engine's TZ104–TZ106).
    var isFinding: Bool { code.flatMap(FindingCode.init(rawValue:)) != nil }
}
