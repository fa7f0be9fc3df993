import Foundation

/// The canonical fields a source column or JSON field can be mapped to, plus the helper
/// fields that shape them (`currency`, `zone`, `direction`).
public enum MappedField: String, CaseIterable, Sendable, Hashable {
    /// The event's `id`.
    case id
    /// The event's `start` (a date or date-time).
    case start
    /// The event's `end`.
    case end
    /// The event's `title`.
    case title
    /// The event's `detail`.
    case detail
    /// Status words, mapped to the event's `status`.
    case status
    /// The event's `category`.
    case category
    /// The amount's value (with its currency when the text names one).
    case amount
    /// The amount's currency code.
    case currency
    /// The event's `location`.
    case location
    /// The event's `series` (order id, tracking number, account).
    case series
    /// The event's `recorded` time.
    case recorded
    /// The event's `links`, split at commas, spaces and newlines.
    case links
    /// The event's `tags`, split at `,` `;` `、` `|`.
    case tags
    /// A per-record zone for naive times (`--map zone=COLUMN`).
    case zone
    /// Income/expense words that sign the amount (`--map direction=COLUMN`).
    case direction
    /// An amount paid out (a bank statement's `Debit`, `Paid out`, `支出金额`): the amount,
    /// negated, when the record has no `amount`.
    case debit
    /// An amount paid in (`Credit`, `Paid in`, `收入金额`): the amount when the record has no
    /// `amount`; with a debit too, credit minus debit.
    case credit
    /// Who paid (DKB's `Zahlungspflichtige*r`, `Payer`, `付款方`): the title of money that
    /// came in, when no column is the title.
    case payer
    /// Who was paid (`Zahlungsempfänger*in`, `Payee`, `收款方`): the title of money that went
    /// out, when no column is the title.
    case payee
    /// How much of the record's amount was given back (Stripe's `Amount Refunded`): with
    /// `refund_time`, a refund event of its own.
    case refund
    /// When the money was given back (Stripe's `Refunded date (UTC)`).
    case refundTime = "refund_time"
}

/// Where a canonical field comes from: one column (a dotted path for JSON), or several
/// joined with a space (`--map start=date+time`).
package struct FieldSource: Hashable, Sendable, CustomStringConvertible {
    package var columns: [String]
    /// The zone the column's header names (`Created (UTC)`, `时间（北京时间）`), for its
    /// values without offset or zone.
    package var zone: String?

    package init(_ spec: String) {
        columns = spec.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
    }

    package init(columns: [String], zone: String? = nil) {
        self.columns = columns
        self.zone = zone
    }

    package var description: String { columns.joined(separator: "+") }
}

/// Which source columns feed which canonical fields: explicit `--map`/`--mapping` entries,
/// then defaults chosen by header name (case-insensitive; English and Chinese).
public struct FieldMapping: Sendable {
    package var explicit: [MappedField: FieldSource] = [:]
    /// Wide rows (`--events`): the time columns that are each one event. When given, a
    /// record has no single start: every filled one of these is an event.
    package var events: [WideRowEvent] = []

    /// No explicit mappings: every field by its default header names.
    public init() {}

    /// Feeds `field` from `columns` (a dotted path for JSON); several are joined with a space,
    /// as a date column and a time column make one start.
    public mutating func map(_ field: MappedField, to columns: String...) {
        map(field, to: columns)
    }

    /// Feeds `field` from `columns`; several are joined with a space, and none feeds it
    /// from no column at all, not even one the defaults would choose.
    public mutating func map(_ field: MappedField, to columns: [String]) {
        explicit[field] = FieldSource(columns: columns)
    }

    /// The column (or columns) feeding `field` explicitly; nil when the defaults choose.
    public func columns(for field: MappedField) -> [String]? {
        explicit[field]?.columns
    }

    /// Reads `field=column` (`start=date+time`, `zone=tz`).
    package mutating func add(_ spec: String) throws(TimelineError) {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2,
            let field = MappedField(rawValue: parts[0].trimmingWhitespaces),
            !parts[1].isEmpty
        else {
            throw TimelineError(
                .usage,
                "invalid mapping '\(spec)'; expected FIELD=COLUMN with FIELD one of \(MappedField.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        explicit[field] = FieldSource(parts[1])
    }

    /// The explicit entries, field by field in the order of `MappedField.allCases`:
    /// `start` and `date+time` (columns joined with `+`).
    package var fields: [(field: String, source: String)] {
        MappedField.allCases.compactMap { field in
            explicit[field].map { (field.rawValue, $0.columns.isEmpty ? "none" : $0.description) }
        }
    }

    /// Reads `--events COLUMN=TITLE,COLUMN=TITLE` (`Created at=Order created,Paid at=Order
    /// paid`): each filled column of a row is one event with that title; the row's amount
    /// goes to the first.
    package mutating func add(events spec: String) throws(TimelineError) {
        for item in spec.split(separator: ",") {
            let parts = item.split(separator: "=", maxSplits: 1).map {
                $0.trimmingWhitespaces
            }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw TimelineError(
                    .usage,
                    "invalid \(.events) item '\(item)'; expected COLUMN=TITLE, e.g. 'Paid at=Order paid'"
                )
            }
            events.append(WideRowEvent(column: parts[0], title: parts[1]))
        }
    }

    /// Reads a `--mapping FILE.json` object: `{"start": "交易时间", "title": "商品"}`; a
    /// field mapped to `null` is fed by no column (not even a default one).
    package mutating func add(json: JSONValue, file: String) throws(TimelineError) {
        guard case .object(let pairs) = json else {
            throw TimelineError(
                .usage,
                "mapping file '\(file)' must hold a JSON object such as {\"start\": \"time\"}")
        }
        for (key, value) in pairs {
            if case .null = value {
                // No column feeds this field, not even one the defaults would choose.
                guard let field = MappedField(rawValue: key) else {
                    try add("\(key)=-")
                    continue
                }
                explicit[field] = FieldSource(columns: [])
                continue
            }
            guard case .string(let column) = value else {
                throw TimelineError(
                    .usage,
                    "mapping file '\(file)': the value of '\(key)' must be a column name string or null"
                )
            }
            try add("\(key)=\(column)")
        }
    }

    /// Reads a mapping file (`--mapping FILE`): a JSON object such as
    /// `{"start": "交易时间", "title": "商品"}`.
    package mutating func add(file path: String) throws(TimelineError) {
        let bytes = try InputReader(path: path).readAll()
        let json: JSONValue
        do throws(JSONSyntaxError) {
            json = try JSONParser.parseComplete(bytes, what: "the mapping object")
        } catch {
            throw TimelineError(
                .usage, "mapping file '\(path)' is not valid JSON: \(error.message)")
        }
        try add(json: json, file: path)
    }

    /// Default header names per field, most specific first (`Words/header-names.json`).
    static let defaults: [(MappedField, [String])] = BuiltInWords.headerNames.compactMap {
        key, names in
        MappedField(rawValue: key).map { ($0, names) }
    }

    /// A header name as the defaults match it: trimmed, lower-cased, with spaces and hyphens
    /// read as underscores (`Transaction ID` is `transaction_id`, `Created at` is `created_at`).
    static func key(_ name: String) -> String {
        String(
            name.trimmingWhitespaces.lowercased().map {
                $0 == " " || $0 == "-" ? "_" : $0
            })
    }

    /// Column names that hold only a date, and only a time of day: a date column and a time
    /// column are joined into the start (PayPal's `Date` and `Time`).
    static let dateOnlyNames: Set<String> = [
        "date", "日期", "交易日期", "transaction date", "booking date", "posting date",
    ]
    static let timeOnlyNames: Set<String> = [
        "time", "时间", "交易时间", "transaction time", "time of day",
    ]

    /// How many fields a header of these column names would feed, when one of them is the
    /// start (an explicit start column, else a default start name); 0 otherwise. Finds a
    /// table's header row after a preamble.
    package func recognisedFields(_ columns: [String]) -> Int {
        let present = columns.filter { !$0.isEmpty }
        guard present.count >= 2 else { return 0 }
        if let start = explicit[.start] {
            guard start.columns.allSatisfy(present.contains) else { return 0 }
        }
        if !events.isEmpty {
            let found = events.filter { present.contains($0.column) }.count
            guard found > 0 else { return 0 }
            var mapping = self
            mapping.events = events.filter { present.contains($0.column) }
            mapping.explicit = explicit.filter { $0.value.columns.allSatisfy(present.contains) }
            return ((try? mapping.resolve(columns: present))?.count ?? 0) + found
        }
        var mapping = self
        mapping.explicit = explicit.filter { $0.value.columns.allSatisfy(present.contains) }
        guard let sources = try? mapping.resolve(columns: present), sources[.start] != nil else {
            return 0
        }
        return sources.count
    }

    /// The source of every mapped field for these column names: explicit entries first, then
    /// defaults (each column feeds at most one field). Throws when an explicit column does
    /// not exist, naming the columns that do.
    package func resolve(columns: [String], allowNested: Bool = false) throws(TimelineError)
        -> [MappedField: FieldSource]
    {
        var result = explicit
        // A header may name its zone in brackets (`Created (UTC)`): matched by the name
        // before them, and the zone kept for the column's values.
        let named = columns.map { ColumnZone.split($0) }
        var lookup = Dictionary(columns.map { (Self.key($0), $0) }, uniquingKeysWith: { a, _ in a })
        var zones: [String: String] = [:]
        for (column, split) in zip(columns, named) {
            guard let split else { continue }
            if lookup[Self.key(split.base)] == nil { lookup[Self.key(split.base)] = column }
            if let zone = split.zone { zones[column] = zone }
        }
        if !allowNested {
            for (field, source) in explicit {
                for column in source.columns where !columns.contains(column) {
                    throw TimelineError(
                        .usage,
                        "\(.map, "\(field.rawValue)=\(source)"): no column '\(column)'; columns are: \(columns.joined(separator: ", "))"
                    )
                }
            }
        }
        if !allowNested {
            for event in events where !columns.contains(event.column) {
                throw TimelineError(
                    .usage,
                    "\(.events): no column '\(event.column)'; columns are: \(columns.joined(separator: ", "))"
                )
            }
        }
        var used = Set(explicit.values.flatMap(\.columns) + events.map(\.column))
        // A wide row's times are its events' columns: no single start.
        if !events.isEmpty { result[.start] = nil }
        for (field, names) in Self.defaults
        where result[field] == nil && !(field == .start && !events.isEmpty) {
            for name in names {
                if let column = lookup[Self.key(name)], !used.contains(column) {
                    result[field] = FieldSource(columns: [column])
                    used.insert(column)
                    break
                }
            }
        }
        // A date column and a time column are one start.
        if explicit[.start] == nil, let start = result[.start], start.columns.count == 1 {
            func baseName(_ c: String) -> String {
                (ColumnZone.split(c)?.base ?? c).trimmingWhitespaces.lowercased()
            }
            // (The name sets hold spaces: compared before `key` turns them into underscores.)
            let chosen = baseName(start.columns[0])
            let unused = columns.filter { !used.contains($0) }
            if Self.timeOnlyNames.contains(chosen),
                let date = unused.first(where: { Self.dateOnlyNames.contains(baseName($0)) })
            {
                result[.start] = FieldSource(columns: [date, start.columns[0]])
            } else if Self.dateOnlyNames.contains(chosen),
                let time = unused.first(where: { Self.timeOnlyNames.contains(baseName($0)) })
            {
                result[.start] = FieldSource(columns: [start.columns[0], time])
            }
        }
        // A field mapped to null has no source.
        result = result.filter { !$0.value.columns.isEmpty }
        // Zones named in headers apply to the time fields read from those columns.
        for field in [MappedField.start, .end, .recorded, .refundTime] {
            guard var source = result[field], source.zone == nil else { continue }
            source.zone = source.columns.lazy.compactMap { zones[$0] }.first
            result[field] = source
        }
        return result
    }
}
