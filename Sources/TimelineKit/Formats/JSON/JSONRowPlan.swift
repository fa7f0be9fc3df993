/// Where each mapped field's value sits in the records of one key set, worked out once for
/// all of them, as `TableColumnPlan` does for a CSV header: a record then reads its fields by
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
    /// The fields no column names, with their keys: siblings, then the record's own keys, a
    /// repeated key each time it occurs.
    let unmapped: [(place: Place, key: String)]

    /// - Parameters:
    ///   - pairs: the record's keys, in order.
    ///   - siblings: the wrapping document's keys kept on every record.
    init(
        pairs: [String], siblings: [String], sources: [MappedField: FieldSource],
        events: [WideRowEvent]
    ) {
        let pairIndex = Dictionary(
            pairs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let siblingIndex = Dictionary(
            siblings.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // As `JSONRow.value` looks a column up: the record's key, else a path into the
        // record, else the sibling's key (or a path into it).
        func place(_ column: String) -> Place {
            if let i = pairIndex[column] { return .pair(i) }
            if column.contains(".") { return .path(column) }
            if let i = siblingIndex[column] { return .sibling(i) }
            return .absent
        }
        let columns = MappedField.allCases.compactMap { field in
            sources[field].map { (field: field, columns: $0.columns) }
        }
        singles = columns.compactMap {
            $0.columns.count == 1 ? ($0.field, place($0.columns[0])) : nil
        }
        joined = columns.filter { $0.columns.count != 1 }.map { ($0.field, $0.columns.map(place)) }
        self.events = events.map { place($0.column) }
        let used = Set(columns.flatMap(\.columns) + events.map(\.column))
        unmapped =
            siblings.indices.filter { !used.contains(siblings[$0]) }.map {
                (Place.sibling($0), siblings[$0])
            }
            + pairs.indices.filter { !used.contains(pairs[$0]) }.map { (Place.pair($0), pairs[$0]) }
    }

    /// Sets `texts` to `record`'s mapped fields and its unmapped non-empty fields. The same
    /// `texts` is refilled for every record of a block (see `TableColumnPlan.fill`); a slot
    /// this plan does not map is left as the previous record left it, so one `texts` serves
    /// one plan.
    func fill(_ texts: inout FieldTexts, from record: some JSONRecordValues) {
        for (field, place) in singles { texts[field] = Self.single(field, at: place, of: record) }
        fillRest(&texts, from: record)
    }

    /// Sets `texts` to a flat record's fields, as `fill(_:from:)` does, with each plain
    /// string or number of the record's own left where it lies in the record's bytes
    /// (`FieldTexts.setCell`): its string is made only if the mapper asks for it.
    func fill(_ texts: inout FieldTexts, from record: JSONFlatObject) {
        texts.cellBytes = record.bytes
        for (field, place) in singles {
            if case .pair(let i) = place, let range = record.textRange(i) {
                texts.setCell(field, range)
            } else {
                texts[field] = Self.single(field, at: place, of: record)
            }
        }
        fillRest(&texts, from: record)
    }

    /// A single column's text for `field`: its display text for a field a person reads
    /// (`MappedField.isReadable`), else its value's text.
    private static func single(
        _ field: MappedField, at place: Place, of record: some JSONRecordValues
    ) -> String? {
        FieldTexts.single(field.isReadable ? record.display(at: place) : record.value(at: place))
    }

    /// Sets the joined fields, a wide row's times and the attributes of `texts`.
    private func fillRest(_ texts: inout FieldTexts, from record: some JSONRecordValues) {
        for (field, places) in joined {
            texts[field] = FieldTexts.join(places.map(record.value(at:)))
        }
        if !events.isEmpty {
            texts.eventTimes = events.map { FieldTexts.single(record.value(at: $0)) }
        }
        if !texts.attributes.isEmpty { texts.attributes.removeAll(keepingCapacity: true) }
        for (place, key) in unmapped {
            if let text = record.value(at: place), !text.isEmpty {
                texts.attributes.append((key, text))
            }
        }
    }

    /// `record`'s texts, in a fresh `FieldTexts`.
    func texts(_ record: some JSONRecordValues) -> FieldTexts {
        var texts = FieldTexts()
        fill(&texts, from: record)
        return texts
    }
}

/// A record whose values a `JSONRowPlan` reads.
protocol JSONRecordValues {
    /// The text at `place`, as `JSONRow.text` gives it; nil when absent or null.
    func value(at place: JSONRowPlan.Place) -> String?
    /// The text a person reads at `place`, as `JSONRow.display` gives it.
    func display(at place: JSONRowPlan.Place) -> String?
}

extension JSONRecordValues {
    func display(at place: JSONRowPlan.Place) -> String? { value(at: place) }
}

extension JSONFlatObject: JSONRecordValues {
    /// A flat object is a record of its own, with no siblings.
    func value(at place: JSONRowPlan.Place) -> String? {
        switch place {
        case .pair(let i): return text(i)
        case .path(let path): return value(path: path)
        case .sibling, .absent: return nil
        }
    }
}

extension JSONRow: JSONRecordValues {
    func value(at place: JSONRowPlan.Place) -> String? {
        switch place {
        case .pair(let i): return JSONRow.text(pairs[i].1)
        case .sibling(let i): return JSONRow.text(siblings[i].1)
        case .path(let path): return value(path)
        case .absent: return nil
        }
    }

    func display(at place: JSONRowPlan.Place) -> String? {
        switch place {
        case .pair(let i): return JSONRow.display(pairs[i].1)
        case .sibling(let i): return JSONRow.display(siblings[i].1)
        case .path(let path): return value(path)
        case .absent: return nil
        }
    }
}

/// The mapper and row plan of each key set among one file's records. Records of one file may
/// carry different fields (a key missing from the first record, a time field only later ones
/// have), and each is mapped by its own keys. Most files repeat one key set, so the last one
/// used is compared in place first, without building an array of keys.
struct JSONKeySetMappers {
    /// A class so that handing a record its entry retains one reference, not the mapper and
    /// each of the plan's arrays.
    final class Entry {
        let mapper: RecordMapper
        let plan: JSONRowPlan

        init(mapper: RecordMapper, plan: JSONRowPlan) {
            self.mapper = mapper
            self.plan = plan
        }
    }

    /// Makes a key set's mapper from its keys (the record's own, then its siblings).
    typealias Make = ([String]) throws(TimelineError) -> RecordMapper

    private var known: [[String]: Entry] = [:]
    /// The last key set used and its entry (nil before the first record). Not an optional
    /// tuple: binding one copies, and retains, every part of it once per record.
    private struct Last<Keys> {
        var keys: Keys
        var entry: Entry?
    }

    private var last = Last<[String]>(keys: [], entry: nil)
    /// The last flat record's keys end to end, and where each ends.
    private var lastFlat = Last<(bytes: [UInt8], ends: [Int])>(keys: ([], []), entry: nil)
    /// More key sets than this are mapped without keeping their mappers.
    private static let limit = 256

    init() {}

    /// The mapper and plan for the keys `row` has (its own, then its siblings).
    mutating func entry(for row: JSONRow, make: Make) throws(TimelineError) -> Entry {
        if let entry = last.entry, last.keys.count == row.pairs.count + row.siblings.count,
            Self.keys(of: row, equal: last.keys)
        {
            return entry
        }
        let pairs = row.pairs.map(\.0)
        let siblings = row.siblings.map(\.0)
        let entry = try resolve(pairs: pairs, siblings: siblings, make: make)
        last = Last(keys: pairs + siblings, entry: entry)
        return entry
    }

    /// The mapper and plan for the keys of `record`, told from the last flat record's by
    /// their bytes.
    mutating func entry(for record: JSONFlatObject, make: Make) throws(TimelineError) -> Entry {
        if let entry = lastFlat.entry, record.hasKeys(lastFlat.keys.bytes, ends: lastFlat.keys.ends)
        {
            return entry
        }
        let entry = try resolve(pairs: record.keys, siblings: [], make: make)
        lastFlat = Last(keys: record.keyBytes, entry: entry)
        return entry
    }

    private mutating func resolve(pairs: [String], siblings: [String], make: Make)
        throws(TimelineError) -> Entry
    {
        let keys = pairs + siblings
        if let found = known[keys] { return found }
        let mapper = try make(keys)
        let entry = Entry(
            mapper: mapper,
            plan: JSONRowPlan(
                pairs: pairs, siblings: siblings, sources: mapper.sources, events: mapper.events))
        if known.count < Self.limit { known[keys] = entry }
        return entry
    }

    private static func keys(of row: JSONRow, equal keys: [String]) -> Bool {
        for (i, pair) in row.pairs.enumerated() where pair.0 != keys[i] { return false }
        let offset = row.pairs.count
        for (i, sibling) in row.siblings.enumerated() where sibling.0 != keys[offset + i] {
            return false
        }
        return true
    }
}

extension MappedField {
    /// A field a person reads, where a nested object is its description or its strings
    /// (`JSONRow.display`), not its JSON text.
    var isReadable: Bool {
        switch self {
        case .title, .detail, .status, .category, .location: return true
        default: return false
        }
    }
}
