/// How events are grouped (`--group`, docs/canonical-format.md).
public enum GroupingUnit: String, Sendable, CaseIterable {
    /// By calendar day.
    case day
    /// By calendar month.
    case month
    /// Not grouped (the readable outputs group by day).
    case none
}

/// Income and expense of one currency within a group, as exact decimals. Positive amounts
/// are income, negative ones expense; `currency` is nil for amounts without one.
public struct CurrencyTotal: Hashable, Sendable {
    /// The currency code (`CNY`); nil for amounts without one.
    public var currency: String?
    /// The sum of the positive amounts.
    public var income: DecimalNumber
    /// The sum of the negative amounts (negative or zero).
    public var expense: DecimalNumber
}

/// The events of one calendar day (`2024-06-12`) or month (`2024-06`) in the display zone.
struct TimelineGroup: Sendable {
    var key: String
    var events: [Event]
    var totals: [CurrencyTotal]
}

enum TimelineGrouping {
    /// The group key of an event: its start's calendar day (or month) in `zone`. An all-day
    /// date groups under its own date, never shifted.
    static func key(of event: Event, unit: GroupingUnit, zone: ZoneRules) -> String {
        let day = event.start.date ?? zone.day(of: event.start.instant!)
        let text = day.isoString
        return unit == .month ? String(text.prefix(7)) : text
    }

    /// Groups `events` (already in output order): groups appear in the order of their first
    /// event, and events keep their order inside a group.
    static func group(_ events: [Event], unit: GroupingUnit, zone: ZoneRules) -> [TimelineGroup] {
        var order: [String] = []
        var members: [String: [Event]] = [:]
        for e in events {
            let k = key(of: e, unit: unit, zone: zone)
            if members[k] == nil { order.append(k) }
            members[k, default: []].append(e)
        }
        return order.map { TimelineGroup(key: $0, events: members[$0]!, totals: totals(members[$0]!)) }
    }

    /// Per-currency income and expense, currencies sorted (no currency first); neutral
    /// amounts are neither. Sums are
    /// exact; a sum beyond 38 digits keeps the last representable value (not reachable with
    /// real money).
    static func totals(_ events: [Event]) -> [CurrencyTotal] {
        var byCurrency: [String: CurrencyTotal] = [:]
        for e in events {
            guard let a = e.amount, !a.neutral else { continue }
            let k = a.currency ?? ""
            // Zero at the amount's scale, so a side with nothing in it reads `0.00`, not `0`.
            let zero = DecimalNumber(coefficient: 0, scale: a.value.scale)
            var t = byCurrency[k] ?? CurrencyTotal(currency: a.currency, income: zero, expense: zero)
            if a.value.isNegative {
                t.expense = t.expense.adding(a.value) ?? t.expense
            } else {
                t.income = t.income.adding(a.value) ?? t.income
            }
            byCurrency[k] = t
        }
        return byCurrency.keys.sorted().map { byCurrency[$0]! }
    }
}

/// An exporter that can write groups (docs/canonical-format.md) rather than a flat list.
protocol GroupingExporter: TimelineExporter {
    func write(groups: [TimelineGroup], header: DocumentHeader, to out: OutputWriter) throws(TimelineError)
}
