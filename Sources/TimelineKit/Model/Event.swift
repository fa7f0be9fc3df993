/// The canonical state of an event (docs/canonical-format.md).
public enum EventStatus: String, Hashable, Sendable, CaseIterable {
    /// Done: delivered, paid, signed, 已签收.
    case completed
    /// Under way: shipped, in transit, 派送中.
    case processing
    /// Not started: placed, awaiting payment, 待付款.
    case pending
    /// Will not happen, or did not: cancelled, failed, declined, void, 已取消. No money
    /// moved: its amount is left out of totals.
    case cancelled
    /// Happened, and its money was given back, in whole or in part: a refunded sale or
    /// purchase (Stripe's `Refunded`, 已全额退款 on a purchase). Its amount counts: the money
    /// coming back is an event of its own (a refund row, or one made from a sale's refund
    /// columns), so the day it happened nets correctly.
    case refunded
}

/// An exact amount of money: negative is expense/outcome, positive is income.
public struct Amount: Hashable, Sendable {
    /// The exact value; negative is expense.
    public var value: DecimalNumber
    /// The ISO 4217 code (`CNY`), when known.
    public var currency: String?
    /// Neither income nor expense: money moved between one's own accounts, a withdrawal, a
    /// refund, a hold (WeChat Pay's `/`, Alipay's 不计收支, PayPal's `Memo`). The value is
    /// kept as the source wrote it and left out of income and expense totals.
    public var neutral: Bool

    /// An amount of `value` in `currency`; `neutral` when it is neither income nor expense.
    public init(value: DecimalNumber, currency: String? = nil, neutral: Bool = false) {
        self.value = value
        self.currency = currency
        self.neutral = neutral
    }
}

/// Where an event came from.
public struct SourceReference: Hashable, Sendable {
    /// The input format id (`csv`, `ics`, `timeline`, …).
    public var format: String
    /// The file name as given, or `-` for standard input.
    public var file: String
    /// 1-based record number within the file.
    public var record: Int
    /// 1-based physical line where the record starts.
    public var line: Int?

    /// Where an event came from.
    public init(format: String, file: String, record: Int, line: Int? = nil) {
        self.format = format
        self.file = file
        self.record = record
        self.line = line
    }
}

/// One event of the canonical timeline (docs/canonical-format.md).
public struct Event: Hashable, Sendable {
    /// The source's id, or a generated `FILE:RECORD` (stable for the same input).
    public var id: String {
        get { identity.text }
        set { identity = .given(newValue) }
    }
    /// The id as it is held: given, or generated and kept in parts.
    package var identity: EventIdentity
    /// When it happened (or starts): an instant or an all-day date.
    public var start: TimeValue
    /// When it ends.
    public var end: TimeValue?
    /// What happened, in a line; empty only when the source has no text at all.
    public var title: String
    /// More text (a description, a courier's message).
    public var detail: String?
    /// The canonical status the source's word maps to.
    public var status: EventStatus?
    /// A category or type, as the source writes it.
    public var category: String?
    /// Money in or out.
    public var amount: Amount?

    /// The amount as totals count it: money that moved. None for an event without an
    /// amount, a neutral one (a transfer between one's own accounts, a withdrawal, a hold),
    /// or a `cancelled` one (failed, declined, void: shown, but nothing moved).
    public var movedAmount: Amount? {
        guard let amount, !amount.neutral, status != .cancelled else { return nil }
        return amount
    }
    /// Where.
    public var location: String?
    /// The entity the event belongs to: order id, tracking number, calendar, account.
    public var series: String?
    /// When the event was recorded (tie-breaker after `start`).
    public var recorded: TimeValue?
    /// URLs and attachments.
    public var links: [String]
    /// Labels (ICS CATEGORIES).
    public var tags: [String]
    /// Every source field not mapped to a canonical field. Written with sorted keys.
    public var attributes: [String: String]
    /// Where the event came from.
    public var source: SourceReference?

    /// An event from its fields; only `id`, `start` and `title` are required.
    public init(
        id: String, start: TimeValue, end: TimeValue? = nil, title: String,
        detail: String? = nil, status: EventStatus? = nil, category: String? = nil,
        amount: Amount? = nil, location: String? = nil, series: String? = nil,
        recorded: TimeValue? = nil, links: [String] = [], tags: [String] = [],
        attributes: [String: String] = [:], source: SourceReference? = nil
    ) {
        self.identity = .given(id)
        self.start = start
        self.end = end
        self.title = title
        self.detail = detail
        self.status = status
        self.category = category
        self.amount = amount
        self.location = location
        self.series = series
        self.recorded = recorded
        self.links = links
        self.tags = tags
        self.attributes = attributes
        self.source = source
    }
}

extension Event {
    /// Replaces every field but `start`, as `init` would, in an event that is being reused
    /// (an importer's event for a whole block): the old values are released and the new ones
    /// moved in. Every parameter is required, so none is left from the previous record; the
    /// caller has read the start into the event already (`RecordMapper` reads it in place).
    /// Field by field on purpose: `self = Event(…)` would build a second event and copy it.
    package mutating func overwrite(
        identity: consuming EventIdentity, end: consuming TimeValue?,
        title: consuming String,
        detail: consuming String?, status: EventStatus?, category: consuming String?,
        amount: consuming Amount?,
        location: consuming String?, series: consuming String?, recorded: consuming TimeValue?,
        links: consuming [String], tags: consuming [String], attributes: consuming [String: String],
        source: consuming SourceReference?
    ) {
        self.identity = identity
        self.end = end
        self.title = title
        self.detail = detail
        self.status = status
        self.category = category
        self.amount = amount
        self.location = location
        self.series = series
        self.recorded = recorded
        self.links = links
        self.tags = tags
        self.attributes = attributes
        self.source = source
    }

    /// An event with nothing in it, to be overwritten.
    package static let blank = Event(
        id: "", start: TimeValue(date: CivilDate(year: 1970, month: 1, day: 1)!), title: "")
}

/// The top of a canonical document: `{"schema": "timeline/1", "zone": …, "events": […]}`.
package struct DocumentHeader: Hashable, Sendable {
    package static let schemaID = "timeline/1"
    /// The display zone the document was produced for (IANA id or `UTC`).
    package var zone: String
    /// The zone as headers show it: with why when the data implied it
    /// (`Europe/Berlin, the calendar's X-WR-TIMEZONE`).
    package var zoneShown: String

    package init(zone: String, shown: String? = nil) {
        self.zone = zone
        zoneShown = shown ?? zone
    }
}

extension Event {
    /// The start of the id importers give a record that has none: the file's base name and a
    /// colon, followed by the record number (`orders.csv:12`).
    package static func generatedIDPrefix(file: String) -> String {
        (file.split(separator: "/").last.map(String.init) ?? file) + ":"
    }

    /// The id importers give record number `record` of a file whose `generatedIDPrefix` is
    /// `prefix`: written into one string at once (`prefix + String(record)` formats through
    /// `description` and appends, several times the work, once per record).
    package static func generatedID(prefix: String, record: Int) -> String {
        prefix.withByteView { FixedWriter.string($0, followedBy: record) }
    }

    /// The record number `id` is the generated id of, when it is `prefix` (a
    /// `generatedIDPrefix`, as UTF-8) followed by a record number in decimal exactly as
    /// `generatedID` writes it (no sign, no leading zero, at most 18 digits); else nil.
    static func generatedRecord(_ id: ByteView, prefix: [UInt8]) -> Int? {
        let digits = id.count - prefix.count
        guard digits >= 1, digits <= 18, id[prefix.count] != UInt8(ascii: "0") || digits == 1 else {
            return nil
        }
        guard id.hasPrefix(prefix) else { return nil }
        var n = 0
        for i in prefix.count..<id.count {
            let digit = Int(id[i]) &- 48
            guard digit >= 0, digit <= 9 else { return nil }
            n = n * 10 + digit
        }
        return n
    }
}
