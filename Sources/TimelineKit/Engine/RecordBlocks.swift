/// How importers cut their input for the worker threads: blocks of about `targetSize`
/// bytes of whole records, at most `inFlight` of them mapped at once ahead of the one being
/// delivered (which bounds memory).
enum RecordBlocks {
    static let targetSize = 1 << 17
    static let inFlight = 6
}

/// What one block of records (CSV rows, NDJSON lines) became on a worker thread: the events
/// (prepared for their consumer), and the rejects and date-engine notices in record order.
struct RecordBlockOutcome {
    enum Message {
        case reject(RejectedRecord)
        case notices([DateNotice], SourceLocation)
        /// A row with few cells filled that is no record (of another width, or with no
        /// start): a summary line when no record follows it (a footer) or none came before it
        /// (a balance under the header), else a bad record.
        case unfitting(RejectedRecord)
        /// A wide row with no moment but an id: it continues the row above (a further line
        /// item of an order).
        case continuation(SourceLocation)
    }

    var events: PreparedEvents
    var messages: [Message]
    /// The lines of the first and the last record of the block that became events.
    var firstEventLine = 0
    var lastEventLine = 0
    /// The placeholders (`Not Available`, `-`) met in its time, amount and zone columns, by text.
    var placeholders: [String: Int] = [:]
    /// What stopped the run within the block (a JSON array's element that is not JSON),
    /// after the records before it.
    var failure: TimelineError?
}

/// Hands the blocks' outcomes to the context in order, holding back rows that may be a
/// footer until a record after them shows they are not (`finish` reports those that were).
final class RecordBlockDelivery {
    private let context: ImportContext
    private let file: String
    private var footer: [RejectedRecord] = []
    /// Unfitting rows before the first record that became events.
    private var leading: [RejectedRecord] = []
    private var sawEvent = false
    private var placeholders: [String: Int] = [:]
    private var continuations: [SourceLocation] = []
    /// More than this many unfitting rows in a row are not a footer.
    static let footerLimit = 32

    /// Unfitting rows at the end are a footer; false rejects them as they come (a slice of a
    /// file cannot tell whether the file ends with it).
    private let endsFile: Bool

    init(context: ImportContext, file: String, endsFile: Bool = true) {
        self.context = context
        self.file = file
        self.endsFile = endsFile
    }

    func deliver(_ outcome: consuming RecordBlockOutcome) throws(TimelineError) {
        for message in outcome.messages {
            switch message {
            case .unfitting(let r)
            where !sawEvent && leading.count < Self.footerLimit
                && (outcome.firstEventLine == 0 || (r.location.line ?? 0) < outcome.firstEventLine):
                leading.append(r)
                continue
            case .unfitting(let r) where endsFile:
                footer.append(r)
                if footer.count > Self.footerLimit { rejectFooter() }
                continue
            case .continuation(let location):
                continuations.append(location)
                continue
            default: break
            }
            rejectFooter()
            switch message {
            case .reject(let r), .unfitting(let r): context.reject(r)
            case .notices(let n, let location): context.report(n, at: location)
            case .continuation: break
            }
        }
        if let first = footer.first, outcome.lastEventLine > (first.location.line ?? 0) {
            rejectFooter()
        }
        if outcome.lastEventLine > 0 { sawEvent = true }
        placeholders.merge(outcome.placeholders, uniquingKeysWith: +)
        let failure = outcome.failure
        try context.emit(outcome.events)
        if let failure { throw failure }
    }

    private func rejectFooter() {
        for r in footer { context.reject(r) }
        footer.removeAll()
    }

    /// One note for `rows` that were not records, at `place` ("after the table"), and with
    /// --verbose one per row.
    private func reportSkipped(_ rows: [RejectedRecord], place: String, kind: String) {
        guard let first = rows.first?.location.line, let last = rows.last?.location.line else {
            return
        }
        context.report(
            Diagnostic(
                .info,
                (first == last
                    ? "line \(first) \(place) is not a record"
                    : "lines \(first)–\(last) \(place) are not records")
                    + " (\(kind))" + (context.verbose ? "" : " (\(.verbose) lists them)"),
                at: SourceLocation(file: file, line: first)))
        if context.verbose {
            for r in rows {
                context.report(Diagnostic(.info, "\(place): \(r.raw)", at: r.location))
            }
        }
    }

    /// Reports the rows after the table (a bill's totals), those between the header and the
    /// first record (a statement's opening balance) and the continuation rows. Rows before
    /// the first record of a file with none are rejected: nothing shows they are not records.
    func finish() {
        if !sawEvent {
            for r in leading { context.reject(r) }
            leading.removeAll()
        }
        if !placeholders.isEmpty {
            let total = placeholders.values.reduce(0, +)
            let words = placeholders.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(4)
                .map { "'\($0.key)' ×\($0.value)" }.joined(
                    separator: ", ")
            context.report(
                Diagnostic(
                    .info,
                    "\(total) value(s) in time, amount or zone columns stand for none (\(words)\(placeholders.count > 4 ? ", …" : "")): no time, amount or zone for them",
                    at: SourceLocation(file: file)))
        }
        reportSkipped(leading, place: "under the header", kind: "a balance or summary")
        reportSkipped(footer, place: "after the table", kind: "a summary or footer")
        if let first = continuations.first {
            context.report(
                Diagnostic(
                    .info,
                    "\(continuations.count) row(s) have no time in any event column and continue the row above (further line items): not events"
                        + (context.verbose ? "" : " (\(.verbose) lists them)"),
                    at: first))
            if context.verbose {
                for location in continuations {
                    context.report(Diagnostic(.info, "continues the row above", at: location))
                }
            }
        }
    }
}
