/// The cell texts of one sheet of an XLSX workbook (Office Open XML SpreadsheetML, ECMA-376
/// Part 1 §18): shared strings, inline strings, numbers as written, booleans, and numbers
/// whose cell style is a date or time format as ISO 8601 text, read under the workbook's
/// 1900 or 1904 date system.
///
/// Nothing the file says about sizes is trusted: its parts expand within a budget (the
/// run's memory), row numbers and columns stay within Excel's grid, and the text its rows
/// yield (a shared string may be referred to by every cell) stays within the same budget.
struct Workbook {
    struct Failure: Error, Sendable {
        let message: String
        /// The workbook is well formed but larger than the budget allows.
        var tooLarge = false
    }

    /// A sheet row: its 1-based row number and its cells' texts from column A, empty where
    /// the sheet has no cell, up to its last cell.
    struct Row {
        var number: Int
        var cells: [String]
    }

    /// Excel's grid: 1,048,576 rows of 16,384 columns (A–XFD).
    static let maxRows = 1 << 20
    static let maxColumns = 1 << 14

    /// The sheets' names, in workbook order.
    let sheetNames: [String]
    private let archive: ZipArchive
    private var budget: ZipArchive.ExpansionBudget
    private let sheetPaths: [String]
    private let sharedStrings: [String]
    /// For each cell style (`s`), whether its number format shows a date, a time or both.
    private let styleKinds: [SerialKind]
    /// For each cell style, how many decimals its number format shows (`0.00`: 2), so that a
    /// number reads as the sheet shows it (`18.50`, as the CSV of the same bill writes it).
    private let styleDecimals: [Int]
    private let uses1904: Bool
    /// How many bytes of cell text the rows may yield.
    private let textBudget: Int

    /// - Parameter memory: how many bytes the parts read may expand to, together; the rows
    ///   may yield as many bytes of text.
    init(_ bytes: [UInt8], memory: Int = 256 << 20) throws(Failure) {
        do throws(ZipArchive.ZipError) {
            archive = try ZipArchive(bytes)
        } catch {
            throw Failure(message: error.message)
        }
        budget = ZipArchive.ExpansionBudget(bytes: memory)
        textBudget = memory
        guard let workbookXML = try Self.part(archive, "xl/workbook.xml", &budget) else {
            throw Failure(
                message: "not an XLSX workbook (no xl/workbook.xml; .xls and .ods are not read)")
        }
        var names: [String] = []
        var ids: [String] = []
        var date1904 = false
        var scanner = XMLScanner(workbookXML)
        while let token = try Self.scan(&scanner) {
            guard case .start(let name, let attributes, _) = token else { continue }
            if name == "workbookPr", let value = attributes["date1904"] {
                date1904 = value == "1" || value == "true"
            }
            if name == "sheet", let sheet = attributes["name"], let id = attributes["id"] {
                names.append(sheet)
                ids.append(id)
            }
        }
        var targets: [String: String] = [:]
        if let rels = try Self.part(archive, "xl/_rels/workbook.xml.rels", &budget) {
            var relsScanner = XMLScanner(rels)
            while let token = try Self.scan(&relsScanner) {
                if case .start("Relationship", let attributes, _) = token,
                    let id = attributes["Id"], let target = attributes["Target"]
                {
                    targets[id] =
                        target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
                }
            }
        }
        sheetNames = names
        sheetPaths = ids.enumerated().map { targets[$1] ?? "xl/worksheets/sheet\($0 + 1).xml" }
        uses1904 = date1904
        sharedStrings = try Self.sharedStrings(archive, &budget)
        (styleKinds, styleDecimals) = try Self.styleFormats(archive, &budget)
    }

    /// The rows of the sheet called `name` (nil: the first sheet), read one at a time.
    consuming func rows(sheet name: String?) throws(Failure) -> SheetRows {
        let index: Int
        if let name {
            guard let i = sheetNames.firstIndex(of: name) else {
                throw Failure(
                    message:
                        "no sheet '\(name)'; the sheets are \(sheetNames.map { "'\($0)'" }.joined(separator: ", "))"
                )
            }
            index = i
        } else {
            guard !sheetNames.isEmpty else { throw Failure(message: "the workbook has no sheet") }
            index = 0
        }
        guard let xml = try Self.part(archive, sheetPaths[index], &budget) else {
            throw Failure(message: "the sheet '\(sheetNames[index])' is missing from the file")
        }
        return SheetRows(xml: xml, workbook: self)
    }

    /// The rows of one sheet, in order: only SpreadsheetML's `row` elements of the sheet's
    /// `sheetData` and their `c` cells, as Excel shows them (an extension's markup, in
    /// `extLst` or elsewhere, holds no rows of the sheet).
    struct SheetRows {
        private var scanner: XMLScanner
        private let workbook: Workbook
        private var textLeft: Int
        private var lastRow = 0
        /// How deep the scanner is in the sheet's elements (the root `worksheet` is 1).
        private var depth = 0
        private var inSheetData = false

        fileprivate init(xml: [UInt8], workbook: Workbook) {
            scanner = XMLScanner(xml)
            self.workbook = workbook
            textLeft = workbook.textBudget
        }

        /// The next row, or nil after the last.
        mutating func next() throws(Failure) -> Row? {
            var number: Int?
            var cells: [String] = []
            var cell: (column: Int, type: String, style: Int)?
            var value = ""
            var inValue = false
            var inInline = false
            var inPhonetic = false
            var nextColumn = 0
            while let token = try Workbook.scan(&scanner) {
                var opened = false
                switch token {
                case .start(let name, _, let selfClosing):
                    if !selfClosing {
                        depth += 1
                        opened = true
                    }
                    if depth == 2 && opened && name == "sheetData" { inSheetData = true }
                case .end(let name):
                    depth -= 1
                    if depth == 1 && name == "sheetData" { inSheetData = false }
                case .text: break
                }
                guard inSheetData else { continue }
                // Where the token sits: a row opens at depth 3 (worksheet, sheetData, row), a
                // cell at 4, its value or inline string below.
                let level = opened ? depth : depth + 1
                switch token {
                case .start("row", let attributes, let selfClosing) where level == 3:
                    let row = try rowNumber(attributes["r"])
                    if selfClosing { return Row(number: row, cells: []) }
                    number = row
                case .start("c", let attributes, let selfClosing) where level == 4 && number != nil:
                    let column = try attributes["r"].map(columnNumber) ?? nextColumn
                    guard column < Workbook.maxColumns else {
                        throw Failure(
                            message:
                                "row \(number!) has more than \(Workbook.maxColumns) cells (columns A–XFD)"
                        )
                    }
                    nextColumn = column + 1
                    cell =
                        selfClosing
                        ? nil
                        : (column, attributes["t"] ?? "n", attributes["s"].flatMap { Int($0) } ?? 0)
                    value = ""
                case .start("v", _, false) where cell != nil && level == 5:
                    inValue = true
                case .start("t", _, false)
                where cell != nil && !inPhonetic && (inInline || cell?.type != "inlineStr"):
                    inValue = true
                case .start("is", _, false) where cell != nil && level == 5:
                    inInline = true
                case .start("rPh", _, false):
                    inPhonetic = true  // phonetic runs are not the cell's text
                case .end("rPh"):
                    inPhonetic = false
                case .text(let text) where inValue:
                    value += text
                case .end("v"), .end("t"):
                    inValue = false
                case .end("is"):
                    inInline = false
                case .end("c") where level == 4:
                    if let c = cell, number != nil {
                        let text = try workbook.text(value, type: c.type, style: c.style)
                        try take(
                            text.utf8.count + Self.cellCost * (max(0, c.column - cells.count) + 1))
                        if c.column >= cells.count {
                            cells += repeatElement("", count: c.column - cells.count + 1)
                        }
                        cells[c.column] = text
                    }
                    cell = nil
                case .end("row") where level == 3:
                    if let number { return Row(number: number, cells: cells) }
                default: break
                }
            }
            return nil
        }

        /// A row's `r`: 1–1,048,576, after the row before it; none is the next row.
        private mutating func rowNumber(_ attribute: String?) throws(Failure) -> Int {
            guard let attribute else {
                guard lastRow < Workbook.maxRows else {
                    throw Failure(message: "the sheet has more than \(Workbook.maxRows) rows")
                }
                lastRow += 1
                return lastRow
            }
            guard let row = Int(attribute), (1...Workbook.maxRows).contains(row) else {
                throw Failure(
                    message:
                        "row number '\(attribute.prefix(20))' is not one of 1–\(Workbook.maxRows)")
            }
            guard row > lastRow else {
                throw Failure(
                    message: "row \(row) comes after row \(lastRow); rows must be in order")
            }
            lastRow = row
            return row
        }

        /// A cell's `r` (`AB12`): its 0-based column, within A–XFD.
        private func columnNumber(_ reference: String) throws(Failure) -> Int {
            guard let column = Workbook.column(ofReference: reference), column < Workbook.maxColumns
            else {
                throw Failure(
                    message:
                        "cell reference '\(reference.prefix(20))' is not a cell of columns A–XFD")
            }
            return column
        }

        /// What each cell a row yields costs beyond its text, an empty one filling a gap
        /// too: a reader holds and splits it.
        static let cellCost = 8

        /// Counts `bytes` of cell text and cells against the budget.
        private mutating func take(_ bytes: Int) throws(Failure) {
            textLeft -= bytes
            guard textLeft >= 0 else {
                throw Failure(
                    message:
                        "workbook too large: its cells hold more than \(ByteCount.text(workbook.textBudget)) of text and cells",
                    tooLarge: true)
            }
        }
    }

    /// A cell's text from its stored value and type (`t`).
    private func text(_ value: String, type: String, style: Int) throws(Failure) -> String {
        switch type {
        case "s":
            guard let i = Int(value), sharedStrings.indices.contains(i) else {
                throw Failure(
                    message: "a cell refers to shared string '\(value)', which does not exist")
            }
            return sharedStrings[i]
        case "b": return value == "1" ? "TRUE" : "FALSE"
        case "n":
            let kind = styleKinds.indices.contains(style) ? styleKinds[style] : .number
            if kind == .number {
                return NumberFormatDecimals.padded(
                    value, to: styleDecimals.indices.contains(style) ? styleDecimals[style] : 0)
            }
            guard let serial = Double(value) else { return value }
            // A serial that is no day is said so in the cell's text, which no date reading
            // takes: read as it is written, 2959001 would be the year 2959.
            return ExcelSerial.text(serial, kind: kind, uses1904: uses1904)
                ?? "\(value) (a date cell whose serial is no day of 0001–9999)"
        default: return value  // str, inlineStr, e (an error such as #N/A), d (ISO 8601 already)
        }
    }

    /// The 0-based column of a reference such as `AB12`.
    static func column(ofReference reference: String) -> Int? {
        var column = 0
        var letters = 0
        for b in reference.utf8 {
            guard b >= UInt8(ascii: "A"), b <= UInt8(ascii: "Z") else { break }
            column = column * 26 + Int(b - UInt8(ascii: "A")) + 1
            letters += 1
            guard letters <= 3 else { return nil }
        }
        return letters == 0 ? nil : column - 1
    }

    private static func part(
        _ archive: ZipArchive, _ name: String, _ budget: inout ZipArchive.ExpansionBudget
    ) throws(Failure) -> [UInt8]? {
        guard let entry = archive.entry(name) else { return nil }
        do throws(ZipArchive.ZipError) {
            return try archive.contents(entry, budget: &budget)
        } catch {
            throw Failure(message: error.message, tooLarge: error.tooLarge)
        }
    }

    private static func scan(_ scanner: inout XMLScanner) throws(Failure) -> XMLScanner.Token? {
        do throws(XMLScanner.Failure) {
            return try scanner.next()
        } catch {
            throw Failure(message: "malformed XML in the workbook: \(error.message)")
        }
    }

    /// The shared string table: each `si`'s text runs joined, phonetic runs left out.
    private static func sharedStrings(
        _ archive: ZipArchive, _ budget: inout ZipArchive.ExpansionBudget
    ) throws(Failure) -> [String] {
        guard let xml = try part(archive, "xl/sharedStrings.xml", &budget) else { return [] }
        var scanner = XMLScanner(xml)
        var strings: [String] = []
        var current = ""
        var inText = false
        var inPhonetic = false
        while let token = try scan(&scanner) {
            switch token {
            case .start("si", _, let selfClosing):
                current = ""
                if selfClosing { strings.append("") }
            case .start("t", _, false) where !inPhonetic: inText = true
            case .start("rPh", _, false): inPhonetic = true
            case .end("rPh"): inPhonetic = false
            case .text(let text) where inText: current += text
            case .end("t"): inText = false
            case .end("si"): strings.append(current)
            default: break
            }
        }
        return strings
    }

    /// What each cell style's number format shows (`cellXfs`, in order): a date, a time or a
    /// number, and a number's decimals.
    private static func styleFormats(
        _ archive: ZipArchive, _ budget: inout ZipArchive.ExpansionBudget
    ) throws(Failure) -> ([SerialKind], [Int]) {
        guard let xml = try part(archive, "xl/styles.xml", &budget) else { return ([], []) }
        var scanner = XMLScanner(xml)
        var customFormats: [Int: String] = [:]
        var formats: [Int] = []
        var inCellXfs = false
        while let token = try scan(&scanner) {
            switch token {
            case .start("numFmt", let attributes, _):
                if let id = attributes["numFmtId"].flatMap({ Int($0) }),
                    let code = attributes["formatCode"]
                {
                    customFormats[id] = code
                }
            case .start("cellXfs", _, let selfClosing): inCellXfs = !selfClosing
            case .end("cellXfs"): inCellXfs = false
            case .start("xf", let attributes, _) where inCellXfs:
                formats.append(attributes["numFmtId"].flatMap { Int($0) } ?? 0)
            default: break
            }
        }
        let kinds = formats.map { id in
            customFormats[id].map(SerialKind.init(formatCode:)) ?? SerialKind(builtInFormat: id)
        }
        let decimals = formats.map { id in
            customFormats[id].map(NumberFormatDecimals.of(formatCode:))
                ?? NumberFormatDecimals.of(builtInFormat: id)
        }
        return (kinds, decimals)
    }
}

/// How many decimals a number format shows, and a stored number written with them: zeros
/// are added, never digits taken away (the value stays the one stored).
enum NumberFormatDecimals {
    /// The built-in formats with two decimals (ECMA-376 §18.8.30): `0.00`, `#,##0.00`, the
    /// currency and accounting ones; percent and scientific formats show another number.
    static func of(builtInFormat id: Int) -> Int {
        switch id {
        case 2, 4, 7, 8, 39, 40, 43, 44: return 2
        default: return 0
        }
    }

    /// A custom code's decimals: the `0`/`#` after the point in its first section, outside
    /// quoted text and brackets; none for a percent or scientific format.
    static func of(formatCode: String) -> Int {
        var quoted = false
        var bracket = false
        var afterPoint = false
        var count = 0
        for ch in formatCode {
            if quoted {
                if ch == "\"" { quoted = false }
                continue
            }
            if bracket {
                if ch == "]" { bracket = false }
                continue
            }
            switch ch {
            case "\"": quoted = true
            case "[": bracket = true
            case ";": return count
            case "%", "E", "e": return 0
            case ".": afterPoint = true
            case "0", "#": if afterPoint { count += 1 }
            default: if afterPoint { return count }  // the decimals end at what follows them
            }
        }
        return count
    }

    /// `18.5` with 2 decimals as `18.50`; a value with as many or more, or not a plain
    /// decimal (`1E-7`), as stored.
    static func padded(_ value: String, to decimals: Int) -> String {
        guard decimals > 0, !value.isEmpty,
            value.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") })
        else { return value }
        let fraction = value.firstIndex(of: ".").map {
            value.distance(from: value.index(after: $0), to: value.endIndex)
        }
        guard (fraction ?? 0) < decimals else { return value }
        return value + (fraction == nil ? "." : "")
            + String(repeating: "0", count: decimals - (fraction ?? 0))
    }
}

/// What a number format shows of a serial number.
enum SerialKind: Sendable {
    case number, date, time, dateTime

    /// The built-in formats (ECMA-376 §18.8.30): 14–17 and the East Asian 27–31, 34–36,
    /// 50–58 dates; 18–21 and 45–47 times; 22 both.
    init(builtInFormat id: Int) {
        switch id {
        case 14...17, 27...31, 34...36, 50...58: self = .date
        case 18...21, 32, 33, 45...47: self = .time
        case 22: self = .dateTime
        default: self = .number
        }
    }

    /// A custom format code: its date letters (y, d, and m beside them) and time letters (h,
    /// s), outside quoted text, escapes and brackets (`[Red]`; `[h]` is elapsed time).
    init(formatCode: String) {
        var hasDate = false
        var hasTime = false
        var quoted = false
        var bracket = false
        var escaped = false
        for ch in formatCode.lowercased() {
            if escaped {
                escaped = false
                continue
            }
            if quoted {
                if ch == "\"" { quoted = false }
                continue
            }
            if bracket {
                // `[h]`, `[mm]`, `[ss]` are elapsed time; `[Red]`, `[$-409]` say nothing.
                if ch == "h" || ch == "s" { hasTime = true }
                if ch == "]" { bracket = false }
                continue
            }
            switch ch {
            case "\\": escaped = true
            case "\"": quoted = true
            case "[": bracket = true
            case "y", "d", "e": hasDate = true
            case "h", "s": hasTime = true
            default: break
            }
        }
        switch (hasDate, hasTime) {
        case (true, true): self = .dateTime
        case (true, false): self = .date
        case (false, true): self = .time
        default: self = .number
        }
    }
}

/// Excel's serial dates: days since the epoch of the workbook's date system, the time of day
/// as the fraction. The 1900 system counts 1900-02-29, which never was (Lotus 1-2-3's
/// leap-year bug, kept for compatibility): serial 60 is that day, and serials after it are
/// one day behind the count from 1899-12-31.
enum ExcelSerial {
    /// `2024-06-12`, `08:11:17`, `2024-06-12T08:11:17` (a fraction of a second to the
    /// millisecond when there is one); nil for serials outside 0001–9999 and for 1900-02-29.
    /// The 1904 system reaches before its epoch with negative serials (as openpyxl writes
    /// them); the 1900 system has none.
    static func text(_ serial: Double, kind: SerialKind, uses1904: Bool) -> String? {
        guard serial.isFinite, serial >= (uses1904 ? -800_000 : 0), serial < 3_000_000 else {
            return nil
        }
        var days = Int(serial.rounded(.down))
        var milliseconds = Int(((serial - Double(days)) * 86_400_000).rounded())
        if milliseconds >= 86_400_000 {
            days += 1
            milliseconds -= 86_400_000
        }
        let time = timeText(milliseconds)
        if kind == .time && days == 0 { return time }
        let date: CivilDate
        if uses1904 {
            date = CivilDate(
                daysSinceEpoch: CivilDate(uncheckedYear: 1904, month: 1, day: 1).daysSinceEpoch
                    + Int64(days))
        } else if days == 60 {
            return nil
        } else {
            let epoch = CivilDate(uncheckedYear: 1899, month: 12, day: days < 60 ? 31 : 30)
                .daysSinceEpoch
            date = CivilDate(daysSinceEpoch: epoch + Int64(days))
        }
        guard (1...9999).contains(date.year) else { return nil }
        let dateText = date.isoString
        return kind == .date && milliseconds == 0 ? dateText : dateText + "T" + time
    }

    private static func timeText(_ milliseconds: Int) -> String {
        let seconds = milliseconds / 1000
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        var text = "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
        let fraction = milliseconds % 1000
        if fraction != 0 { text += "." + String(String(fraction + 1000).dropFirst()) }
        return text
    }
}
