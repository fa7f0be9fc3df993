import TimelineKit

enum ConvertCommand {
    static let spec = CommandSpec(
        name: "convert",
        summary: "Convert timeline data between formats, normalising every date to an exact, zone-explicit instant.",
        usage: "timeline convert [INPUT ...] [--from FMT] [--to FMT] [-o OUTPUT] [options]",
        discussion: """
            Inputs are files or '-' for standard input (the default); several inputs are merged into one
            timeline. The input format comes from --from, else the file extension, else the content.
            Output goes to standard output unless -o names a file, which is written atomically: a run that
            fails leaves no file behind. With the default --sort asc every event is held in memory to be
            sorted; --sort input streams in bounded memory. Every record is either written or rejected
            with its file, line and reason; a summary goes to standard error.
            Readable now: csv, tsv, json, ndjson, ics, timeline. Writable now: json, ndjson, timeline, csv,
            tsv, ics, text, html. A recurring ICS series is its master event (RRULE in attributes) unless
            --expand FROM..UNTIL asks for one event per occurrence in that window.
            Columns are mapped to fields by header name (time, timestamp, created_at, 交易时间, title,
            status, 状态, amount, 金额, …) unless --map says otherwise; every other column is kept in
            the event's attributes.
            """,
        positional: ("INPUT ...", "Files to read, or '-' for standard input. [default: -]"),
        options: [
            .value("from", "FMT", "Input format.", default: "from the extension, else the content", choices: FormatRegistry.inputFormatIDs),
            .value("to", "FMT", "Output format.", default: "from the -o extension, else json", choices: FormatRegistry.outputFormatIDs),
            .value("output", short: "o", "FILE", "Write to FILE (atomically) instead of standard output; '-' is standard output."),
            .value("sort", "ORDER", "Order by start then recorded then input order (asc, desc), or keep input order and stream (input).", default: "asc", choices: SortOrder.allCases.map(\.rawValue)),
            .value("group", "UNIT", "Group events by calendar day or month in the display zone (json/timeline output; text groups by day unless month), with per-currency income and expense totals. Holds every event in memory.", default: "none", choices: GroupingUnit.allCases.map(\.rawValue)),
            DateOptions.zoneSpec,
        ] + DateOptions.specs + inputOptions + [
            .value("time-format", "FORMAT", "CSV output: rfc3339, date, epoch, epoch-ms, or a pattern.", default: "rfc3339 in the display zone"),
            .flag("safe-csv", "CSV output: prefix cells starting with = + - @ with ' so spreadsheets do not run them."),
            .flag("ics-utc", "ICS output: write times in UTC (Z) instead of TZID with generated VTIMEZONEs."),
            .value("now", "INSTANT", "Text output: the moment relative times ('3 hours ago', 'yesterday') count from.", default: "the clock"),
            .value("locale", "LANG", "Text and HTML output: language.", default: "en", choices: TextLocale.allCases.map(\.rawValue)),
            .value("layout", "KIND", "Text output: 'split' puts income left of the line and expense right.", default: "line", choices: ["line", "split"]),
            .value("color", "WHEN", "Text output: ANSI colour. NO_COLOR is respected.", default: "auto: only when stdout is a terminal", choices: ["auto", "always", "never"]),
            .value("expand", "FROM..UNTIL", "ICS: one event per occurrence of each recurring series (RRULE, RDATE, EXDATE, RECURRENCE-ID overrides) within the window; each end a date (2024-01-01, whole days in the series' zone) or an instant with offset (2024-01-01T00:00:00Z).", default: "series kept as master events"),
            .value("max-occurrences", "N", "ICS with --expand: occurrences generated per series before it is cut off, with a warning.", default: "10000"),
            .value("rejects", "FILE", "Also write rejected records to FILE: CSV (input header + reject_line, reject_reason) for .csv, else NDJSON {file, line, reason, raw}.", default: "reported on stderr only"),
            .flag("strict", "Fail (exit 65, no output file) if any record is rejected."),
            .flag("validate", "Also write the validation report (see 'timeline validate') to stderr. Streams: keeps per-series facts, not the events."),
            .flag("verbose", short: "v", "Report format detection and other decisions on stderr."),
            .flag("quiet", short: "q", "Do not print the summary line."),
        ],
        examples: [
            ("timeline convert samples/orders.csv --to ndjson --assume-zone Asia/Shanghai", "An order export to canonical NDJSON"),
            ("timeline convert samples/wallet-statement.csv --assume-zone Asia/Shanghai --map direction=收/支 --to csv", "A wallet statement, amounts signed by the 收/支 column"),
            ("timeline convert samples/courier-trace.json --assume-zone Asia/Shanghai --sort asc", "A courier trace (newest first in the file) in time order"),
            ("timeline convert a.ndjson b.ndjson --sort desc --zone Asia/Shanghai", "Merge two files, newest first, shown in Shanghai time"),
            ("timeline convert samples/orders.csv --to text --zone Asia/Shanghai", "The order history as a readable timeline, days counted in Shanghai"),
            ("timeline convert samples/events.ndjson --to json --strict --rejects rejects.ndjson", "Fail on any bad record and keep the bad ones for inspection"),
            ("timeline convert samples/calendar.ics --expand 2024-06-01..2024-06-30 --to text --zone Asia/Shanghai", "Every occurrence of the recurring stand-up in June"),
        ])

    /// Input options shared by `convert` and `validate`: mapping, CSV and JSON details.
    static let inputOptions: [OptionSpec] = [
            .value("map", "FIELD=COLUMN", "Map a source column (a dotted path for JSON) to a field: id, start, end, title, detail, status, category, amount, currency, location, series, recorded, links, tags, zone (per-record zone), direction (income/expense words). start=date+time joins columns.", repeatable: true),
            .value("mapping", "FILE", "A JSON object of field → column mappings, e.g. {\"start\": \"交易时间\"}."),
            .value("status-map", "WORD=STATUS", "Add a status word, e.g. 已揽件=processing.", repeatable: true),
            .value("delimiter", "C", "CSV delimiter: a character, 'tab', or '\\t'.", default: "detected among , ; tab |"),
            .flag("no-header", "The CSV has no header line: columns are named 1, 2, …"),
            .value("encoding", "NAME", "Text encoding of the inputs (Chinese bank and wallet exports are often gb18030).", default: "utf-8", choices: TextEncoding.allCases.map(\.rawValue)),
            .flag("decimal-comma", "Amounts use a decimal comma: 1.234,50."),
            .value("records", "PATH", "JSON: the dotted path of the records array, e.g. data or result.traces.", default: "the top-level array, or the one array of objects"),
    ]

    /// How many rejected records are printed on stderr before the rest are only counted.
    static let rejectsShown = 100

    /// What reading needs: import options built from the flags, and the display zone.
    struct ImportSetup {
        var importOptions: ImportOptions
        var displayZone: ResolvedZone
    }

    static func importSetup(_ args: ParsedArguments) throws(TimelineError) -> ImportSetup {
        let dateOptions: DateParsingOptions
        let displayZone: ResolvedZone
        do throws(UsageError) {
            dateOptions = try DateOptions.make(args)
            displayZone = try DateOptions.displayZone(args, dateOptions)
        } catch {
            throw TimelineError(.usage, error.message)
        }
        var importOptions = ImportOptions()
        var cap = 10_000
        if let text = args.value("max-occurrences") {
            guard let n = Int(text), n >= 1 else {
                throw TimelineError(.usage, "invalid value '\(text)' for '--max-occurrences'; expected a positive number such as 10000")
            }
            guard args.has("expand") else { throw TimelineError(.usage, "--max-occurrences only applies with --expand FROM..UNTIL") }
            cap = n
        }
        if let text = args.value("expand") {
            switch RecurrenceExpansion.parse(text, maxOccurrences: cap) {
            case .success(let window): importOptions.recurrence = window
            case .failure(let e): throw TimelineError(.usage, "invalid value for '--expand': \(e.message)")
            }
        }
        importOptions.dates = dateOptions
        importOptions.hasHeader = !args.has("no-header")
        importOptions.encoding = TextEncoding(rawValue: args.value("encoding") ?? "utf-8")!
        importOptions.recordsPath = args.value("records")
        importOptions.mapping.amounts.decimalComma = args.has("decimal-comma")
        for spec in args.all("map") { try importOptions.mapping.mapping.add(spec) }
        for spec in args.all("status-map") { try importOptions.mapping.statuses.add(spec) }
        if let file = args.value("mapping") {
            let bytes = try InputReader(path: file).readAll()
            let json: JSONValue
            do throws(JSONSyntaxError) {
                json = try JSONParser.parseComplete(bytes, what: "the mapping object")
            } catch {
                throw TimelineError(.usage, "mapping file '\(file)' is not valid JSON: \(error.message)")
            }
            try importOptions.mapping.mapping.add(json: json, file: file)
        }
        if let d = args.value("delimiter") {
            switch d {
            case "tab", "\\t", "\t": importOptions.delimiter = 0x09
            default:
                guard d.utf8.count == 1, let b = d.utf8.first, b != 0x22, b != 0x0A, b != 0x0D else {
                    throw TimelineError(.usage, "invalid value '\(d)' for '--delimiter'; expected one character such as ';' or 'tab'")
                }
                importOptions.delimiter = b
            }
        }
        return ImportSetup(importOptions: importOptions, displayZone: displayZone)
    }

    static func run(_ args: ParsedArguments, _ env: CommandEnvironment) throws(TimelineError) -> ExitCode {
        let setup = try importSetup(args)
        let displayZone = setup.displayZone
        let outputPath = args.value("output")
        let toID = args.value("to") ?? outputPath.flatMap { FormatRegistry.format(forPath: $0)?.id } ?? "json"
        guard let toFormat = FormatRegistry.format(toID), FormatRegistry.outputFormatIDs.contains(toFormat.id) else {
            throw TimelineError(.usage, "cannot tell the output format of '\(outputPath ?? "-")'; pass --to with one of \(FormatRegistry.outputFormatIDs.joined(separator: ", "))")
        }
        var exportOptions = ExportOptions()
        exportOptions.displayZone = displayZone
        exportOptions.safeCSV = args.has("safe-csv")
        exportOptions.icsUTC = args.has("ics-utc")
        exportOptions.textLocale = TextLocale(rawValue: args.value("locale") ?? "en")!
        exportOptions.splitLayout = args.value("layout") == "split"
        exportOptions.descending = args.value("sort") == "desc"
        exportOptions.grouping = GroupingUnit(rawValue: args.value("group") ?? "none")!
        switch args.value("color") ?? "auto" {
        case "always": exportOptions.color = true
        case "never": exportOptions.color = false
        default: exportOptions.color = env.stdoutIsTerminal && !env.noColor
        }
        if let text = args.value("now") {
            guard case .success(let parsed) = DateParser().parse(text), let instant = parsed.value.instant else {
                throw TimelineError(.usage, "invalid value '\(text)' for '--now'; expected an RFC 3339 time such as 2024-06-13T20:00:00+08:00")
            }
            exportOptions.now = instant
        } else {
            exportOptions.now = env.clock()
        }
        if let f = args.value("time-format") {
            do throws(DatePattern.CompileError) {
                exportOptions.timeFormat = try DateOutputFormat(f)
            } catch {
                throw TimelineError(.usage, error.message)
            }
        }
        guard let exporter = toFormat.makeExporter?(exportOptions) else {
            let writable = FormatRegistry.formats.filter { $0.makeExporter != nil }.map(\.id)
            throw TimelineError(.usage, "writing '\(toFormat.id)' is not supported yet; writable formats: \(writable.joined(separator: ", "))")
        }
        for input in args.positionals where input != "-" {
            _ = try InputReader(path: input)  // fail with 66 before creating any output
        }
        let output = try outputPath.map { p throws(TimelineError) in try OutputWriter(path: p) } ?? env.standardOutput
        let rejectsOutput = try args.value("rejects").map { p throws(TimelineError) in try OutputWriter(path: p) }
        let rejectsWriter = rejectsOutput.map(RejectsWriter.init)

        // --validate: observe events, collect rejects and coded warnings for a report on stderr.
        let validation = args.has("validate") ? ValidationRun(setup: setup, env: env) : nil
        let pipeline = validation?.pipeline(args) ?? ConvertPipeline()
        pipeline.inputFormat = args.value("from")
        pipeline.importOptions = setup.importOptions
        pipeline.exportOptions = exportOptions
        pipeline.sort = SortOrder(rawValue: args.value("sort") ?? "asc")!
        pipeline.grouping = GroupingUnit(rawValue: args.value("group") ?? "none")!
        pipeline.verbose = args.has("verbose")
        if validation == nil { pipeline.onDiagnostic = env.print }
        let collectRejects = pipeline.onReject
        var rejectWriteError: TimelineError?
        var printedRejects = 0
        pipeline.onReject = { record in
            collectRejects(record)
            // The first rejects go to stderr; all of them go to --rejects.
            printedRejects += 1
            if printedRejects <= Self.rejectsShown {
                env.print(Diagnostic(.error, "rejected: \(record.reason)", at: record.location, code: record.code))
            } else if printedRejects == Self.rejectsShown + 1 {
                env.error("timeline: note: more rejects are not shown here; write them all with --rejects FILE\n")
            }
            do throws(TimelineError) { try rejectsWriter?.write(record) } catch { rejectWriteError = rejectWriteError ?? error }
        }
        let progress = ProgressIndicator(environment: env)
        pipeline.onProgress = { progress.update($0, "converting") }
        let summary = try pipeline.run(inputs: args.positionals, exporter: exporter, output: output)
        progress.clear()
        if let validation {
            env.error(validation.report(records: summary.read).text)
        }
        if let rejectWriteError { throw rejectWriteError }

        if !args.has("quiet") {
            let see = summary.rejected > 0 ? args.value("rejects").map { " (see \($0))" } ?? "" : ""
            env.error("timeline: read \(summary.read) records, wrote \(summary.written), rejected \(summary.rejected)\(see)\n")
        }
        if summary.naive > 0 {
            throw TimelineError(
                .data, "\(summary.naive) value(s) have no UTC offset or zone and no zone was named; pass --assume-zone ZONE (e.g. --assume-zone Asia/Shanghai)")
        }
        if args.has("strict") && summary.rejected > 0 {
            throw TimelineError(.data, "\(summary.rejected) record(s) rejected under --strict; no output written", notes: ["see the errors above, or write them to a file with --rejects FILE"])
        }
        try output.commit()
        try rejectsOutput?.commit()
        return .success
    }
}
