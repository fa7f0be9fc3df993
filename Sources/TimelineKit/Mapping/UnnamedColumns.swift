/// The amount and the title of a table whose columns have no names (a file with no header
/// line, or `--no-header`), from their values alone: the amount is the leftmost column of
/// amounts written with decimals (a running balance comes after it in every statement we
/// know), the title the column with the most letters.
struct UnnamedColumns {
    let amounts: AmountColumnSniffer

    func fill(
        _ sources: inout [MappedField: FieldSource], header: [String], rows: [[String]],
        explicit: Set<MappedField>
    ) {
        var used = Set(sources.values.flatMap(\.columns))
        func values(_ index: Int) -> [String] {
            Placeholder.filled(Array(rows.prefix(TimeColumnSniffer.sampleSize)), column: index)
        }
        let open = header.indices.filter { !used.contains(header[$0]) && !values($0).isEmpty }
        let money: [MappedField] = [.amount, .debit, .credit]
        if !money.contains(where: { sources[$0] != nil || explicit.contains($0) }),
            let index = open.first(where: { index in
                let all = values(index)
                return all.allSatisfy(amounts.isAmount)
                    && all.filter(Self.hasDecimals).count * 5 >= all.count * 4
            })
        {
            sources[.amount] = FieldSource(columns: [header[index]])
            used.insert(header[index])
        }
        if sources[.title] == nil, !explicit.contains(.title) {
            let scored = open.filter { !used.contains(header[$0]) }.map { index in
                let all = values(index)
                return (
                    letters: all.reduce(0) {
                        $0 + $1.unicodeScalars.filter(\.properties.isAlphabetic).count
                    } / all.count, index: index
                )
            }
            if let best = scored.max(by: { ($0.letters, -$0.index) < ($1.letters, -$1.index) }),
                best.letters >= 3
            {
                sources[.title] = FieldSource(columns: [header[best.index]])
            }
        }
    }

    /// `-4.80`, `2.950,00`: digits after a decimal mark at the end.
    static func hasDecimals(_ value: String) -> Bool {
        let digits = value.reversed().prefix { $0.isNumber }.count
        guard digits > 0, digits < value.count else { return false }
        let mark = value[value.index(value.endIndex, offsetBy: -digits - 1)]
        return mark == "." || mark == ","
    }
}
