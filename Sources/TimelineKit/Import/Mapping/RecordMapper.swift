/// A source record as the mapper sees it: values by column name (or dotted JSON path) and
/// every field in source order.
public protocol MappableRecord {
    /// The text of a column or path, or nil when it is absent (JSON null counts as absent).
    func value(_ column: String) -> String?
    /// Every top-level field and its text (nested JSON as its JSON text), in source order.
    func forEachField(_ body: (String, String) -> Void)
}

/// Settings for turning source records into events.
public struct MappingOptions: Sendable {
    public var mapping = FieldMapping()
    public var statuses = StatusVocabulary()
    public var amounts = AmountParser()

    public init() {}
}

/// Turns source records into canonical events, or into rejects that say why. One per input
/// file: it knows the file's resolved column mapping.
///
/// A record is rejected — never silently altered — when its start time is missing or cannot
/// be read, an end/recorded time or an amount is present but unreadable, or its direction
/// or zone word is unknown. Every column not mapped (and a status word with no canonical
/// meaning) is kept in `attributes`; empty values are dropped.
public final class RecordMapper {
    public let sources: [MappedField: FieldSource]
    private let options: MappingOptions
    private let parser: DateParser
    private let format: String
    private let file: String
    private let idPrefix: String
    private let used: Set<String>

    public init(sources: [MappedField: FieldSource], options: MappingOptions, parser: DateParser, format: String, file: String) {
        self.sources = sources
        self.options = options
        self.parser = parser
        self.format = format
        self.file = file
        idPrefix = (file.split(separator: "/").last.map(String.init) ?? file) + ":"
        used = Set(sources.values.flatMap(\.columns))
    }

    /// Why a record was rejected: a message and the finding code.
    public struct Rejection: Error, Sendable {
        public var reason: String
        public var code: String
    }

    private func text(_ field: MappedField, _ record: some MappableRecord) -> String? {
        guard let source = sources[field] else { return nil }
        var parts: [String] = []
        for column in source.columns {
            guard let v = record.value(column) else { continue }
            let trimmed = v.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { parts.append(trimmed) }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    private func time(_ field: MappedField, _ record: some MappableRecord, zone: ResolvedZone?) throws(Rejection) -> TimeValue? {
        guard let raw = text(field, record) else { return nil }
        switch parser.parse(raw, inZone: zone) {
        case .success(let parsed): return parsed.value
        case .failure(let error):
            let column = sources[field]!.description
            throw Rejection(reason: "\(field.rawValue) (column '\(column)'): \(error.message(for: raw))", code: error.code)
        }
    }

    public func map(_ record: some MappableRecord, number: Int, line: Int?) -> Result<Event, Rejection> {
        do throws(Rejection) {
            return .success(try mapOrThrow(record, number: number, line: line))
        } catch {
            return .failure(error)
        }
    }

    private func mapOrThrow(_ record: some MappableRecord, number: Int, line: Int?) throws(Rejection) -> Event {
        var zone: ResolvedZone?
        if let name = text(.zone, record) {
            switch parser.zone(named: name) {
            case .success(let z): zone = z
            case .failure(let e): throw Rejection(reason: "zone (column '\(sources[.zone]!)'): \(e.message)", code: e == .unknownZone(name) ? "TZ110" : "TZ109")
            }
        }
        guard let start = try time(.start, record, zone: zone) else {
            let detail = sources[.start].map { "column '\($0)' is empty" } ?? "no column was recognised as the start time; name it with --map start=COLUMN"
            throw Rejection(reason: "no start time: \(detail)", code: "E001")
        }
        var attributes: [String: String] = [:]
        var status: EventStatus?
        if let word = text(.status, record) {
            status = options.statuses.status(for: word)
            if status == nil { attributes[sources[.status]!.description] = word }
        }
        var amount: Amount?
        if let raw = text(.amount, record) {
            switch options.amounts.parse(raw) {
            case nil:
                throw Rejection(reason: "amount (column '\(sources[.amount]!)'): cannot read '\(raw)' as an amount such as '-12.50' or '¥1,024.00'" + (options.amounts.decimalComma ? "" : " (pass --decimal-comma for '1.234,50')"), code: "amount")
            case .some(nil):
                break
            case .some(let reading?):
                var value = reading.value
                if let word = text(.direction, record) {
                    guard let direction = AmountDirection(word: word) else {
                        throw Rejection(reason: "direction (column '\(sources[.direction]!)'): unknown word '\(word)'; expected income/expense, credit/debit, 收入/支出 or +/-", code: "direction")
                    }
                    value = direction.apply(to: value)
                }
                amount = Amount(value: value, currency: text(.currency, record)?.uppercased() ?? reading.currency)
            }
        }
        let title = text(.title, record) ?? text(.detail, record) ?? text(.status, record) ?? text(.category, record) ?? ""
        var event = Event(
            id: text(.id, record) ?? idPrefix + String(number), start: start, end: try time(.end, record, zone: zone), title: title,
            detail: sources[.title] == nil ? nil : text(.detail, record), status: status, category: text(.category, record), amount: amount,
            location: text(.location, record), series: text(.series, record), recorded: try time(.recorded, record, zone: zone),
            links: split(text(.links, record), by: [",", " ", "\n"]), tags: split(text(.tags, record), by: [",", ";", "、", "|"]),
            source: SourceReference(format: format, file: file, record: number, line: line))
        record.forEachField { name, value in
            if !used.contains(name), !value.isEmpty { attributes[name] = value }
        }
        event.attributes = attributes
        return event
    }

    private func split(_ text: String?, by separators: Set<Character>) -> [String] {
        guard let text else { return [] }
        return text.split(whereSeparator: { separators.contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

import Foundation
