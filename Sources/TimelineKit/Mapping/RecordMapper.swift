import Foundation

/// The texts of one source record, as the mapper needs them: for each mapped field its
/// (trimmed, joined) text, and the unmapped fields to keep as attributes. Importers fill it
/// their own way — CSV by precomputed column index, JSON by path — so the mapper neither
/// knows the source format nor looks anything up by name per row. A field of a CSV block or
/// a JSON record is kept as where it lies in their bytes (`cellBytes`), and its string is
/// made only when the mapper asks for it.
struct FieldTexts {
    /// A mapped field's text: none, a string, or a range of `cellBytes` (valid UTF-8, with
    /// nothing to trim).
    enum Slot {
        case none
        case text(String)
        case cell(Int, Int)
    }
    // One slot per `MappedField`, by `ordinal`. Importers refill one `FieldTexts` for every
    // record of a block, so the slots are allocated once per block, not per record.
    private var slots = [Slot](repeating: .none, count: MappedField.allCases.count)
    /// The bytes the `cell` slots lie in (a CSV block, a JSON record's block).
    var cellBytes: [UInt8] = []
    /// Unmapped fields with non-empty values, in source order.
    var attributes: [(String, String)] = []
    /// A wide row's times, one per `FieldMapping.events` entry (nil when empty).
    var eventTimes: [String?] = []

    init() {}

    subscript(field: MappedField) -> String? {
        get {
            switch slots[field.ordinal] {
            case .none: return nil
            case .text(let text): return text
            case .cell(let start, let end): return string(start..<end)
            }
        }
        set { slots[field.ordinal] = newValue.map { .text($0) } ?? .none }
    }

    /// The text of `range` of `cellBytes`.
    private func string(_ range: Range<Int>) -> String {
        cellBytes.withByteView { $0[range].string }
    }

    /// `body` applied to `field`'s bytes (empty when it has none), without making a string.
    func withBytes<R>(_ field: MappedField, _ body: (ByteView) -> R) -> R {
        switch slots[field.ordinal] {
        case .none: return body(.empty)
        case .text(let text): return text.withByteView(body)
        case .cell(let start, let end): return cellBytes.withByteView { body($0[start..<end]) }
        }
    }

    /// Whether `field` has a text (without making its string).
    func has(_ field: MappedField) -> Bool {
        if case .none = slots[field.ordinal] { return false }
        return true
    }

    /// Sets `field` to the cell at `range` of `cellBytes`, as `single` reads a column: trimmed
    /// and without spreadsheet guards, none when empty. A clean cell (nearly all) stays a
    /// range; one to clean becomes a string, read by `single`'s own rules.
    mutating func setCell(_ field: MappedField, _ range: Range<Int>) {
        guard !range.isEmpty else {
            slots[field.ordinal] = .none
            return
        }
        if String.isCleanCell(
            first: cellBytes[range.lowerBound], last: cellBytes[range.upperBound - 1])
        {
            slots[field.ordinal] = .cell(range.lowerBound, range.upperBound)
        } else {
            self[field] = Self.single(string(range))
        }
    }

    /// Joins the parts of a field (`--map start=date+time`), dropping empty ones.
    static func join(_ parts: [String?]) -> String? {
        let kept = parts.compactMap { $0?.cleanedCell }.filter { !$0.isEmpty }
        return kept.isEmpty ? nil : kept.joined(separator: " ")
    }

    /// A single column's text, trimmed and without spreadsheet guards; nil when empty.
    @inline(__always)
    static func single(_ value: String?) -> String? {
        guard let v = value?.cleanedCell, !v.isEmpty else { return nil }
        return v
    }
}

extension MappedField {
    /// Position in `allCases`, for table lookups without hashing.
    var ordinal: Int {
        switch self {
        case .id: return 0
        case .start: return 1
        case .end: return 2
        case .title: return 3
        case .detail: return 4
        case .status: return 5
        case .category: return 6
        case .amount: return 7
        case .currency: return 8
        case .location: return 9
        case .series: return 10
        case .recorded: return 11
        case .links: return 12
        case .tags: return 13
        case .zone: return 14
        case .direction: return 15
        case .debit: return 16
        case .credit: return 17
        case .payer: return 18
        case .payee: return 19
        case .refund: return 20
        case .refundTime: return 21
        }
    }
}

/// Settings for turning source records into events.
package struct MappingOptions: Sendable {
    /// Which source fields feed which event fields.
    package var mapping = FieldMapping()
    /// The words that map to each status.
    package var statuses = StatusVocabulary()
    /// The words of a direction column (`--direction-map`).
    package var directions = DirectionVocabulary()
    /// The currency of amounts that name none, neither in their text, a currency column nor
    /// their column's header (a preset's service currency).
    package var defaultCurrency: String?
    /// The zone column names the start's zone only (timeline's own CSV): an end or recorded
    /// time whose own offset contradicts it keeps its offset, with no zone and no notice.
    package var zoneColumnIsTheStarts = false
    /// How amounts are read: the decimal mark (`--decimal-comma`, `--decimal-point`), or
    /// none, to infer it.
    package var amounts = AmountParser()
    /// The decimal mark of every amount (`--decimal-comma`, `--decimal-point`); nil (the
    /// default) reads it from each money column's values.
    package var decimalMark: DecimalMark? {
        get { amounts.decimalMark }
        set { amounts.decimalMark = newValue }
    }
    /// The decimal marks an importer inferred for its money fields when `amounts` names
    /// none (`TableDecimalMarks`).
    package var inferredDecimalMarks: [MappedField: DecimalMark] = [:]
    /// Whether the debit column writes its amounts with their sign (`-1.450,00` for money
    /// out, as Crédit Mutuel does), so a value is taken as it is; otherwise debits are
    /// written as magnitudes, and a negative one is money back (a card's refund).
    package var debitsSigned = false

    /// The defaults: mapping by header name, the built-in status words, decimal marks
    /// inferred.
    package init() {}

    /// These options reading amounts with a decimal point where no flag names a mark: JSON
    /// writes its numbers so, and APIs their amount strings.
    var withDecimalPoints: MappingOptions {
        var options = self
        for field in [MappedField.amount, .debit, .credit] {
            options.inferredDecimalMarks[field] = .point
        }
        return options
    }

    /// The reader of `field`'s amounts.
    func amountParser(for field: MappedField) -> AmountParser {
        AmountParser(decimalMark: amounts.decimalMark ?? inferredDecimalMarks[field])
    }
}

/// Turns source records into canonical events, or into rejects that say why. One per input
/// file: it knows the file's resolved column mapping.
///
/// A record is rejected — never silently altered — when its start time is missing or cannot
/// be read, an end/recorded time or an amount is present but unreadable, or its direction
/// or zone word is unknown. A placeholder (`Not Available`, `N/A`, `-`, `0000-00-00`) in a
/// time, amount or zone column means none: no start rejects the record, saying so. Every column not mapped (and a status word with no canonical
/// meaning) is kept in `attributes`; empty values are dropped.
final class RecordMapper {
    let sources: [MappedField: FieldSource]
    /// What the date engine decided while mapping the last record (DST gaps and overlaps,
    /// offsets that contradict their zone); the importer reports them at the record's line.
    private(set) var notices: [DateNotice] = []
    /// The placeholders (`Not Available`, `-`) met in time, amount, debit, credit and zone
    /// columns since they were last taken, by their text.
    private(set) var placeholders: [String: Int] = [:]
    private let options: MappingOptions
    /// The readers of the amount, the debit and the credit.
    private let amountParsers: (amount: AmountParser, debit: AmountParser, credit: AmountParser)
    private let parser: DateParser
    private let format: String
    private let file: String
    private let idPrefix: String
    /// The zones headers name for their time columns (`Created (UTC)`), resolved once.
    private let columnZones: [MappedField: ResolvedZone]
    /// The currency a money column's header names (`Betrag (EUR)`), else the preset's, for
    /// amounts that name none.
    private let columnCurrency: String?
    /// A wide row's moments (`FieldMapping.events`): each filled one is an event.
    let events: [WideRowEvent]

    init(
        sources: [MappedField: FieldSource], options: MappingOptions, parser: DateParser,
        format: String, file: String
    ) {
        self.sources = sources
        events = options.mapping.events
        self.options = options
        amountParsers = (
            options.amountParser(for: .amount), options.amountParser(for: .debit),
            options.amountParser(for: .credit)
        )
        self.parser = parser
        self.format = format
        self.file = file
        idPrefix = Event.generatedIDPrefix(file: file)
        var zones: [MappedField: ResolvedZone] = [:]
        for (field, source) in sources {
            if let name = source.zone, case .success(let zone) = parser.zone(named: name) {
                zones[field] = zone
            }
        }
        columnZones = zones
        readsRefunds = sources[.refund] != nil
        readsParties = sources[.payer] != nil || sources[.payee] != nil
        columnCurrency =
            [MappedField.amount, .debit, .credit].lazy.compactMap { sources[$0] }.compactMap {
                $0.columns.count == 1 ? ColumnCurrency.named(in: $0.columns[0]) : nil
            }.first
            ?? options.defaultCurrency
    }

    /// Why a record was rejected: a message and the finding code.
    struct Rejection: Error, Sendable {
        var reason: String
        var code: FindingCode
        /// A wide row with no moment but an id: it continues the row above and is not a
        /// record of its own (Shopify's further line items of an order).
        var continuation = false
    }

    /// Status words repeat on every row: remember what each spelling meant. A file has a
    /// handful of them, so the last few are compared by their bytes first (no string is
    /// made) before the memo is hashed.
    private var statusMemo: [String: EventStatus?] = [:]
    private var recentStatuses: [(word: [UInt8], status: EventStatus?)] = []
    private var nextRecentStatus = 0
    private static let recentStatusLimit = 8

    /// The status `record`'s status word means (nil for a word with no canonical meaning).
    private func status(of record: FieldTexts) -> EventStatus? {
        let recent = record.withBytes(.status) { bytes -> EventStatus?? in
            for recent in recentStatuses
            where recent.word.count == bytes.count && bytes.hasPrefix(recent.word) {
                return .some(recent.status)
            }
            return nil
        }
        if let recent { return recent }
        let word = record[.status]!
        let status: EventStatus?
        if let known = statusMemo[word] {
            status = known
        } else {
            status = options.statuses.status(for: word)
            if statusMemo.count < 10_000 { statusMemo[word] = status }
        }
        if recentStatuses.count < Self.recentStatusLimit {
            recentStatuses.append((Array(word.utf8), status))
        } else {
            recentStatuses[nextRecentStatus] = (Array(word.utf8), status)
            nextRecentStatus = (nextRecentStatus + 1) % Self.recentStatusLimit
        }
        return status
    }

    /// The column a wide row's start is read from while its event is filled.
    private var wideColumn: String?

    /// The text of the record's zone column when it holds an offset (`-06:00`), while its
    /// times are read.
    private var columnOffset: String?
    /// Whether records have refund columns (`refund` and `refund_time`).
    private let readsRefunds: Bool
    /// Whether records have payer or payee columns.
    private let readsParties: Bool
    /// The refund event of the record last mapped, made from its refund columns.
    private var refund: Event?

    private func takeRefund() -> Event? {
        guard readsRefunds, let made = refund else { return nil }
        refund = nil
        return made
    }

    /// Reads `field`'s time into `value`, as `time(_:_:zone:)` does; false, with `value` as
    /// it was, when the record has none there. The common form is read in place
    /// (`DateParser.readCommonForm`); only other texts make a value to copy in.
    private func readTime(
        _ field: MappedField, _ record: FieldTexts, zone: ResolvedZone?,
        into value: inout TimeValue
    ) throws(Rejection) -> Bool {
        guard record.has(field) else { return false }
        // A zone column of offsets changes the offset of every time read: not in place.
        if columnOffset == nil,
            record.withBytes(
                field,
                {
                    parser.readCommonForm(
                        $0, recordZone: zone ?? columnZones[field], into: &value)
                })
        {
            return true
        }
        guard let read = try time(field, record, zone: zone) else { return false }
        value = read
        return true
    }

    /// `field`'s time, read through the date engine's fallback chain; nil when the record
    /// has none there (no text, or a placeholder such as `N/A`, which a start may not be).
    private func time(_ field: MappedField, _ record: FieldTexts, zone: ResolvedZone?)
        throws(Rejection) -> TimeValue?
    {
        guard record.has(field) else { return nil }
        // Read from the field's bytes: a string is made only where one is needed (a message, a
        // source text that is not the value's own rendering: `TimeValue.setRaw`).
        var read: ParsedTimeValue?
        var failure: DateParseError?
        record.withBytes(field) { bytes in
            guard !Placeholder.isPlaceholder(bytes) else { return }
            switch parser.parse(bytes: bytes, recordZone: zone ?? columnZones[field]) {
            case .success(var parsed):
                parsed.value.setRaw(bytes, form: parsed.rawForm)
                read = parsed
            case .failure(let error): failure = error
            }
        }
        if var parsed = read {
            if options.zoneColumnIsTheStarts, field != .start,
                case .offsetContradictsZone? = parsed.notice,
                case .success(let own) = parser.parse(record[field]!, inZone: columnZones[field])
            {
                // Timeline's own CSV names the start's zone: another time written with
                // another offset is in none.
                parsed = own
            }
            if let columnOffset {
                // The offset of a local time, as if written with it. A value written with its
                // own offset (USPS's GMTTimestamp beside GMTOffset) keeps it and contradicts
                // nothing: the column is about local times.
                if case .offsetContradictsZone? = parsed.notice { parsed.notice = nil }
                parsed.value.takeOffset(from: columnOffset, column: sources[.zone]!.description)
            }
            if let notice = parsed.notice { notices.append(notice) }
            return parsed.value
        }
        guard let failure else {
            // `Not Available`, `N/A`, `-`: no time. Only a start must have one.
            let raw = record[field]!
            countPlaceholder(raw)
            guard field == .start else { return nil }
            let column = wideColumn ?? sources[field]!.description
            throw Rejection(
                reason: "no start time: column '\(column)' holds '\(raw)', which stands for none",
                code: .missingStart)
        }
        let column =
            field == .start
            ? wideColumn ?? sources[field]!.description : sources[field]!.description
        throw Rejection(
            reason:
                "\(field.rawValue) (column '\(column)'): \(failure.message(for: record[field]!))",
            code: failure.code)
    }

    /// The event for `record`, or nil with `rejection` set to why not. (Not a `Result`:
    /// events are large, and every wrapper is another copy per record.)
    func map(_ record: FieldTexts, number: Int, line: Int?, rejection: inout Rejection?) -> Event? {
        if !notices.isEmpty { notices.removeAll(keepingCapacity: true) }
        var event = Event.blank
        do throws(Rejection) {
            try fill(&event, from: record, number: number, line: line)
            return event
        } catch {
            rejection = error
            return nil
        }
    }

    /// The events of a record: one, or a wide row's several (`events`); empty with
    /// `rejection` set to why not.
    func mapAll(_ record: FieldTexts, number: Int, line: Int?, rejection: inout Rejection?)
        -> [Event]
    {
        guard !events.isEmpty else {
            guard let event = map(record, number: number, line: line, rejection: &rejection) else {
                return []
            }
            return [event] + (takeRefund().map { [$0] } ?? [])
        }
        if !notices.isEmpty { notices.removeAll(keepingCapacity: true) }
        var result: [Event] = []
        do throws(Rejection) {
            try fillWide(record, number: number, line: line) { result.append($0) }
            return result
        } catch {
            rejection = error
            return []
        }
    }

    /// Maps `record` into `event` and adds it to `batch`; returns why not when the record is
    /// rejected (`event` is then part set, and holds nothing to read). Importers pass the
    /// same `event` for every record of a batch: it is overwritten in place
    /// (`Event.overwrite`) and `batch` borrows it. An event built afresh and returned was
    /// copied once more on its way (every string retained, then released) — the compiler
    /// does not make that copy a move — and one kept in the mapper was moved in and out
    /// (copies of ~400 bytes) for every record.
    func map(
        _ record: FieldTexts, number: Int, line: Int?, reusing event: inout Event,
        into batch: inout EventBatch
    ) -> Rejection? {
        if !notices.isEmpty { notices.removeAll(keepingCapacity: true) }
        do throws(Rejection) {
            if !events.isEmpty {
                // All or none: a row whose second moment is unreadable adds no event.
                var mapped: [Event] = []
                try fillWide(record, number: number, line: line) { mapped.append($0) }
                for e in mapped { batch.add(e) }
                return nil
            }
            try fill(&event, from: record, number: number, line: line)
            batch.add(event, idIsGenerated: !record.has(.id))
            if readsRefunds, let refund = takeRefund() { batch.add(refund) }
            return nil
        } catch {
            return error
        }
    }

    /// Sets every field of `event` from `record`. When it throws, `event` is left part set:
    /// callers drop it or overwrite it with the next record.
    private func fill(_ event: inout Event, from record: FieldTexts, number: Int, line: Int?)
        throws(Rejection)
    {
        var zone: ResolvedZone?
        columnOffset = nil
        if let text = record[.zone], Placeholder.isPlaceholder(text) {
            countPlaceholder(text)
        } else if let text = record[.zone] {
            // A zone column may hold offsets (UPS's `gmtOffset` `-06:00`): the times' own
            // offsets, as if written with them.
            let offsetZone = ColumnZone.offset(text)
            if offsetZone != nil { columnOffset = text }
            let name = offsetZone ?? text
            switch parser.zone(named: name) {
            case .success(let z): zone = z
            case .failure(let e):
                throw Rejection(
                    reason: "zone (column '\(sources[.zone]!)'): \(e.message)",
                    code: e == .unknownZone(name) ? .unknownZone : .ambiguousAbbreviation)
            }
        }
        guard try readTime(.start, record, zone: zone, into: &event.start) else {
            let detail =
                sources[.start].map { "column '\($0)' is empty" }
                ?? "no column was recognised as the start time; name it with \(.map, "start=COLUMN")"
            throw Rejection(reason: "no start time: \(detail)", code: .missingStart)
        }
        var attributes: [String: String] = [:]
        var status: EventStatus?
        if record.has(.status) {
            status = self.status(of: record)
            // (A status read from the title's sentences is kept there.)
            if status == nil, sources[.status] != sources[.title],
                sources[.status] != sources[.detail]
            {
                attributes[sources[.status]!.description] = record[.status]
            }
        }
        var amount: Amount?
        var amountText = record[.amount]
        if let text = amountText, Placeholder.isPlaceholder(text) {
            countPlaceholder(text)
            amountText = nil
        }
        if amountText == nil, record.has(.debit) || record.has(.credit) {
            amount = try debitCredit(record)
        } else if let raw = amountText {
            switch amountParsers.amount.parse(raw) {
            case nil:
                throw Self.unreadable(
                    .amount, raw, column: sources[.amount]!.description,
                    parser: amountParsers.amount)
            case .some(nil):
                break
            case .some(let reading?):
                var value = reading.value
                var neutral = false
                if let word = record[.direction] {
                    guard let direction = options.directions.direction(for: word) else {
                        throw Rejection(
                            reason:
                                "direction (column '\(sources[.direction]!)'): unknown word '\(word)'; expected income/expense, credit/debit, 收入/支出, +/- or neutral (不计收支, /), or add it with \(.directionMap, "'\(word)=in|out|neutral'")",
                            code: .unknownDirection)
                    }
                    value = direction.apply(to: value)
                    neutral = direction == .neutral
                }
                amount = Amount(
                    value: value,
                    currency: record[.currency]?.uppercased() ?? reading.currency ?? columnCurrency,
                    neutral: neutral)
            }
        }
        var titleText = record[.title]
        let detailText = record[.detail]
        let categoryText = record[.category]
        if status == .refunded, RefundRow.isRefund(category: categoryText, title: titleText) {
            status = .completed
        }
        for (name, value) in record.attributes { attributes[name] = value }
        if readsParties, record.has(.payer) || record.has(.payee) {
            // Without a title, the other party is one: who was paid for money that went out,
            // who paid for money that came in. A party that is not the title is kept.
            let parties: [MappedField] =
                amount?.value.isNegative == true ? [.payee, .payer] : [.payer, .payee]
            let title = titleText == nil ? parties.first { record[$0] != nil } : nil
            if let title { titleText = record[title] }
            for party in parties where party != title {
                if let text = record[party] { attributes[sources[party]!.description] = text }
            }
        }
        let end = try time(.end, record, zone: zone)
        let recorded = try time(.recorded, record, zone: zone)
        let refund =
            readsRefunds ? try refundParts(record, zone: zone, attributes: &attributes) : nil
        event.overwrite(
            identity: record[.id].map(EventIdentity.given)
                ?? .generated(prefix: idPrefix, record: number),
            end: end,
            title: titleText ?? detailText ?? record[.status] ?? categoryText ?? "",
            detail: titleText == nil ? nil : detailText, status: status, category: categoryText,
            amount: amount,
            location: record[.location], series: record[.series], recorded: recorded,
            links: split(record[.links], by: Self.linkSeparators),
            tags: split(record[.tags], by: Self.tagSeparators),
            attributes: attributes,
            source: SourceReference(format: format, file: file, record: number, line: line))
        if let refund { self.refund = refundEvent(of: event, value: refund.value, at: refund.time) }
    }

    /// A record's refund: the amount its refund column gives back and when, or nil when it
    /// gives back none. A refund with no time is kept in `attributes` (it cannot be placed).
    private func refundParts(
        _ record: FieldTexts, zone: ResolvedZone?, attributes: inout [String: String]
    ) throws(Rejection) -> (
        value: DecimalNumber, time: TimeValue
    )? {
        guard let text = record[.refund], !Placeholder.isPlaceholder(text) else { return nil }
        guard case .some(let reading?) = amountParsers.amount.parse(text) else {
            throw Self.unreadable(
                .refund, text, column: sources[.refund]!.description, parser: amountParsers.amount)
        }
        guard !reading.value.isZero else { return nil }
        guard let time = try time(.refundTime, record, zone: zone) else {
            attributes[sources[.refund]!.description] = text
            return nil
        }
        return (reading.value, time)
    }

    /// The money a sale or purchase gave back, as an event of its own at the time it was
    /// given back: the opposite sign of the record's amount, in its currency, `completed`,
    /// in the record's series (its id when it has none), id `ID/refund`.
    private func refundEvent(of sale: Event, value: DecimalNumber, at time: TimeValue) -> Event {
        let magnitude = value.isNegative ? value.negated : value
        let saleWasIncome = !(sale.amount?.value.isNegative ?? false)
        return Event(
            id: sale.id + "/refund", start: time, title: sale.title, status: .completed,
            category: "refund",
            amount: Amount(
                value: saleWasIncome ? magnitude.negated : magnitude,
                currency: sale.amount?.currency),
            series: sale.series ?? sale.id, source: sale.source)
    }

    /// A wide row's events, in the order of `events`: each filled time column is an event
    /// titled by its moment (`Order paid`), with the id `ROW-ID/TITLE` and the row's id (or
    /// its `series`) as series; the row's own title becomes the detail, and its amount goes
    /// to one event only (the one marked `carriesAmount` when filled, else the first), so
    /// that totals count it once.
    private func fillWide(_ record: FieldTexts, number: Int, line: Int?, add: (Event) -> Void)
        throws(Rejection)
    {
        // A moment that is empty or a placeholder (`Not Available`) is no event.
        let filled = record.eventTimes.indices.filter {
            record.eventTimes[$0].map { !Placeholder.isPlaceholder($0) } ?? false
        }
        for case let time? in record.eventTimes where Placeholder.isPlaceholder(time) {
            countPlaceholder(time)
        }
        guard !filled.isEmpty else {
            let columns = events.indices.map { i in
                record.eventTimes[i].map { "'\(events[i].column)' holds '\($0)'" }
                    ?? "'\(events[i].column)' is empty"
            }
            let placeholders = record.eventTimes.contains { $0 != nil }
            throw Rejection(
                reason:
                    "no start time: every event column is empty\(placeholders ? " or a placeholder for none" : "") (\(columns.joined(separator: ", ")))",
                code: .missingStart, continuation: record.has(.id) && !placeholders)
        }
        let amountAt = filled.first { events[$0].carriesAmount } ?? filled[0]
        let rowID = record[.id] ?? Event.generatedID(prefix: idPrefix, record: number)
        let rowTitle = record[.title] ?? record[.detail]
        defer { wideColumn = nil }
        var mapped: [Event] = []
        for i in filled {
            var texts = record
            texts[.start] = record.eventTimes[i]
            if i != amountAt { (texts[.amount], texts[.debit], texts[.credit]) = (nil, nil, nil) }
            wideColumn = events[i].column
            var event = Event.blank
            try fill(&event, from: texts, number: number, line: line)
            event.id = rowID + "/" + events[i].title
            event.title = events[i].title
            event.detail = rowTitle
            event.series = record[.series] ?? rowID
            mapped.append(event)
        }
        for event in mapped { add(event) }
    }

    private func countPlaceholder(_ raw: String) {
        placeholders[raw.trimmingSpaces, default: 0] += 1
    }

    /// The placeholders counted since the last call, and none from now.
    func takePlaceholders() -> [String: Int] {
        defer { placeholders.removeAll() }
        return placeholders
    }

    /// Why `raw` is no amount: read both ways and nothing decides (`1.450`), or not written
    /// as one with the column's decimal mark (`26,99` among decimal points), or not a number.
    private static func unreadable(
        _ field: MappedField, _ raw: String, column: String, parser: AmountParser
    ) -> Rejection {
        let reason: String
        if parser.isAmbiguous(raw) {
            reason =
                "'\(raw)' is \(TableDecimalMarks.readings(raw)), and nothing in the column says which; pass \(.decimalComma) or \(.decimalPoint)"
        } else if let mark = parser.decimalMark,
            AmountParser(decimalMark: mark == .point ? .comma : .point).parse(raw) != nil
        {
            reason =
                mark == .point
                ? "'\(raw)' is written with a decimal comma, the column's other amounts with a decimal point; pass \(.decimalComma) if the column's are commas"
                : "'\(raw)' is written with a decimal point, the column's other amounts with a decimal comma; pass \(.decimalPoint) if the column's are points"
        } else {
            reason = "cannot read '\(raw)' as an amount such as '-12.50', '¥1,024.00' or '1.234,50'"
        }
        return Rejection(
            reason: "\(field.rawValue) (column '\(column)'): \(reason)", code: .unreadableAmount)
    }

    /// A bank statement's amount from its paid-out and paid-in columns: the credit, less
    /// the debit (a debit alone is negative, a negative one positive: money back), or plus it
    /// where the debits are written with their sign.
    private func debitCredit(_ record: FieldTexts) throws(Rejection) -> Amount? {
        var total: DecimalNumber?
        var currency: String?
        for field in [MappedField.credit, .debit] {
            guard let raw = record[field] else { continue }
            if Placeholder.isPlaceholder(raw) {
                countPlaceholder(raw)
                continue
            }
            let reader = field == .debit ? amountParsers.debit : amountParsers.credit
            switch reader.parse(raw) {
            case nil:
                throw Self.unreadable(
                    field, raw, column: sources[field]!.description, parser: reader)
            case .some(nil): continue
            case .some(let reading?):
                let magnitude = reading.value.isNegative ? reading.value.negated : reading.value
                let signed =
                    field == .credit
                    ? magnitude : options.debitsSigned ? reading.value : reading.value.negated
                guard let sum = total.map({ $0.adding(signed) }) ?? signed else {
                    throw Rejection(
                        reason: "the credit and debit of this record are too large to add",
                        code: .unreadableAmount)
                }
                total = sum
                currency = currency ?? reading.currency
            }
        }
        return total.map {
            Amount(
                value: $0, currency: record[.currency]?.uppercased() ?? currency ?? columnCurrency)
        }
    }

    private static let linkSeparators: Set<Character> = [",", " ", "\n"]
    private static let tagSeparators: Set<Character> = [",", ";", "、", "|"]

    private func split(_ text: String?, by separators: Set<Character>) -> [String] {
        guard let text else { return [] }
        return text.split(whereSeparator: { separators.contains($0) }).map {
            String($0).trimmingSpaces
        }.filter { !$0.isEmpty }
    }
}

extension TimeValue {
    /// A time placed by a zone column that holds an offset: basis `offset` with no zone, its
    /// raw text naming the column (`20240612 151522 (gmtOffset -06:00)`). A value written
    /// with its own offset keeps it and names no zone: the column's offset is not its zone.
    fileprivate mutating func takeOffset(from text: String, column: String) {
        guard let instant, let offset else { return }
        switch basis {
        case .zone:
            self = TimeValue(
                instant: instant, offset: offset, basis: .offset, fractionDigits: fractionDigits,
                raw: (raw ?? "") + " (\(column) \(text))")
        case .offset:
            self = TimeValue(
                instant: instant, offset: offset, basis: .offset, fractionDigits: fractionDigits,
                raw: raw)
        default: return
        }
    }
}
