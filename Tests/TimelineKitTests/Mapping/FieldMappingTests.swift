import Foundation
import Testing

@testable import TimelineKit

/// The defaults for the headers real exports write; expected values by hand.
@Suite("Field mapping: headers of real exports")
struct FieldMappingTests {
    static func read(_ text: String, configure: (inout ReadOptions) -> Void = { _ in }) throws
        -> ReadResult
    {
        var options = ReadOptions()
        options.format = .named("csv")
        configure(&options)
        return try Timeline.read(.string(text, name: "export.csv"), options: options)
    }

    @Test(
        "a zone named in a header applies to the column's naive values",
        arguments: [
            ("Created (UTC)", "2024-06-12 15:04:05", "2024-06-12T15:04:05Z", "UTC"),
            ("Time (GMT+8)", "2024-06-12 15:04:05", "2024-06-12T15:04:05+08:00", "GMT+0800"),
            ("Date (UTC+05:30)", "2024-06-12 15:04:05", "2024-06-12T15:04:05+05:30", "GMT+0530"),
            ("时间（北京时间）", "2024-06-12 15:04:05", "2024-06-12T15:04:05+08:00", "Asia/Shanghai"),
        ])
    func headerZones(header: String, value: String, expected: String, zone: String) throws {
        let r = try Self.read("\(header),title\n\(value),x\n")
        let start = try #require(r.events.first?.start)
        #expect(start.rfc3339 == expected)
        #expect(start.basis == .zone && start.zone == zone)
        // A value with its own offset keeps it.
        let own = try Self.read("\(header),title\n2024-06-12T15:04:05-04:00,x\n")
        #expect(own.events.first?.start.rfc3339 == "2024-06-12T15:04:05-04:00")
    }

    @Test("a bracket that names no zone leaves the column naive; matching uses the name before it")
    func bracketWithoutZone() throws {
        let r = try Self.read("Time (local),Amount (CNY),title\n2024-06-12 15:04:05,12.00,x\n") {
            $0.dates.assumedZone = .utc
        }
        #expect(r.events.first?.start.basis == .assumed)
        #expect(r.events.first?.amount?.value.description == "12.00")
    }

    @Test(
        "date and time columns are one start; a zone column with an exporter's abbreviation places it"
    )
    func dateAndTime() throws {
        let paypal = """
            Date,Time,TimeZone,Name,Gross,Fee,Net,Transaction ID
            06/12/2024,08:15:30,PDT,Coffee Shop,-4.50,0.00,-4.50,1AB23456CD7890123
            12/01/2024,23:59:00,PST,Book Store,-20.00,0.00,-20.00,9ZY87654XW3210987

            """
        let r = try Self.read(paypal) { $0.dates.fieldOrder = .monthFirst }
        #expect(
            r.events.map(\.start.rfc3339) == [
                "2024-06-12T08:15:30-07:00", "2024-12-01T23:59:00-08:00",
            ])
        #expect(r.events.map { $0.amount?.value.description } == ["-4.50", "-20.00"])
        #expect(r.events.map(\.id) == ["1AB23456CD7890123", "9ZY87654XW3210987"])
        #expect(r.events[0].attributes == ["Fee": "0.00", "Net": "-4.50"])
    }

    @Test(
        "paid-out and paid-in columns are one signed amount",
        arguments: [
            (
                "Date,Description,Paid out,Paid in\n12/06/2024,TESCO,12.50,\n13/06/2024,SALARY,,2000.00\n",
                ["-12.50", "2000.00"]
            ),
            (
                "日期,摘要,支出金额,收入金额\n2024-06-12,消费,35.50,\n2024-06-13,工资,,8000.00\n",
                ["-35.50", "8000.00"]
            ),
            (
                "Date,Memo,Debit,Credit\n2024-06-12,Fee,-1.00,\n2024-06-13,Refund,,5.00\n",
                ["-1.00", "5.00"]
            ),
            ("Date,Memo,Withdrawals,Deposits\n2024-06-12,ATM,100.00,20.00\n", ["-80.00"]),
        ])
    func debitCredit(text: String, amounts: [String]) throws {
        let r = try Self.read(text)
        #expect(r.rejects.isEmpty)
        #expect(r.events.map { $0.amount?.value.description } == amounts)
    }

    @Test("header names match with spaces, hyphens or underscores alike")
    func keys() throws {
        #expect(FieldMapping.key(" Transaction ID ") == "transaction_id")
        #expect(FieldMapping.key("Created-At") == "created_at")
        let r = try Self.read("Created at,Order ID,Name\n2024-06-12T08:00:00Z,1001,x\n")
        #expect(r.events.first?.series == "1001")
    }
}

@Suite("default header names: documented")
struct DefaultNamesDocumentedTests {
    @Test("docs/mapping.md's table lists exactly the default header names, field by field")
    func documented() throws {
        let header = "| field | header names, most specific first |"
        #expect(
            try documentedKeys(in: "mapping.md", after: header)
                == FieldMapping.defaults.map(\.0.rawValue))
        for (field, names) in FieldMapping.defaults {
            let listed = try documentedWords(field.rawValue, in: "mapping.md", after: header)
            #expect(listed == names, "docs/mapping.md's row for \(field.rawValue)")
        }
    }

    @Test(
        "payer and payee: the other party is the title, by the amount's sign; the account holder is kept"
    )
    func parties() throws {
        let r = try FieldMappingTests.read(
            """
            Buchungsdatum;Zahlungspflichtige*r;Zahlungsempfänger*in;Betrag (€)
            2024-06-29;Jana Körner;Bäckerei Sonnenschein;-4,80
            2024-06-27;Möbelwerk Kranich KG;Jana Körner;2.950,00

            """
        ) { $0.dates.assumedZone = try? ZoneResolver().resolve("Europe/Berlin") }
        #expect(r.events.map(\.title) == ["Bäckerei Sonnenschein", "Möbelwerk Kranich KG"])
        #expect(
            r.events.map {
                $0.attributes["Zahlungspflichtige*r"] ?? $0.attributes["Zahlungsempfänger*in"]
            } == ["Jana Körner", "Jana Körner"])
        // The currency the amount's header names.
        #expect(r.events.map { $0.amount?.currency } == ["EUR", "EUR"])
        #expect(r.events.map { $0.amount?.value.description } == ["-4.80", "2950.00"])
    }

    @Test("a title column of a carrier's sentences gives the status when every one is known")
    func statusFromSentences() throws {
        let r = try FieldMappingTests.read(
            """
            data,descricao,tipo
            2024-06-14T11:02:37Z,Objeto entregue ao destinatário,BDE
            2024-06-14T08:19:05Z,Objeto saiu para entrega ao destinatário,OEC
            2024-06-10T09:41:12Z,Objeto postado,PO

            """)
        #expect(r.events.map(\.status) == [.completed, .processing, .processing])
        #expect(r.events.first?.title == "Objeto entregue ao destinatário")
        #expect(r.events.first?.attributes["descricao"] == nil)
    }
}
