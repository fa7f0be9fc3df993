import Foundation

/// A JSON object as a record: dotted paths into nested objects, plus the sibling fields of
/// a wrapping document (a tracking number beside the records array).
struct JSONRow {
    let pairs: [(String, JSONValue)]
    let siblings: [(String, JSONValue)]
    /// Where a record gathered from an array within an array is, named by the id of what
    /// holds it and its place among that holder's records (`1234567890/events/3`): its id
    /// when it has none of its own.
    var place: String?

    init(pairs: [(String, JSONValue)], siblings: [(String, JSONValue)], place: String? = nil) {
        self.pairs = pairs
        self.siblings = siblings
        self.place = place
    }

    /// The names an id of what holds a record goes by (a shipment's id, a tracking number).
    static let holderIDs: Set<String> = [
        "id", "trackingnumber", "tracking_number", "trackingid", "shipmentid", "shipment_id",
        "idship", "ordernumber", "order_id", "orderid",
        "number",
    ]

    /// The id of what holds a record: the nearest of `siblings` named as one.
    static func holderID(in siblings: [(String, JSONValue)]) -> String? {
        guard
            let id = siblings.last(where: { holderIDs.contains(FieldMapping.key($0.0)) }).flatMap({
                text($0.1)
            }), !id.isEmpty
        else { return nil }
        return id
    }

    /// The text a person reads for `v` in a field such as a title or a location: an object
    /// by its description, name or text member (UPS's status object), else its strings
    /// joined (an address), none when it holds no text; anything else as `text` gives it.
    static func display(_ v: JSONValue) -> String? {
        guard case .object(let pairs) = v else { return text(v) }
        for name in ["description", "name", "text", "label", "title"] {
            if let value = pairs.first(where: { $0.0.lowercased() == name })?.1,
                case .string(let s) = value, !s.trimmingSpaces.isEmpty
            {
                return s.trimmingSpaces
            }
        }
        var parts: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .string(let s) where !s.trimmingSpaces.isEmpty: parts.append(s.trimmingSpaces)
            case .object(let inner): for (_, member) in inner { collect(member) }
            default: break
            }
        }
        collect(v)
        // An address with every line empty (FedEx's label event) names no place.
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// The kind of a record that is one of several kinds, each its own member (Google
    /// Timeline's segments: a `visit`, an `activity` or a `timelinePath`): the type its
    /// member names, nearest first (`topCandidate.semanticType` `HOME`, `topCandidate.type`
    /// `FLYING`), else the member's name. Nil unless exactly one member holds an object or an
    /// array.
    var kind: String? {
        let containers = pairs.filter {
            switch $0.1 {
            case .object, .array: return true
            default: return false
            }
        }
        guard containers.count == 1, let (name, value) = containers.first else { return nil }
        var level: [JSONValue] = [value]
        while !level.isEmpty {
            var next: [JSONValue] = []
            for case .object(let members) in level {
                for (key, member) in members {
                    if case .string(let s) = member, !s.isEmpty,
                        HeaderWords.names(FieldWordsSniffer.typeWords, in: key)
                    {
                        return s
                    }
                    if case .object = member { next.append(member) }
                }
            }
            level = next
        }
        return name
    }

    func value(_ column: String) -> String? {
        if let v = lookup(column, in: pairs) ?? lookup(column, in: siblings) {
            return JSONRow.text(v)
        }
        return nil
    }

    private func lookup(_ path: String, in pairs: [(String, JSONValue)]) -> JSONValue? {
        if let direct = pairs.first(where: { $0.0 == path })?.1 { return direct }
        let parts = path.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, let head = pairs.first(where: { $0.0 == parts[0] })?.1,
            case .object(let inner) = head
        else { return nil }
        return lookup(parts[1], in: inner)
    }

    /// Strings as they are, numbers as written, booleans as `true`/`false`, null as absent,
    /// objects and arrays as their compact JSON text.
    static func text(_ v: JSONValue) -> String? {
        switch v {
        case .null: return nil
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .array, .object:
            var w = JSONWriter()
            w.value(v)
            return String(decoding: w.bytes, as: UTF8.self)
        }
    }
}

/// `json` and `ndjson` records: a top-level array of objects, NDJSON (blank lines
/// allowed), the array at `--records PATH`, or — with neither — the one array of objects in
/// a top-level object, whose other top-level fields are kept on every event. A canonical
/// timeline document or canonical NDJSON goes to `CanonicalImporter` unchanged.
///
/// NDJSON streams line by line. A document is read whole, then its records are mapped one
/// by one, so every complete record before a syntax fault is converted.
struct JSONRecordsImporter: TimelineImporter {
    init() {}

    func read(from input: InputReader, context: ImportContext) throws(TimelineError) {
        let limit = context.options.maxRecordSize
        guard let found = try input.peekPastWhitespace(limit: limit) else { return }
        var head = found.head
        let firstIndex = found.first
        if Self.looksCanonical(head[firstIndex...]) {
            try CanonicalImporter().read(from: input, context: context)
            return
        }
        let forced = context.options.preset.forced
        let named = context.options.json.recordsPath != nil || !(forced?.records.isEmpty ?? true)
        // The first line, however long (up to the longest record).
        var lineEnd = head[firstIndex...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D })
        while lineEnd == nil, head[firstIndex] == UInt8(ascii: "{"), !named,
            head.count - firstIndex <= limit
        {
            let more = try input.peek(head.count * 2)
            if more.count == head.count { break }
            head = more
            lineEnd = head[firstIndex...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D })
        }
        // A one-line document (a compact API response) is a document, not one NDJSON record,
        // when a preset recognises it; named NDJSON is lines whatever its first line is.
        if head[firstIndex] == UInt8(ascii: "{"), !named,
            context.format == "ndjson" || head.count - firstIndex > limit
        {
            try readLines(input, context: context)
        } else if head[firstIndex] == UInt8(ascii: "{"), !named, let end = lineEnd,
            let first = try? JSONParser.parseComplete(
                Array(head[firstIndex..<end]), what: "the first line"),
            !context.options.preset.candidates.contains(where: { $0.matches(document: first) })
        {
            try readLines(input, context: context)
        } else if head[firstIndex] == UInt8(ascii: "["), !named,
            !Self.holdsRecordsInside(head[firstIndex...], context: context)
        {
            try readArray(input, context: context)
        } else {
            // A wrapped document is read whole: fields beside the records array may come
            // after it and belong on every record.
            try readDocument(try input.readAll(), name: input.name, context: context)
            context.recognise()  // its records array was found (it may be empty)
        }
    }

    /// Whether an array's first element, read from the start of the document, is an object
    /// that holds no time of its own but holds arrays or objects: the records are inside
    /// (La Poste's `[{"shipment": {"event": […]}}]`), and the document is read whole.
    static func holdsRecordsInside(_ head: ArraySlice<UInt8>, context: ImportContext) -> Bool {
        // A holder of records is looked at when its start is small; a first element longer
        // than this (a record with a long text) is read as a record.
        var parser = JSONParser(bytes: Array(head.prefix(Self.holderLookahead)))
        guard (try? parser.expect(UInt8(ascii: "["), "'['")) != nil else { return false }
        _ = parser.peek()
        guard let first = try? parser.parseValue(), case .object(let pairs) = first,
            pairs.contains(where: { JSONPath.isContainer($0.1) })
        else {
            return false
        }
        return !JSONRecordsFinder(
            sniffer: TimeColumnSniffer(parser: DateParser(options: context.dateParser.options))
        ).holdsTime(pairs)
    }

    /// How many bytes of a top-level array's first element are parsed to tell a holder of
    /// records from a record.
    static let holderLookahead = 1 << 20

    /// Where the first byte that is not whitespace is.
    static func firstValue(in bytes: ArraySlice<UInt8>) -> Int? {
        bytes.firstIndex { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
    }

    /// A canonical document (`"schema":"timeline/1"`) or a canonical event (`"start":{…"basis"`).
    static func looksCanonical(_ head: ArraySlice<UInt8>) -> Bool {
        let text = String(decoding: head.prefix(2048), as: UTF8.self).replacingOccurrences(
            of: " ", with: "")
        return text.contains("\"schema\":\"timeline/1\"")
            || (text.hasPrefix("{\"id\":") && text.contains("\"start\":{\"")
                && text.contains("\"basis\":\""))
    }

    /// NDJSON: the first records on this thread (they decide the day/month order and the
    /// preset), then blocks of lines parsed and mapped on the worker threads, delivered in
    /// input order.
    private func readLines(_ input: InputReader, context: ImportContext) throws(TimelineError) {
        // A slice of a larger file continues its numbering.
        var lineNumber = input.position.linesBefore
        var number = input.position.recordsBefore
        let sink = RecordSink(context: context, name: input.name)
        while number - input.position.recordsBefore < FieldOrderDetector.defaultWindow,
            let line = try input.nextLine()
        {
            lineNumber += 1
            guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            number += 1
            switch NDJSONLine.parse(Array(line), line: lineNumber, file: input.name) {
            case .record(let row, let location):
                try sink.take(
                    row, columns: row.pairs.map(\.0), number: number, location: location,
                    raw: String(decoding: line, as: UTF8.self))
            case .rejected(let record): sink.reject(record)
            }
        }
        try sink.release()
        let blocks = JSONRecordBlockMapper.Pool(
            options: sink.options ?? context.options, dates: context.dateParser.options,
            fieldOrder: sink.decidedOrder, context: context,
            file: input.name)
        let work = OrderedWork<RecordBlockOutcome>(limit: RecordBlocks.inFlight)
        let delivery = RecordBlockDelivery(context: context, file: input.name)
        let deliver = { (outcome: consuming RecordBlockOutcome) throws(TimelineError) in
            try delivery.deliver(outcome)
        }
        do {
            while true {
                var block = JSONRecordBlock(.lines, recordsBefore: number)
                while block.size < RecordBlocks.targetSize, let line = try input.nextLine() {
                    lineNumber += 1
                    guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                    number += 1
                    block.add(line, at: SourceLocation(file: input.name, line: lineNumber))
                }
                if block.records.isEmpty { break }
                let job = block
                try work.submit({ blocks.map(job) }, deliver: deliver)
            }
        } catch {
            work.abandon()
            throw error
        }
        try work.finish(deliver: deliver)
    }

    /// A top-level array of records, streamed element by element in bounded memory: the
    /// first records on this thread (they decide the day/month order and the preset), then
    /// blocks of elements parsed and mapped on the worker threads, delivered in order.
    private func readArray(_ input: InputReader, context: ImportContext) throws(TimelineError) {
        context.recognise()  // an array of records, which may be empty
        let stream = JSONArrayStream(input: input, maxElement: context.options.maxRecordSize)
        var number = 0
        let sink = RecordSink(context: context, name: input.name)
        func location(_ offset: Int) -> SourceLocation {
            let (line, column) = stream.location(of: offset)
            return SourceLocation(file: input.name, line: line, column: column)
        }
        while number < FieldOrderDetector.defaultWindow {
            switch try stream.next() {
            case .end:
                try sink.release()
                return
            case .malformed(let offset, let message):
                try sink.release()
                throw TimelineError(
                    .data, "invalid JSON: \(message)", at: location(offset), code: "json-syntax")
            case .element(let bytes, let offset):
                number += 1
                let value: JSONValue
                do throws(JSONSyntaxError) {
                    value = try JSONParser.parseComplete(bytes, what: "a record")
                } catch {
                    try sink.release()
                    throw TimelineError(
                        .data, "invalid JSON: \(error.message)",
                        at: location(offset + error.offset), code: "json-syntax")
                }
                let raw = String(decoding: bytes, as: UTF8.self)
                let loc = location(offset)
                guard case .object(let pairs) = value else {
                    sink.reject(
                        RejectedRecord(
                            location: loc, raw: raw,
                            reason: "expected a JSON object as a record, found \(value.typeName)",
                            code: .malformedRecord))
                    continue
                }
                try sink.take(
                    JSONRow(pairs: pairs, siblings: []), columns: pairs.map(\.0), number: number,
                    location: loc, raw: raw)
            }
        }
        try sink.release()
        let blocks = JSONRecordBlockMapper.Pool(
            options: sink.options ?? context.options, dates: context.dateParser.options,
            fieldOrder: sink.decidedOrder, context: context,
            file: input.name)
        let work = OrderedWork<RecordBlockOutcome>(limit: RecordBlocks.inFlight)
        let delivery = RecordBlockDelivery(context: context, file: input.name)
        let deliver = { (outcome: consuming RecordBlockOutcome) throws(TimelineError) in
            try delivery.deliver(outcome)
        }
        do throws(TimelineError) {
            var ended = false
            while !ended {
                var block = JSONRecordBlock(.arrayElements, recordsBefore: number)
                reading: while block.size < RecordBlocks.targetSize {
                    switch try stream.next() {
                    case .end:
                        ended = true
                        break reading
                    case .malformed(let offset, let message):
                        // The records before the fault are converted first.
                        let last = block
                        if !block.records.isEmpty {
                            try work.submit({ blocks.map(last) }, deliver: deliver)
                        }
                        try work.finish(deliver: deliver)
                        throw TimelineError(
                            .data, "invalid JSON: \(message)", at: location(offset),
                            code: "json-syntax")
                    case .element(let bytes, let offset):
                        number += 1
                        block.add(bytes, at: location(offset))
                    }
                }
                if !block.records.isEmpty {
                    let job = block
                    try work.submit({ blocks.map(job) }, deliver: deliver)
                }
            }
        } catch {
            work.abandon()
            throw error
        }
        try work.finish(deliver: deliver)
    }

    /// Maps records in order. The first `FieldOrderDetector.defaultWindow` records are held
    /// until the day/month order their time fields show is known (as `timeline dates` and
    /// CSV decide it), so that it applies to every record.
    final class RecordSink {
        private let context: ImportContext
        private let name: String
        /// The preset the records are read with: the document's, the one named, or the first
        /// whose `headers` are keys of the first record.
        private var preset: MappingPreset?
        /// The options the records are mapped with (the preset's applied), once the first
        /// record has been seen.
        private var resolvedOptions: ReadOptions?
        private var mappers = JSONKeySetMappers()
        /// Records held back, and the records rejected among them (kept in input order).
        private var held:
            [(
                row: JSONRow?, number: Int, location: SourceLocation, raw: String,
                rejected: RejectedRecord?
            )] = []
        private var detector: FieldOrderDetector?
        /// The preset's day/month order, for values that do not show it.
        private var fallbackOrder: FieldOrder?

        init(context: ImportContext, name: String, preset: MappingPreset? = nil) {
            self.context = context
            self.name = name
            self.preset = preset ?? context.options.preset.forced
            detector = context.dateParser.options.fieldOrder == nil ? FieldOrderDetector() : nil
        }

        /// Whether the note on a start found from the values was given (once per file).
        private var reportedChoice = false

        /// The day/month order the first records decided (or the preset's), once released.
        private(set) var decidedOrder: FieldOrder?

        /// The reading options of these records (their preset applied), once one was taken.
        var options: ReadOptions? { resolvedOptions }

        /// Takes one record; `columns` are its field names (a wrapped document's siblings too).
        func take(
            _ row: JSONRow, columns: @autoclosure () -> [String], number: Int,
            location: SourceLocation, raw: String
        ) throws(TimelineError) {
            if resolvedOptions == nil {
                let keys = columns()
                if preset == nil {
                    preset = context.options.preset.candidates.first {
                        !$0.signature.headers.isEmpty && $0.matches(header: keys, preamble: [])
                    }
                }
                resolvedOptions = context.options
                if let preset {
                    resolvedOptions = preset.applied(to: context.options)
                    context.report(
                        Diagnostic(
                            .info, "read as \(preset.title) (preset \(preset.name))", at: location))
                    if detector != nil, let order = preset.dateOrder { fallbackOrder = order }
                }
            }
            guard detector != nil else {
                return try emit(row, number: number, location: location, raw: raw)
            }
            detector!.observe(timesOf: try mapper(for: row).plan.texts(row))
            held.append((row, number, location, raw, nil))
            if held.count >= FieldOrderDetector.defaultWindow { try release() }
        }

        /// Rejects a record that is not a JSON object, in order with the records held.
        func reject(_ record: RejectedRecord) {
            if detector != nil {
                held.append((nil, 0, record.location, record.raw, record))
            } else {
                context.reject(record)
            }
        }

        /// Maps what is held (at the end of the input, or once the window is full).
        func release() throws(TimelineError) {
            guard let detector else { return }
            decidedOrder = detector.decided ?? fallbackOrder
            context.dateParser.setFieldOrder(decidedOrder)
            self.detector = nil
            let records = held
            held = []
            for r in records {
                if let row = r.row {
                    try emit(row, number: r.number, location: r.location, raw: r.raw)
                } else if let rejected = r.rejected {
                    context.reject(rejected)
                }
            }
        }

        /// The mapper and plan for the keys `row` has (its own and its siblings).
        private func mapper(for row: JSONRow) throws(TimelineError) -> JSONKeySetMappers.Entry {
            try mappers.entry(for: row) { keys throws(TimelineError) in
                let options = resolvedOptions ?? context.options
                var sources = try options.mapping.mapping.resolve(columns: keys, allowNested: true)
                let siblings = Set(row.siblings.map(\.0)).subtracting(row.pairs.map(\.0))
                // What holds a record names it, not each of its records: a shipment's id is
                // its events' series (their ids are their own, or their place in it).
                if let id = sources[.id], id.columns.allSatisfy(siblings.contains) {
                    if sources[.series] == nil { sources[.series] = id }
                    sources[.id] = nil
                }
                // … before a member of the record's own a default name gave (La Poste's
                // `order`, each event's place in its shipment).
                if options.mapping.mapping.explicit[.series] == nil,
                    let holder = row.siblings.last(where: {
                        JSONRow.holderIDs.contains(FieldMapping.key($0.0))
                            && siblings.contains($0.0)
                    })
                {
                    sources[.series] = FieldSource(columns: [holder.0])
                }
                // A record is described by its own members: what its holder says of itself
                // (USPS's current `status`, a shipment's `description`) stays an attribute.
                let explicit = options.mapping.mapping.explicit
                for field in [MappedField.title, .detail, .status, .category, .amount, .location]
                where explicit[field] == nil
                    && sources[field].map({ $0.columns.allSatisfy(siblings.contains) }) == true
                {
                    sources[field] = nil
                }
                // No start named: the record's own members decide (USPS's eventTimestamp).
                if options.mapping.mapping.explicit[.start] == nil
                    && options.mapping.mapping.events.isEmpty
                {
                    let sniffer = TimeColumnSniffer(
                        parser: DateParser(options: context.dateParser.options))
                    let own = row.pairs.map(\.0)
                    let used = Set(sources.filter { $0.key != .start }.values.flatMap(\.columns))
                    if let choice = sniffer.choose(
                        header: own, rows: [own.map { row.value($0) ?? "" }], used: used,
                        named: sources[.start])
                    {
                        choice.apply(to: &sources)
                        if !reportedChoice {
                            reportedChoice = true
                            context.report(
                                choice.note(file: name, line: nil, verbose: context.verbose))
                        }
                    }
                }
                if sources[.start] != nil {
                    let own = row.pairs.map(\.0)
                    var found = sources.filter {
                        $0.value.columns.allSatisfy { !siblings.contains($0) }
                    }
                    // Only a status a name gave may be replaced (by the title's sentences).
                    let fixed = Set(explicit.keys).union(sources.keys.filter { $0 != .status })
                    FieldWordsSniffer(statuses: options.mapping.statuses).fill(
                        &found, header: own, rows: [own.map { row.value($0) ?? "" }],
                        explicit: fixed)
                    let named = sources[.status]
                    sources.merge(found) { kept, new in kept == named ? new : kept }
                }
                return RecordMapper(
                    sources: sources, options: options.mapping.withDecimalPoints,
                    parser: context.dateParser, format: context.format, file: name)
            }
        }

        private func emit(_ row: JSONRow, number: Int, location: SourceLocation, raw: String)
            throws(TimelineError)
        {
            let entry = try mapper(for: row)
            let mapper = entry.mapper
            var rejection: RecordMapper.Rejection?
            var texts = entry.plan.texts(row)
            if texts[.id] == nil, let place = row.place { texts[.id] = place }
            if texts[.title] == nil, texts[.detail] == nil, texts[.status] == nil,
                texts[.category] == nil, let kind = row.kind
            {
                texts[.title] = kind
            }
            let events = mapper.mapAll(
                texts, number: number, line: location.line, rejection: &rejection)
            if !events.isEmpty {
                if !mapper.notices.isEmpty { context.report(mapper.notices, at: location) }
                for event in events { try context.emit(event) }
            } else if let r = rejection {
                context.reject(
                    RejectedRecord(location: location, raw: raw, reason: r.reason, code: r.code))
            }
        }
    }

    /// Records gathered from arrays within arrays: their places in the file are not kept, so
    /// they are named by their number.
    private func take(_ rows: [JSONRow], into sink: inout RecordSink, name: String) throws {
        for (i, row) in rows.enumerated() {
            var w = JSONWriter()
            w.value(.object(row.pairs))
            try sink.take(
                row, columns: row.pairs.map(\.0) + row.siblings.map(\.0), number: i + 1,
                location: SourceLocation(file: name),
                raw: String(decoding: w.bytes, as: UTF8.self))
        }
        try sink.release()
    }

    private func readDocument(_ bytes: [UInt8], name: String, context: ImportContext)
        throws(TimelineError)
    {
        var lines = LineCounter()
        func location(_ offset: Int) -> SourceLocation {
            let (line, column) = bytes.withByteView { lines.location(of: offset, in: $0) }
            return SourceLocation(file: name, line: line, column: column)
        }
        var parser = JSONParser(bytes: bytes)
        var preset = context.options.preset.forced
        // Records are parsed one by one from the array, so a fault late in the file still
        // lets every complete record before it through.
        var sink = RecordSink(context: context, name: name)
        do {
            var siblings: [(String, JSONValue)] = []
            let path =
                context.options.json.recordsPath?.split(separator: ".").map(String.init) ?? []
            if parser.peek() == UInt8(ascii: "[") {
                var inside: (path: [String], root: JSONValue)?
                if path.first == "[]" {
                    var whole = JSONParser(bytes: bytes)
                    inside = (path, try whole.parseValue())
                } else if path.isEmpty {
                    inside = try recordsInsideElements(bytes, context: context)
                } else {
                    throw TimelineError(
                        .usage,
                        "\(.records, "\(context.options.json.recordsPath!)"): the document is an array, not an object; a path into its elements begins with '[].'",
                        at: location(0))
                }
                if let inside {
                    try take(Self.rows(at: inside.path, in: inside.root), into: &sink, name: name)
                    return
                }
            } else {
                // Find the records array: the --records path, else the preset's, else the one
                // array of objects.
                var nested: [JSONRow]?
                let (array, found) = try locateRecords(
                    &parser, path: path, preset: &preset,
                    candidates: context.options.preset.candidates, nested: &nested, name: name,
                    context: context
                )
                sink = RecordSink(context: context, name: name, preset: preset)
                if let nested {
                    try take(nested, into: &sink, name: name)
                    return
                }
                guard let array else {
                    throw TimelineError(
                        .data, found, at: SourceLocation(file: name), code: "json-shape",
                        notes: [
                            "name the array with \(.records, "PATH") (for example \(.records, "data") or \(.records, "result.traces"))"
                        ])
                }
                siblings = array.siblings
                parser = JSONParser(bytes: bytes, offset: array.offset)
            }
            try parser.expect(UInt8(ascii: "["), "'[' starting the records")
            if parser.consume(UInt8(ascii: "]")) { return }
            var number = 0
            repeat {
                _ = parser.peek()
                let start = parser.offset
                let value = try parser.parseValue()
                number += 1
                let loc = location(start)
                let raw = String(decoding: bytes[start..<parser.offset], as: UTF8.self)
                guard case .object(let pairs) = value else {
                    sink.reject(
                        RejectedRecord(
                            location: loc, raw: raw,
                            reason: "expected a JSON object as a record, found \(value.typeName)",
                            code: .malformedRecord))
                    continue
                }
                try sink.take(
                    JSONRow(pairs: pairs, siblings: siblings),
                    columns: pairs.map(\.0) + siblings.map(\.0), number: number, location: loc,
                    raw: raw)
            } while parser.consume(UInt8(ascii: ","))
            try parser.expect(UInt8(ascii: "]"), "',' or ']' after a record")
            try sink.release()
        } catch let e as JSONSyntaxError {
            try sink.release()
            throw TimelineError(
                .data, "invalid JSON: \(e.message)", at: location(e.offset), code: "json-syntax")
        } catch let e as TimelineError {
            throw e
        } catch {
            throw TimelineError(.data, "\(error)")
        }
    }

    /// The records of every array a path through arrays reaches. A record's place counts the
    /// records of its holder (a tracking number's events from every provider that reported
    /// them), so no two places are the same.
    private static func rows(at path: [String], in root: JSONValue) -> [JSONRow] {
        let key: String = path.last ?? ""
        var counts: [String: Int] = [:]
        return JSONPath.arrays(at: path.joined(separator: "."), in: root).flatMap { found in
            found.items.compactMap { item -> JSONRow? in
                guard case .object(let pairs) = item else { return nil }
                let holder = JSONRow.holderID(in: found.siblings)
                let index = holder.map { counts[$0, default: 0] } ?? 0
                if let holder { counts[holder] = index + 1 }
                return JSONRow(
                    pairs: pairs, siblings: found.siblings,
                    place: holder.map { "\($0)/\(key)/\(index)" })
            }
        }
    }

    /// For a document that is an array whose first element holds no time of its own: the
    /// path to the records inside its elements (`[].shipment.event`), when one holds times.
    private func recordsInsideElements(_ bytes: [UInt8], context: ImportContext) throws -> (
        path: [String], root: JSONValue
    )? {
        let sniffer = TimeColumnSniffer(parser: DateParser(options: context.dateParser.options))
        let finder = JSONRecordsFinder(sniffer: sniffer)
        var first = JSONParser(bytes: bytes)
        try first.expect(UInt8(ascii: "["), "'['")
        _ = first.peek()
        guard !first.consume(UInt8(ascii: "]")), case .object(let pairs) = try first.parseValue(),
            !finder.holdsTime(pairs)
        else { return nil }
        var whole = JSONParser(bytes: bytes)
        let root = try whole.parseValue()
        guard case .success(let found) = finder.choose(in: root), found.path.hasPrefix("[].") else {
            return nil
        }
        return (found.path.split(separator: ".").map(String.init), root)
    }

    /// Where the records array starts, and the scalar fields beside it on the way there; or,
    /// for a path through arrays (`data.accepted[].track_info.tracking.providers[].events`),
    /// the records of every array it reaches, in `nested`.
    private func locateRecords(
        _ parser: inout JSONParser, path: [String], preset: inout MappingPreset?,
        candidates: [MappingPreset], nested: inout [JSONRow]?,
        name: String, context: ImportContext
    ) throws -> (array: (offset: Int, siblings: [(String, JSONValue)])?, message: String) {
        let root = try parser.parseValue()
        var path = path
        if path.isEmpty {
            if preset == nil { preset = candidates.first { $0.matches(document: root) } }
            if let records = preset?.recordsPath(in: root) {
                path = records.split(separator: ".").map(String.init)
            }
        }
        if path.isEmpty, case .object = root {
            // No path named: the array whose objects hold times (`shipments[].events`).
            let finder = JSONRecordsFinder(
                sniffer: TimeColumnSniffer(parser: DateParser(options: context.dateParser.options)))
            switch finder.choose(in: root) {
            case .success(let found):
                path = found.path.split(separator: ".").map(String.init)
                // Said only when there was a choice to make.
                if found.hadOthers {
                    context.report(
                        Diagnostic(
                            .info, found.note, at: SourceLocation(file: name),
                            notes: ["\(.records, "PATH") names another"]))
                }
            case .failure(.several(let paths)):
                throw TimelineError(
                    .data,
                    "several arrays of objects hold as many times: \(paths.map { "'\($0)'" }.joined(separator: ", ")); which holds the records?",
                    at: SourceLocation(file: name), code: "json-shape",
                    notes: paths.map { "\(.records, "'\($0)'")" })
            case .failure(.none): break
            }
        }
        if path.contains(where: { $0.hasSuffix("[]") }) {
            nested = Self.rows(at: path, in: root)
            return (nil, "")
        }
        var node = root
        var siblings: [(String, JSONValue)] = []
        var offsetPath: [String] = []
        if !path.isEmpty {
            for key in path {
                guard case .object(let pairs) = node,
                    let next = pairs.first(where: { $0.0 == key })?.1
                else {
                    return (
                        nil,
                        "\(.records, "\(path.joined(separator: "."))"): no field '\(key)' at '\(offsetPath.joined(separator: "."))'"
                    )
                }
                siblings += pairs.filter { $0.0 != key && !JSONPath.isContainer($0.1) }
                offsetPath.append(key)
                node = next
            }
            guard case .array = node else {
                return (
                    nil, "\(.records, "\(path.joined(separator: "."))"): that field is not an array"
                )
            }
        } else {
            guard case .object(let pairs) = root else {
                return (nil, "expected an array of records or an object holding one")
            }
            let arrays = pairs.filter {
                if case .array(let items) = $0.1 {
                    return items.contains {
                        if case .object = $0 { return true } else { return false }
                    }
                } else {
                    return false
                }
            }
            guard arrays.count == 1 else {
                return (
                    nil,
                    arrays.isEmpty
                        ? "no array of objects in the top-level object"
                        : "several arrays of objects (\(arrays.map { "'\($0.0)'" }.joined(separator: ", "))); which holds the records?"
                )
            }
            offsetPath = [arrays[0].0]
            siblings = pairs.filter { $0.0 != arrays[0].0 && !JSONPath.isContainer($0.1) }
        }
        // Find the byte offset of the array by walking the path again with a fresh parser.
        var walker = JSONParser(bytes: parser.bytes)
        for key in offsetPath {
            try walker.expect(UInt8(ascii: "{"), "'{'")
            while true {
                let k = try walker.parseString()
                try walker.expect(UInt8(ascii: ":"), "':'")
                if k == key { break }
                _ = try walker.parseValue()
                try walker.expect(UInt8(ascii: ","), "','")
            }
        }
        _ = walker.peek()
        return ((walker.offset, siblings), "")
    }
}
