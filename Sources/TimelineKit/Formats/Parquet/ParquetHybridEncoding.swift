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
        // The values waiting to be bit-packed are always `values[waiting..<i]`: a stretch
        // takes values in order, and ends only where a run is written.
        var waiting = 0
        var i = 0
        while i < values.count {
            let value = values[i]
            var run = 1
            while i + run < values.count && values[i + run] == value { run += 1 }
            // Values join a bit-packed stretch until it holds a multiple of eight: only then
            // can a run follow it.
            let taken = min(run, (8 - (i - waiting) % 8) % 8)
            let left = run - taken
            if left >= 8 {
                flushPacked(values[waiting..<(i + taken)], bitWidth: bitWidth, into: &out)
                BinaryWriter.varint(UInt64(left) << 1, &out)
                let bits = UInt32(value)
                for byte in 0..<((bitWidth + 7) / 8) {
                    out.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt32(byte))))
                }
                waiting = i + run
            }
            i += run
        }
        flushPacked(values[waiting...], bitWidth: bitWidth, into: &out)
    }

    /// `packed` as one bit-packed stretch, padded with zeros to groups of eight.
    private static func flushPacked<T: BinaryInteger>(
        _ packed: ArraySlice<T>, bitWidth: Int, into out: inout [UInt8]
    ) {
        guard !packed.isEmpty else { return }
        let groups = (packed.count + 7) / 8
        BinaryWriter.varint(UInt64(groups) << 1 | 1, &out)
        // Each group of eight values takes `bitWidth` bytes: room made at once, with the
        // padding's zeros in place already.
        var at = out.count
        out.append(contentsOf: repeatElement(0, count: groups * bitWidth))
        var accumulator: UInt64 = 0
        var bits = 0
        for value in packed {
            accumulator |= UInt64(value) << UInt64(bits)
            bits += bitWidth
            while bits >= 8 {
                out[at] = UInt8(truncatingIfNeeded: accumulator)
                at += 1
                accumulator >>= 8
                bits -= 8
            }
        }
        // What is left of the last value's bits goes before the padding.
        if bits > 0 { out[at] = UInt8(truncatingIfNeeded: accumulator) }
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
