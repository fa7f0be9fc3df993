/// Parquet's RLE/bit-packing hybrid, the encoding of repetition and definition levels and
/// of dictionary indices: runs of one value as (count, value), other stretches bit-packed
/// in groups of eight. A bit-packed stretch may be padded only at the very end, where the
/// page's value count says where the values stop.
enum ParquetHybridEncoding {
    /// The bits needed for values up to `maximum` (at least 1).
    static func bitWidth(_ maximum: Int) -> Int {
        maximum <= 1 ? 1 : Int.bitWidth - (maximum).leadingZeroBitCount
    }

    /// `values` encoded with `bitWidth` bits each, appended to `out`.
    static func encode<T: BinaryInteger>(_ values: [T], bitWidth: Int, into out: inout [UInt8]) {
        var packed: [UInt32] = []  // values waiting to be bit-packed
        var i = 0
        while i < values.count {
            var run = 1
            while i + run < values.count && values[i + run] == values[i] { run += 1 }
            // Values join a bit-packed stretch until it holds a multiple of eight: only then
            // can a run follow it.
            var taken = 0
            while packed.count % 8 != 0 && taken < run {
                packed.append(UInt32(values[i]))
                taken += 1
            }
            let left = run - taken
            if left >= 8 {
                flushPacked(&packed, bitWidth: bitWidth, into: &out)
                BinaryWriter.varint(UInt64(left) << 1, &out)
                let value = UInt32(values[i])
                for byte in 0..<((bitWidth + 7) / 8) {
                    out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(byte))))
                }
            } else {
                for _ in 0..<left { packed.append(UInt32(values[i])) }
            }
            i += run
        }
        flushPacked(&packed, bitWidth: bitWidth, into: &out)
    }

    /// The waiting values as one bit-packed stretch, padded with zeros to groups of eight.
    private static func flushPacked(
        _ packed: inout [UInt32], bitWidth: Int, into out: inout [UInt8]
    ) {
        guard !packed.isEmpty else { return }
        let groups = (packed.count + 7) / 8
        BinaryWriter.varint(UInt64(groups) << 1 | 1, &out)
        var accumulator: UInt64 = 0
        var bits = 0
        for k in 0..<(groups * 8) {
            let v = k < packed.count ? UInt64(packed[k]) : 0
            accumulator |= v << UInt64(bits)
            bits += bitWidth
            while bits >= 8 {
                out.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                bits -= 8
            }
        }
        if bits > 0 { out.append(UInt8(truncatingIfNeeded: accumulator)) }
        packed.removeAll(keepingCapacity: true)
    }

    /// Levels as a data page (v1) holds them: their encoded length in four bytes, little
    /// endian, then the encoding.
    static func appendLevels(_ levels: [UInt8], maximum: Int, into out: inout [UInt8]) {
        var encoded: [UInt8] = []
        encode(levels, bitWidth: bitWidth(maximum), into: &encoded)
        BinaryWriter.u32(UInt32(encoded.count), &out)
        out += encoded
    }
}
