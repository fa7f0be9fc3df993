import Foundation

/// Reads money as people and bank exports write it — `¥1,024.00`, `-12.50`, `(12.50)`,
/// `12.50 CNY`, `$5`, `1.234,50` with `decimalComma` — into an exact decimal and, where the
/// text names it, a currency.
public struct AmountParser: Sendable {
    /// `1.234,50` is one thousand two hundred thirty-four and a half (`--decimal-comma`).
    public var decimalComma = false

    /// A reader of amounts with a decimal point, or a decimal comma.
    public init(decimalComma: Bool = false) {
        self.decimalComma = decimalComma
    }

    package struct Reading: Hashable, Sendable {
        package var value: DecimalNumber
        package var currency: String?
    }

    static let symbols: [(String, String)] = [("¥", "CNY"), ("￥", "CNY"), ("$", "USD"), ("US$", "USD"), ("€", "EUR"), ("£", "GBP"), ("HK$", "HKD"), ("元", "CNY")]
    static let codes: Set<String> = ["CNY", "RMB", "USD", "EUR", "GBP", "JPY", "HKD", "TWD", "KRW", "SGD", "AUD", "CAD", "CHF", "INR"]

    /// nil for text that is not an amount; `.some(nil)` for an empty or placeholder value
    /// (`""`, `-`, `—`, `/`) that means "no amount".
    package func parse(_ text: String) -> Reading?? {
        // Fast path: plain decimal text (`12.50`, `-3`), as most exports write amounts.
        if !decimalComma, let plain = DecimalNumber(text) { return .some(Reading(value: plain, currency: nil)) }
        var s = text.trimmingSpaces
        if s.isEmpty || s == "-" || s == "—" || s == "/" || s == "--" { return .some(nil) }
        var negative = false
        var currency: String?
        if s.hasPrefix("(") && s.hasSuffix(")") {
            negative = true
            s = String(s.dropFirst().dropLast()).trimmingSpaces
        }
        func stripSign() {
            if s.hasPrefix("-") || s.hasPrefix("−") {
                negative.toggle()
                s = String(s.dropFirst()).trimmingSpaces
            } else if s.hasPrefix("+") {
                s = String(s.dropFirst()).trimmingSpaces
            }
        }
        stripSign()
        for (symbol, code) in Self.symbols.sorted(by: { $0.0.count > $1.0.count }) {
            if s.hasPrefix(symbol) {
                currency = code
                s = String(s.dropFirst(symbol.count)).trimmingSpaces
                break
            }
            if s.hasSuffix(symbol) {
                currency = code
                s = String(s.dropLast(symbol.count)).trimmingSpaces
                break
            }
        }
        let upper = s.uppercased()
        for code in Self.codes {
            if upper.hasPrefix(code) {
                currency = code == "RMB" ? "CNY" : code
                s = String(s.dropFirst(code.count)).trimmingSpaces
                break
            }
            if upper.hasSuffix(code) {
                currency = code == "RMB" ? "CNY" : code
                s = String(s.dropLast(code.count)).trimmingSpaces
                break
            }
        }
        stripSign()
        let group: Character = decimalComma ? "." : ","
        let point: Character = decimalComma ? "," : "."
        var digits = ""
        var seenPoint = false
        for ch in s {
            if ch == group || ch == " " || ch == "\u{00A0}" || ch == "'" {
                guard !seenPoint else { return nil }
                continue
            }
            if ch == point {
                guard !seenPoint else { return nil }
                seenPoint = true
                digits.append(".")
                continue
            }
            guard ch.isASCII, ch.isNumber else { return nil }
            digits.append(ch)
        }
        guard let value = DecimalNumber(digits) else { return nil }
        return .some(Reading(value: negative ? value.negated : value, currency: currency))
    }
}

/// Income/expense words that sign an amount (`--map direction=COLUMN`).
package enum AmountDirection: Sendable {
    case income, expense, neutral

    package init?(word: String) {
        switch word.trimmingSpaces.lowercased() {
        case "income", "in", "credit", "cr", "+", "收入", "收", "入账", "收款": self = .income
        case "expense", "out", "debit", "dr", "-", "支出", "支", "出账", "付款": self = .expense
        case "", "/", "neutral", "memo", "不计收支", "其他": self = .neutral
        default: return nil
        }
    }

    /// The amount with the sign this direction gives it (magnitude kept).
    package func apply(to value: DecimalNumber) -> DecimalNumber {
        switch self {
        case .income: return value.isNegative ? value.negated : value
        case .expense: return value.isNegative ? value : value.negated
        case .neutral: return value
        }
    }
}
