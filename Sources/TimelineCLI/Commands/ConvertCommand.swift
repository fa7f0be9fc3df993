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
            Readable now: json, ndjson, timeline (the canonical form). Writable now: json, ndjson, timeline.
            """,
        positional: ("INPUT ...", "Files to read, or '-' for standard input. [default: -]"),
        options: [
            .value("from", "FMT", "Input format.", default: "from the extension, else the content", choices: FormatRegistry.inputFormatIDs),
            .value("to", "FMT", "Output format.", default: "from the -o extension, else json", choices: FormatRegistry.outputFormatIDs),
            .value("output", short: "o", "FILE", "Write to FILE (atomically) instead of standard output; '-' is standard output."),
            .value("sort", "ORDER", "Order by start then recorded then input order (asc, desc), or keep input order and stream (input).", default: "asc", choices: SortOrder.allCases.map(\.rawValue)),
            DateOptions.zoneSpec,
        ] + DateOptions.specs + [
            .value("rejects", "FILE", "Also write rejected records (file, line, reason, raw text) to FILE as NDJSON.", default: "reported on stderr only"),
            .flag("strict", "Fail (exit 65, no output file) if any record is rejected."),
            .flag("verbose", short: "v", "Report format detection and other decisions on stderr."),
            .flag("quiet", short: "q", "Do not print the summary line."),
        ],
        examples: [
            ("timeline convert events.ndjson --to json -o events.json", "Canonical NDJSON to one canonical JSON document"),
            ("timeline convert a.ndjson b.ndjson --sort desc --zone Asia/Shanghai", "Merge two files, newest first, shown in Shanghai time"),
            ("cat events.json | timeline convert --from json --to ndjson --sort input", "Stream standard input to NDJSON in input order"),
            ("timeline convert samples/events.ndjson --to json --strict --rejects rejects.ndjson", "Fail on any bad record and keep the bad ones for inspection"),
        ])

    static func run(_ args: ParsedArguments, _ env: CommandEnvironment) throws(TimelineError) -> ExitCode {
        let dateOptions: DateParsingOptions
        let displayZone: ResolvedZone
        do throws(UsageError) {
            dateOptions = try DateOptions.make(args)
            displayZone = try DateOptions.displayZone(args, dateOptions)
        } catch {
            throw TimelineError(.usage, error.message)
        }
        let outputPath = args.value("output")
        let toID = args.value("to") ?? outputPath.flatMap { FormatRegistry.format(forPath: $0)?.id } ?? "json"
        guard let toFormat = FormatRegistry.format(toID), FormatRegistry.outputFormatIDs.contains(toFormat.id) else {
            throw TimelineError(.usage, "cannot tell the output format of '\(outputPath ?? "-")'; pass --to with one of \(FormatRegistry.outputFormatIDs.joined(separator: ", "))")
        }
        var exportOptions = ExportOptions()
        exportOptions.displayZone = displayZone
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

        let pipeline = ConvertPipeline()
        pipeline.inputFormat = args.value("from")
        pipeline.importOptions.dates = dateOptions
        pipeline.exportOptions = exportOptions
        pipeline.sort = SortOrder(rawValue: args.value("sort") ?? "asc")!
        pipeline.verbose = args.has("verbose")
        pipeline.onDiagnostic = env.print
        var rejectWriteError: TimelineError?
        pipeline.onReject = { record in
            env.print(Diagnostic(.error, "rejected: \(record.reason)", at: record.location, code: record.code))
            do throws(TimelineError) { try rejectsWriter?.write(record) } catch { rejectWriteError = rejectWriteError ?? error }
        }
        let progress = ProgressIndicator(environment: env)
        pipeline.onProgress = { progress.update($0, "converting") }
        let summary = try pipeline.run(inputs: args.positionals, exporter: exporter, output: output)
        progress.clear()
        if let rejectWriteError { throw rejectWriteError }

        if !args.has("quiet") {
            env.error("timeline: read \(summary.read) records, wrote \(summary.written), rejected \(summary.rejected)\n")
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
