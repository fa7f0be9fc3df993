/// What the partitioned rules (`PartitionedRule`) read of each event, kept by partition of
/// the event's key — its series (else its file) or its id — so that every event of one key
/// lands in one partition, in input order, and each partition can be checked alone.
///
/// A record is a sorted-run frame (`SortedRuns`: the key's hash where a run has its input
/// index, then the payload's length) and the payload: the event's file number (4 bytes,
/// first, so the validator can renumber it in place), line (4), record number (8), flags
/// (1: has a source, has a time, has a series, has an id, a generated id, an offset its zone
/// explains), the start's basis (1); with a
/// time, its seconds (8), offset (4) and origin hash (4); then the start as written, the
/// series and the id as byte strings (the last two only when flagged). The id importers
/// give a record without one (`orders.csv:12`) is not written: a flag says to make it again
/// from the file and record when the record is read back.
enum KeyedFactCodec {
    /// How many partitions one level of the hash makes (4 bits of it).
    static let fanOut = 16

    /// The partition of a key's hash at `level` (each level takes the next 4 bits).
    static func partition(of hash: Int, level: Int) -> Int {
        (hash >> (4 * level)) & (fanOut - 1)
    }

    private enum Flag {
        static let source: UInt8 = 1
        static let time: UInt8 = 2
        static let series: UInt8 = 4
        static let id: UInt8 = 8
        static let generatedID: UInt8 = 16
        /// `EventFacts.Marks`, shifted to the top bits.
        static let marksShift: UInt8 = 5
    }

    /// The records of `batch` for the rules keyed by `key`, one buffer per partition at
    /// level 0 (file numbers are the batch's).
    static func encode(_ batch: ValidationBatch, key: PartitionKey) -> [[UInt8]] {
        var parts = [[UInt8]](repeating: [], count: fanOut)
        var scratch: [UInt8] = []
        // A file's events without a series are one group: keyed by the file's name.
        let fileKeys =
            key == .seriesOrFile
            ? batch.files.map { StringIndex.hash($0) ^ 0x5851_F42D_4C95_7F2D } : []
        for e in batch.facts {
            switch key {
            case .seriesOrFile:
                // What the series rules read: a time with its offset, of a series, or written
                // with an offset (a file's events without a series are one group of TZ102).
                guard let instant = e.instant, let offset = e.offset,
                    e.hasSeries || e.basis == .offset
                else { continue }
                let series = e.hasSeries ? batch.series.strings[Int(e.series)] : nil
                let hash =
                    e.hasSeries ? batch.series.hash(at: Int(e.series)) : fileKeys[Int(e.file)]
                let key = Int(truncatingIfNeeded: hash) & Int.max
                batch.withStartBytes(e) { start in
                    append(
                        e, key: key, time: (instant.seconds, Int32(offset.seconds)), start: start,
                        series: series, id: nil,
                        to: &parts[partition(of: key, level: 0)])
                }
            case .id:
                // An id importers gave a record without one is written out: in a partition it
                // is compared as text with every other id.
                if e.id == nil {
                    scratch.removeAll(keepingCapacity: true)
                    scratch += batch.generatedIDPrefixes[Int(e.file)]
                    scratch += String(e.record).utf8
                }
                batch.withIDBytes(e, orGenerated: scratch) { id in
                    let key = Int(truncatingIfNeeded: StringIndex.hash(bytes: id)) & Int.max
                    append(
                        e, key: key, time: nil, start: .empty, series: nil,
                        id: e.id == nil ? nil : id, generatedID: e.id == nil,
                        to: &parts[partition(of: key, level: 0)])
                }
            }
        }
        return parts
    }

    private static func append(
        _ e: EventFacts, key: Int, time: (seconds: Int64, offset: Int32)?, start: ByteView,
        series: String?, id: ByteView?,
        generatedID: Bool = false, to out: inout [UInt8]
    ) {
        BinaryWriter.int(Int64(key), &out)  // the frame: the key's hash, then the length
        let lengthAt = BinaryWriter.beginRecord(&out)
        BinaryWriter.u32(UInt32(bitPattern: e.file), &out)
        BinaryWriter.u32(UInt32(bitPattern: e.line), &out)
        BinaryWriter.int(Int64(e.record), &out)
        var flags: UInt8 = e.hasSource ? Flag.source : 0
        if time != nil { flags |= Flag.time }
        if series != nil { flags |= Flag.series }
        if id != nil { flags |= Flag.id }
        if generatedID { flags |= Flag.generatedID }
        flags |= e.marks.rawValue << Flag.marksShift
        out.append(flags)
        out.append(UInt8(TimeBasis.allCases.firstIndex(of: e.basis)!))
        if let time {
            BinaryWriter.int(time.seconds, &out)
            BinaryWriter.u32(UInt32(bitPattern: time.offset), &out)
            BinaryWriter.u32(e.origin, &out)
        }
        BinaryWriter.bytes(start, &out)
        if let series { BinaryWriter.string(series, &out) }
        if let id { BinaryWriter.bytes(id, &out) }
        BinaryWriter.endRecord(at: lengthAt, &out)
    }

    /// Renumbers the files of the records in `bytes` (a batch's or a saved run's numbers to
    /// the run's). False when the records do not fit the bytes or name a file not in `files`
    /// (only a damaged saved state can); with `checkingPayloads`, also when a payload is not
    /// one `append` writes, so a saved state is refused as it is read rather than when its
    /// partition is checked.
    @discardableResult
    static func renumberFiles(
        _ bytes: inout [UInt8], _ files: [Int32], checkingPayloads: Bool = false
    ) -> Bool {
        var at = 0
        while at < bytes.count {
            guard at + 16 <= bytes.count else { return false }
            var length = 0
            for b in 0..<4 { length |= Int(bytes[at + 8 + b]) << (8 * b) }
            let fileAt = at + 12
            guard length >= 4, length <= bytes.count - fileAt else { return false }
            if checkingPayloads, !isPayload(bytes, fileAt..<(fileAt + length)) { return false }
            var file: UInt32 = 0
            for b in 0..<4 { file |= UInt32(bytes[fileAt + b]) << (8 * UInt32(b)) }
            guard Int(file) < files.count else { return false }
            let run = UInt32(bitPattern: files[Int(file)])
            for b in 0..<4 { bytes[fileAt + b] = UInt8(truncatingIfNeeded: run >> (8 * UInt32(b))) }
            at += 12 + length
        }
        return true
    }

    /// Whether `range` of `bytes` holds exactly one payload as `append` writes it.
    private static func isPayload(_ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        // Reads may run past the range into the next record: only the end is compared.
        var r = BinaryReader(bytes: bytes, at: range.lowerBound)
        do throws(BinaryReader.Corrupt) {
            _ = (try r.u32(), try r.u32())
            guard try r.int() >= 0 else { return false }
            let flags = try r.byte()  // every bit has a meaning
            guard Int(try r.byte()) < TimeBasis.allCases.count else { return false }
            if flags & Flag.time != 0 { _ = (try r.int(), try r.u32(), try r.u32()) }
            _ = try r.bytesRange()
            if flags & Flag.series != 0 { _ = try r.bytesRange() }
            if flags & Flag.id != 0 { _ = try r.bytesRange() }
            return r.at == range.upperBound
        } catch {
            return false
        }
    }

    /// Adds the record whose payload starts at `at` in `bytes` to `batch` (`scratch` is
    /// where a generated id is made again; its contents do not matter).
    static func decode(
        _ bytes: [UInt8], at: Int, into batch: inout ValidationBatch, scratch: inout [UInt8]
    ) throws(BinaryReader.Corrupt) {
        var r = BinaryReader(bytes: bytes, at: at)
        let file = Int32(bitPattern: try r.u32())
        let line = Int32(bitPattern: try r.u32())
        let record = Int(try r.int())
        let flags = try r.byte()
        let b = Int(try r.byte())
        guard b < TimeBasis.allCases.count, file >= 0, Int(file) < batch.files.count else {
            throw BinaryReader.Corrupt()
        }
        var time: (instant: Instant, offset: UTCOffset, origin: UInt32)?
        if flags & Flag.time != 0 {
            let seconds = try r.int()
            let offset = Int32(bitPattern: try r.u32())
            time = (
                Instant(unchecked: seconds, nanoseconds: 0), UTCOffset(seconds: Int(offset)),
                try r.u32()
            )
        }
        let start = try r.bytesRange()
        let series = flags & Flag.series != 0 ? try r.bytesRange() : nil
        let id = flags & Flag.id != 0 ? try r.bytesRange() : nil
        func add(generatedID: ByteView?) {
            bytes.withByteView { all in
                batch.addReplayed(
                    file: file, line: line, record: record, hasSource: flags & Flag.source != 0,
                    basis: TimeBasis.allCases[b],
                    marks: EventFacts.Marks(rawValue: flags >> Flag.marksShift), time: time,
                    start: all[start], series: series.map { all[$0] },
                    id: id.map { all[$0] } ?? generatedID)
            }
        }
        if flags & Flag.generatedID != 0 {
            scratch.removeAll(keepingCapacity: true)
            scratch += batch.generatedIDPrefixes[Int(file)]
            appendDigits(record, width: 1, to: &scratch)
            scratch.withByteView { add(generatedID: $0) }
        } else {
            add(generatedID: nil)
        }
    }
}

/// Which events a partitioned rule must see together.
enum PartitionKey: CaseIterable {
    /// Every event of one series (events without one: of one file).
    case seriesOrFile
    /// Every event of one id.
    case id

    /// Its name in saved states.
    var name: String {
        switch self {
        case .seriesOrFile: return "series-or-file"
        case .id: return "id"
        }
    }
}

/// The keyed facts of one run (`KeyedFactCodec`), by partition: in memory while they take
/// under `budget` bytes, then in one file per partition in `directory` (unlinked at once,
/// as sorted runs are). Read back one partition at a time; a partition too large to check
/// within the budget is split again by the next 4 bits of the hash into a store of its own.
final class KeyedFactStore {
    private let budget: Int
    private let directory: String?
    private let level: Int
    private var held = [[UInt8]](repeating: [], count: KeyedFactCodec.fanOut)
    private var heldBytes = 0
    private var sizes = [Int](repeating: 0, count: KeyedFactCodec.fanOut)
    /// One file per partition, once spilled.
    private var files: [Int32] = []
    /// False when every record has one key (a series or an id too large for the budget on
    /// its own): splitting again cannot divide it.
    private var splittable = true
    /// A spilled partition's buffer is written out when it reaches this.
    private static let writeSize = 1 << 16

    /// - Parameter directory: where partitions spill; nil keeps everything in memory.
    init(budget: Int, directory: String?, level: Int = 0) {
        self.budget = budget
        self.directory = directory
        self.level = level
    }

    deinit {
        for fd in files { System.closeQuietly(fd) }
    }

    /// Whether partitions went to files.
    var spilled: Bool { !files.isEmpty }

    /// Takes records, one buffer per partition of this store's level.
    func append(_ parts: [[UInt8]]) throws(TimelineError) {
        for (p, bytes) in parts.enumerated() where !bytes.isEmpty {
            sizes[p] += bytes.count
            heldBytes -= held[p].capacity
            if held[p].isEmpty { held[p] = bytes } else { held[p] += bytes }
            heldBytes += held[p].capacity
            if spilled, held[p].count >= Self.writeSize { try write(p) }
        }
        if heldBytes > budget { try spill() }
    }

    /// Moves the partitions to files from now on (nothing without a directory).
    func spill() throws(TimelineError) {
        guard !spilled, let directory else { return }
        files = []
        for _ in 0..<KeyedFactCodec.fanOut {
            files.append(
                try SortedRuns.createFile(in: directory, purpose: "for the validation's facts"))
        }
        for p in held.indices { try write(p) }
    }

    private func write(_ p: Int) throws(TimelineError) {
        try SortedRuns.write(
            held[p], to: files[p], directory: directory ?? "", what: "the validation's facts")
        heldBytes -= held[p].capacity
        held[p] = []
    }

    /// Hands each partition to `body` in turn (its records in the order they were
    /// appended) with its number at level 0; a partition too large to check within the
    /// budget is split first, and each of its parts handed over with the number it was split from.
    func forEachPartition(_ body: (_ number: Int, Partition) throws(TimelineError) -> Void)
        throws(TimelineError)
    {
        for p in 0..<KeyedFactCodec.fanOut where sizes[p] > 0 {
            if spilled { try write(p) }
            let partition = Partition(store: self, number: p)
            if sizes[p] > budget / 2, splittable, let directory, level + 1 < 64 / 4 {
                let split = KeyedFactStore(budget: budget, directory: directory, level: level + 1)
                var parts = [[UInt8]](repeating: [], count: KeyedFactCodec.fanOut)
                var pending = 0
                var firstKey: Int?
                split.splittable = false
                try partition.forEachRecord { key, bytes, payload throws(TimelineError) in
                    if firstKey == nil {
                        firstKey = key
                    } else if key != firstKey {
                        split.splittable = true
                    }
                    let q = KeyedFactCodec.partition(of: key, level: level + 1)
                    parts[q] +=
                        bytes[(payload - 12)..<(payload + Self.payloadLength(bytes, payload))]
                    pending += 1
                    if pending == 4096 {
                        try split.append(parts)
                        parts = [[UInt8]](repeating: [], count: KeyedFactCodec.fanOut)
                        pending = 0
                    }
                }
                try split.append(parts)
                release(p)
                try split.forEachPartition { _, part throws(TimelineError) in try body(p, part) }
            } else {
                try body(p, partition)
                release(p)
            }
        }
    }

    /// One partition of a store, to read its records.
    struct Partition {
        fileprivate let store: KeyedFactStore
        fileprivate let number: Int

        /// Calls `visit` with each record: its key's hash, the bytes its payload lies in and
        /// where the payload starts there.
        func forEachRecord(
            _ visit: (_ key: Int, _ bytes: [UInt8], _ payload: Int) throws(TimelineError) -> Void
        ) throws(TimelineError) {
            try store.forEachRecord(of: number, visit)
        }
    }

    /// The records of partition `p` of this level as appended (frames and payloads), to save.
    func records(of p: Int) throws(TimelineError) -> [UInt8] {
        guard spilled else { return held[p] }
        try write(p)
        try SortedRuns.rewind(files[p])
        var out: [UInt8] = []
        out.reserveCapacity(sizes[p])
        var reader = RunReader(fd: files[p])
        while let record = try reader.next() {
            out += reader.bytes[(record.lengthAt - 8)..<(record.lengthAt + 4 + record.length)]
        }
        return out
    }

    private static func payloadLength(_ bytes: [UInt8], _ payload: Int) -> Int {
        var length = 0
        for b in 0..<4 { length |= Int(bytes[payload - 4 + b]) << (8 * b) }
        return length
    }

    private func release(_ p: Int) {
        heldBytes -= held[p].capacity
        held[p] = []
        if spilled {
            System.closeQuietly(files[p])
            files[p] = -1
        }
    }

    private func forEachRecord(
        of p: Int, _ visit: (Int, [UInt8], Int) throws(TimelineError) -> Void
    ) throws(TimelineError) {
        if !spilled {
            let bytes = held[p]
            var at = 0
            while at + 12 <= bytes.count {
                var hash = 0
                for b in 0..<8 { hash |= Int(bytes[at + b]) << (8 * b) }
                let length = Self.payloadLength(bytes, at + 12)
                try visit(hash, bytes, at + 12)
                at += 12 + length
            }
            return
        }
        try SortedRuns.rewind(files[p])
        var reader = RunReader(fd: files[p])
        while let record = try reader.next() {
            try visit(record.index, reader.bytes, record.lengthAt + 4)
        }
    }
}
