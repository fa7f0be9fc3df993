/// A currency named in a money column's header, as exports write it: `Betrag (EUR)`,
/// `Betrag (€)`, `Valor (em R$)`, `入出金(円)`, `ご利用金額（円）`, `Amount (CNY)`. The
/// amounts of that column are in it unless a currency column or the value says otherwise.
enum ColumnCurrency {
    /// Symbols that stand for more than one currency (`¥` is the yen in Japan, the yuan in
    /// China): named alone in a header, they say none.
    static let ambiguous: Set<String> = ["$", "¥", "￥"]

    /// The ISO 4217 code a header's bracketed suffix names; nil when it names none.
    static func named(in header: String) -> String? {
        guard var inside = ColumnZone.bracketed(header)?.inside else { return nil }
        // `em R$`, `in EUR`, `en €`.
        for word in ["em ", "in ", "en "] where inside.lowercased().hasPrefix(word) {
            inside = String(inside.dropFirst(word.count))
        }
        if !ambiguous.contains(inside),
            let symbol = AmountParser.symbols.first(where: { $0.0 == inside })
        {
            return symbol.1
        }
        guard AmountParser.codes.contains(inside) else { return nil }
        return inside == "RMB" ? "CNY" : inside
    }
}
