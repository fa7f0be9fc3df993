import Testing

@testable import TimelineKit

/// A key set's plan, and the texts a record reads through it; expected values by hand.
@Suite("JSON row plan")
struct JSONRowPlanTests {
    static let row = JSONRow(
        pairs: [
            ("when", .string("2024-06-12T08:00:00Z")), ("title", .string(" Paid ")),
            ("note", .string("first")),
            ("customer", .object([("name", .string("Li"))])), ("note", .string("again")),
            ("empty", .string("")), ("gone", .null),
        ],
        siblings: [
            ("tracking", .string("SF123")), ("title", .string("the document's")),
            ("carrier", .number("7")),
        ])

    static let sources: [MappedField: FieldSource] = [
        .start: FieldSource(columns: ["when"]),
        .title: FieldSource(columns: ["title"]),
        .location: FieldSource(columns: ["customer.name"]),
        .id: FieldSource(columns: ["tracking"]),
        .detail: FieldSource(columns: ["carrier", "missing", "title"]),
        .category: FieldSource(columns: ["nowhere"]),
    ]

    static func plan(_ row: JSONRow = row) -> JSONRowPlan {
        JSONRowPlan(
            pairs: row.pairs.map(\.0), siblings: row.siblings.map(\.0), sources: sources, events: []
        )
    }

    @Test(
        "a column is the record's first key of its name, else a path into the record, else the document's field"
    )
    func places() {
        let texts = Self.plan().texts(Self.row)
        #expect(texts[.start] == "2024-06-12T08:00:00Z")
        #expect(texts[.title] == "Paid")  // the record's title, trimmed, not the sibling's
        #expect(texts[.location] == "Li")
        #expect(texts[.id] == "SF123")
        #expect(texts[.detail] == "7 Paid")
        #expect(texts[.category] == nil)
        #expect(texts[.amount] == nil)
    }

    @Test(
        "unmapped fields: the document's first, then the record's, a repeated key each time, empty and null ones left out"
    )
    func unmapped() {
        let texts = Self.plan().texts(Self.row)
        #expect(texts.attributes.map(\.0) == ["note", "customer", "note"])
        #expect(texts.attributes.map(\.1) == ["first", #"{"name":"Li"}"#, "again"])
    }

    @Test(
        "a refilled texts overwrites every slot its plan maps and keeps no attribute of the record before"
    )
    func refilled() {
        let plan = Self.plan()
        var texts = FieldTexts()
        plan.fill(&texts, from: Self.row)
        let other = JSONRow(
            pairs: [
                ("when", .string("2024-06-13T08:00:00Z")), ("title", .null), ("note", .string("x")),
                ("customer", .string("flat")),
                ("note", .string("")), ("empty", .string("")), ("gone", .null),
            ],
            siblings: [("tracking", .string("SF124")), ("title", .string("t")), ("carrier", .null)])
        // The same key set: the same plan serves it.
        plan.fill(&texts, from: other)
        #expect(texts[.start] == "2024-06-13T08:00:00Z")
        #expect(texts[.title] == nil)
        #expect(texts[.location] == nil)  // "customer" is not an object this time
        #expect(texts[.id] == "SF124")
        #expect(texts[.detail] == nil)
        #expect(texts.attributes.map(\.0) == ["note", "customer"])
        #expect(texts.attributes.map(\.1) == ["x", "flat"])
    }

    @Test(
        "a flat record's fields, left where they lie, read as the tree's",
        arguments: [
            #"{"when":"2024-06-12T08:00:00Z","title":" Paid ","amount":-12.50,"name":"Zoë","ok":true,"note":"first","empty":"","gone":null,"guard":"'0123"}"#,
            #"{"when":"2024-06-13 09:00","title":"","amount":"¥1,024.00","name":null,"ok":"shipped","note":"x y","empty":"z","gone":"here","guard":" 12 "}"#,
        ])
    func flatInPlace(line: String) throws {
        // The oracle is the tree's reading (`JSONRow`, whose places and texts are checked by
        // hand above), through the same plan.
        let bytes = Array(line.utf8)
        guard case .object(let pairs) = try JSONParser.parseComplete(bytes, what: "a record")
        else { throw JSONError.notAnObject }
        let row = JSONRow(pairs: pairs, siblings: [])
        var flat = JSONFlatObject()
        let read = flat.read(bytes)
        #expect(read)
        let sources: [MappedField: FieldSource] = [
            .start: FieldSource(columns: ["when"]), .title: FieldSource(columns: ["title"]),
            .amount: FieldSource(columns: ["amount"]), .location: FieldSource(columns: ["name"]),
            .status: FieldSource(columns: ["ok"]), .detail: FieldSource(columns: ["note"]),
            .category: FieldSource(columns: ["guard"]),
        ]
        let plan = JSONRowPlan(
            pairs: pairs.map(\.0), siblings: [], sources: sources, events: [])
        var inPlace = FieldTexts()
        plan.fill(&inPlace, from: flat)
        let tree = plan.texts(row)
        for field in MappedField.allCases {
            #expect(inPlace[field] == tree[field], "\(field)")
            #expect(inPlace.has(field) == (tree[field] != nil), "\(field)")
        }
        #expect(inPlace.attributes.map(\.0) == tree.attributes.map(\.0))
        #expect(inPlace.attributes.map(\.1) == tree.attributes.map(\.1))
    }

    enum JSONError: Error { case notAnObject }
}
