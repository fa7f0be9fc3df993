/// A named mapping for one service's export (a WeChat Pay bill, a PayPal activity download,
/// an AfterShip tracking response): which columns feed which fields, the service's status
/// words, its day/month order, the moments of a wide row, where a JSON response keeps its
/// records — and the signature that recognises the export.
///
/// Presets are JSON files in the format of `--mapping FILE`. A plain mapping file is an
/// object of `FIELD: COLUMN` pairs; a preset file holds that object under `"map"`, beside
/// the other settings:
///
/// ```json
/// {
///   "preset": "paypal",
///   "title": "PayPal activity download (CSV)",
///   "documentation": ["https://www.paypal.com/…"],
///   "detect": {"headers": ["Date", "Time", "TimeZone", "Gross", "Fee", "Net"]},
///   "map": {"start": "Date+Time", "zone": "TimeZone", "title": "Name"},
///   "dateOrder": "month-first",
///   "statuses": {"Completed": "completed"}
/// }
/// ```
///
/// `detect` says when the preset applies by itself: every one of `headers` is a column of
/// the table's header row (or a key of the first JSON record), a `preamble` text appears on
/// a line before the header, one of `paths` leads to an array in a JSON document, or every
/// one of `keys` is a key of the document's top-level object.
/// `records` names the JSON array of records (as `--records`, the first path that exists);
/// `events` turns a wide row into one event per filled time column (`{"Paid at": "Order
/// paid"}`), the amount going to `amountEvent`'s event (else the first). `currency` is the
/// currency of a service that has one (Alipay's bills are in yuan), for amounts that name none.
package struct MappingPreset: Sendable {
    /// The name `--preset` takes (`wechat-pay`); for a plain mapping file, the file name.
    public let name: String
    /// What the preset reads, for people (`WeChat Pay bill (微信支付账单, CSV)`).
    public let title: String
    /// The public pages whose layout the preset follows.
    public let documentation: [String]
    /// The preset file's text, to copy and adapt.
    public let definition: String
    /// The columns (or JSON paths) of the fields the preset maps, and its `events`.
    public private(set) var mapping = FieldMapping()
    /// The service's own status words.
    public private(set) var statuses: [(word: String, status: EventStatus)] = []
    /// How the service writes `03/04/2024` when its values do not show it.
    public private(set) var dateOrder: FieldOrder?
    /// The currency of amounts that name none, for a service that has one.
    public private(set) var currency: String?
    /// The JSON arrays that may hold the records, tried in order.
    public private(set) var records: [String] = []
    /// Wide rows: the time columns that are each one event, and the event's title.
    public private(set) var events: [WideRowEvent] = []
    /// When the preset applies without `--preset`.
    public private(set) var signature = Signature()

    /// What recognises an export (any one part that is given and matches).
    public struct Signature: Sendable {
        /// Columns that are all in the header row (compared as the default mapping
        /// compares header names: case, spaces, hyphens and underscores alike).
        public var headers: [String] = []
        /// Texts one of which appears on a line before the header row.
        public var preamble: [String] = []
        /// JSON paths (`data.tracking.checkpoints`) one of which leads to an array.
        public var paths: [String] = []
        /// Keys that are all in a JSON document's top-level object.
        public var keys: [String] = []

        /// Nothing to recognise: the preset applies only when named.
        public var isEmpty: Bool {
            headers.isEmpty && preamble.isEmpty && paths.isEmpty && keys.isEmpty
        }
    }

    /// A preset read from `json`, the text of a preset or mapping file; `name` is used when
    /// the file does not name itself.
    public init(json bytes: [UInt8], name: String) throws(TimelineError) {
        definition = String(decoding: bytes, as: UTF8.self)
        let root: JSONValue
        do throws(JSONSyntaxError) {
            root = try JSONParser.parseComplete(bytes, what: "the preset object")
        } catch {
            throw TimelineError(.usage, "preset '\(name)' is not valid JSON: \(error.message)")
        }
        guard case .object(let pairs) = root else {
            throw TimelineError(
                .usage, "preset '\(name)' must hold a JSON object such as {\"start\": \"time\"}")
        }
        var reader = PresetReader(file: name, pairs: pairs)
        guard reader.has("map") else {
            // A plain mapping file: FIELD: COLUMN pairs only.
            self.name = name
            title = name
            documentation = []
            try mapping.add(json: root, file: name)
            return
        }
        self.name = try reader.string("preset") ?? name
        title = try reader.string("title") ?? self.name
        documentation = try reader.strings("documentation")
        if let map = reader.take("map") { try mapping.add(json: map, file: name) }
        for (word, text) in try reader.pairs("statuses") {
            guard let status = EventStatus(rawValue: text) else {
                throw reader.error(
                    "statuses: '\(text)' is not a status; use one of \(EventStatus.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            statuses.append((word, status))
        }
        switch try reader.string("dateOrder") {
        case nil: break
        case "day-first": dateOrder = .dayFirst
        case "month-first": dateOrder = .monthFirst
        case let other?:
            throw reader.error("dateOrder: '\(other)' is neither day-first nor month-first")
        }
        records = try reader.strings("records")
        if let code = try reader.string("currency") {
            guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                throw reader.error("currency: '\(code)' is not an ISO 4217 code such as CNY")
            }
            currency = code
        }
        let amountEvent = try reader.string("amountEvent")
        events = try reader.pairs("events").map {
            WideRowEvent(column: $0.0, title: $0.1, carriesAmount: $0.0 == amountEvent)
        }
        mapping.events = events
        if let amountEvent, !events.contains(where: { $0.column == amountEvent }) {
            throw reader.error("amountEvent: '\(amountEvent)' is not one of the events' columns")
        }
        if let detect = reader.take("detect") {
            guard case .object(let inner) = detect else {
                throw reader.error("detect must be an object")
            }
            var d = PresetReader(file: name, pairs: inner)
            signature.headers = try d.strings("headers")
            signature.preamble = try d.strings("preamble")
            signature.paths = try d.strings("paths")
            signature.keys = try d.strings("keys")
            try d.finish()
        }
        try reader.finish()
    }

    /// The preset file at `path` (`--preset FILE`, `--mapping FILE`), named after the file
    /// unless it names itself.
    public init(file path: String) throws(TimelineError) {
        let bytes = try InputReader(path: path).readAll()
        try self.init(json: bytes, name: path)
    }

    /// The built-in preset called `name`, if any.
    public static func named(_ name: String) -> MappingPreset? {
        builtIn.first { $0.name == name }
    }

    /// Whether a CSV table (or the first JSON record's keys, as `header`) is this preset's
    /// export: every signature header is a column, or a preamble line holds a marker.
    package func matches(header: [String], preamble: [String]) -> Bool {
        if !signature.headers.isEmpty {
            let columns = Set(
                header.map { FieldMapping.key(ColumnZone.split($0)?.base ?? $0) }
                    + header.map(FieldMapping.key))
            if signature.headers.allSatisfy({ columns.contains(FieldMapping.key($0)) }) {
                return true
            }
        }
        return signature.preamble.contains { marker in preamble.contains { $0.contains(marker) } }
    }

    /// Whether a JSON document is this preset's: one of the signature's paths leads to an
    /// array, or the top-level object has every one of its keys.
    package func matches(document: JSONValue) -> Bool {
        if signature.paths.contains(where: { Self.array(at: $0, in: document) }) { return true }
        guard !signature.keys.isEmpty, case .object(let pairs) = document else { return false }
        return signature.keys.allSatisfy { key in pairs.contains { $0.0 == key } }
    }

    /// The first of the preset's record paths that leads to an array in `document`.
    package func recordsPath(in document: JSONValue) -> String? {
        records.first { Self.array(at: $0, in: document) }
    }

    /// Whether `path` leads to an array in `document` (through arrays where it says `[]`).
    static func array(at path: String, in document: JSONValue) -> Bool {
        !JSONPath.arrays(at: path, in: document).isEmpty
    }

    /// `options` with this preset applied beneath what they name themselves: `--map`
    /// entries win over the preset's columns, `--status-map` words over its words,
    /// `--events` over its events (its `records` are looked for by the JSON reader). With `columns` (a CSV
    /// header), the preset's entries for columns the file lacks are left out: exports add
    /// and drop optional columns.
    package func applied(to options: ReadOptions, columns: [String]? = nil) -> ReadOptions {
        var result = options
        var mapping = self.mapping
        if let columns {
            let present = Set(columns)
            mapping.explicit = mapping.explicit.filter {
                $0.value.columns.allSatisfy(present.contains)
            }
            mapping.events = mapping.events.filter { present.contains($0.column) }
        }
        for (field, source) in options.mapping.mapping.explicit { mapping.explicit[field] = source }
        if !options.mapping.mapping.events.isEmpty {
            mapping.events = options.mapping.mapping.events
        }
        result.mapping.mapping = mapping
        result.mapping.statuses = options.mapping.statuses.under(statuses)
        if result.mapping.defaultCurrency == nil { result.mapping.defaultCurrency = currency }
        return result
    }
}

/// One moment of a wide row (a Shopify order's `Paid at`): the column holding its time and
/// the title of its event.
package struct WideRowEvent: Sendable, Hashable {
    /// The column (or JSON path) holding the time.
    public var column: String
    /// The event's title (`Order paid`).
    public var title: String
    /// The row's amount goes to this event (else to the first event of the row).
    public var carriesAmount: Bool

    /// A moment read from `column`, titled `title`.
    public init(column: String, title: String, carriesAmount: Bool = false) {
        self.column = column
        self.title = title
        self.carriesAmount = carriesAmount
    }
}

/// Reads the members of a preset file's object, each once, and refuses unknown ones.
private struct PresetReader {
    let file: String
    var members: [(String, JSONValue)]

    init(file: String, pairs: [(String, JSONValue)]) {
        self.file = file
        members = pairs
    }

    func has(_ key: String) -> Bool { members.contains { $0.0 == key } }

    mutating func take(_ key: String) -> JSONValue? {
        guard let i = members.firstIndex(where: { $0.0 == key }) else { return nil }
        return members.remove(at: i).1
    }

    func error(_ message: String) -> TimelineError {
        TimelineError(.usage, "preset '\(file)': \(message)")
    }

    mutating func string(_ key: String) throws(TimelineError) -> String? {
        guard let value = take(key) else { return nil }
        guard case .string(let text) = value else { throw error("\(key) must be a string") }
        return text
    }

    /// A string or an array of strings.
    mutating func strings(_ key: String) throws(TimelineError) -> [String] {
        switch take(key) {
        case nil: return []
        case .string(let text)?: return [text]
        case .array(let items)?:
            var result: [String] = []
            for item in items {
                guard case .string(let text) = item else { throw error("\(key) must hold strings") }
                result.append(text)
            }
            return result
        default: throw error("\(key) must be a string or an array of strings")
        }
    }

    /// An object of string values, in file order.
    mutating func pairs(_ key: String) throws(TimelineError) -> [(String, String)] {
        guard let value = take(key) else { return [] }
        guard case .object(let object) = value else {
            throw error("\(key) must be an object of strings")
        }
        var result: [(String, String)] = []
        for (k, v) in object {
            guard case .string(let text) = v else {
                throw error("\(key): the value of '\(k)' must be a string")
            }
            result.append((k, text))
        }
        return result
    }

    func finish() throws(TimelineError) {
        guard let unknown = members.first else { return }
        throw error(
            "unknown member '\(unknown.0)'; a preset has preset, title, documentation, detect, map, statuses, dateOrder, records, events, amountEvent"
        )
    }
}
