/// `--fields id,start.instant,title,amount.value`: the parts of the canonical event an ETL
/// output writes, by dotted path, in the order given. A path names a member of the
/// canonical event (docs/canonical-format.md) or one member of an object member
/// (`start.zone`, `amount.currency`, `source.line`, `attributes.交易单号`).
package struct FieldSelection: Sendable, Hashable {
    /// The paths as given: the output's keys (JSON) or header (CSV).
    package let names: [String]
    let paths: [FieldPath]

    /// Reads a comma-separated list of paths.
    /// - Throws: a usage error naming an unknown path and the paths there are.
    package init(_ list: String) throws(TimelineError) {
        var names: [String] = []
        var paths: [FieldPath] = []
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(item).trimmingSpaces
            guard let path = FieldPath(name) else {
                let hint =
                    Suggestion.closest(name, among: FieldPath.known).map {
                        "did you mean '\($0)'? "
                    } ?? ""
                throw TimelineError(
                    .usage,
                    "unknown field '\(name)' in '\(list)'; \(hint)fields are \(FieldPath.known.joined(separator: ", ")) and attributes.NAME"
                )
            }
            guard !names.contains(name) else {
                throw TimelineError(.usage, "field '\(name)' is named twice in '\(list)'")
            }
            names.append(name)
            paths.append(path)
        }
        self.names = names
        self.paths = paths
    }
}

/// One path into the canonical event.
enum FieldPath: Hashable, Sendable {
    enum Time: String, Hashable, Sendable, CaseIterable {
        case start, end, recorded
    }
    enum TimePart: String, Hashable, Sendable, CaseIterable {
        case instant, local, offset, zone, basis, date, raw
    }
    enum AmountPart: String, Hashable, Sendable, CaseIterable {
        case value, currency, neutral
    }
    enum SourcePart: String, Hashable, Sendable, CaseIterable {
        case format, file, record, line
    }
    enum Text: String, Hashable, Sendable, CaseIterable {
        case id, title, detail, status, category, location, series
    }
    enum List: String, Hashable, Sendable, CaseIterable {
        case links, tags
    }

    case text(Text)
    case time(Time)
    case timePart(Time, TimePart)
    case amount
    case amountPart(AmountPart)
    case list(List)
    case attributes
    case attribute(String)
    case source
    case sourcePart(SourcePart)

    init?(_ name: String) {
        let parts = name.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            .map(String.init)
        let head = parts[0]
        guard parts.count == 2 else {
            if let text = Text(rawValue: head) {
                self = .text(text)
            } else if let time = Time(rawValue: head) {
                self = .time(time)
            } else if let list = List(rawValue: head) {
                self = .list(list)
            } else if head == "amount" {
                self = .amount
            } else if head == "attributes" {
                self = .attributes
            } else if head == "source" {
                self = .source
            } else {
                return nil
            }
            return
        }
        let member = parts[1]
        if let time = Time(rawValue: head), let part = TimePart(rawValue: member) {
            self = .timePart(time, part)
        } else if head == "amount", let part = AmountPart(rawValue: member) {
            self = .amountPart(part)
        } else if head == "source", let part = SourcePart(rawValue: member) {
            self = .sourcePart(part)
        } else if head == "attributes", !member.isEmpty {
            self = .attribute(member)
        } else {
            return nil
        }
    }

    /// Every path but `attributes.NAME`, in the canonical event's order.
    static let all: [FieldPath] =
        Text.allCases.map(FieldPath.text)
        + Time.allCases.flatMap { t in [.time(t)] + TimePart.allCases.map { .timePart(t, $0) } }
        + [.amount] + AmountPart.allCases.map(FieldPath.amountPart)
        + List.allCases.map(FieldPath.list) + [.attributes, .source]
        + SourcePart.allCases.map(FieldPath.sourcePart)

    /// Every path but `attributes.NAME`, as help and errors list them.
    static let known = all.map(\.name)

    /// The path as `--fields` writes it.
    var name: String {
        switch self {
        case .text(let t): return t.rawValue
        case .time(let t): return t.rawValue
        case .timePart(let t, let p): return "\(t.rawValue).\(p.rawValue)"
        case .amount: return "amount"
        case .amountPart(let p): return "amount.\(p.rawValue)"
        case .list(let l): return l.rawValue
        case .attributes: return "attributes"
        case .attribute(let name): return "attributes.\(name)"
        case .source: return "source"
        case .sourcePart(let p): return "source.\(p.rawValue)"
        }
    }

}
