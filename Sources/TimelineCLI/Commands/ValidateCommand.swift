import Foundation
import TimelineKit

/// `timeline validate`: `Timeline.validate` with flags, the report on standard output and
/// an exit status that follows `--fail-on`.
enum ValidateCommand: Command {
    static let name = "validate"
    static let abstract = "Report time-zone grouping anomalies"
    static var summary: String {
        "Report time-zone grouping anomalies (\(FindingCode.range("TZ"))) and rejected records (\(FindingCode.range("E"))) in timeline data."
    }
    static let usage = """
        timeline validate [INPUT ...] [--from FMT] [--report text|json] [--fail-on error|warning|never] [--state-out FILE] [options]
               timeline validate --merge STATE ... [--state-out FILE] [--report text|json] [--fail-on LEVEL]
               timeline validate --merge STATE ... (--split-out DIR | --finish-partitions --state-out FILE)
        """
    static var discussion: String? {
        """
        Reads the inputs as 'convert' would (same mapping and date options) and reports what would put
        events on the wrong day, and the records that could not be read. Each finding has a stable code,
        a severity, a count, what to do, and up to five examples with file and line. Streams: what the
        checks over series and ids read of each event stays within --memory, spilling to --temp-dir by
        partition of series or id. Exit status: 1 when a finding reaches --fail-on, else 0.
        Parts of a large input (a Spark job's partitions, slices named with --source-name and
        --first-record) are validated on their own with --state-out, and --merge combines their
        states, in any grouping and order, into the report one run over the whole input gives
        (files in name order). The state keeps each rule's counts and first examples and the
        ids and series facts those rules compare across parts, not the events.
        On a cluster those facts are merged where they meet, partition by partition: --split-out
        cuts a state into 16 pieces by partition of the facts; the pieces of one partition from
        every part, merged with --finish-partitions, keep only what the rules found there; the
        finished pieces merge into the report, and are all a driver needs to hold.
        The codes (docs/validation.md explains each, with an example):
        """
            + FindingCode.all.map {
                "\n  \($0.rawValue) \($0.name): \($0.summary(for: .commandLine))"
            }.joined()
    }
    static let positional: (name: String, help: String)? = (
        "INPUT ...", "Files to check, or '-' for standard input. [default: -]"
    )
    static let examples: [(command: String, explanation: String)] = [
        (
            "timeline validate samples/orders.csv --zone Asia/Shanghai",
            "Check an order history for day shifts and mixed clocks, counting days in Shanghai"
        ),
        (
            "timeline validate samples/wallet-statement.csv --assume-zone Asia/Shanghai --report json --fail-on warning",
            "Machine-readable report; fail the pipeline on warnings"
        ),
        (
            "timeline validate part-2.csv --columns order_id,status,time --source-name orders.csv --first-record 100001 --first-line 100002 --assume-zone Asia/Shanghai --state-out part-2.state",
            "Validate one slice of a file (records 100001… of orders.csv, without its header line), saving its state"
        ),
        (
            "timeline validate --merge part-*.state",
            "Merge the parts' states into the report of one run over the whole file"
        ),
        (
            "timeline validate --merge part-1.state --split-out pieces/part-1",
            "Cut a part's state into 16 pieces, pieces/part-1/partition-00.state …"
        ),
        (
            "timeline validate --merge pieces/*/partition-03.state --finish-partitions --state-out finished-03.state",
            "Finish partition 3 over every part: the facts are replaced by what the rules found in them"
        ),
        ("timeline validate --merge finished-*.state", "The report, from the finished partitions"),
    ]

    /// Who reads the report.
    enum ReportKind: String, CaseIterable, Sendable {
        case text, json
    }

    /// The lowest severity that makes the exit status 1.
    enum FailLevel: String, CaseIterable, Sendable {
        case error, warning, never

        var severity: Severity? {
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
            "report", "KIND",
            help: "Report for people (text) or machines (json, see 'timeline schema --report').",
            default: .text)
        let failOn = Option<FailLevel>.choice(
            "fail-on", "LEVEL", help: "Exit 1 when findings reach this severity.", default: .error)
        let zone = Option.text(
            "zone", "ZONE", help: "Display zone: times are shown and days counted in it.",
            default: "the --assume-zone zone, else the zone a calendar declares, else UTC")
        let dates = DateOptionGroup()
        let input = InputOptionGroup()
        let slice = SliceOptionGroup()
        let spill = SpillOptionGroup()
        let ignore = IgnoreOption.declaration
        let verbose = Option.flag(
            "verbose", short: "v", help: "Report format detection and other decisions on stderr.")
        let progress = ProgressOptionGroup()
        let stateOut = Option.text(
            "state-out", "FILE",
            help:
                "Also write what this validation must remember to be merged with other parts' (a binary file, format in docs/validation-state.md)."
        )
        let merge = Option.flag(
            "merge",
            help:
                "The inputs are state files (--state-out): merge them and report as one run over all their inputs would."
        )
        let splitOut = Option.text(
            "split-out", "DIR",
            help:
                "With --merge: write the merged state as 16 pieces, DIR/partition-00.state to partition-15.state, each with one partition of the facts; no report."
        )
        let finishPartitions = Option.flag(
            "finish-partitions",
            help:
                "With --merge and --state-out: replace the facts of each partition held for every part by what the rules found in them; no report."
        )
    }

    /// What applies to a merge: the states carry how their parts were read.
    private static let mergeOptions: Set<String> = [
        "merge", "state-out", "split-out", "finish-partitions", "report", "fail-on", "memory",
        "temp-dir", "verbose", "progress", "no-progress",
    ]

    static func run(_ args: Arguments<Options>, _ env: CommandEnvironment) throws(TimelineError)
        -> ExitCode
    {
        if args[\.merge] { return try merge(args, env) }
        if args[\.splitOut] != nil || args[\.finishPartitions] {
            throw TimelineError(
                .usage,
                "--\(args[\.finishPartitions] ? "finish-partitions" : "split-out") works on state files: it needs --merge",
                notes: ["e.g. timeline validate --merge part-1.state --split-out pieces/part-1"])
        }
        var options = ValidationOptions()
        let dates: DateParsingOptions
        do throws(UsageError) {
            dates = try args.group.dates.make(args.parsed)
            options.displayZone = try DateOptionGroup.displayZone(args[\.zone], dates)
            options.displayZoneChoice = DateOptionGroup.displayZoneChoice(args[\.zone], dates)
        } catch {
            throw TimelineError(.usage, error.message)
        }
        options.read = try args.group.input.make(args.parsed, dates: dates)
        options.read.format = args[\.from]
        options.verbose = args[\.verbose]
        options.ignored = Set(args[\.ignore])
        (options.memory, options.temporaryDirectory) = args.group.spill.make(args.parsed, env: env)
        options.onDiagnostic = { d in if !d.isFinding { env.print(d) } }
        let progress = args.group.progress.make(
            args.parsed, env: env, quiet: false, outputToStandardOutput: true)
        options.onProgress = { progress.show($0) }
        let sources = try args.group.slice.sources(args.parsed, paths: args.positionals)
        env.noteTypedInput(args.positionals)
        let report: ValidationReport
        if let path = args[\.stateOut] {
            let kept = try Timeline.validateKeepingState(sources, options: options)
            try kept.state.write(to: path)
            report = kept.report
        } else {
            report = try Timeline.validate(sources, options: options)
        }
        progress.clear()
        return try show(report, args, env)
    }

    /// `--merge`: reads the state files, merges them and reports.
    private static func merge(_ args: Arguments<Options>, _ env: CommandEnvironment)
        throws(TimelineError) -> ExitCode
    {
        if let other = args.parsed.texts.keys.sorted().first(where: { !mergeOptions.contains($0) })
        {
            throw TimelineError(
                .usage,
                "--\(other) does not apply with --merge: each state keeps how its part was read",
                notes: ["give it to the runs that write the states (--state-out)"])
        }
        guard !args.positionals.isEmpty else {
            throw TimelineError(
                .usage, "--merge needs the state files to merge",
                notes: ["e.g. timeline validate --merge part-*.state"])
        }
        var states: [ValidationState] = []
        for path in args.positionals {
            let source = TimelineSource.file(path: path)
            try source.checkReadable()
            states.append(try ValidationState(bytes: try source.open().readAll(), name: path))
        }
        let merged = try ValidationState.merging(states)
        let (memory, directory) = args.group.spill.make(args.parsed, env: env)
        if let split = args[\.splitOut] {
            guard !args[\.finishPartitions], args[\.stateOut] == nil else {
                throw TimelineError(
                    .usage,
                    "--split-out writes the pieces of the merged state: it goes without --state-out and --finish-partitions"
                )
            }
            try writePieces(merged.splitByPartition(), to: split)
            return .success
        }
        if args[\.finishPartitions] {
            guard let path = args[\.stateOut] else {
                throw TimelineError(
                    .usage,
                    "--finish-partitions needs --state-out FILE: it writes the finished state, not a report"
                )
            }
            try merged.finishingPartitions(memory: memory, temporaryDirectory: directory).write(
                to: path)
            return .success
        }
        if let path = args[\.stateOut] {
            try merged.write(to: path)
            // A step of a merge by partition: the rest of the facts are in other states.
            guard merged.isComplete else {
                env.print(
                    Diagnostic(
                        .info,
                        "'\(path)' holds part of a validation merged by partition: no report until every partition is merged in"
                    ))
                return .success
            }
        }
        return try show(try merged.report(memory: memory, temporaryDirectory: directory), args, env)
    }

    /// Writes `pieces` as DIR/partition-NN.state, making DIR if need be.
    private static func writePieces(_ pieces: [ValidationState], to directory: String)
        throws(TimelineError)
    {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw TimelineError(
                .cannotCreateOutput,
                "cannot create the directory '\(directory)' for --split-out: \(error.localizedDescription)"
            )
        }
        for (p, piece) in pieces.enumerated() {
            try piece.write(
                to: directory + "/partition-" + (p < 10 ? "0" : "") + String(p) + ".state")
        }
    }

    private static func show(
        _ report: ValidationReport, _ args: Arguments<Options>, _ env: CommandEnvironment
    ) throws(TimelineError) -> ExitCode {
        let out = env.standardOutput
        switch args[\.report] {
        case .json: try out.write(report.json(for: .commandLine))
        case .text: try out.write(report.text(for: .commandLine))
        }
        try out.commit()
        return report.fails(at: args[\.failOn].severity) ? .findings : .success
    }
}
