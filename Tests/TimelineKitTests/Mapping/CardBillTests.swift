import Testing

@testable import TimelineKit

/// A card's bill told from a bank account by its values (issue 51). Expected by hand.
@Suite("card bill")
struct CardBillTests {
    @Test("a negative row paying the bill among mostly positive rows is a card's bill")
    func bill() {
        #expect(
            CardBill.isBill([
                ("Padaria", "4.80"), ("Livraria", "26.99"), ("Pagamento recebido", "-1450.00"),
                ("Posto", "210.35"), ("Estorno", "-12.50"),
            ]))
        #expect(
            CardBill.isBill([
                ("AMAZON", "12.00"), ("Payment Thank You - Web", "(300.00)"), ("SHELL", "40.10"),
                ("NETFLIX", "15.49"),
            ]))
        // Too few other rows to say.
        #expect(!CardBill.isBill([("AMAZON", "12.00"), ("Payment Thank You - Web", "(300.00)")]))
    }

    @Test("a bank account paying the card (most rows negative), or no payment row, is not")
    func notBill() {
        // The account side of the same payment: most rows are money out.
        #expect(
            !CardBill.isBill([
                ("Padaria", "-4.80"), ("Pagamento de fatura", "-1450.00"), ("Salário", "2950.00"),
                ("Posto", "-210.35"),
            ]))
        // Positive rows, a negative refund, but nothing pays a bill: left as written.
        #expect(
            !CardBill.isBill([("Padaria", "4.80"), ("Estorno", "-12.50"), ("Posto", "210.35")]))
        // The payment written positive: nothing says the signs are turned.
        #expect(!CardBill.isBill([("Padaria", "4.80"), ("Pagamento recebido", "1450.00")]))
    }
}
