import Testing

@testable import TimelineKit

/// Currencies named in money headers (issue 51). Expected by hand.
@Suite("column currency")
struct ColumnCurrencyTests {
    @Test(
        "codes and symbols in brackets",
        arguments: [
            ("Betrag (EUR)", "EUR"), ("Betrag (€)", "EUR"), ("Valor (em R$)", "BRL"),
            ("Valor (em US$)", "USD"), ("入出金(円)", "JPY"),
            ("ご利用金額（円）", "JPY"), ("Amount (CNY)", "CNY"), ("Bedrag (EUR)", "EUR"),
        ])
    func named(_ header: String, _ code: String) {
        #expect(ColumnCurrency.named(in: header) == code)
    }

    @Test(
        "what names no single currency",
        arguments: [
            "Amount", "Amount ($)", "Amount (¥)", "Betrag (brutto)", "Created (UTC)", "Sum (kr)",
        ])
    func none(_ header: String) {
        #expect(ColumnCurrency.named(in: header) == nil)
    }
}
