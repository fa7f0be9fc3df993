/// A record that could not become an event, kept with its raw text and the reason.
public struct RejectedRecord: Hashable, Sendable {
    /// Where the record is (file, line, column).
    public var location: SourceLocation
    /// The record's text as read (a CSV row, a JSON line, `BEGIN:VEVENT (line 4)`).
    public var raw: String
    /// Why it was rejected, naming the field and value, settings marked (`SettingText`).
    package var reasonText: String
    /// Why it was rejected, naming the field and value; settings named as the library
    /// names them.
    public var reason: String {
        get { reason(for: .library) }
        set { reasonText = newValue }
    }

    /// Why it was rejected, settings named for `audience`.
    package func reason(for audience: MessageAudience) -> String {
        SettingText.rendered(reasonText, for: audience)
    }
    /// Why, as a finding code: `E001` for an unreadable date, `E003` for an amount, … (see
    /// the rules in `Validation/Rules`).
    public var code: FindingCode
    /// For CSV input: the record's fields and the file's header, so a rejects file can
    /// hold them unchanged.
    public var fields: [String]?
    /// For CSV input: the file's header, to write the fields under.
    public var header: [String]?

    /// A rejected record.
    public init(
        location: SourceLocation, raw: String, reason: String, code: FindingCode,
        fields: [String]? = nil, header: [String]? = nil
    ) {
        self.location = location
        self.raw = raw
        self.reasonText = reason
        self.code = code
        self.fields = fields
        self.header = header
    }
}

/// Where an importer sends what it reads, one record at a time as soon as it is complete.
final class ImportContext {
    let options: ReadOptions
    let format: String
    let dateParser: DateParser
    private let onEvent: (Event) throws(TimelineError) -> Void
    private let onReject: (RejectedRecord) -> Void
    private let onDiagnostic: (Diagnostic) -> Void
    private let batches: EventBatchConsumer?
    /// The run's recurrence work and occurrences (shared by every file of the run).
    let recurrence: RecurrenceBudget
    /// Report decisions as notes (`--verbose`): which header line, which preset.
    let verbose: Bool
    /// About how many bytes an importer may hold for input it must expand before reading
    /// (an XLSX workbook's compressed parts); the run's `--memory`.
    let memory: Int

    /// - Parameters:
    ///   - batches: how the consumer takes events mapped on worker threads (see
    ///     `EventBatchConsumer`); nil hands each such event to `onEvent`, in order.
    ///   - recurrence: the run's recurrence budget; a new one for a run of one input.
    init(
        options: ReadOptions, format: String, dateParser: DateParser,
        onEvent: @escaping (Event) throws(TimelineError) -> Void,
        onReject: @escaping (RejectedRecord) -> Void,
        onDiagnostic: @escaping (Diagnostic) -> Void,
        batches: EventBatchConsumer? = nil,
        recurrence: RecurrenceBudget? = nil,
        memory: Int = 256 << 20,
        verbose: Bool = false
    ) {
        self.verbose = verbose
        self.memory = memory
        self.recurrence =
            recurrence
            ?? RecurrenceBudget(
                RecurrenceBudget.perRun, occurrences: options.ics.maxTotalOccurrences)
        self.options = options
        self.format = format
        self.dateParser = dateParser
        self.onEvent = onEvent
        self.onReject = onReject
        self.onDiagnostic = onDiagnostic
        self.batches = batches
    }

    /// Events and rejects handed on so far.
    private(set) var records = 0
    /// The importer found the shape of its format (a header naming a time, an array, a
    /// calendar), so that no record read is an empty export rather than text it could not
    /// read.
    private(set) var isRecognised = false

    func recognise() { isRecognised = true }

    func emit(_ event: consuming Event) throws(TimelineError) {
        records += 1
        try onEvent(event)
    }

    /// An empty batch for events mapped on a worker thread. Thread-safe.
    func makeBatch() -> EventBatch {
        batches?.makeBatch() ?? EventBatch(encoder: nil, keepsEvents: true)
    }

    /// Makes a batch of events ready for delivery. Thread-safe: importers call it on the
    /// worker thread that mapped the events.
    func prepare(_ batch: consuming EventBatch) -> PreparedEvents {
        guard let batches else { return PreparedEvents(events: batch.events) }
        return batches.prepare(batch)
    }

    /// Delivers a prepared batch; importers call it on their own thread, in input order.
    func emit(_ batch: consuming PreparedEvents) throws(TimelineError) {
        records += batch.count
        if let batches {
            try batches.deliver(batch)
        } else {
            for event in batch.events { try onEvent(event) }
        }
    }
    func reject(_ record: RejectedRecord) {
        records += 1
        onReject(record)
    }
    func report(_ diagnostic: Diagnostic) { onDiagnostic(diagnostic) }

    /// Reports what the date engine decided for a record (TZ104/TZ105/TZ106) at its place.
    func report(_ notices: [DateNotice], at location: SourceLocation) {
        for n in notices {
            onDiagnostic(Diagnostic(.warning, n.message, at: location, code: n.code.rawValue))
        }
    }
}

/// An input format. Importers stream: they hand each record to the context as soon as it is
/// complete and never build the whole file in memory unless the format requires it.
protocol TimelineImporter {
    /// Reads every record of `input`. Throws only for faults that stop the run (exit 65 or
    /// 66); a bad record is rejected through `context` and reading goes on.
    func read(from input: InputReader, context: ImportContext) throws(TimelineError)
}
