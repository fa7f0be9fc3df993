import TimelineKit

/// `timeline validate`: `Timeline.validate` with flags, the report on standard output and
/// an exit status that follows `--fail-on`.
enum ValidateCommand: Command {
    static let name = "validate"
    static let abstract = "Report time-zone grouping anomalies"
    static let summary = "Report time-zone grouping anomalies (TZ101–TZ114) and rejected records (E001–E007) in timeline data."
    static let usage = "timeline validate [INPUT ...] [--from FMT] [--report text|json] [--fail-on error|warning|never] [options]"
    static let discussion: String? = """
        Reads the inputs as 'convert' would (same mapping and date options) and reports what would put
        events on the wrong day: naive times (TZ101), offsets from different clocks (TZ102), day shifts
        between the written offset and the display zone (TZ103), DST gaps and overlaps (TZ104, TZ105),
        offsets contradicting their zone (TZ106), dates stored as midnight (TZ108), zone names
        (TZ109, TZ110), day/month ambiguity (TZ112), duplicate ids (TZ113), ends before starts (TZ114)
        and the records that could not be read (E001–E007). Each finding has a stable code, a severity, a count, what to do,
        and up to five examples with file and line. Streams: what the checks over series and ids read
        of each event stays within --memory, spilling to --temp-dir by partition of series or id.
        Exit status: 1 when a finding reaches --fail-on, else 0.
        Also: statuses in order only after shifting one source by whole hours (TZ107) and epoch
        numbers with mixed units or implausible dates (TZ111).
        """
    static let positional: (name: String, help: String)? = ("INPUT ...", "Files to check, or '-' for standard input. [default: -]")
    static let examples: [(command: String, explanation: String)] = [
        ("timeline validate samples/orders.csv --zone Asia/Shanghai", "Check an order history for day shifts and mixed clocks, counting days in Shanghai"),
        ("timeline validate samples/wallet-statement.csv --assume-zone Asia/Shanghai --report json --fail-on warning", "Machine-readable report; fail the pipeline on warnings"),
    ]

    /// Who reads the report.
    enum ReportKind: String, CaseIterable, Sendable {
        case text, json
    }

    /// The lowest severity that makes the exit status 1.
    enum FailLevel: String, CaseIterable, Sendable {
        case error, warning, never

        var severity: FindingSeverity? {
            switch self {
            case .error: return .error
            case .warning: return .warning
            case .never: return nil
            }
        }
    }

    struct Options: OptionGroup {
        let from = FormatChoice.input
        let report = Option<ReportKind>.choice(
            "report", "KIND", help: "Report for people (text) or machines (json, see 'timeline schema --report').", default: .text)
        let failOn = Option<FailLevel>.choice("fail-on", "LEVEL", help: "Exit 1 when findings reach this severity.", default: .error)
        let zone = Option.text("zone", "ZONE", help: "Display zone: times are shown and days counted in it.", default: "the --assume-zone zone, else UTC")
        let dates = DateOptionGroup()
        let input = InputOptionGroup()
        let slice = SliceOptionGroup()
        let spill = SpillOptionGroup()
        let ignore = IgnoreOption.declaration
        let verbose = Option.flag("verbose", short: "v", help: "Report format detection and other decisions on stderr.")
    }

    static func run(_ args: Arguments<Options>, _ env: CommandEnvironment) throws(TimelineError) -> ExitCode {
        var options = ValidationOptions()
        let dates: DateParsingOptions
        do throws(UsageError) {
            dates = try args.group.dates.make(args.parsed)
            options.displayZone = try DateOptionGroup.displayZone(args[\.zone], dates)
        } catch {
            throw TimelineError(.usage, error.message)
        }
        options.read = try args.group.input.make(args.parsed, dates: dates)
        options.read.format = args[\.from]
        options.verbose = args[\.verbose]
        options.ignored = Set(args[\.ignore])
        (options.memory, options.temporaryDirectory) = args.group.spill.make(args.parsed, env: env)
        options.diagnostic = { d in if !d.isFinding { env.print(d) } }
        let report = try Timeline.validate(try args.group.slice.sources(args.parsed, paths: args.positionals), options: options)
        let out = env.standardOutput
        switch args[\.report] {
        case .json: try out.write(report.json)
        case .text: try out.write(report.text)
        }
        try out.commit()
        return report.fails(at: args[\.failOn].severity) ? .findings : .success
    }
}
