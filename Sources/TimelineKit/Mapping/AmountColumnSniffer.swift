/// Finds a table's amount column from its header's words and its values when no name gives
/// one (Amazon's `Total Owed`, eBay's `Total Price`, Etsy's `Order Value`, JD's `订单金额`):
/// a column whose header names money and 80% of whose values read as amounts. What was paid
/// comes first (owed, paid, 实付, 实际支付), then a total (total, grand, 合计, 应付), then an
/// amount (amount, 金额), then a price or value; then the leftmost. A part of a total or a
/// balance (discount, tax, fee, shipping, unit price, balance, 运费, 余额) is never the amount.
struct AmountColumnSniffer {
    let parser: AmountParser

    /// What was paid, as against what was due (Taobao's 买家实际支付金额 beside 买家应付货款).
    static let paidWords = ["owed", "paid", "actual", "实付", "实际支付", "实收"]
    static let totalWords = ["total", "grand", "net", "合计", "应付", "总额", "总金额"]
    static let amountWords = ["amount", "sum", "金额", "金額", "betrag", "bedrag", "montant", "importe", "valor"]
    static let priceWords = ["price", "value", "cost", "价格", "价款"]
    /// Parts of a total, or none of the transaction's money: never its amount.
    static let partWords = [
        "discount", "discounts", "tax", "taxes", "fee", "fees", "shipping", "charge", "balance", "unit", "subtotal", "rate", "refunded",
        "运费", "优惠", "折扣", "税", "余额", "手续费", "单价", "退款",
    ]

    /// The amount column of a table with `header`, from `rows`, leaving out `used` columns.
    func choose(header: [String], rows: [[String]], used: Set<String>) -> String? {
        func rank(_ name: String) -> Int? {
            if HeaderWords.names(Self.partWords, in: name) { return nil }
            return [Self.paidWords, Self.totalWords, Self.amountWords, Self.priceWords].firstIndex { HeaderWords.names($0, in: name) }
        }
        let candidates = header.enumerated().compactMap { index, name -> (rank: Int, index: Int, name: String)? in
            guard !used.contains(name), let rank = rank(name) else { return nil }
            var values = 0
            var amounts = 0
            for row in rows.prefix(TimeColumnSniffer.sampleSize) where index < row.count {
                let value = row[index].cleanedCell
                guard !value.isEmpty, !Placeholder.isPlaceholder(value) else { continue }
                values += 1
                if case .some(.some) = parser.parse(value) { amounts += 1 }
            }
            return values > 0 && amounts * 5 >= values * 4 ? (rank, index, name) : nil
        }
        return candidates.min { ($0.rank, $0.index) < ($1.rank, $1.index) }?.name
    }
}
