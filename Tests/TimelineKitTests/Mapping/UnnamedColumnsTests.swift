import Testing

@testable import TimelineKit

/// Roles of columns with no names, from their values (issue 51: Sabadell's text download).
/// Expected by hand.
@Suite("unnamed columns")
struct UnnamedColumnsTests {
    let unnamed = UnnamedColumns(amounts: AmountColumnSniffer(parser: AmountParser()))
    let rows = [
        [
            "28/06/2024", "COMPRA TARJ. 5402XXXXXXXX4410 PANADERIA", "29/06/2024", "-4.80",
            "2417.33", "", "5402000000004410",
        ],
        [
            "27/06/2024", "ABONO TRANSFERENCIA DE TALLERES ORIHUELA", "27/06/2024", "2950.00",
            "2422.13", "", "TALLERES ORIHUEL",
        ],
        [
            "14/06/2024", "ADEUDO RECIBO COMUNIDAD PROPIETARIOS", "14/06/2024", "-26.99", "-527.87",
            "B40112233000", "R240614000019",
        ],
    ]

    @Test(
        "the amount is the leftmost column of decimals (the balance after it); the title has the most letters"
    )
    func roles() {
        let header = (1...7).map(String.init)
        var sources: [MappedField: FieldSource] = [.start: FieldSource(columns: ["1"])]
        unnamed.fill(&sources, header: header, rows: rows, explicit: [])
        #expect(sources[.amount]?.columns == ["4"])
        #expect(sources[.title]?.columns == ["2"])
    }

    @Test("a field a flag named is kept")
    func explicit() {
        var sources: [MappedField: FieldSource] = [
            .start: FieldSource(columns: ["1"]), .amount: FieldSource(columns: ["5"]),
        ]
        unnamed.fill(&sources, header: (1...7).map(String.init), rows: rows, explicit: [.amount])
        #expect(sources[.amount]?.columns == ["5"])
    }

    @Test(
        "decimals at the end",
        arguments: [
            ("-4.80", true), ("2.950,00", true), ("2950", false), ("4.8", true),
            ("B40112233000", false), (".", false),
        ])
    func decimals(_ value: String, _ has: Bool) {
        #expect(UnnamedColumns.hasDecimals(value) == has)
    }
}
