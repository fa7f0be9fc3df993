import Foundation

/// Where each mapped field's text sits in a table's row, worked out once per file.
struct TableColumnPlan {
    /// Fields read from one column each (nearly all), apart from those joined from several
    /// (`--map start=date+time`) or from none: walking them touches no array per row.
    let singles: [(field: MappedField, column: Int)]
    let joined: [(field: MappedField, columns: [Int])]
    let unmapped: [Int]
    let header: [String]
    /// Timeline's own CSV: the column whose JSON object holds attributes with no column of
    /// their own (`other_attributes`), spread back into them.
    let spread: Int?
    /// A wide row's event columns (`FieldMapping.events`), in their order.
    let events: [Int]

    init(
        sources: [MappedField: FieldSource], events: [WideRowEvent] = [], header: [String],
        spreadsAttributes: Bool = false
    ) {
        let index = Dictionary(
            header.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        let columns = MappedField.allCases.compactMap { field in
            sources[field].map { (field: field, columns: $0.columns.compactMap { index[$0] }) }
        }
        singles = columns.compactMap { $0.columns.count == 1 ? ($0.field, $0.columns[0]) : nil }
        joined = columns.filter { $0.columns.count != 1 }
        self.events = events.compactMap { index[$0.column] }
        let used = Set(columns.flatMap(\.columns) + self.events)
        unmapped = header.indices.filter { !used.contains($0) }
        self.header = header
        spread = spreadsAttributes ? header.lastIndex(of: "other_attributes") : nil
    }

    /// Sets `texts` to the row `fields`. The same `texts` is refilled for every row of a
    /// block: a fresh one per row was destroyed slot by slot through the runtime's generic
    /// path; refilled, each slot this plan maps is overwritten and the others stay empty.
    func fill(_ texts: inout FieldTexts, from fields: [String]) {
        for (field, column) in singles { texts[field] = FieldTexts.single(fields[column]) }
        fillRest(&texts) { fields[$0] }
    }

    /// Sets `texts` to the row whose fields lie at `cells` of `texts.cellBytes` (a CSV
    /// block's): a single column's field stays where it is; the rest are made strings.
    func fill(_ texts: inout FieldTexts, cells: [TableCell]) {
        for (field, column) in singles {
            let cell = cells[column]
            if cell.hasDoubledQuotes {
                texts[field] = FieldTexts.single(Self.text(of: cell, in: texts.cellBytes))
            } else {
                texts.setCell(field, cell.range)
            }
        }
        fillRest(&texts) { [bytes = texts.cellBytes] in Self.text(of: cells[$0], in: bytes) }
    }

    /// The text of `cell`, one of `bytes`' (ASCII) fields.
    static func text(of cell: TableCell, in bytes: [UInt8]) -> String {
        bytes.withByteView { v in
            cell.hasDoubledQuotes
                ? String(decoding: CSVReader.unescapingQuotes(v[cell.range]), as: UTF8.self)
                : v[cell.range].string
        }
    }

    /// Sets the joined fields, a wide row's times and the attributes of `texts` from the
    /// row whose field `i` is `text(i)`.
    private func fillRest(_ texts: inout FieldTexts, field text: (Int) -> String) {
        for (field, columns) in joined {
            texts[field] = FieldTexts.join(columns.map { text($0) })
        }
        if !events.isEmpty { texts.eventTimes = events.map { FieldTexts.single(text($0)) } }
        if !texts.attributes.isEmpty { texts.attributes.removeAll(keepingCapacity: true) }
        for i in unmapped {
            guard let value = FieldTexts.single(text(i)) else { continue }
            if i == spread,
                case .object(let pairs)? = try? JSONParser.parseComplete(
                    Array(value.utf8), what: "other_attributes")
            {
                for case (let name, .string(let text)) in pairs {
                    texts.attributes.append((name, text))
                }
            } else {
                texts.attributes.append((header[i], value))
            }
        }
    }
}
