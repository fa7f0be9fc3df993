/// Where each mapped field's value sits in the records of one key set, worked out once for
/// all of them, as `CSVColumnPlan` does for a CSV header: a record then reads its fields by
/// index, with no key compared and no set of used keys built.
struct JSONRowPlan {
    /// Where one column's value is in a record.
    enum Place {
        /// A key of the record itself (its first occurrence).
        case pair(Int)
        /// A field of the wrapping document, beside the records array.
        case sibling(Int)
        /// A dotted path into a nested object (`customer.name`), looked up per record.
        case path(String)
        /// In neither: the field is empty.
        case absent
    }

    /// Fields read from one column each (nearly all), and those joined from several or none.
    let singles: [(field: MappedField, place: Place)]
    let joined: [(field: MappedField, places: [Place])]
    /// A wide row's event columns (`FieldMapping.events`), in their order.
    let events: [Place]
    /// The fields no column names, in `JSONRow.texts`'s order: siblings, then the record's
    /// own keys, a repeated key each time it occurs.
    let unmapped: [Place]

    /// - Parameters:
    ///   - pairs: the record's keys, in order.
    ///   - siblings: the wrapping document's keys kept on every record.
    init(pairs: [String], siblings: [String], sources: [MappedField: FieldSource], events: [WideRowEvent]) {
        let pairIndex = Dictionary(pairs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let siblingIndex = Dictionary(siblings.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // As `JSONRow.value` looks a column up: the record's key, else a path into the
        // record, else the sibling's key (or a path into it).
        func place(_ column: String) -> Place {
            if let i = pairIndex[column] { return .pair(i) }
            if column.contains(".") { return .path(column) }
            if let i = siblingIndex[column] { return .sibling(i) }
            return .absent
        }
        let columns = MappedField.allCases.compactMap { field in sources[field].map { (field: field, columns: $0.columns) } }
        singles = columns.compactMap { $0.columns.count == 1 ? ($0.field, place($0.columns[0])) : nil }
        joined = columns.filter { $0.columns.count != 1 }.map { ($0.field, $0.columns.map(place)) }
        self.events = events.map { place($0.column) }
        let used = Set(columns.flatMap(\.columns) + events.map(\.column))
        unmapped = siblings.indices.filter { !used.contains(siblings[$0]) }.map(Place.sibling)
            + pairs.indices.filter { !used.contains(pairs[$0]) }.map(Place.pair)
    }
}

extension JSONRow {
    func value(at place: JSONRowPlan.Place) -> String? {
        switch place {
        case .pair(let i): return JSONRow.text(pairs[i].1)
        case .sibling(let i): return JSONRow.text(siblings[i].1)
        case .path(let path): return value(path)
        case .absent: return nil
        }
    }

    private func key(at place: JSONRowPlan.Place) -> String {
        switch place {
        case .pair(let i): return pairs[i].0
        case .sibling(let i): return siblings[i].0
        case .path(let path): return path
        case .absent: return ""
        }
    }

    /// Sets `texts` to this record's mapped fields and its unmapped non-empty fields. The
    /// same `texts` is refilled for every record of a block (see `CSVColumnPlan.fill`); a
    /// slot the plan does not map is left as the previous record left it, so one `texts`
    /// serves one plan.
    func fill(_ texts: inout FieldTexts, plan: JSONRowPlan) {
        for (field, place) in plan.singles { texts[field] = FieldTexts.single(value(at: place)) }
        for (field, places) in plan.joined { texts[field] = FieldTexts.join(places.map(value(at:))) }
        if !plan.events.isEmpty { texts.eventTimes = plan.events.map { FieldTexts.single(value(at: $0)) } }
        if !texts.attributes.isEmpty { texts.attributes.removeAll(keepingCapacity: true) }
        for place in plan.unmapped {
            if let text = value(at: place), !text.isEmpty { texts.attributes.append((key(at: place), text)) }
        }
    }

    /// This record's texts, in a fresh `FieldTexts`.
    func texts(_ plan: JSONRowPlan) -> FieldTexts {
        var texts = FieldTexts()
        fill(&texts, plan: plan)
        return texts
    }
}

/// The mapper and row plan of each key set among one file's records. Records of one file may
/// carry different fields (a key missing from the first record, a time field only later ones
/// have), and each is mapped by its own keys. Most files repeat one key set, so the last one
/// used is compared in place first, without building an array of keys.
struct JSONKeySetMappers {
    struct Entry {
        let mapper: RecordMapper
        let plan: JSONRowPlan
    }

    private var known: [[String]: Entry] = [:]
    private var last: (keys: [String], entry: Entry)?
    /// More key sets than this are mapped without keeping their mappers.
    private static let limit = 256

    init() {}

    /// The mapper and plan for the keys `row` has (its own, then its siblings), made by
    /// `make` from those keys the first time.
    mutating func entry(for row: JSONRow, make: ([String]) throws(TimelineError) -> RecordMapper) throws(TimelineError) -> Entry {
        if let last, last.keys.count == row.pairs.count + row.siblings.count, Self.keys(of: row, equal: last.keys) {
            return last.entry
        }
        let keys = row.pairs.map(\.0) + row.siblings.map(\.0)
        let entry: Entry
        if let found = known[keys] {
            entry = found
        } else {
            let mapper = try make(keys)
            let plan = JSONRowPlan(pairs: row.pairs.map(\.0), siblings: row.siblings.map(\.0), sources: mapper.sources, events: mapper.events)
            entry = Entry(mapper: mapper, plan: plan)
            if known.count < Self.limit { known[keys] = entry }
        }
        last = (keys, entry)
        return entry
    }

    private static func keys(of row: JSONRow, equal keys: [String]) -> Bool {
        for (i, pair) in row.pairs.enumerated() where pair.0 != keys[i] { return false }
        let offset = row.pairs.count
        for (i, sibling) in row.siblings.enumerated() where sibling.0 != keys[offset + i] { return false }
        return true
    }
}
