import Testing

@testable import TimelineKit

/// Expected values written by hand from the texts.
@Suite("Amounts")
struct AmountParserTests {
    @Test("amounts as people write them", arguments: [
        ("-12.50", "-12.50", nil), ("(12.50)", "-12.50", nil), ("¥1,024.00", "1024.00", "CNY"), ("$5", "5", "USD"),
        ("12.50 EUR", "12.50", "EUR"), ("RMB 3", "3", "CNY"), ("€-0.5", "-0.5", "EUR"), ("1 234.5", "1234.5", nil),
        ("12元", "12", "CNY"), ("+7", "7", nil),
    ])
    func amounts(text: String, value: String, currency: String?) {
        guard case .some(let reading?) = AmountParser().parse(text) else {
            Issue.record("\(text) not read")
            return
        }
        #expect(reading.value.description == value)
        #expect(reading.currency == currency)
    }

    @Test("decimal comma, placeholders and refusals")
    func amountEdges() {
        #expect((AmountParser(decimalComma: true).parse("1.234,50") ?? nil)?.value.description == "1234.50")
        for empty in ["", "-", "/", "—"] {
            guard case .some(nil) = AmountParser().parse(empty) else {
                Issue.record("'\(empty)' should mean no amount")
                continue
            }
        }
        for bad in ["12.5.0", "abc", "1e3", "1,2.3.4", "12.50x"] { #expect(AmountParser().parse(bad) == nil, "\(bad)") }
    }
}
