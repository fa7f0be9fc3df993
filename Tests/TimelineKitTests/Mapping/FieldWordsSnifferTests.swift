import Testing

@testable import TimelineKit

/// The status, ids, title and category found by their headers' words (issue 50). Expected
/// choices by hand from the rules in `FieldWordsSniffer`'s documentation.
@Suite("field words sniffer")
struct FieldWordsSnifferTests {
    let sniffer = FieldWordsSniffer(statuses: StatusVocabulary())

    func fill(
        _ header: [String], _ rows: [[String]], named: [MappedField: String] = [:],
        explicit: Set<MappedField> = []
    ) -> [MappedField: String] {
        var sources = named.mapValues { FieldSource(columns: [$0]) }
        sniffer.fill(&sources, header: header, rows: rows, explicit: explicit)
        return sources.mapValues { $0.columns.joined(separator: "+") }
    }

    @Test("an order's number repeating over its items is the series; distinct, the id")
    func orderNumbers() {
        let header = [
            "Order ID", "Order Date", "Purchase Order Number", "Order Status", "Shipment Status",
            "Product Name",
        ]
        let items = [
            ["111-1", "2024-03-02", "Not Applicable", "Closed", "Shipped", "Cable"],
            ["111-2", "2024-03-05", "Not Applicable", "Closed", "Shipped", "Lamp"],
            ["111-2", "2024-03-05", "Not Applicable", "New", "Not Available", "Bulb"],
        ]
        let found = fill(header, items, named: [.start: "Order Date"])
        #expect(found[.series] == "Order ID" && found[.id] == nil)
        #expect(found[.status] == "Order Status")
        #expect(found[.title] == "Product Name")
        let orders = fill(header, Array(items.prefix(2)), named: [.start: "Order Date"])
        #expect(orders[.id] == "Order ID" && orders[.series] == nil)
    }

    @Test(
        "a name's id that repeats and is an order number becomes the series; an item's id keeps the id, the order the series"
    )
    func namedIDs() {
        let jd = fill(
            ["订单号", "下单时间", "订单状态"],
            [
                ["28-1", "2024-06-01 10:00", "完成"], ["28-2", "2024-06-02 10:00", "等待出库"],
                ["28-2", "2024-06-02 10:00", "等待出库"],
            ],
            named: [.start: "下单时间", .id: "订单号"])
        #expect(jd[.series] == "订单号" && jd[.id] == nil && jd[.status] == "订单状态")
        let ebay = fill(
            ["Order Number", "Sale Date", "Tracking Number", "Transaction ID"],
            [["12-1", "Jun-03-24", "9400", "1001"], ["12-2", "Jun-04-24", "9401", "1002"]],
            named: [.start: "Sale Date", .id: "Transaction ID", .series: "Tracking Number"])
        #expect(ebay[.id] == "Transaction ID" && ebay[.series] == "Order Number")
        // What the user named stays.
        let named = fill(
            ["Order Number", "Sale Date", "Tracking Number"], [["12-1", "Jun-03-24", "9400"]],
            named: [.start: "Sale Date", .series: "Tracking Number"], explicit: [.series])
        #expect(named[.series] == "Tracking Number")
    }

    @Test(
        "an activity's id, the first column's id, a thing's name as the title, a type as the category; a person's name and a US state are not"
    )
    func others() {
        let strava = fill(
            ["Activity ID", "Activity Date", "Activity Name", "Activity Type"],
            [["1165", "Jun 10, 2024, 5:12:03 AM", "Morning Run", "Run"]],
            named: [.start: "Activity Date"])
        #expect(
            strava[.id] == "Activity ID" && strava[.title] == "Activity Name"
                && strava[.category] == "Activity Type")
        let wise = fill(
            ["TransferWise ID", "Date Time", "Payee Name"],
            [["TRANSFER-1", "29-01-2024 16:02:46", "Pat"]], named: [.start: "Date Time"])
        #expect(wise[.id] == "TransferWise ID" && wise[.title] == nil)
        let usps = fill(
            ["eventType", "GMTTimestamp", "eventState", "eventCode"],
            [["Out for Delivery", "2024-06-15T11:10:52Z", "NY", "OF"]],
            named: [.start: "GMTTimestamp"])
        #expect(usps[.status] == nil && usps[.category] == "eventType" && usps[.id] == nil)
    }
}
