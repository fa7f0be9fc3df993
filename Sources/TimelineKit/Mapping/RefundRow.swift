/// A row that is itself a refund — money coming back (WeChat Pay's `商户消费-退款`, Alipay's
/// `退款`, a shop's `Refund` row) — is done when its status says refunded: `completed`,
/// not `refunded`, which says a sale's or a purchase's money was given back.
enum RefundRow {
    /// Words of a refund in a category, type or title.
    static let words = [
        "refund", "退款", "退貨", "返金", "환불", "remboursement", "erstattung", "rückerstattung",
        "reembolso", "estorno", "rimborso", "terugbetaling",
    ]

    /// Whether a row of this category and title is a refund.
    static func isRefund(category: String?, title: String?) -> Bool {
        [category, title].contains { text in text.map { HeaderWords.names(words, in: $0) } ?? false
        }
    }
}
