import TimelineKit

enum ValidateCommand {
    static let spec = CommandSpec(
        name: "validate",
        summary: "Report time-zone grouping anomalies (TZ101–TZ114, E001) in timeline data.",
        usage: "timeline validate [INPUT ...] [--from FMT] [--report text|json] [--fail-on error|warning|never] [options]",
        discussion: """
            Reads the inputs as 'convert' would (same mapping and date options) and reports what would put
            events on the wrong day: naive times (TZ101), offsets from different clocks (TZ102), day shifts
            between the written offset and the display zone (TZ103), DST gaps and overlaps (TZ104, TZ105),
            offsets contradicting their zone (TZ106), dates stored as midnight (TZ108), zone names
            (TZ109, TZ110), day/month ambiguity (TZ112), duplicate ids (TZ113), ends before starts (TZ114)
            and unreadable values (E001). Each finding has a stable code, a severity, a count, what to do,
            and up to five examples with file and line. Streams: keeps per-series facts, not the events.
            Exit status: 1 when a finding reaches --fail-on, else 0.
            Also: statuses in order only after shifting one source by whole hours (TZ107) and epoch
            numbers with mixed units or implausible dates (TZ111).
            """,
        positional: ("INPUT ...", "Files to check, or '-' for standard input. [default: -]"),
        options: [
            .value("from", "FMT", "Input format.", default: "from the extension, else the content", choices: FormatRegistry.inputFormatIDs),
            .value("report", "KIND", "Report for people (text) or machines (json, see 'timeline schema --report').", default: "text", choices: ["text", "json"]),
            .value("fail-on", "LEVEL", "Exit 1 when findings reach this severity.", default: "error", choices: ["error", "warning", "never"]),
            DateOptions.zoneSpec,
        ] + DateOptions.specs + ConvertCommand.inputOptions,
        examples: [
            ("timeline validate samples/orders.csv --zone Asia/Shanghai", "Check an order history for day shifts and mixed clocks, counting days in Shanghai"),
            ("timeline validate samples/wallet-statement.csv --assume-zone Asia/Shanghai --report json --fail-on warning", "Machine-readable report; fail the pipeline on warnings"),
        ])

    static func run(_ args: ParsedArguments, _ env: CommandEnvironment) throws(TimelineError) -> ExitCode {
        let setup = try ConvertCommand.importSetup(args)
        let check = ValidationRun(setup: setup, env: env)
        let pipeline = check.pipeline(args)
        pipeline.sort = .input
        let summary = try pipeline.run(inputs: args.positionals, exporter: DiscardingExporter(), output: OutputWriter(inMemory: "validate"))
        let report = check.report(records: summary.read)
        let out = env.standardOutput
        if args.value("report") == "json" {
            try out.write(report.json)
        } else {
            try out.write(report.text)
        }
        try out.commit()
        let level: FindingSeverity? = args.value("fail-on") == "never" ? nil : args.value("fail-on") == "warning" ? .warning : .error
        return report.fails(at: level) ? .findings : .success
    }
}

/// Observes the events of a run and collects what the import reports, then turns it into a
/// validation report. Shared by `validate` and `convert --validate`.
final class ValidationRun {
    let setup: ConvertCommand.ImportSetup
    let env: CommandEnvironment
    private let validator: Validator
    private(set) var rejects: [RejectedRecord] = []
    private(set) var notices: [Diagnostic] = []

    init(setup: ConvertCommand.ImportSetup, env: CommandEnvironment) {
        self.setup = setup
        self.env = env
        validator = Validator(ValidationContext(displayZone: setup.displayZone, assumedZone: setup.importOptions.dates.assumedZone))
    }

    /// A pipeline whose rejects and coded warnings are collected (other diagnostics printed).
    func pipeline(_ args: ParsedArguments) -> ConvertPipeline {
        let pipeline = ConvertPipeline()
        pipeline.inputFormat = args.value("from")
        pipeline.importOptions = setup.importOptions
        pipeline.exportOptions.displayZone = setup.displayZone
        pipeline.verbose = args.has("verbose")
        pipeline.onReject = { [self] in rejects.append($0) }
        pipeline.observe(with: validator)
        pipeline.onDiagnostic = { [self] d in
            if d.code.flatMap(FindingCode.init(rawValue:)) != nil { notices.append(d) } else { env.print(d) }
        }
        return pipeline
    }

    func report(records: Int) -> ValidationReport {
        validator.report(records: records, rejects: rejects, notices: notices)
    }
}
