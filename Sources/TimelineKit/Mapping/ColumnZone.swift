/// A zone named in a column's header, as exports write it: `Created (UTC)` (Stripe),
/// `Time (GMT+8)`, `Date (UTC+08:00)`, `时间（北京时间）`.
enum ColumnZone {
    /// The header's name before a bracketed suffix, and the zone the suffix names (nil when
    /// it names none: `Amount (CNY)`); nil without a bracketed suffix.
    static func split(_ header: String) -> (base: String, zone: String?)? {
        guard let (base, inside) = bracketed(header) else { return nil }
        return (base, zone(inside))
    }

    /// A header's name and the text of its bracketed suffix (`Betrag` and `EUR` of
    /// `Betrag (EUR)`, full-width brackets too); nil without one or without a name before it.
    static func bracketed(_ header: String) -> (base: String, inside: String)? {
        let trimmed = header.trimmingWhitespaces
        guard let close = trimmed.last, close == ")" || close == "）",
            let open = trimmed.lastIndex(where: { $0 == "(" || $0 == "（" })
        else { return nil }
        let base = trimmed[..<open].trimmingWhitespaces
        let inside = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            .trimmingWhitespaces
        guard !base.isEmpty else { return nil }
        return (base, inside)
    }

    /// The zone name a bracketed header suffix stands for, in a form the zone resolver reads.
    static func zone(_ text: String) -> String? {
        switch text {
        case "北京时间", "北京時間", "中国标准时间": return "Asia/Shanghai"
        default: break
        }
        let upper = text.uppercased()
        if upper == "UTC" || upper == "GMT" || upper == "Z" { return "UTC" }
        // UTC+8, GMT-5, UTC+08:00, GMT+0530.
        guard upper.hasPrefix("UTC") || upper.hasPrefix("GMT") else { return nil }
        let rest = upper.dropFirst(3)
        guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
        let digits = rest.dropFirst().filter { $0 != ":" }
        guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isASCII),
            digits.allSatisfy(\.isNumber)
        else { return nil }
        let hours = digits.count <= 2 ? Int(digits)! : Int(digits.prefix(digits.count - 2))!
        let minutes = digits.count <= 2 ? 0 : Int(digits.suffix(2))!
        guard hours <= 18, minutes < 60 else { return nil }
        let h = hours < 10 ? "0\(hours)" : "\(hours)"
        let m = minutes < 10 ? "0\(minutes)" : "\(minutes)"
        return "UTC\(sign)\(h):\(m)"
    }

    /// The fixed-offset zone a zone column's offset stands for: `-06:00`, `+0800`, `+08`,
    /// `UTC+8`, `GMT-05:00` (as `UTC-06:00`, which the resolver reads); nil for anything else.
    static func offset(_ text: String) -> String? {
        let trimmed = text.trimmingWhitespaces
        guard let sign = trimmed.first else { return nil }
        if sign == "+" || sign == "-" {
            let digits = trimmed.dropFirst()
            guard digits.first?.isNumber == true else { return nil }
            return zone("UTC" + trimmed)
        }
        let upper = trimmed.uppercased()
        return upper.hasPrefix("UTC") || upper.hasPrefix("GMT")
            ? zone(trimmed).flatMap { $0 == "UTC" ? nil : $0 } : nil
    }
}
