/// The bytes of a Parquet file around the values: each column chunk's pages with their
/// headers, and the footer (the schema, the row groups and where their chunks are)
/// in Thrift's compact protocol. Data pages are version 1; levels RLE; values PLAIN, or
/// RLE_DICTIONARY after a PLAIN dictionary page.
enum ParquetFileLayout {
    static let magic: [UInt8] = Array("PAR1".utf8)

    enum Compression: String, CaseIterable, Sendable {
        case snappy, none

        /// The codec's number in the footer: UNCOMPRESSED 0, SNAPPY 1.
        var codec: Int32 { self == .snappy ? 1 : 0 }

        func apply(_ body: [UInt8]) -> [UInt8] {
            guard self == .snappy else { return body }
            var out: [UInt8] = []
            Snappy.compress(body, into: &out)
            return out
        }
    }

    /// Where a written column chunk is and what it holds, for the footer.
    struct ChunkMetadata {
        let path: [String]
        let physicalType: Int32
        let codec: Int32
        let usesDictionary: Bool
        let entryCount: Int
        let fileOffset: Int
        let dataPageOffset: Int
        let dictionaryPageOffset: Int?
        let uncompressedSize: Int
        let compressedSize: Int
        /// Minimum and maximum PLAIN encoded, and the nulls, for integer columns.
        let statistics: (minimum: [UInt8], maximum: [UInt8], nulls: Int)?

        /// The metadata of the same chunk written `offset` bytes further into the file.
        func placed(at offset: Int) -> ChunkMetadata {
            ChunkMetadata(
                path: path, physicalType: physicalType, codec: codec,
                usesDictionary: usesDictionary, entryCount: entryCount,
                fileOffset: fileOffset + offset, dataPageOffset: dataPageOffset + offset,
                dictionaryPageOffset: dictionaryPageOffset.map { $0 + offset },
                uncompressedSize: uncompressedSize, compressedSize: compressedSize,
                statistics: statistics)
        }
    }

    struct RowGroupMetadata {
        let chunks: [ChunkMetadata]
        let rows: Int
        let fileOffset: Int
    }

    // Encodings: PLAIN 0, RLE 3, RLE_DICTIONARY 8. Page types: DATA_PAGE 0, DICTIONARY_PAGE 2.

    /// `column`'s pages, appended to `out`, which begins at `offset` in the file.
    static func writeChunk(
        _ column: ParquetColumnBuffer, compression: Compression, at offset: Int,
        into out: inout [UInt8]
    ) -> ChunkMetadata {
        let start = out.count
        var uncompressed = 0
        var dictionaryPageOffset: Int?
        if column.usesDictionary {
            dictionaryPageOffset = offset
            uncompressed += page(
                type: 2, body: column.dictionaryPlain, compression: compression, into: &out
            ) { w in
                w.structure(7) { d in
                    d.i32(1, Int32(column.dictionaryCount))
                    d.i32(2, 0)
                }
            }
        }
        let dataPageOffset = offset + out.count - start
        var body: [UInt8] = []
        if column.leaf.maxRepetition > 0 {
            ParquetHybridEncoding.appendLevels(
                column.repetitions, maximum: column.leaf.maxRepetition, into: &body)
        }
        if column.leaf.maxDefinition > 0 {
            ParquetHybridEncoding.appendLevels(
                column.definitions, maximum: column.leaf.maxDefinition, into: &body)
        }
        if column.usesDictionary {
            let width = ParquetHybridEncoding.bitWidth(column.dictionaryCount - 1)
            body.append(UInt8(width))
            ParquetHybridEncoding.encode(column.indices, bitWidth: width, into: &body)
        } else {
            body += column.plain
        }
        uncompressed += page(type: 0, body: body, compression: compression, into: &out) { w in
            w.structure(5) { d in
                d.i32(1, Int32(column.entryCount))
                d.i32(2, column.usesDictionary ? 8 : 0)
                d.i32(3, 3)
                d.i32(4, 3)
            }
        }
        var statistics: (minimum: [UInt8], maximum: [UInt8], nulls: Int)?
        if column.kind.hasIntegerStatistics {
            // PLAIN, as the column's values are: four bytes for INT32, eight for INT64.
            func plain(_ v: Int64) -> [UInt8] {
                var bytes: [UInt8] = []
                if column.kind.physicalType == 1 {
                    BinaryWriter.u32(UInt32(truncatingIfNeeded: v), &bytes)
                } else {
                    BinaryWriter.int(v, &bytes)
                }
                return bytes
            }
            statistics =
                column.valueCount > 0
                ? (plain(column.minimum), plain(column.maximum), column.nullCount)
                : ([], [], column.nullCount)
        }
        return ChunkMetadata(
            path: column.leaf.path, physicalType: column.kind.physicalType,
            codec: compression.codec, usesDictionary: column.usesDictionary,
            entryCount: column.entryCount,
            fileOffset: offset, dataPageOffset: dataPageOffset,
            dictionaryPageOffset: dictionaryPageOffset,
            uncompressedSize: uncompressed, compressedSize: out.count - start,
            statistics: statistics)
    }

    /// A page: its header (type, sizes, then what `header` adds) and its body, compressed.
    /// Returns the page's size uncompressed, header included.
    private static func page(
        type: Int32, body: [UInt8], compression: Compression, into out: inout [UInt8],
        header: (inout ThriftCompactWriter) -> Void
    ) -> Int {
        let compressed = compression.apply(body)
        var w = ThriftCompactWriter()
        w.i32(1, type)
        w.i32(2, Int32(body.count))
        w.i32(3, Int32(compressed.count))
        header(&w)
        w.stop()
        out += w.bytes
        out += compressed
        return w.bytes.count + body.count
    }

    /// The footer: FileMetaData, its length in four bytes (little endian), and the magic.
    static func footer(
        schema: ParquetSchema, rowGroups: [RowGroupMetadata], keyValues: [(String, String)],
        createdBy: String
    ) -> [UInt8] {
        var w = ThriftCompactWriter()
        w.i32(1, 1)
        let elements = schemaElements(schema)
        w.listHeader(2, of: .structure, count: elements.count)
        for element in elements { w.structBody(element) }
        w.i64(3, Int64(rowGroups.reduce(0) { $0 + $1.rows }))
        w.listHeader(4, of: .structure, count: rowGroups.count)
        for (ordinal, group) in rowGroups.enumerated() {
            w.structBody { g in
                g.listHeader(1, of: .structure, count: group.chunks.count)
                for chunk in group.chunks { g.structBody { columnChunk(chunk, &$0) } }
                g.i64(2, Int64(group.chunks.reduce(0) { $0 + $1.uncompressedSize }))
                g.i64(3, Int64(group.rows))
                g.i64(5, Int64(group.fileOffset))
                g.i64(6, Int64(group.chunks.reduce(0) { $0 + $1.compressedSize }))
                g.i32(7, Int32(ordinal))
            }
        }
        w.listHeader(5, of: .structure, count: keyValues.count)
        for (key, value) in keyValues {
            w.structBody { kv in
                kv.string(1, key)
                kv.string(2, value)
            }
        }
        w.string(6, createdBy)
        // Every column's statistics order by its type's own order (signed integers).
        let leafCount = schema.fields.reduce(0) { $0 + ParquetSchema.leaves(of: $1).count }
        w.listHeader(7, of: .structure, count: leafCount)
        for _ in 0..<leafCount { w.structBody { $0.structure(1) { _ in } } }
        w.stop()
        var out = w.bytes
        BinaryWriter.u32(UInt32(w.bytes.count), &out)
        out += magic
        return out
    }

    private static func columnChunk(_ chunk: ChunkMetadata, _ c: inout ThriftCompactWriter) {
        c.i64(2, Int64(chunk.fileOffset))
        c.structure(3) { m in
            m.i32(1, chunk.physicalType)
            let encodings: [Int32] = chunk.usesDictionary ? [0, 3, 8] : [0, 3]
            m.listHeader(2, of: .i32, count: encodings.count)
            for e in encodings { m.listElement(e) }
            m.listHeader(3, of: .binary, count: chunk.path.count)
            for name in chunk.path { m.listElement(name) }
            m.i32(4, chunk.codec)
            m.i64(5, Int64(chunk.entryCount))
            m.i64(6, Int64(chunk.uncompressedSize))
            m.i64(7, Int64(chunk.compressedSize))
            m.i64(9, Int64(chunk.dataPageOffset))
            if let d = chunk.dictionaryPageOffset { m.i64(11, Int64(d)) }
            if let stats = chunk.statistics {
                m.structure(12) { s in
                    s.i64(3, Int64(stats.nulls))
                    if !stats.maximum.isEmpty {
                        s.binary(5, stats.maximum)
                        s.binary(6, stats.minimum)
                    }
                }
            }
        }
    }

    /// The schema as a depth-first list of elements, the root first.
    private static func schemaElements(_ schema: ParquetSchema)
        -> [(inout ThriftCompactWriter) -> Void]
    {
        // Repetition: REQUIRED 0, OPTIONAL 1, REPEATED 2. Converted types: UTF8 0, MAP 1,
        // LIST 3, DECIMAL 5, DATE 6. Logical types (a union): STRING 1, MAP 2, LIST 3,
        // DECIMAL 5, DATE 6, TIMESTAMP 8.
        var elements: [(inout ThriftCompactWriter) -> Void] = []
        let count = schema.fields.count
        elements.append { e in
            e.string(4, "schema")
            e.i32(5, Int32(count))
        }
        func stringLeaf(_ name: String, repetition: Int32) -> (inout ThriftCompactWriter) -> Void {
            { e in
                e.i32(1, 6)
                e.i32(3, repetition)
                e.string(4, name)
                e.i32(6, 0)
                e.structure(10) { $0.structure(1) { _ in } }
            }
        }
        /// A group: a LIST (logical type 3, converted type 3) or MAP (2 and 1) annotated
        /// field, or the repeated group inside one.
        func group(_ name: String, repetition: Int32, children: Int32, annotation: Int16? = nil)
            -> (inout ThriftCompactWriter) -> Void
        {
            { e in
                e.i32(3, repetition)
                e.string(4, name)
                e.i32(5, children)
                if let annotation {
                    e.i32(6, annotation == 3 ? 3 : 1)
                    e.structure(10) { $0.structure(annotation) { _ in } }
                }
            }
        }
        for field in schema.fields {
            let repetition: Int32 = field.required ? 0 : 1
            switch field.kind {
            case .string:
                elements.append(stringLeaf(field.name, repetition: repetition))
            case .stringList:
                elements.append(group(field.name, repetition: 1, children: 1, annotation: 3))
                elements.append(group("list", repetition: 2, children: 1))
                elements.append(stringLeaf("element", repetition: 0))
            case .stringMap:
                elements.append(group(field.name, repetition: 1, children: 1, annotation: 2))
                elements.append(group("key_value", repetition: 2, children: 2))
                elements.append(stringLeaf("key", repetition: 0))
                elements.append(stringLeaf("value", repetition: 0))
            case .timestamp(let utc):
                elements.append { e in
                    e.i32(1, 2)
                    e.i32(3, repetition)
                    e.string(4, field.name)
                    e.structure(10) { l in
                        l.structure(8) { t in
                            t.bool(1, utc)
                            t.structure(2) { $0.structure(3) { _ in } }
                        }
                    }
                }
            case .date:
                elements.append { e in
                    e.i32(1, 1)
                    e.i32(3, repetition)
                    e.string(4, field.name)
                    e.i32(6, 6)
                    e.structure(10) { $0.structure(6) { _ in } }
                }
            case .decimal:
                elements.append { e in
                    e.i32(1, 7)
                    e.i32(2, 16)
                    e.i32(3, repetition)
                    e.string(4, field.name)
                    e.i32(6, 5)
                    e.i32(7, Int32(ParquetSchema.decimalScale))
                    e.i32(8, Int32(ParquetSchema.decimalPrecision))
                    e.structure(10) { l in
                        l.structure(5) { d in
                            d.i32(1, Int32(ParquetSchema.decimalScale))
                            d.i32(2, Int32(ParquetSchema.decimalPrecision))
                        }
                    }
                }
            case .seconds, .integer, .boolean:
                elements.append { e in
                    e.i32(1, field.kind.physicalType)
                    e.i32(3, repetition)
                    e.string(4, field.name)
                }
            }
        }
        return elements
    }
}

extension ParquetSchema.Kind {
    /// Integer columns, whose minimum and maximum the footer records (so that an engine
    /// skips row groups by `start.instant`).
    var hasIntegerStatistics: Bool {
        switch self {
        case .timestamp, .date, .seconds, .integer: return true
        default: return false
        }
    }
}
