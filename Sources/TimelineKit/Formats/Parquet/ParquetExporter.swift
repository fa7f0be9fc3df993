import Synchronization

/// Writes events as a Parquet file: their fields go to column buffers, and every
/// `rowGroupBytes` of buffered values (or `rowGroupRows` events) become a row group, written
/// column by column; the footer follows the last. Memory holds one row group.
final class ParquetExporter: PartBuildingExporter {
    private let schema: ParquetSchema
    private let compression: ParquetFileLayout.Compression
    private let rowGroupBytes: Int
    private let rowGroupRows: Int
    private var columns: [ParquetColumnBuffer] = []
    /// Empty column buffers, which a part fills on a worker thread.
    private let emptyColumns: [ParquetColumnBuffer]
    /// The room each column of the largest part so far took, which a new part reserves:
    /// buffers that grow from nothing copy themselves a dozen times on the way.
    private let partRoom: Mutex<[ParquetColumnBuffer.Room]>
    /// The schema's fields' paths, in order: what shredding walks for every event.
    private let paths: [FieldPath]
    private var rows = 0
    /// Bytes written so far: where the next row group starts.
    private var offset = 0
    private var rowGroups: [ParquetFileLayout.RowGroupMetadata] = []
    private var zone = "UTC"

    /// Column chunks encoded ahead of the one being written: enough to keep two cores busy
    /// past a large chunk.
    private static let chunksInFlight = 6

    /// Row groups are checked against `rowGroupBytes` every this many events.
    private static let sizeCheckInterval = 4096

    /// - Parameter memory: about how many bytes the run may hold; a row group takes at most a
    ///   quarter of it (at least a megabyte).
    init(schema: ParquetSchema, settings: ParquetWriteSettings, memory: Int) {
        self.schema = schema
        compression = settings.compression
        rowGroupBytes = min(settings.rowGroupBytes, max(1 << 20, memory / 4))
        rowGroupRows = settings.rowGroupRows
        for field in schema.fields {
            for leaf in ParquetSchema.leaves(of: field) {
                columns.append(ParquetColumnBuffer(kind: field.kind, leaf: leaf))
            }
        }
        emptyColumns = columns
        partRoom = Mutex(Array(repeating: ParquetColumnBuffer.Room(), count: columns.count))
        paths = schema.fields.map(\.path)
    }

    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {
        zone = header.zone
        try out.write(ParquetFileLayout.magic)
        offset = ParquetFileLayout.magic.count
    }

    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        try Self.shred(event, paths: paths, into: &columns)
        rows += 1
        if rows == rowGroupRows
            || (rows % Self.sizeCheckInterval == 0
                && columns.reduce(0, { $0 + $1.byteCount }) >= rowGroupBytes)
        {
            try flushRowGroup(to: out)
        }
    }

    func makePart() -> any ExportPart {
        let room = partRoom.withLock { $0 }
        var columns = emptyColumns
        for i in columns.indices { columns[i].reserve(room[i]) }
        return ParquetPart(paths: paths, columns: columns)
    }

    /// Takes a part's columns a stretch at a time: up to the end of the row group, and up to
    /// each `sizeCheckInterval`-th row, where the row group's size is checked — as writing
    /// its events one by one does.
    func write(part: consuming any ExportPart, to out: OutputWriter) throws(TimelineError) {
        let part = part as! ParquetPart
        if let failure = part.failure { throw failure }
        partRoom.withLock { room in
            for i in room.indices { room[i].extend(to: part.columns[i].room) }
        }
        var cursors = [ParquetColumnBuffer.Cursor](repeating: .init(), count: columns.count)
        var taken = 0
        while taken < part.count {
            let stretch = min(
                part.count - taken, rowGroupRows - rows,
                Self.sizeCheckInterval - rows % Self.sizeCheckInterval)
            for i in columns.indices {
                columns[i].append(from: part.columns[i], events: stretch, cursor: &cursors[i])
            }
            rows += stretch
            taken += stretch
            if rows == rowGroupRows
                || (rows % Self.sizeCheckInterval == 0
                    && columns.reduce(0, { $0 + $1.byteCount }) >= rowGroupBytes)
            {
                try flushRowGroup(to: out)
                // The indices known so far were the finished row group's dictionary's.
                for i in cursors.indices { cursors[i].indexHere.removeAll(keepingCapacity: true) }
            }
        }
    }

    func finish(to out: OutputWriter) throws(TimelineError) {
        if rows > 0 { try flushRowGroup(to: out) }
        try out.write(
            ParquetFileLayout.footer(
                schema: schema, rowGroups: rowGroups,
                keyValues: [("timeline.schema", DocumentHeader.schemaID), ("timeline.zone", zone)],
                createdBy: "timeline"))
    }

    /// Writes the buffered rows as a row group. Its column chunks are encoded and compressed
    /// on worker threads — the rest of the run waits for this thread meanwhile — and written
    /// in order as they are done, each placed after the ones before it; at most
    /// `chunksInFlight` chunks' bytes are held at once.
    private func flushRowGroup(to out: OutputWriter) throws(TimelineError) {
        let start = offset
        for i in columns.indices {
            // A dictionary of mostly distinct values costs a reader more than it saves.
            if columns[i].usesDictionary
                && columns[i].dictionaryCount * 4 > columns[i].valueCount * 3
            {
                columns[i].dropDictionary()
            }
        }
        var chunks: [ParquetFileLayout.ChunkMetadata] = []
        let work = OrderedWork<(bytes: [UInt8], metadata: ParquetFileLayout.ChunkMetadata)>(
            limit: Self.chunksInFlight)
        let write = {
            (chunk: consuming (bytes: [UInt8], metadata: ParquetFileLayout.ChunkMetadata))
                throws(TimelineError) in
            chunks.append(chunk.metadata.placed(at: self.offset))
            try out.write(chunk.bytes)
            self.offset += chunk.bytes.count
        }
        let compression = compression
        do {
            for column in columns {
                try work.submit(
                    {
                        var bytes: [UInt8] = []
                        let metadata = ParquetFileLayout.writeChunk(
                            column, compression: compression, at: 0, into: &bytes)
                        return (bytes, metadata)
                    }, deliver: write)
            }
            try work.finish(deliver: write)
        } catch {
            work.abandon()
            throw error
        }
        for i in columns.indices { columns[i].reset() }
        rowGroups.append(
            ParquetFileLayout.RowGroupMetadata(chunks: chunks, rows: rows, fileOffset: start))
        rows = 0
    }

    // MARK: Fields to columns

    /// Appends `event`'s value of every field to its columns (a list or a map has several
    /// values, or none; a map has two columns).
    fileprivate static func shred(
        _ event: Event, paths: [FieldPath], into columns: inout [ParquetColumnBuffer]
    ) throws(TimelineError) {
        var c = 0
        for path in paths {
            switch path {
            case .text(let text):
                switch text {
                case .id: columns[c].append(event.identity)
                case .title: columns[c].append(event.title)
                case .detail: columns[c].append(optional: event.detail)
                case .status: columns[c].append(optional: event.status?.rawValue)
                case .category: columns[c].append(optional: event.category)
                case .location: columns[c].append(optional: event.location)
                case .series: columns[c].append(optional: event.series)
                }
            case .timePart(let time, let part):
                switch time {
                case .start: try add(part, of: event.start, event, &columns[c])
                case .end:
                    if let end = event.end {
                        try add(part, of: end, event, &columns[c])
                    } else {
                        columns[c].appendNull()
                    }
                case .recorded:
                    if let recorded = event.recorded {
                        try add(part, of: recorded, event, &columns[c])
                    } else {
                        columns[c].appendNull()
                    }
                }
            case .amountPart(let part):
                if let amount = event.amount {
                    switch part {
                    case .value:
                        guard let unscaled = unscaled(amount.value) else { throw refusal(event) }
                        columns[c].append(fixed16: unscaled)
                    case .currency: columns[c].append(optional: amount.currency)
                    case .neutral: columns[c].append(amount.neutral)
                    }
                } else {
                    columns[c].appendNull()
                }
            case .list(let list):
                let items = list == .links ? event.links : event.tags
                if items.isEmpty { columns[c].appendNull(definition: 1) }
                for (i, item) in items.enumerated() {
                    columns[c].append(item, repetition: i == 0 ? 0 : 1)
                }
            case .attributes:
                if event.attributes.isEmpty {
                    columns[c].appendNull(definition: 1)
                    columns[c + 1].appendNull(definition: 1)
                } else {
                    for (i, key) in event.attributes.keys.sorted().enumerated() {
                        columns[c].append(key, repetition: i == 0 ? 0 : 1)
                        columns[c + 1].append(event.attributes[key]!, repetition: i == 0 ? 0 : 1)
                    }
                }
                c += 1
            case .attribute(let name): columns[c].append(optional: event.attributes[name])
            case .sourcePart(let part):
                if let source = event.source {
                    switch part {
                    case .format: columns[c].append(source.format)
                    case .file: columns[c].append(source.file)
                    case .record: columns[c].append(int64: Int64(source.record))
                    case .line:
                        if let line = source.line {
                            columns[c].append(int64: Int64(line))
                        } else {
                            columns[c].appendNull()
                        }
                    }
                } else {
                    columns[c].appendNull()
                }
            case .time, .amount, .source:
                preconditionFailure("the schema holds only leaf paths")
            }
            c += 1
        }
    }

    /// A part of a time value, as `--fields` has it: `instant`, `local`, `offset`, `zone`
    /// for a moment, `date` for an all-day value, `basis` and `raw` for either.
    private static func add(
        _ part: FieldPath.TimePart, of value: TimeValue, _ event: Event,
        _ column: inout ParquetColumnBuffer
    ) throws(TimelineError) {
        switch part {
        case .instant:
            guard let instant = value.instant else { return column.appendNull() }
            guard let n = nanosecondsSince1970(instant.seconds, instant.nanoseconds) else {
                throw refusal(event)
            }
            column.append(int64: n)
        case .local:
            guard let instant = value.instant, let offset = value.offset else {
                return column.appendNull()
            }
            let seconds = instant.seconds + Int64(offset.seconds)
            guard let n = nanosecondsSince1970(seconds, instant.nanoseconds) else {
                throw refusal(event)
            }
            column.append(int64: n)
        case .offset:
            guard let offset = value.offset else { return column.appendNull() }
            column.append(int32: Int32(offset.seconds))
        case .zone: column.append(optional: value.zone)
        case .basis: column.append(value.basis.rawValue)
        case .date:
            guard value.instant == nil, let date = value.date else { return column.appendNull() }
            column.append(int32: Int32(date.daysSinceEpoch))
        case .raw: column.appendRaw(of: value)
        }
    }

    /// The error for an event Parquet cannot hold. Such an event is rejected against `limit`
    /// before it reaches the writer; this is the writer's own last guard.
    private static func refusal(_ event: Event) -> TimelineError {
        TimelineError(
            .data, "event '\(event.id)': \(unwritable(event) ?? "cannot be written as Parquet")",
            code: FindingCode.outOfRange.rawValue)
    }

    /// Nanoseconds since 1970 in an INT64, which holds 1677-09-21 to 2262-04-11.
    private static func nanosecondsSince1970(_ seconds: Int64, _ nanoseconds: Int32) -> Int64? {
        let (scaled, o1) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, o2) = scaled.addingReportingOverflow(Int64(nanoseconds))
        return o1 || o2 ? nil : total
    }

    private static func outsideNanoseconds(_ name: String, _ value: TimeValue) -> String {
        "\(name) '\(value.raw ?? value.rfc3339)' is outside the years a Parquet TIMESTAMP(NANOS) holds (1677-09-21 to 2262-04-11); write it as NDJSON or CSV instead"
    }

    /// The amount as DECIMAL(38, 18)'s unscaled integer.
    private static func unscaled(_ value: DecimalNumber) -> Int128? {
        var unscaled = value.coefficient
        var overflow = false
        for _ in value.scale..<ParquetSchema.decimalScale where !overflow {
            (unscaled, overflow) = unscaled.multipliedReportingOverflow(by: 10)
        }
        return !overflow && unscaled < decimalLimit && unscaled > -decimalLimit ? unscaled : nil
    }

    private static func tooLarge(_ value: DecimalNumber) -> String {
        "amount '\(value)' has more than 20 digits before the decimal point, more than a Parquet DECIMAL(38, 18) holds; write it as NDJSON or CSV instead"
    }

    /// Why Parquet cannot hold `event` (an instant or wall time outside its nanoseconds, an
    /// amount too large for its decimals); nil when it can.
    static func unwritable(_ event: Event) -> String? {
        // One by one rather than over an array of the three: every event passes here.
        if let reason = outside("start", event.start) { return reason }
        if let end = event.end, let reason = outside("end", end) { return reason }
        if let recorded = event.recorded, let reason = outside("recorded", recorded) {
            return reason
        }
        if let amount = event.amount, unscaled(amount.value) == nil {
            return tooLarge(amount.value)
        }
        return nil
    }

    private static func outside(_ name: String, _ value: TimeValue) -> String? {
        guard let instant = value.instant else { return nil }
        let local = instant.seconds + Int64(value.offset?.seconds ?? 0)
        guard nanosecondsSince1970(instant.seconds, instant.nanoseconds) != nil,
            nanosecondsSince1970(local, instant.nanoseconds) != nil
        else { return outsideNanoseconds(name, value) }
        return nil
    }

    var limit: OutputLimit? { OutputLimit(reason: Self.unwritable) }
}

/// A batch's events as column buffers, filled on the worker thread that mapped them.
struct ParquetPart: ExportPart {
    let paths: [FieldPath]
    var columns: [ParquetColumnBuffer]
    private(set) var count = 0
    /// Set if an event could not be written: the exporter's limit keeps such events out,
    /// so this is the writer's last guard, raised when the part is written.
    private(set) var failure: TimelineError?

    mutating func add(_ event: borrowing Event) {
        guard failure == nil else { return }
        do throws(TimelineError) {
            try ParquetExporter.shred(event, paths: paths, into: &columns)
            count += 1
        } catch {
            failure = error
        }
    }
}

/// 10^38: DECIMAL(38, …) holds unscaled values below it.
private let decimalLimit: Int128 = (0..<ParquetSchema.decimalPrecision).reduce(1) { r, _ in r * 10 }
