/// Finds a table's amount column from its header's words and its values when no name gives
/// one (Amazon's `Total Owed`, eBay's `Total Price`, Etsy's `Order Value`, JD's `订单金额`):
/// a column whose header names money and 80% of whose values read as amounts. What was paid
/// comes first (owed, paid, 实付, 实际支付), then a total (total, grand, 合计, 应付), then an
/// amount (amount, 金额), then a price or value (a price even when paid); then the leftmost. A part of a total or a
/// balance (discount, tax, fee, shipping, unit price, balance, 运费, 余额) is never the amount.
/// What the account owes (`Total Owed`) is money out.
struct AmountColumnSniffer {
    let parser: AmountParser

    /// Money the exporting account owes (Amazon's buyer's `Total Owed`, a Japanese card's
    /// `ご利用金額`, what was spent with it): money out.
    static let owedWords = ["owed", "owing", "利用金額"]

    /// Whether a money column's name says the account pays it.
    static func namesMoneyOut(_ name: String) -> Bool { HeaderWords.names(owedWords, in: name) }

    /// What was paid, as against what was due (Taobao's 买家实际支付金额 beside 买家应付货款).
    static let paidWords = ["owed", "paid", "actual", "实付", "实际支付", "实收"]
    static let totalWords = ["total", "grand", "net", "合计", "应付", "总额", "总金额"]
    static let amountWords = [
        "amount", "sum", "金额", "金額", "betrag", "bedrag", "montant", "importe", "valor", "importo",
        "入出金", "금액", "거래금액",
    ]
    static let priceWords = ["price", "value", "cost", "价格", "价款"]
    /// Parts of a total, or none of the transaction's money: never its amount.
    static let partWords = [
        "discount", "discounts", "tax", "taxes", "fee", "fees", "shipping", "charge", "balance",
        "unit", "subtotal", "rate", "refunded",
        "运费", "优惠", "折扣", "税", "余额", "手续费", "单价", "退款",
    ]

    /// Directions a money column's bracketed suffix names: `记账金额(收入)`, `Amount (Debit)`.
    static let creditWords = ["credit", "in", "income", "deposit", "收入", "存入", "贷方", "收"]
    static let debitWords = ["debit", "out", "expense", "withdrawal", "支出", "支取", "借方", "支"]

    /// A money column's name before a bracketed direction, and whether it is the debit;
    /// nil for a column without one.
    static func direction(of name: String) -> (base: String, isDebit: Bool)? {
        guard let split = ColumnZone.split(name), split.zone == nil else { return nil }
        let inside = String(
            name.trimmingWhitespaces.dropLast().drop { $0 != "(" && $0 != "（" }
                .dropFirst()
        )
        .trimmingWhitespaces.lowercased()
        guard
            [paidWords, totalWords, amountWords].contains(where: {
                HeaderWords.names($0, in: split.base)
            })
        else { return nil }
        if creditWords.contains(inside) { return (split.base, false) }
        if debitWords.contains(inside) { return (split.base, true) }
        return nil
    }

    /// The debit and credit columns of a table that writes money in pairs differing by a
    /// bracketed direction (ICBC's `交易金额(收入)`/`(支出)` beside `记账金额(收入)`/`(支出)`):
    /// the pair whose sampled values hold the most amounts, none when no pair holds any.
    func choosePair(header: [String], rows: [[String]], used: Set<String>) -> (
        debit: String, credit: String
    )? {
        var pairs: [String: (debit: Int?, credit: Int?)] = [:]
        var order: [String] = []
        for (index, name) in header.enumerated() where !used.contains(name) {
            guard let (base, isDebit) = Self.direction(of: name) else { continue }
            if pairs[base] == nil { order.append(base) }
            if isDebit {
                pairs[base, default: (nil, nil)].debit = index
            } else {
                pairs[base, default: (nil, nil)].credit = index
            }
        }
        func amounts(_ index: Int) -> Int {
            rows.prefix(TimeColumnSniffer.sampleSize).filter { row in
                guard index < row.count else { return false }
                let value = row[index].cleanedCell
                guard !value.isEmpty, !Placeholder.isPlaceholder(value) else { return false }
                return isAmount(value)
            }.count
        }
        let scored = order.compactMap { base -> (score: Int, debit: Int, credit: Int)? in
            guard let debit = pairs[base]?.debit, let credit = pairs[base]?.credit else {
                return nil
            }
            return (amounts(debit) + amounts(credit), debit, credit)
        }
        guard let best = scored.max(by: { $0.score < $1.score }), best.score > 0 else { return nil }
        return (header[best.debit], header[best.credit])
    }

    /// Whether `value` reads as an amount, with either decimal mark when its own does not say.
    func isAmount(_ value: String) -> Bool {
        if case .some(.some) = parser.parse(value) { return true }
        return parser.isAmbiguous(value)
    }

    /// The amount column of a table with `header`, from `rows`, leaving out `used` columns.
    func choose(header: [String], rows: [[String]], used: Set<String>) -> String? {
        func rank(_ name: String) -> Int? {
            if HeaderWords.names(Self.partWords, in: name) { return nil }
            // A price is what the goods cost, even paid (Shopee's `Products' Price Paid by
            // Buyer` beside its `Grand Total`).
            if HeaderWords.names(Self.priceWords, in: name) { return 3 }
            return [Self.paidWords, Self.totalWords, Self.amountWords, Self.priceWords].firstIndex {
                HeaderWords.names($0, in: name)
            }
        }
        let candidates = header.enumerated().compactMap {
            index, name -> (rank: Int, mostlyZero: Bool, index: Int, name: String)? in
            guard !used.contains(name), let rank = rank(name) else { return nil }
            var values = 0
            var amounts = 0
            var zeros = 0
            for row in rows.prefix(TimeColumnSniffer.sampleSize) where index < row.count {
                let value = row[index].cleanedCell
                guard !value.isEmpty, !Placeholder.isPlaceholder(value) else { continue }
                values += 1
                if isAmount(value) { amounts += 1 }
                if value.allSatisfy({ $0 == "0" || $0 == "." || $0 == "," }) { zeros += 1 }
            }
            // A column that is zero on most rows is an amount of another currency (C6's
            // `Valor (em US$)` beside `Valor (em R$)`), or of a part.
            return values > 0 && amounts * 5 >= values * 4
                ? (rank, zeros * 2 > values, index, name) : nil
        }
        return candidates.min {
            ($0.rank, $0.mostlyZero ? 1 : 0, $0.index) < ($1.rank, $1.mostlyZero ? 1 : 0, $1.index)
        }?.name
    }
}
