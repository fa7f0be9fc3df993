import Foundation

/// The character that marks an amount's decimals.
package enum DecimalMark: String, CaseIterable, Sendable {
    /// `1,234.56` (`--decimal-point`).
    case point
    /// `1.234,56` (`--decimal-comma`).
    case comma

    var character: Character { self == .point ? "." : "," }
}

/// Reads money as people and bank exports write it — `¥1,024.00`, `-12.50`, `(12.50)`,
/// `12.50 CNY`, `$5`, `1.234,50`, `1 234,50`, `1'234.50`, `1,23,456.78` — into an exact
/// decimal and, where the text names it, a currency. Digits are grouped by threes (or, before
/// the last three, by twos: Indian lakhs); a value whose groups are not is no amount, so that
/// `-26,99` under a decimal point is refused rather than read as −2699.
package struct AmountParser: Sendable {
    /// Whether an amount's text is written as money out: a leading `-` or `−`, or brackets.
    static func isWrittenNegative(_ text: String) -> Bool {
        text.hasPrefix("-") || text.hasPrefix("−") || text.hasPrefix("(")
    }

    /// The decimal mark; nil reads each value by what it shows (`12,50` has a decimal comma,
    /// `1,234.56` a point, `1.234.567` groups with points) and refuses one that could be
    /// either (`1.450`: 1450 or 1.45). Tables decide each money column's mark from its values
    /// before reading it (`DecimalMarkChoice`).
    package var decimalMark: DecimalMark?

    /// A reader of amounts with this decimal mark, or (nil) the mark each value shows.
    package init(decimalMark: DecimalMark? = nil) {
        self.decimalMark = decimalMark
    }

    package struct Reading: Hashable, Sendable {
        package var value: DecimalNumber
        package var currency: String?
    }

    static let symbols: [(String, String)] = [
        ("US$", "USD"), ("HK$", "HKD"), ("R$", "BRL"), ("¥", "CNY"), ("￥", "CNY"), ("$", "USD"),
        ("€", "EUR"), ("£", "GBP"), ("元", "CNY"),
        ("円", "JPY"), ("원", "KRW"), ("₩", "KRW"),
    ]
    static let codes: Set<String> = [
        "CNY", "RMB", "USD", "EUR", "GBP", "JPY", "HKD", "TWD", "KRW", "SGD", "AUD", "CAD", "CHF",
        "INR", "BRL", "SEK", "NOK", "DKK", "PLN",
        "CZK", "MXN",
    ]
    /// Currencies with no minor unit in everyday use: a separator before three digits groups.
    static let wholeCurrencies: Set<String> = ["JPY", "KRW", "CLP", "VND", "ISK", "PYG", "UGX"]

    /// What a value's separators say of its decimal mark.
    package enum Evidence: Equatable, Sendable {
        /// No separator: `12`, `-3`.
        case none
        case point, comma
        /// One separator before three digits: `1,234`, `1.450`.
        case either
    }

    /// nil for text that is not an amount; `.some(nil)` for an empty or placeholder value
    /// (`""`, `-`, `—`, `/`) that means "no amount".
    package func parse(_ text: String) -> Reading?? {
        // Fast path: plain decimal text (`12.50`, `-3`), as most exports write amounts.
        if decimalMark == .point, let plain = DecimalNumber(text) {
            return .some(Reading(value: plain, currency: nil))
        }
        guard let (core, negative, currency) = Self.split(text) else { return .some(nil) }
        guard let mark = decimalMark ?? Self.mark(of: Self.evidence(core: core)) else { return nil }
        guard let value = Self.number(core, mark: mark) else { return nil }
        return .some(Reading(value: negative ? value.negated : value, currency: currency))
    }

    /// What `text`'s separators say of its decimal mark (nil when it is empty or a placeholder).
    package static func evidence(_ text: String) -> Evidence? {
        split(text).map { evidence(core: $0.core) }
    }

    /// Whether `text` could be read either way and nothing but its column can say which.
    package func isAmbiguous(_ text: String) -> Bool {
        decimalMark == nil && Self.evidence(text) == .either
    }

    private static func mark(of evidence: Evidence) -> DecimalMark? {
        switch evidence {
        case .none, .point: return .point
        case .comma: return .comma
        case .either: return nil
        }
    }

    /// The digits and separators of `text`, its sign and its currency; nil for a value that
    /// means none.
    private static func split(_ text: String) -> (
        core: Substring, negative: Bool, currency: String?
    )? {
        var s = Substring(text.trimmingSpaces)
        if s.isEmpty || s == "-" || s == "—" || s == "/" || s == "--" { return nil }
        var negative = false
        var currency: String?
        if s.hasPrefix("(") && s.hasSuffix(")") {
            negative = true
            s = s.dropFirst().dropLast()
            s = Substring(String(s).trimmingSpaces)
        }
        func stripSign() {
            if s.hasPrefix("-") || s.hasPrefix("−") {
                negative.toggle()
                s = Substring(String(s.dropFirst()).trimmingSpaces)
            } else if s.hasPrefix("+") {
                s = Substring(String(s.dropFirst()).trimmingSpaces)
            }
        }
        stripSign()
        for (symbol, code) in symbols {
            if s.hasPrefix(symbol) {
                currency = code
                s = Substring(String(s.dropFirst(symbol.count)).trimmingSpaces)
                break
            }
            if s.hasSuffix(symbol) {
                currency = code
                s = Substring(String(s.dropLast(symbol.count)).trimmingSpaces)
                break
            }
        }
        let upper = s.uppercased()
        for code in codes {
            if upper.hasPrefix(code) {
                currency = code == "RMB" ? "CNY" : code
                s = Substring(String(s.dropFirst(code.count)).trimmingSpaces)
                break
            }
            if upper.hasSuffix(code) {
                currency = code == "RMB" ? "CNY" : code
                s = Substring(String(s.dropLast(code.count)).trimmingSpaces)
                break
            }
        }
        stripSign()
        // A sign after the number (`26,99-`, as some German exports write debits).
        if s.hasSuffix("-") {
            negative.toggle()
            s = s.dropLast()
        }
        return (s, negative, currency)
    }

    /// Characters that group digits whatever the decimal mark: spaces (`1 234,50`, French
    /// writes a narrow no-break one) and the Swiss apostrophe (`1'234.50`).
    private static func isGroupSpace(_ c: Character) -> Bool {
        c == " " || c == "\u{00A0}" || c == "\u{202F}" || c == "'" || c == "’"
    }

    private static func evidence(core: Substring) -> Evidence {
        var points = 0
        var commas = 0
        var last: Character?
        for c in core where c == "." || c == "," {
            if c == "." { points += 1 } else { commas += 1 }
            last = c
        }
        guard let last else { return .none }
        if points > 0 && commas > 0 { return last == "." ? .point : .comma }
        // The one kind of separator, more than once, groups: the mark is the other.
        if points + commas > 1 { return last == "." ? .comma : .point }
        let parts = core.split(separator: last, omittingEmptySubsequences: false)
        let before = parts[0].filter(\.isNumber)
        let after = parts[1].filter(\.isNumber)
        // Three digits after one separator are a group or the decimals; a group never
        // follows a lone zero, and no digits before the separator make it decimals (`,50`).
        if after.count == 3 && !before.isEmpty && before != "0"
            && !parts[1].contains(where: isGroupSpace)
        {
            return .either
        }
        return last == "." ? .point : .comma
    }

    /// The number `core` writes with `mark`: digits grouped by threes (or Indian twos before
    /// the last three) with the other separator, a space or an apostrophe; nil otherwise.
    private static func number(_ core: Substring, mark: DecimalMark) -> DecimalNumber? {
        let parts = core.split(separator: mark.character, omittingEmptySubsequences: false)
        guard parts.count <= 2, let whole = parts.first else { return nil }
        let fraction = parts.count == 2 ? parts[1] : nil
        if let fraction {
            guard !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                return nil
            }
        }
        let groupMark: Character = mark == .point ? "," : "."
        let groups = whole.split(omittingEmptySubsequences: false) {
            $0 == groupMark || isGroupSpace($0)
        }
        guard groups.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }) else { return nil }
        if groups.count > 1 {
            let lengths = groups.map(\.count)
            let thousands =
                (1...3).contains(lengths[0]) && lengths.dropFirst().allSatisfy { $0 == 3 }
            let lakhs =
                (1...2).contains(lengths[0])
                && lengths.dropFirst().dropLast().allSatisfy { $0 == 2 } && lengths.last == 3
            guard thousands || lakhs else { return nil }
        } else if groups[0].isEmpty && fraction == nil {
            return nil
        }
        let digits = groups.joined() + (fraction.map { "." + $0 } ?? "")
        return DecimalNumber(digits.hasPrefix(".") ? "0" + digits : digits)
    }
}

/// The decimal mark of a table's money column, from the values sampled in it and, when they
/// leave it open, from the other money columns and the currency: a column whose values show
/// both marks (`1.234,56` and `1,234.56`) is refused; one whose values show neither reads each
/// value by what it shows and rejects the ones that could be either.
package enum DecimalMarkChoice: Equatable, Sendable {
    case decided(DecimalMark)
    case mixed(point: String, comma: String)
    case open

    /// What `values` (a column's sampled values) show.
    package init(values: some Sequence<String>) {
        var point: String?
        var comma: String?
        // A value that is no amount with the mark it shows (`12.5.0`) shows nothing.
        for value in values {
            switch AmountParser.evidence(value) {
            case .point? where AmountParser(decimalMark: .point).parse(value) != nil:
                point = point ?? value
            case .comma? where AmountParser(decimalMark: .comma).parse(value) != nil:
                comma = comma ?? value
            default: break
            }
        }
        switch (point, comma) {
        case (let p?, let c?): self = .mixed(point: p, comma: c)
        case (_?, nil): self = .decided(.point)
        case (nil, _?): self = .decided(.comma)
        case (nil, nil): self = .open
        }
    }

    /// A column left open takes the mark the file's other money columns agree on; else,
    /// when its amounts are in a currency with no minor unit (yen, won), a separator before
    /// three digits groups them.
    package func settled(
        others: [DecimalMarkChoice], wholeCurrency: Bool, sample: some Sequence<String>
    ) -> DecimalMarkChoice {
        guard self == .open else { return self }
        let marks = Set(
            others.compactMap { if case .decided(let m) = $0 { return m } else { return nil } })
        if marks.count == 1, let mark = marks.first { return .decided(mark) }
        guard wholeCurrency else { return .open }
        // The separator the ambiguous values use groups: the mark is the other one.
        for value in sample where AmountParser.evidence(value) == .either {
            return .decided(value.contains(",") ? .point : .comma)
        }
        return .open
    }
}
