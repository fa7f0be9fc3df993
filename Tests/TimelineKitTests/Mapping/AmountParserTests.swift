import Testing

@testable import TimelineKit

/// Expected values written by hand from the texts.
@Suite("Amounts")
struct AmountParserTests {
    @Test(
        "amounts as people write them",
        arguments: [
            ("-12.50", "-12.50", nil), ("(12.50)", "-12.50", nil), ("¥1,024.00", "1024.00", "CNY"),
            ("$5", "5", "USD"),
            ("12.50 EUR", "12.50", "EUR"), ("RMB 3", "3", "CNY"), ("€-0.5", "-0.5", "EUR"),
            ("1 234.5", "1234.5", nil),
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
        #expect(
            (AmountParser(decimalMark: .comma).parse("1.234,50") ?? nil)?.value.description
                == "1234.50")
        for empty in ["", "-", "/", "—"] {
            guard case .some(nil) = AmountParser().parse(empty) else {
                Issue.record("'\(empty)' should mean no amount")
                continue
            }
        }
        for bad in ["12.5.0", "abc", "1e3", "1,2.3.4", "12.50x"] {
            #expect(AmountParser().parse(bad) == nil, "\(bad)")
        }
    }

    /// Expected by hand: what each value's separators show, and how it reads.
    @Test(
        "a value's separators decide its mark; groups of three (or Indian twos) only; one before three digits is either"
    )
    func marks() {
        func read(_ text: String, _ mark: DecimalMark? = nil) -> String? {
            (AmountParser(decimalMark: mark).parse(text) ?? nil)?.value.description
        }
        #expect(read("-26,99") == "-26.99")
        #expect(read("2950,00") == "2950.00")
        #expect(read("-4,8") == "-4.8")
        #expect(read("1.234,56") == "1234.56")
        #expect(read("1,234.56") == "1234.56")
        #expect(read("1.234.567") == "1234567")
        #expect(read("1,23,456.78") == "123456.78")
        #expect(read("1 234,50 €") == "1234.50")
        #expect(read("1'234.50") == "1234.50")
        #expect(read("26,99-") == "-26.99")
        #expect(read("0,450") == "0.450")
        // One separator before three digits could be either: refused unless a mark is named.
        #expect(read("-1.450") == nil && read("1,234") == nil)
        #expect(AmountParser().isAmbiguous("-1.450"))
        #expect(read("-1.450", .comma) == "-1450" && read("-1.450", .point) == "-1.450")
        // Under a named mark, a value written with the other is refused, never misread.
        #expect(
            read("-26,99", .point) == nil && read("2950,00", .point) == nil
                && read("12.50", .comma) == nil)
        #expect(read("1,2345.6", .point) == nil && read("12,34,5.6", .point) == nil)
    }

    @Test(
        "a column's values decide its mark; both marks in one column are refused; yen and won group"
    )
    func columns() {
        #expect(DecimalMarkChoice(values: ["-26,99", "-1.450", "2.950"]) == .decided(.comma))
        #expect(DecimalMarkChoice(values: ["1,500", "12.50"]) == .decided(.point))
        #expect(
            DecimalMarkChoice(values: ["1.234,56", "1,234.56"])
                == .mixed(point: "1,234.56", comma: "1.234,56"))
        #expect(DecimalMarkChoice(values: ["1.450", "12", ""]) == .open)
        #expect(
            DecimalMarkChoice.open.settled(
                others: [.decided(.comma)], wholeCurrency: false, sample: ["1.450"])
                == .decided(.comma))
        #expect(
            DecimalMarkChoice.open.settled(others: [], wholeCurrency: true, sample: ["12,000"])
                == .decided(.point))
        #expect(
            DecimalMarkChoice.open.settled(others: [], wholeCurrency: false, sample: ["12,000"])
                == .open)
    }

    /// Random amounts written in every notation the parser reads: read back exactly with
    /// their mark named, and exactly or not at all when each value must show its own — and
    /// through a column's inferred mark, exactly or refused. Never a different number.
    @Test(
        "random amounts in every notation: read back exactly or refused, never a different number",
        arguments: [1, 2, 3, 4])
    func roundTrip(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        for _ in 0..<2_000 {
            let integer =
                UInt64.random(in: 0...9_999_999_999, using: &rng)
                >> UInt64.random(in: 0...33, using: &rng)
            let decimals = Int.random(in: 0...3, using: &rng)
            let fraction = (0..<decimals).map { _ in String(Int.random(in: 0...9, using: &rng)) }
                .joined()
            let negative = Bool.random(using: &rng)
            let mark = Bool.random(using: &rng) ? DecimalMark.point : .comma
            let digits = String(integer)
            // Groups of three, Indian twos (with a point), a space or an apostrophe, or none.
            var grouped = digits
            switch Int.random(in: 0...4, using: &rng) {
            case 0: break
            case 1, 2:
                let separator = mark == .point ? "," : "."
                grouped = Self.grouped(
                    digits, by: separator, indian: mark == .point && Bool.random(using: &rng))
            case 3: grouped = Self.grouped(digits, by: " ", indian: false)
            default: grouped = Self.grouped(digits, by: "'", indian: false)
            }
            var text = grouped + (decimals > 0 ? (mark == .point ? "." : ",") + fraction : "")
            switch Int.random(in: 0...4, using: &rng) {
            case 0: text = (negative ? "-" : "") + text
            case 1: text = negative ? "(\(text))" : "+" + text
            case 2: text = (negative ? "−" : "") + "€" + text
            case 3: text = (negative ? "-" : "") + text + " EUR"
            default: text = negative ? text + "-" : text
            }
            let expected = DecimalNumber(
                (negative && (integer > 0 || fraction.contains { $0 != "0" }) ? "-" : "") + digits
                    + (decimals > 0 ? "." + fraction : ""))!
            let named = AmountParser(decimalMark: mark).parse(text) ?? nil
            #expect(named?.value == expected, "\(text) with a decimal \(mark)")
            if let own = AmountParser().parse(text) ?? nil {
                #expect(own.value == expected, "\(text) read by what it shows")
            }
            if case .decided(let inferred) = DecimalMarkChoice(values: [text]),
                let read = AmountParser(decimalMark: inferred).parse(text) ?? nil
            {
                #expect(read.value == expected, "\(text) through its column's mark")
            }
        }
    }

    static func grouped(_ digits: String, by separator: String, indian: Bool) -> String {
        var groups: [String] = []
        var rest = Substring(digits)
        var size = 3
        while rest.count > size {
            groups.insert(String(rest.suffix(size)), at: 0)
            rest = rest.dropLast(size)
            if indian { size = 2 }
        }
        groups.insert(String(rest), at: 0)
        return groups.joined(separator: separator)
    }
}
