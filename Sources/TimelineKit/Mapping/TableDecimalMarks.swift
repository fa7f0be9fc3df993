/// The decimal mark of each money column of a table (the amount, the debit, the credit),
/// decided from its sampled values before any record is read when no `--decimal-comma` or
/// `--decimal-point` names one (`DecimalMarkChoice`). The other columns whose headers name
/// money (a balance, a fee) and the currency settle a column its own values leave open.
struct TableDecimalMarks {
    /// The marks decided, by field.
    var marks: [MappedField: DecimalMark] = [:]
    /// What to tell the user: a decimal comma found, or a column left open.
    var notes: [String] = []

    /// Money columns a header's words name besides the mapped ones (`Saldo`, `Balance`, `Fee`).
    static let moneyWords =
        AmountColumnSniffer.amountWords + AmountColumnSniffer.totalWords
        + AmountColumnSniffer.paidWords + [
            "balance", "fee", "fees", "saldo", "solde", "kontostand", "残高", "잔액", "余额", "gebühr",
            "frais", "comisión", "commissione",
        ]

    /// The marks of the money fields of `sources` in `header`, from `rows`. Throws when a
    /// column writes both marks. `spreadsheet`: a workbook's cells, whose numbers the reader
    /// writes with a point: a column they leave open is read with one.
    init(
        header: [String], rows: [[String]], sources: [MappedField: FieldSource], spreadsheet: Bool,
        file: String, line: Int?
    ) throws(TimelineError) {
        func values(_ column: String) -> [String] {
            guard let index = header.firstIndex(of: column) else { return [] }
            return rows.compactMap { index < $0.count ? $0[index] : nil }
        }
        let fields = [MappedField.amount, .debit, .credit].filter {
            sources[$0]?.columns.count == 1
        }
        let mapped = Set(fields.compactMap { sources[$0]?.columns[0] })
        let others = header.filter {
            !mapped.contains($0) && HeaderWords.names(Self.moneyWords, in: $0)
        }.map {
            DecimalMarkChoice(values: values($0))
        }
        let own = fields.map { DecimalMarkChoice(values: values(sources[$0]!.columns[0])) }
        let whole = Self.wholeCurrency(
            header: header, currency: sources[.currency].map { values($0.columns[0]) } ?? [],
            amounts: fields.flatMap { values(sources[$0]!.columns[0]) })
        for (field, choice) in zip(fields, own) {
            let column = sources[field]!.columns[0]
            let sample = values(column)
            switch choice.settled(others: own + others, wholeCurrency: whole, sample: sample) {
            case .decided(let mark):
                marks[field] = mark
                if mark == .comma,
                    let example = sample.first(where: { AmountParser.evidence($0) == .comma })
                {
                    notes.append(
                        "the amounts in '\(column)' have a decimal comma (as in '\(example)'); \(.decimalPoint) says otherwise"
                    )
                }
            case .mixed(let point, let comma):
                throw TimelineError(
                    .data,
                    "the amounts in '\(column)' are written with a decimal point ('\(point)') and with a decimal comma ('\(comma)'): pass \(.decimalPoint) or \(.decimalComma) to say which",
                    at: SourceLocation(file: file, line: line))
            case .open:
                if spreadsheet {
                    marks[field] = .point
                } else if let example = sample.first(where: { AmountParser.evidence($0) == .either }
                ) {
                    notes.append(
                        "the amounts in '\(column)' do not show their decimal mark ('\(example)' is \(Self.readings(example))): such values are rejected; pass \(.decimalComma) or \(.decimalPoint)"
                    )
                }
            }
        }
    }

    /// `1.450` read both ways, for a message.
    static func readings(_ text: String) -> String {
        let comma = (AmountParser(decimalMark: .comma).parse(text) ?? nil)?.value.description ?? "?"
        let point = (AmountParser(decimalMark: .point).parse(text) ?? nil)?.value.description ?? "?"
        return "\(comma) with a decimal comma, \(point) with a decimal point"
    }

    /// Whether the amounts are in a currency with no minor unit: a currency column or the
    /// amounts say yen or won, or the header is Japanese (kana) or Korean (hangul).
    static func wholeCurrency(header: [String], currency: [String], amounts: [String]) -> Bool {
        if currency.contains(where: {
            AmountParser.wholeCurrencies.contains($0.trimmingSpaces.uppercased())
        }) {
            return true
        }
        if amounts.contains(where: {
            $0.contains("円") || $0.contains("원") || $0.contains("₩")
                || $0.uppercased().contains("JPY") || $0.uppercased().contains("KRW")
        }) {
            return true
        }
        return header.contains { name in
            name.unicodeScalars.contains {
                (0x3040...0x30FF).contains($0.value) || (0xAC00...0xD7A3).contains($0.value)
            }
        }
    }
}
