import Foundation

/// The front door of TimelineKit: read events from any supported format, write them to any
/// supported format, convert files end to end, and validate events for time-zone mistakes.
///
/// ```swift
/// let result = try Timeline.read(.string(csv, name: "orders.csv"), options: options)
/// for event in result.events { print(event.start.rfc3339, event.title) }
/// ```
///
/// Everything here is what the `timeline` command line does; the command line only adds
/// flags, printing and exit codes.
public enum Timeline {
    // MARK: Reading

    /// Reads every event of `sources` (in input order), with the records that could not be
    /// read and what was noticed on the way.
    ///
    /// - Throws: `TimelineError` for what stops reading: an input that cannot be opened
    ///   (`.inputUnavailable`), an unknown format or bad setting (`.usage`), malformed input
    ///   that cannot be read on (`.data`). A bad record is not thrown: it is in `rejects`.
    public static func read(_ sources: [TimelineSource], options: ReadOptions = ReadOptions())
        throws(TimelineError) -> ReadResult
    {
        var result = ReadResult()
        let collector = CollectingExporter()
        let plan = ConvertPlan(
            read: options, sort: .input, onDiagnostic: { result.diagnostics.append($0) },
            onReject: { result.rejects.append($0) })
        _ = try ConvertPipeline(plan).run(
            sources: sources, exporter: collector, output: OutputWriter(inMemory: "events"))
        result.events = collector.events
        return result
    }

    /// Reads every event of `source`; see `read(_:options:)` for several sources.
    public static func read(_ source: TimelineSource, options: ReadOptions = ReadOptions())
        throws(TimelineError) -> ReadResult
    {
        try read([source], options: options)
    }

    /// The events of `sources` as a sequence that reads while it is iterated, in bounded
    /// memory whatever the input's size; `async` gives them to an app's task. Iterate it once. Rejected records and diagnostics
    /// are collected on the sequence as they come (`rejects`, `diagnostics`); an error that
    /// stopped reading early ends the iteration and is in `error`.
    public static func events(in sources: [TimelineSource], options: ReadOptions = ReadOptions())
        -> EventSequence
    {
        EventSequence(channel: startReading(sources, options: options))
    }

    /// The events of `source` as a sequence read while it is iterated.
    public static func events(in source: TimelineSource, options: ReadOptions = ReadOptions())
        -> EventSequence
    {
        events(in: [source], options: options)
    }

    /// Starts reading `sources` into a channel on a thread of its own.
    private static func startReading(_ sources: [TimelineSource], options: ReadOptions)
        -> EventChannel
    {
        let channel = EventChannel()
        channel.startProducer { channel throws(TimelineError) in
            let plan = ConvertPlan(
                read: options, sort: .input,
                onDiagnostic: { try? channel.send(.diagnostic($0)) },
                onReject: { try? channel.send(.rejected($0)) })
            _ = try ConvertPipeline(plan).run(
                sources: sources, exporter: ChannelExporter(channel),
                output: OutputWriter(inMemory: "events"))
        }
        return channel
    }

    // MARK: Writing

    /// Writes `events`, in the order given, as `format` to `destination`. A file is
    /// replaced atomically once everything is written; after an error it is untouched.
    ///
    /// The readable formats (text, HTML) order and group the events themselves; the
    /// others keep the order given (sort first with `sortedForTimeline(_:zone:)`).
    public static func write(
        _ events: some Sequence<Event>, as format: FileFormat, to destination: TimelineDestination,
        options: WriteOptions = WriteOptions()
    ) throws(TimelineError) {
        let writer = try TimelineWriter(format: format, destination: destination, options: options)
        for event in events { try writer.write(event) }
        try writer.finish()
    }

    /// `events`, in the order given, written as `format` into memory.
    public static func data(
        _ events: some Sequence<Event>, as format: FileFormat,
        options: WriteOptions = WriteOptions()
    ) throws(TimelineError)
        -> Data
    {
        let writer = try TimelineWriter(format: format, options: options)
        for event in events { try writer.write(event) }
        return try writer.finish() ?? Data()
    }

    // MARK: Converting

    /// Reads `sources`, orders (or groups) the events and writes them as
    /// `options.outputFormat` to `destination` — `timeline convert`. Streams in bounded
    /// memory with `sort = .input`; otherwise holds the events to order them.
    ///
    /// The output is written atomically and only when the run succeeds: it is not written
    /// when values had no offset or zone and no zone was named, nor under `strict` when any
    /// record was rejected (both throw `.data` after `options.onFinish` has seen the
    /// result).
    public static func convert(
        _ sources: [TimelineSource], to destination: TimelineDestination, options: ConvertOptions
    ) throws(TimelineError) -> ConvertResult {
        var options = options
        if options.write.displayZoneChoice == .fromData {
            (options.write.displayZone, options.write.displayZoneChoice) =
                try ConvertPipeline.displayZone(
                    for: sources, read: options.read, fallback: options.write.displayZone)
        }
        options.write.memory = options.sortMemory
        var exporter = try options.outputFormat.makeWriter(options.write)
        if options.write.fields != nil && options.grouping != .none {
            throw TimelineError(
                .usage,
                "\(.fields) writes one record per event; it cannot be combined with \(.group)")
        }
        if options.partitionBy != .none && options.grouping != .none {
            throw TimelineError(
                .usage, "partitioned output holds one record per event; it cannot be grouped")
        }
        // fail with 66 before creating any output
        for source in sources { try source.checkReadable() }
        var partitioned: PartitionedExporter?
        if options.partitionBy != .none {
            guard case .path(let path) = destination.kind, path != "-" else {
                throw TimelineError(
                    .usage, "partitioned output is a directory; name it as the destination")
            }
            partitioned = try PartitionedExporter(
                format: options.outputFormat, options: options.write, unit: options.partitionBy,
                destination: path)
            exporter = partitioned!
        }
        let output =
            partitioned == nil ? try destination.open() : OutputWriter(inMemory: "partitions")
        // A validating conversion that sorts shares its memory between the sort and the
        // validation; one in input order holds nothing else.
        let validationMemory = options.sort == .input ? options.sortMemory : options.sortMemory / 2
        let validation =
            options.validate
            ? ValidationRun(
                read: options.read, displayZone: options.write.displayZone,
                choice: options.write.displayZoneChoice, ignored: options.ignored,
                memory: validationMemory, directory: options.sortDirectory) : nil
        let pipeline = ConvertPipeline(
            ConvertPlan(
                read: options.read, write: options.write, sort: options.sort,
                grouping: options.grouping, verbose: options.verbose,
                sortDirectory: options.sortDirectory,
                sortMemory: options.sortMemory
                    - (validation != nil && options.sort != .input
                        ? validationMemory : 0),
                inputMemory: options.sortMemory, observer: validation?.validator,
                onDiagnostic: { d in
                    validation?.noticed(d)
                    options.onDiagnostic(d)
                },
                onReject: { record in
                    validation?.imported.add(reject: record)
                    options.onReject(record)
                },
                onProgress: options.onProgress, progressInterval: options.progressInterval))
        var summary: ConvertSummary
        do throws(TimelineError) {
            summary = try pipeline.run(sources: sources, exporter: exporter, output: output)
            summary.invalidSequences = pipeline.replacedSequences
        } catch {
            output.discard()
            partitioned?.discard()
            throw Self.stopped(error, summary: pipeline.summaryAtFailure, output: output)
        }
        var result: ConvertResult
        if validation != nil { pipeline.validating() }
        do throws(TimelineError) {
            let state =
                options.keepsValidationState
                ? try validation?.state(records: summary.read, sources: sources) : nil
            result = ConvertResult(
                summary: summary, report: try validation?.report(records: summary.read))
            result.validationState = state
            result.displayZone = options.write.displayZone.identifier
            result.displayZoneChoice = options.write.displayZoneChoice
        } catch {
            output.discard()
            throw Self.stopped(error, summary: summary, output: output)
        }
        do throws(TimelineError) {
            try finish(
                result, summary: summary, sources: sources, options: options,
                output: output)
        } catch {
            output.discard()
            throw error
        }
        return result
    }

    /// The end of a conversion that read its input: the callbacks told, the checks that fail
    /// a whole run made, and the output committed.
    private static func finish(
        _ result: ConvertResult, summary: ConvertSummary, sources: [TimelineSource],
        options: ConvertOptions,
        output: OutputWriter
    ) throws(TimelineError) {
        try options.onFinish(result)
        if summary.naive > 0 {
            guard options.write.displayZoneChoice == .named else {
                throw TimelineError(
                    .data,
                    "\(summary.naive) value(s) have no UTC offset or zone and no zone was named; pass \(.assumeZone, "ZONE") (e.g. \(.assumeZone, "Asia/Shanghai"))"
                )
            }
            // A display zone was named: it shows times, it does not say where naive ones were written.
            let zone = options.write.displayZone.identifier
            throw TimelineError(
                .data,
                "\(summary.naive) value(s) have no UTC offset or zone; \(.zone, "\(zone)") only sets the zone times are shown in",
                notes: ["if they were written in \(zone), pass \(.assumeZone, "\(zone)")"])
        }
        // A slice of a larger file (a partition of a distributed job) may hold only
        // rejected records while the file as a whole converts: its run is not a failure.
        if summary.read > 0 && summary.written == 0 && summary.rejected > 0
            && !sources.contains(where: { $0.slice != nil })
        {
            throw TimelineError(
                .data,
                "none of the \(summary.read) record(s) could be converted; nothing was written",
                notes: ["see the reasons above, or write them all with \(.rejects, "FILE")"])
        }
        if options.strict && summary.invalidSequences > 0 {
            throw TimelineError(
                .data,
                "\(summary.invalidSequences) byte sequence(s) are not valid in the input's encoding (read as U+FFFD) under \(.strict); no output written",
                notes: ["name the input's encoding with \(.encoding)"])
        }
        if options.strict && summary.rejected > 0 {
            throw TimelineError(
                .data, "\(summary.rejected) record(s) rejected under \(.strict); no output written",
                notes: ["see the errors above, or write them to a file with \(.rejects, "FILE")"])
        }
        try output.commit()
    }

    /// `error`, which stopped reading, with a note on what the output holds: a file is
    /// replaced only by a complete run; standard output has what was converted before it.
    private static func stopped(
        _ error: TimelineError, summary: ConvertSummary?, output: OutputWriter
    ) -> TimelineError {
        guard error.kind == .data, let summary else { return error }
        var error = error
        let counts = "read \(summary.read) record(s), rejected \(summary.rejected)"
        if output.replacesAtomically || summary.written == 0 {
            error.diagnostic.noteTexts.append(
                "nothing was written (\(counts) before this point); fix the input and run again")
        } else {
            try? output.flush()
            let place =
                output.name == "<stdout>" || output.name == "-"
                ? "standard output" : "'\(output.name)'"
            error.diagnostic.noteTexts.append(
                "\(summary.written) event(s) read before this point were written to \(place), which is incomplete (\(counts)); fix the input and run again"
            )
        }
        return error
    }

    // MARK: Validating

    /// Reads `sources` and reports the time-zone grouping anomalies in them and the records
    /// that could not be read (`FindingCode.all`) — `timeline validate`. Streams: keeps
    /// per-series facts, not the events.
    public static func validate(_ sources: [TimelineSource], options: ValidationOptions)
        throws(TimelineError) -> ValidationReport
    {
        let (run, records) = try validationRun(sources, options: options)
        return try run.report(records: records)
    }

    /// Validates `sources` as `validate(_:options:)` does, and also returns what the
    /// validation must remember to be merged with the validations of other parts of the
    /// input (`ValidationState`; `timeline validate --state-out`). The sources are named
    /// in the state by the first one's name and first record (`TimelineSource.slice`).
    package static func validateKeepingState(
        _ sources: [TimelineSource], options: ValidationOptions
    ) throws(TimelineError) -> (report: ValidationReport, state: ValidationState) {
        let (run, records) = try validationRun(sources, options: options)
        let state = try run.state(records: records, sources: sources)
        return (try run.report(records: records), state)
    }

    private static func validationRun(_ sources: [TimelineSource], options: ValidationOptions)
        throws(TimelineError) -> (ValidationRun, Int)
    {
        var options = options
        if options.displayZoneChoice == .fromData {
            (options.displayZone, options.displayZoneChoice) = try ConvertPipeline.displayZone(
                for: sources, read: options.read, fallback: options.displayZone)
        }
        let run = ValidationRun(
            read: options.read, displayZone: options.displayZone, choice: options.displayZoneChoice,
            ignored: options.ignored,
            memory: options.memory, directory: options.temporaryDirectory)
        var write = WriteOptions()
        write.displayZone = options.displayZone
        write.displayZoneChoice = options.displayZoneChoice
        let plan = ConvertPlan(
            read: options.read, write: write, sort: .input, verbose: options.verbose,
            inputMemory: options.memory, observer: run.validator,
            onDiagnostic: { d in
                run.noticed(d)
                options.onDiagnostic(d)
            },
            onReject: { run.imported.add(reject: $0) }, onProgress: options.onProgress)
        let pipeline = ConvertPipeline(plan)
        let summary = try pipeline.run(
            sources: sources, exporter: DiscardingExporter(),
            output: OutputWriter(inMemory: "validate"))
        pipeline.validating()
        return (run, summary.read)
    }

    /// Reports the time-zone grouping anomalies in `events` (already read): the rules that
    /// look at events (TZ101 as a warning, TZ102, TZ103, TZ107, TZ108, TZ111, TZ113, TZ114).
    /// What only reading sees — rejected records, DST gaps and overlaps met while reading —
    /// is in the report of `validate(_:options:)` on the sources.
    public static func validate(_ events: some Sequence<Event>, options: ValidationOptions)
        -> ValidationReport
    {
        let choice = options.displayZoneChoice == .fromData ? .defaulted : options.displayZoneChoice
        let run = ValidationRun(
            read: options.read, displayZone: options.displayZone, choice: choice,
            ignored: options.ignored, memory: options.memory, directory: nil)
        let all = Array(events)
        return run.validator.run(events: all, records: all.count)
    }
}

/// What `Timeline.read` found: the events in input order, the records that could not be
/// read (with their raw text, place and reason), and warnings and notes from reading.
public struct ReadResult: Sendable {
    /// The events, in input order.
    public var events: [Event] = []
    /// The records that could not become events, each with its place, raw text and reason.
    public var rejects: [RejectedRecord] = []
    /// Warnings and notes from reading (DST gaps met, calendar lines skipped, …).
    public var diagnostics: [Diagnostic] = []
}

/// What `Timeline.convert` does besides reading and writing, and what it tells its caller on
/// the way: the `on…` callbacks are called on the thread that runs the conversion, in input
/// order.
public struct ConvertOptions {
    /// How the inputs are read.
    public var read = ReadOptions()
    /// How the output is written (its display zone, language, …).
    public var write = WriteOptions()
    /// The output format. Default: the canonical JSON document.
    public var outputFormat = FileFormat.named("json")!
    /// The order: by start (`asc`, the default), latest first, or as read (`input`, which
    /// streams in bounded memory).
    public var sort = SortOrder.asc
    /// Groups by day or month in the display zone (canonical JSON only).
    public var grouping = GroupingUnit.none
    /// Writes a directory in the Hive layout (`day=2024-06-12/part-00000.ndjson`), one
    /// partition per day or month in the display zone, instead of one file (`.none`).
    package var partitionBy = GroupingUnit.none
    /// Any rejected record fails the run, and no output is written.
    public var strict = false
    /// Also validate while converting; the report is in the result.
    public var validate = false
    /// With `validate`, also keep the validation's mergeable state (`ValidationState`) in
    /// the result.
    public var keepsValidationState = false
    /// Finding codes to leave out of that report (their checks are not run).
    public var ignored: Set<FindingCode> = []
    /// Report decisions such as format detection as notes.
    public var verbose = false
    /// Sorting spills to files in this directory once the held events take about
    /// `sortMemory` bytes, and merges them at the end (the order and the output are the
    /// same). nil holds every event in memory. The library names no directory itself: the
    /// command line passes `--temp-dir`, else `TMPDIR`, else `/tmp`.
    public var sortDirectory: String?
    /// About how many bytes of events a sort holds before it spills (`--memory`).
    public var sortMemory = 256 << 20

    /// Warnings and notes as they happen (a DST gap met, a line skipped, …).
    public var onDiagnostic: (Diagnostic) -> Void = { _ in }
    /// Each record that could not be read, with its raw text, place and reason.
    public var onReject: (RejectedRecord) -> Void = { _ in }
    /// Where the conversion is: every `progressInterval` records read or events merged,
    /// at each sorted run spilled to disk, and as each phase begins.
    package var onProgress: (ConvertProgress) -> Void = { _ in }
    /// How many records between two `onProgress` calls.
    package var progressInterval = 10_000
    /// The outcome, once every input is read and before the output is committed (or the
    /// run fails for naive values or under `strict`). An error thrown here stops the run
    /// before the output is committed.
    public var onFinish: (ConvertResult) throws(TimelineError) -> Void = { _ in }

    /// The command line's defaults: canonical JSON, sorted ascending, no grouping, no
    /// callbacks.
    public init() {}
}

/// The phases of a sort that spills to disk (`ConvertOptions.sortDirectory`).
package enum SortProgress: Sendable, Equatable {
    /// A sorted run was written; `runs` so far.
    case spilled(runs: Int)
    /// The runs are being merged into the output; `written` events so far.
    case merging(runs: Int, written: Int)
}

/// How many records a conversion read, wrote and rejected.
package struct ConvertSummary: Hashable, Sendable {
    /// Records read (written or rejected).
    package var read = 0
    /// Events written.
    package var written = 0
    /// Records rejected (see the rejects for why).
    package var rejected = 0
    /// Values rejected for having no offset or zone (TZ101) — a configuration problem.
    package var naive = 0
    /// Byte sequences not valid in the input's encoding, read as U+FFFD.
    package var invalidSequences = 0
}

/// What a conversion did: how many records it read, wrote and rejected, and the report
/// when it also validated.
public struct ConvertResult: Sendable {
    /// The counts, as the pipeline keeps them.
    package var summary: ConvertSummary
    /// Records read (written or rejected).
    public var recordsRead: Int { summary.read }
    /// Events written.
    public var eventsWritten: Int { summary.written }
    /// Records rejected (the rejected handler says why).
    public var recordsRejected: Int { summary.rejected }
    /// Values rejected for having no offset or zone (TZ101) — a configuration problem.
    public var naiveValues: Int { summary.naive }
    /// Byte sequences not valid in the input's encoding, read as U+FFFD.
    public var invalidSequences: Int { summary.invalidSequences }
    /// The validation report, when the conversion was asked to validate.
    public var report: ValidationReport?
    /// What the validation must remember to be merged with other parts' (with
    /// `ConvertOptions.keepsValidationState`).
    package var validationState: ValidationState?
    /// The display zone the run used (IANA id or `UTC`).
    public var displayZone = "UTC"
    /// How it was chosen (`.declared` when the data implied it under `.fromData`).
    package var displayZoneChoice = DisplayZoneChoice.named
}

/// How `Timeline.validate` reads and where it counts days.
public struct ValidationOptions {
    /// How the inputs are read.
    public var read = ReadOptions()
    /// Where days are counted (the command line's `--zone`): default UTC.
    public var displayZone = ResolvedZone.utc
    /// How `displayZone` was chosen; with `.fromData` the zone the inputs declare is taken
    /// when there is one (see `WriteOptions.displayZoneChoice`). Day shifts (TZ103) and
    /// midnight dates (TZ108) are warnings only in a zone the user chose.
    package var displayZoneChoice: DisplayZoneChoice = .named
    /// Finding codes to leave out of the report (their checks are not run).
    public var ignored: Set<FindingCode> = []
    /// Report decisions such as format detection as notes.
    public var verbose = false
    /// Where the run is, as for a conversion: reading, then validating.
    package var onProgress: (ConvertProgress) -> Void = { _ in }
    /// Diagnostics that are not findings (a note about format detection, a syntax warning).
    public var onDiagnostic: (Diagnostic) -> Void = { _ in }
    /// What the checks over series and ids read of each event (duplicate ids, mixed
    /// offsets, zone shifts) spills to files in this directory, by partition of the series
    /// or id, once it takes about `memory` bytes; each partition is checked on its own at
    /// the end (the report is the same). nil keeps it in memory. The library names no
    /// directory itself: the command line passes `--temp-dir`, else `TMPDIR`, else `/tmp`.
    public var temporaryDirectory: String?
    /// About how many bytes those facts take in memory before they spill (`--memory`).
    public var memory = 256 << 20

    /// The command line's defaults: days counted in UTC, every code reported.
    public init() {}
}

/// The validator of one run and what reading reported to it.
final class ValidationRun {
    let validator: Validator
    /// What reading rejected and noticed, as findings.
    var imported = ImportFindings()

    init(
        read: ReadOptions, displayZone: ResolvedZone, choice: DisplayZoneChoice,
        ignored: Set<FindingCode>, memory: Int, directory: String?
    ) {
        var context = ValidationContext(
            displayZone: displayZone, assumedZone: read.dates.assumedZone, ignored: ignored)
        context.displayZoneChoice = choice
        validator = Validator(context, memory: memory, directory: directory)
    }

    /// Keeps a diagnostic that carries a finding code (TZ104–TZ106 from the date engine).
    func noticed(_ d: Diagnostic) {
        imported.add(notice: d)
    }

    func report(records: Int) throws(TimelineError) -> ValidationReport {
        try validator.report(records: records, imported: imported)
    }

    /// What the run must remember to be merged with others; before `report`.
    func state(records: Int, sources: [TimelineSource]) throws(TimelineError) -> ValidationState {
        let first = sources.first
        return try ValidationState(
            context: validator.context, source: first?.name ?? "-",
            firstRecord: (first?.slice?.recordsBefore ?? 0) + 1, records: records,
            imported: imported, validator: try validator.saved())
    }
}

/// Keeps every event written (`Timeline.read`).
final class CollectingExporter: TimelineExporter {
    private(set) var events: [Event] = []
    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}
    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) { events.append(event) }
    func finish(to out: OutputWriter) throws(TimelineError) {}
}

/// Sends every event written into a channel (`Timeline.events`).
final class ChannelExporter: TimelineExporter {
    private let channel: EventChannel
    init(_ channel: EventChannel) { self.channel = channel }
    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}
    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        try channel.send(.event(event))
    }
    func finish(to out: OutputWriter) throws(TimelineError) {}
}
