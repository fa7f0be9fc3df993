/// `--fields`: each event as the selected parts of its canonical form, for a pipeline that
/// loads only what it needs. Every record has every selected field, `null` (JSON) or an
/// empty cell (CSV) where the event has none, so a loader infers one schema:
///
/// - NDJSON: one object per line, keyed by the paths as given (`{"id":…,"start.instant":…}`);
/// - JSON: those objects in one array;
/// - CSV and TSV: a header of the paths, then one row per event (RFC 4180 quoting, CRLF).
///
/// Values are the canonical ones: times as RFC 3339 text, amounts as exact decimal text,
/// `source.record` and `source.line` as numbers, `amount.neutral` as a boolean; a whole
/// object or list (`start`, `amount`, `tags`, `attributes`) as its canonical JSON, which a
/// CSV cell holds as text.
final class ProjectedExporter: TimelineExporter, EventEncodingExporter {
    enum Layout {
        case jsonLines
        case delimited(UInt8)
    }

    private let encoder: ProjectedRecordEncoder
    private let layout: Layout

    init(fields: FieldSelection, layout: Layout, safe: Bool = false) {
        encoder = ProjectedRecordEncoder(fields: fields, safe: safe)
        self.layout = layout
    }

    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {
        guard case .delimited(let delimiter) = layout else { return }
        try out.write(encoder.header(delimiter: delimiter))
    }

    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        var bytes: [UInt8] = []
        appendLine(event, to: &bytes)
        try out.write(bytes)
    }

    func finish(to out: OutputWriter) throws(TimelineError) {}

    func encode(_ event: Event, into bytes: inout EncodedBytes) {
        bytes.appending { appendLine(event, to: &$0) }
    }

    /// One line: an object (NDJSON) or a row (CSV, TSV).
    private func appendLine(_ event: Event, to bytes: inout [UInt8]) {
        switch layout {
        case .jsonLines:
            encoder.appendObject(event, to: &bytes)
            bytes.append(0x0A)
        case .delimited(let delimiter):
            encoder.appendRow(event, delimiter: delimiter, to: &bytes)
        }
    }
}

/// `--fields` with JSON output: the objects NDJSON would write, in one array, one per line.
/// Each event's bytes depend on whether one came before it (the comma), so events are
/// written in turn rather than encoded ahead.
final class ProjectedArrayExporter: TimelineExporter {
    private let encoder: ProjectedRecordEncoder
    private var count = 0

    init(fields: FieldSelection) {
        encoder = ProjectedRecordEncoder(fields: fields, safe: false)
    }

    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {
        try out.write("[")
    }

    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        var bytes: [UInt8] = count == 0 ? [0x0A] : [UInt8(ascii: ","), 0x0A]
        encoder.appendObject(event, to: &bytes)
        count += 1
        try out.write(bytes)
    }

    func finish(to out: OutputWriter) throws(TimelineError) {
        try out.write(count > 0 ? "\n]\n" : "]\n")
    }
}

/// The selected fields of one event as a JSON object or a delimited row.
struct ProjectedRecordEncoder {
    let fields: FieldSelection
    let safe: Bool
    /// Each path's member name as JSON, with its colon (and the comma before all but the
    /// first): written once here rather than escaped again for every event.
    private let keys: [[UInt8]]

    init(fields: FieldSelection, safe: Bool) {
        self.fields = fields
        self.safe = safe
        keys = fields.names.enumerated().map { i, name in
            var w = JSONWriter()
            if i > 0 { w.bytes.append(UInt8(ascii: ",")) }
            w.string(name)
            w.bytes.append(UInt8(ascii: ":"))
            return w.bytes
        }
    }

    /// The header row: the paths, CRLF-terminated.
    func header(delimiter: UInt8) -> [UInt8] {
        var line: [UInt8] = []
        for (i, name) in fields.names.enumerated() {
            if i > 0 { line.append(delimiter) }
            appendCell(name, delimiter: delimiter, to: &line)
        }
        line += [0x0D, 0x0A]
        return line
    }

    /// `{"path":value,…}`, every selected path present.
    func appendObject(_ event: Event, to bytes: inout [UInt8]) {
        var w = JSONWriter()
        swap(&w.bytes, &bytes)
        w.bytes.append(UInt8(ascii: "{"))
        for (i, path) in fields.paths.enumerated() {
            w.bytes += keys[i]
            if case .timePart(let time, let part) = path,
                Self.appendQuotedMoment(part, of: Self.time(time, of: event), to: &w.bytes)
            {
                continue
            }
            switch Self.value(of: path, in: event) {
            case .null: w.raw("null")
            case .text(let s): w.string(s)
            case .number(let n): appendDigits(n, width: 1, to: &w.bytes)
            case .bool(let b): b ? w.raw("true") : w.raw("false")
            case .json(let json): w.bytes += json
            }
        }
        w.bytes.append(UInt8(ascii: "}"))
        swap(&w.bytes, &bytes)
    }

    /// One row, CRLF-terminated: an empty cell for a missing value.
    func appendRow(_ event: Event, delimiter: UInt8, to bytes: inout [UInt8]) {
        for (i, path) in fields.paths.enumerated() {
            if i > 0 { bytes.append(delimiter) }
            switch Self.value(of: path, in: event) {
            case .null: break
            case .text(let s): appendCell(s, delimiter: delimiter, to: &bytes)
            case .number(let n): appendDigits(n, width: 1, to: &bytes)
            case .bool(let b): bytes += Array((b ? "true" : "false").utf8)
            case .json(let json):
                appendCell(String(decoding: json, as: UTF8.self), delimiter: delimiter, to: &bytes)
            }
        }
        bytes += [0x0D, 0x0A]
    }

    private func appendCell(_ text: String, delimiter: UInt8, to line: inout [UInt8]) {
        CSVExporter.appendField(
            safe ? SpreadsheetSafety.neutralised(text) : text, delimiter: delimiter, to: &line)
    }

    /// A selected part of an event.
    enum Value {
        case null
        case text(String)
        case number(Int)
        case bool(Bool)
        /// An object or a list, as canonical JSON.
        case json([UInt8])
    }

    static func value(of path: FieldPath, in event: Event) -> Value {
        switch path {
        case .text(let text):
            switch text {
            case .id: return .text(event.id)
            case .title: return .text(event.title)
            case .detail: return event.detail.map(Value.text) ?? .null
            case .status: return event.status.map { .text($0.rawValue) } ?? .null
            case .category: return event.category.map(Value.text) ?? .null
            case .location: return event.location.map(Value.text) ?? .null
            case .series: return event.series.map(Value.text) ?? .null
            }
        case .time(let time):
            guard let value = Self.time(time, of: event) else { return .null }
            var w = JSONWriter()
            CanonicalEncoder.append(value, to: &w)
            return .json(w.bytes)
        case .timePart(let time, let part):
            guard let value = Self.time(time, of: event) else { return .null }
            return Self.part(part, of: value)
        case .amount:
            guard let amount = event.amount else { return .null }
            return Self.json(capacity: amount.value.textLengthBound + bound(amount.currency) + 48) {
                CanonicalEncoder.write(amount, to: &$0)
            }
        case .amountPart(let part):
            guard let amount = event.amount else { return .null }
            switch part {
            case .value: return .text(amount.value.description)
            case .currency: return amount.currency.map(Value.text) ?? .null
            case .neutral: return .bool(amount.neutral)
            }
        case .list(let list):
            let items = list == .links ? event.links : event.tags
            return Self.json(capacity: items.reduce(2) { $0 + bound($1) + 1 }) {
                CanonicalEncoder.write(strings: items, to: &$0)
            }
        case .attributes:
            let capacity = event.attributes.reduce(2) { $0 + bound($1.key) + bound($1.value) + 2 }
            return Self.json(capacity: capacity) {
                CanonicalEncoder.write(attributes: event.attributes, to: &$0)
            }
        case .attribute(let name):
            return event.attributes[name].map(Value.text) ?? .null
        case .source:
            guard let source = event.source else { return .null }
            return Self.json(capacity: bound(source.format) + bound(source.file) + 64) {
                CanonicalEncoder.write(source, to: &$0)
            }
        case .sourcePart(let part):
            guard let source = event.source else { return .null }
            switch part {
            case .format: return .text(source.format)
            case .file: return .text(source.file)
            case .record: return .number(source.record)
            case .line: return source.line.map(Value.number) ?? .null
            }
        }
    }

    /// What `write` puts in a buffer of at most `capacity` bytes, as a JSON value.
    private static func json(capacity: Int, _ write: (inout FixedWriter) -> Void) -> Value {
        var bytes: [UInt8] = []
        FixedWriter.appending(to: &bytes, capacity: capacity, write)
        return .json(bytes)
    }

    /// The most bytes a string takes as JSON (every byte escaped at worst).
    private static func bound(_ s: String?) -> Int { s.map(FixedWriter.jsonStringBound) ?? 0 }

    private static func time(_ time: FieldPath.Time, of event: Event) -> TimeValue? {
        switch time {
        case .start: return event.start
        case .end: return event.end
        case .recorded: return event.recorded
        }
    }

    /// `appendMoment` as a JSON string: the text is ASCII, so it is only quoted.
    private static func appendQuotedMoment(
        _ part: FieldPath.TimePart, of value: TimeValue?, to bytes: inout [UInt8]
    ) -> Bool {
        guard let value else { return false }
        bytes.append(UInt8(ascii: "\""))
        guard appendMoment(part, of: value, to: &bytes) else {
            bytes.removeLast()
            return false
        }
        bytes.append(UInt8(ascii: "\""))
        return true
    }

    /// The text of a moment's instant, local time or offset, written straight into `bytes`;
    /// false, having written nothing, for the other parts and for a value without that part.
    private static func appendMoment(
        _ part: FieldPath.TimePart, of value: TimeValue, to bytes: inout [UInt8]
    ) -> Bool {
        switch part {
        case .instant:
            guard let instant = value.instant else { return false }
            instant.local(in: .utc).appendISO(to: &bytes, fractionDigits: value.fractionDigits)
            bytes.append(UInt8(ascii: "Z"))
        case .local:
            guard value.instant != nil, let local = value.local else { return false }
            local.appendISO(to: &bytes, fractionDigits: value.fractionDigits)
        case .offset:
            guard let offset = value.offset else { return false }
            offset.appendISO(to: &bytes)
        default:
            return false
        }
        return true
    }

    /// A member of a time's canonical object: `instant`, `local`, `offset`, `zone` and
    /// `basis` for a moment, `date` and `basis` for an all-day value, `raw` for either.
    private static func part(_ part: FieldPath.TimePart, of value: TimeValue) -> Value {
        switch part {
        case .instant, .local, .offset:
            var text: [UInt8] = []
            guard appendMoment(part, of: value, to: &text) else { return .null }
            return .text(String(decoding: text, as: UTF8.self))
        case .zone: return value.zone.map(Value.text) ?? .null
        case .basis: return .text(value.basis.rawValue)
        case .date:
            guard value.instant == nil, let date = value.date else { return .null }
            return .text(date.isoString)
        case .raw: return value.raw.map(Value.text) ?? .null
        }
    }
}
