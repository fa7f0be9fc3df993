/// The zone a table or a feed of canonical events declares by naming it on its records: a
/// CSV's `zone` column, NDJSON events' `start.zone`, a canonical JSON document's `zone`.
/// Timeline's own outputs write it, so a file read back is shown in the zone it was written
/// in, as its days were counted. Only the start of the input is looked at (its first 1,000
/// records in 1 MB).
enum ZoneColumn {
    static let lookahead = 1 << 20
    static let records = 1_000

    /// The zone the `zone` column of a table with `delimiter` names.
    static func inTable(_ input: InputReader, delimiter: UInt8, parser: DateParser)
        throws(TimelineError) -> DeclaredZone?
    {
        let head = Array(try input.peek(lookahead))
        let reader = try CSVReader(
            input: InputReader(name: input.name, bytes: head), delimiter: delimiter)
        guard case .success(let header)? = try reader.next(),
            let column = header.fields.firstIndex(where: { FieldMapping.key($0) == "zone" })
        else { return nil }
        var names: [String] = []
        var count = 0
        while count < records, case .success(let record)? = try reader.next() {
            count += 1
            if column < record.fields.count { names.append(record.fields[column].trimmingSpaces) }
        }
        return declared(names, reason: "the zone its 'zone' column names", parser: parser)
    }

    /// The zone canonical NDJSON events' `start.zone` names (found in the text of each line's
    /// `"start":{…}` member: a canonical start holds no nested object).
    static func inEvents(_ input: InputReader, parser: DateParser) throws(TimelineError)
        -> DeclaredZone?
    {
        let head = try input.peek(lookahead)
        let start = Array(#""start":{"#.utf8)
        let zone = Array(#""zone":""#.utf8)
        var names: [String] = []
        var next = head.startIndex
        while names.count < records, next < head.endIndex {
            let lineEnd = head[next...].firstIndex(of: 0x0A) ?? head.endIndex
            let line = head[next..<lineEnd]
            next = lineEnd + 1
            guard let open = end(of: start, in: line),
                let close = line[open...].firstIndex(of: UInt8(ascii: "}"))
            else { continue }
            let member = line[open..<close]
            guard let value = end(of: zone, in: member),
                let quote = member[value...].firstIndex(of: UInt8(ascii: "\""))
            else {
                names.append("")
                continue
            }
            names.append(String(decoding: member[value..<quote], as: UTF8.self))
        }
        return declared(names, reason: "the zone its events' start names", parser: parser)
    }

    /// Where the first `needle` in `bytes` ends.
    private static func end(of needle: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var i = bytes.startIndex
        let last = bytes.endIndex - needle.count
        while i <= last {
            if bytes[i] == first, bytes[i..<i + needle.count].elementsEqual(needle) {
                return i + needle.count
            }
            i += 1
        }
        return nil
    }

    /// The zone a canonical JSON document was written in (`{"schema":"timeline/1","zone":…`).
    static func inDocument(_ input: InputReader, parser: DateParser) throws(TimelineError)
        -> DeclaredZone?
    {
        let head = String(decoding: try input.peek(4096), as: UTF8.self).filter { !$0.isWhitespace }
        let prefix = #"{"schema":"timeline/1","zone":""#
        guard head.hasPrefix(prefix), let end = head.dropFirst(prefix.count).firstIndex(of: "\"")
        else { return nil }
        return declared(
            [String(head[head.index(head.startIndex, offsetBy: prefix.count)..<end])],
            reason: "the zone the document was written in", parser: parser)
    }

    /// One zone when every record names the same known one; several when they name more.
    private static func declared(_ names: [String], reason: String, parser: DateParser)
        -> DeclaredZone?
    {
        var distinct: [String] = []
        for name in names where !distinct.contains(name) { distinct.append(name) }
        if distinct.count == 1, let name = distinct.first, !name.isEmpty,
            case .success(let zone) = parser.zone(named: name)
        {
            return .one(zone, reason: reason)
        }
        let named = distinct.filter { !$0.isEmpty }
        return named.count > 1 ? .several(named) : nil
    }
}
