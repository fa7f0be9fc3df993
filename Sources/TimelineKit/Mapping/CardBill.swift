/// A card's bill lists what the card owes: purchases positive, the payment of the bill and
/// refunds negative (Nubank's and C6's `fatura`, an American card's activity). Nothing in
/// `date,title,amount` says so; the values do: a row that pays the bill is negative while
/// most others are positive. A bank account that pays the bill writes that row negative
/// too, but there most rows are negative.
enum CardBill {
    /// Titles of the row that pays a card's bill, as the card's issuer writes it.
    static let paymentWords = [
        "pagamento recebido", "pagamento de fatura", "pagamento da fatura", "payment received",
        "payment - thank you", "payment thank you",
        "autopay payment", "paiement reçu", "zahlung erhalten", "pago recibido", "还款", "還款",
    ]

    /// Whether `title` pays a card's bill.
    static func paysTheBill(_ title: String) -> Bool {
        let lower = title.lowercased()
        return paymentWords.contains { lower.contains($0) }
    }

    /// Whether sampled rows of `(title, amount)` texts are a card's bill: some row paying the
    /// bill is negative, and more than half of the others — at least three — are positive.
    static func isBill(_ rows: [(title: String, amount: String)]) -> Bool {
        let filled = rows.filter { !$0.amount.isEmpty && !Placeholder.isPlaceholder($0.amount) }
        let payments = filled.filter { paysTheBill($0.title) }
        guard payments.contains(where: { AmountParser.isWrittenNegative($0.amount) }) else {
            return false
        }
        let others = filled.filter { !paysTheBill($0.title) }
        return others.count >= 3
            && others.filter { !AmountParser.isWrittenNegative($0.amount) }.count * 2 > others.count
    }
}
