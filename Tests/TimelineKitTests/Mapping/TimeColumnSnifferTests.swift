import Testing

@testable import TimelineKit

/// The start column found by its values (issue 50). Expected choices by hand from the rules
/// in `TimeColumnSniffer`'s documentation.
@Suite("time column sniffer")
struct TimeColumnSnifferTests {
    let sniffer = TimeColumnSniffer(parser: DateParser(options: DateParsingOptions()))

    @Test("header words: a start, a creation, a time, nothing; camelCase and CJK")
    func headerWords() {
        #expect(HeaderWords.rank("Started Date") == HeaderWords.start)
        #expect(HeaderWords.rank("startDate") == HeaderWords.start)
        #expect(HeaderWords.rank("creationDate") == HeaderWords.creation)
        #expect(HeaderWords.rank("Order Date") == HeaderWords.creation)
        #expect(HeaderWords.rank("订单创建时间") == HeaderWords.creation)
        #expect(HeaderWords.rank("Completed Date") == HeaderWords.time)
        #expect(HeaderWords.rank("付款时间") == HeaderWords.time)
        #expect(HeaderWords.rank("Order ID") == HeaderWords.none)
        #expect(HeaderWords.rank("Amount") == HeaderWords.none)
        #expect(
            HeaderWords.namesEnd("endDate") && HeaderWords.namesEnd("结束时间")
                && !HeaderWords.namesEnd("Sale Date"))
    }

    @Test(
        "a creation column before the leftmost time column; bare digits need a time word; placeholders left out"
    )
    func creationFirst() throws {
        let header = ["Order ID", "Ship Date", "Order Date", "Total"]
        let rows = [
            ["112233445566778899", "Not Available", "2024-06-12T08:00:00Z", "12.50"],
            ["112233445566778900", "2024-06-14T09:00:00Z", "2024-06-13T08:00:00Z", "3.00"],
        ]
        let choice = try #require(sniffer.choose(header: header, rows: rows, used: []))
        #expect(choice.start.columns == ["Order Date"])
        #expect(choice.others == ["Ship Date"])
    }

    @Test("a start, an end and the record's creation from Apple Health's columns")
    func startEndRecorded() throws {
        let header = ["sourceName", "creationDate", "startDate", "endDate"]
        let rows = [
            [
                "Watch", "2024-06-10 07:02:11 +0200", "2024-06-10 06:20:03 +0200",
                "2024-06-10 07:01:48 +0200",
            ]
        ]
        let choice = try #require(sniffer.choose(header: header, rows: rows, used: []))
        #expect(choice.start.columns == ["startDate"])
        #expect(choice.end == "endDate" && choice.recorded == "creationDate")
    }

    @Test("dates and times of day in two columns are one start")
    func dateAndTime() throws {
        let choice = try #require(
            sniffer.choose(
                header: ["Date", "Time", "Name"],
                rows: [["12/06/2024", "15:15:22", "x"], ["13/06/2024", "9:05", "y"]], used: []))
        #expect(choice.start.columns == ["Date", "Time"])
    }

    @Test(
        "a start found by name stays, unless it is empty or holds dates alone beside the same moments with times"
    )
    func namedStart() throws {
        let wise = ["Date", "Date Time", "Amount"]
        let rows = [["29-01-2024", "29-01-2024 16:02:46.004", "-350.00"]]
        #expect(
            try #require(
                sniffer.choose(
                    header: wise, rows: rows, used: [], named: FieldSource(columns: ["Date"]))
            ).start.columns == ["Date Time"])
        let strava = ["Activity Date", "Start Time"]
        let empty = [["Jun 12, 2024, 4:15:22 AM", ""]]
        #expect(
            try #require(
                sniffer.choose(
                    header: strava, rows: empty, used: [],
                    named: FieldSource(columns: ["Start Time"]))
            ).start.columns == [
                "Activity Date"
            ])
        let plain = [["2024-06-12T08:00:00Z", "2024-06-12T09:00:00Z"]]
        #expect(
            sniffer.choose(
                header: ["time", "Paid at"], rows: plain, used: [],
                named: FieldSource(columns: ["time"])) == nil)
    }

    @Test("no time column, no choice; a column of order numbers is not a time")
    func noTimes() {
        #expect(
            sniffer.choose(
                header: ["Order Number", "Name"],
                rows: [["1718000000", "a"], ["1718003600", "b"]], used: []) == nil)
    }

    @Test("placeholders, and offsets a zone column may hold")
    func placeholdersAndOffsets() {
        for text in ["Not Available", "N/A", "null", "-", "—", "0000-00-00", " none "] {
            #expect(Placeholder.isPlaceholder(text), "\(text)")
        }
        for text in ["0", "Available", "2024-06-12", "n/a/b"] {
            #expect(!Placeholder.isPlaceholder(text), "\(text)")
        }
        #expect(ColumnZone.offset("-06:00") == "UTC-06:00")
        #expect(ColumnZone.offset("+0800") == "UTC+08:00")
        #expect(ColumnZone.offset("+08") == "UTC+08:00")
        #expect(ColumnZone.offset("UTC+8") == "UTC+08:00")
        #expect(ColumnZone.offset("GMT-05:00") == "UTC-05:00")
        #expect(ColumnZone.offset("Asia/Shanghai") == nil)
    }
}
