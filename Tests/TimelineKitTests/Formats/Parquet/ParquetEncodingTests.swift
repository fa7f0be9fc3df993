import Testing

@testable import TimelineKit

/// The encodings under the Parquet writer, against bytes worked out by hand from the
/// specifications: Thrift's compact protocol (field headers as id deltas, zigzag varints,
/// list headers) and Parquet's RLE/bit-packing hybrid (run headers, bits packed lowest first).
/// The files as a whole are read back by pyarrow, DuckDB and polars (`ParquetOutputTests`).
@Suite("Parquet encodings")
struct ParquetEncodingTests {
    @Test("compact protocol: field deltas, long jumps, zigzag, booleans, lists, nested structs")
    func thrift() {
        var w = ThriftCompactWriter()
        w.i32(1, 1)  // delta 1, type i32 (5); zigzag(1) = 2
        w.i64(3, -1)  // delta 2, type i64 (6); zigzag(-1) = 1
        w.i32(20, 300)  // delta 17 > 15: type byte, zigzag(20) = 40, zigzag(300) = 600 = 0xD8 0x04
        w.bool(21, true)  // delta 1, type true (1), no payload
        w.listHeader(22, of: .i32, count: 2)  // delta 1, type list (9); size 2 << 4 | i32
        w.listElement(Int32(7))
        w.listElement(Int32(-8))  // zigzag(7) = 14, zigzag(-8) = 15
        w.structure(23) { s in s.string(1, "ab") }  // struct (12); inner delta 1, binary (8)
        w.stop()
        #expect(
            w.bytes == [
                0x15, 0x02,
                0x26, 0x01,
                0x05, 0x28, 0xD8, 0x04,
                0x11,
                0x19, 0x25, 0x0E, 0x0F,
                0x1C, 0x18, 0x02, 0x61, 0x62, 0x00,
                0x00,
            ])
    }

    @Test("a list of 15 or more elements has its size after the header")
    func longList() {
        var w = ThriftCompactWriter()
        w.listHeader(1, of: .structure, count: 20)
        #expect(w.bytes == [0x19, 0xFC, 0x14])
    }

    @Test("bit widths")
    func bitWidths() {
        #expect(
            [0, 1, 2, 3, 4, 7, 8, 255, 256].map(ParquetHybridEncoding.bitWidth) == [
                1, 1, 2, 2, 3, 3, 4, 8, 9,
            ])
    }

    @Test("hybrid: a run of eight or more is RLE, the rest bit-packed in groups of eight")
    func hybrid() {
        var out: [UInt8] = []
        // Eight 0s: RLE header 8 << 1 = 0x10, the value in one byte. Then 1, 1: one
        // bit-packed group (1 << 1 | 1 = 0x03), bits 1 and 1 at the bottom: 0x03.
        ParquetHybridEncoding.encode(
            [0, 0, 0, 0, 0, 0, 0, 0, 1, 1] as [UInt8], bitWidth: 1, into: &out)
        #expect(out == [0x10, 0x00, 0x03, 0x03])

        out = []
        // 1, 2 and fifteen 3s, width 2: the stretch takes 1, 2 and six 3s to fill its group
        // of eight (1,2,3,3 | 3,3,3,3 = bits 01 10 11 11 | 11 11 11 11, lowest first: 0xF9
        // 0xFF), then the nine 3s left are a run: header 9 << 1 = 0x12, value 0x03.
        ParquetHybridEncoding.encode(
            [1, 2] + Array(repeating: 3, count: 15) as [UInt32], bitWidth: 2, into: &out)
        #expect(out == [0x03, 0xF9, 0xFF, 0x12, 0x03])

        out = []
        // Fewer than eight left over stay in the stretch, padded with zeros at the end:
        // 1, 2 and ten 3s are two groups (header 2 << 1 | 1 = 0x05): 0xF9 0xFF, then 3,3,3,3
        // (0xFF) and four zeros of padding (0x00).
        ParquetHybridEncoding.encode(
            [1, 2] + Array(repeating: 3, count: 10) as [UInt32], bitWidth: 2, into: &out)
        #expect(out == [0x05, 0xF9, 0xFF, 0xFF, 0x00])
    }

    @Test("levels in a data page: their length in four bytes first")
    func levels() {
        var out: [UInt8] = []
        ParquetHybridEncoding.appendLevels([1, 1, 1, 1, 1, 1, 1, 1, 1], maximum: 1, into: &out)
        #expect(out == [0x02, 0x00, 0x00, 0x00, 0x12, 0x01])
    }

    /// The values of a hybrid stream, read by the specification's rules: a header varint;
    /// its lowest bit set, that many groups of eight bit-packed values (lowest bits first),
    /// else a run of that many copies of a value in `(bitWidth + 7) / 8` little-endian bytes.
    static func decodeHybrid(_ bytes: [UInt8], bitWidth: Int) -> [UInt32] {
        var values: [UInt32] = []
        var i = 0
        while i < bytes.count {
            var header = 0
            var shift = 0
            while true {
                let b = bytes[i]
                i += 1
                header |= Int(b & 0x7F) << shift
                shift += 7
                if b < 0x80 { break }
            }
            if header & 1 == 1 {
                let count = (header >> 1) * 8
                for k in 0..<count {
                    var v: UInt32 = 0
                    for bit in 0..<bitWidth {
                        let at = k * bitWidth + bit
                        if bytes[i + at / 8] >> (at % 8) & 1 == 1 { v |= 1 << bit }
                    }
                    values.append(v)
                }
                i += (header >> 1) * bitWidth
            } else {
                var v: UInt32 = 0
                for byte in 0..<((bitWidth + 7) / 8) { v |= UInt32(bytes[i + byte]) << (8 * byte) }
                i += (bitWidth + 7) / 8
                values += Array(repeating: v, count: header >> 1)
            }
        }
        return values
    }

    @Test("hybrid: any values read back as written, padding only at the end")
    func hybridRoundTrip() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2_000 {
            let width = Int(rng.next() % 12) + 1
            // Runs of random lengths, so that short and long runs and stretches meet.
            var values: [UInt32] = []
            let target = Int(rng.next() % 200)
            while values.count < target {
                let v = UInt32(rng.next() % (1 << UInt64(width)))
                let length = rng.next() % 3 == 0 ? Int(rng.next() % 20) : 1
                values += Array(repeating: v, count: length)
            }
            var out: [UInt8] = [0xAB]
            ParquetHybridEncoding.encode(values, bitWidth: width, into: &out)
            #expect(out.first == 0xAB)
            let decoded = Self.decodeHybrid(Array(out.dropFirst()), bitWidth: width)
            // The last stretch is padded to a group of eight; nothing else may be.
            #expect(decoded.count >= values.count && decoded.count < values.count + 8)
            #expect(Array(decoded.prefix(values.count)) == values, "width \(width): \(values)")
            #expect(decoded.dropFirst(values.count).allSatisfy { $0 == 0 })
        }
    }
}
