/// DEFLATE decompression (RFC 1951), for the parts of an XLSX workbook (ZIP entries with
/// method 8). Written here rather than linking the system's zlib: the library stays free of
/// C dependencies (so it builds as it is for Apple platforms and Linux alike), and an XLSX
/// part is decompressed once, whole, where a few hundred megabytes a second is plenty.
///
/// Canonical Huffman codes are decoded a bit at a time against the count of codes of each
/// length (as RFC 1951 §3.2.2 builds them), which needs no lookup tables to get right. Every
/// read is bounds-checked and the output may not exceed `limit` bytes: a corrupt or hostile
/// stream ends in `InflateError`, never a trap or an unbounded allocation.
struct Inflater {
    struct InflateError: Error, Sendable {
        let message: String
    }

    private let input: ArraySlice<UInt8>
    private var position = 0
    private var bitBuffer: UInt32 = 0
    private var bitCount = 0
    private var output: [UInt8] = []
    private let limit: Int

    /// Decompresses `input`, a raw DEFLATE stream, into at most `limit` bytes. Memory grows
    /// with what the stream yields, not with what its container declares.
    static func inflate(_ input: ArraySlice<UInt8>, limit: Int) throws(InflateError) -> [UInt8] {
        var inflater = Inflater(input: input, limit: limit)
        inflater.output.reserveCapacity(min(limit, input.count * 4))
        try inflater.run()
        return inflater.output
    }

    private init(input: ArraySlice<UInt8>, limit: Int) {
        self.input = input
        self.limit = limit
        position = input.startIndex
    }

    private mutating func run() throws(InflateError) {
        var last = false
        while !last {
            last = try bits(1) == 1
            switch try bits(2) {
            case 0: try stored()
            case 1: try codes(Self.fixedLengths, Self.fixedDistances)
            case 2:
                let (lengths, distances) = try dynamicTables()
                try codes(lengths, distances)
            default: throw InflateError(message: "invalid DEFLATE block type 3")
            }
        }
    }

    private mutating func bits(_ n: Int) throws(InflateError) -> Int {
        while bitCount < n {
            guard position < input.endIndex else {
                throw InflateError(message: "DEFLATE stream ends early")
            }
            bitBuffer |= UInt32(input[position]) << UInt32(bitCount)
            position += 1
            bitCount += 8
        }
        let value = Int(bitBuffer & ((1 << UInt32(n)) - 1))
        bitBuffer >>= UInt32(n)
        bitCount -= n
        return value
    }

    private mutating func append(_ byte: UInt8) throws(InflateError) {
        guard output.count < limit else {
            throw InflateError(message: "decompressed data larger than \(limit) bytes")
        }
        output.append(byte)
    }

    /// A stored block: LEN, its complement, LEN bytes.
    private mutating func stored() throws(InflateError) {
        bitBuffer = 0
        bitCount = 0
        guard position + 4 <= input.endIndex else {
            throw InflateError(message: "DEFLATE stored block ends early")
        }
        let length = Int(input[position]) | Int(input[position + 1]) << 8
        let complement = Int(input[position + 2]) | Int(input[position + 3]) << 8
        position += 4
        guard length == ~complement & 0xFFFF else {
            throw InflateError(message: "DEFLATE stored block length does not match its complement")
        }
        guard position + length <= input.endIndex else {
            throw InflateError(message: "DEFLATE stored block ends early")
        }
        guard output.count + length <= limit else {
            throw InflateError(message: "decompressed data larger than \(limit) bytes")
        }
        output.append(contentsOf: input[position..<position + length])
        position += length
    }

    /// A canonical Huffman code: how many codes have each length (1–15), and the symbols in
    /// code order.
    struct Huffman {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        /// Throws when the lengths over-subscribe the code space; an incomplete code is
        /// allowed (RFC 1951 permits one distance code), a symbol outside it is an error
        /// when decoded.
        init(lengths: ArraySlice<Int>) throws(InflateError) {
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1..<16 {
                left = left << 1 - counts[length]
                guard left >= 0 else { throw InflateError(message: "invalid DEFLATE code lengths") }
            }
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: lengths.count)
            for (symbol, length) in zip(0..., lengths) where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }
    }

    private mutating func decode(_ h: Huffman) throws(InflateError) -> Int {
        var code = 0
        var first = 0
        var index = 0
        for length in 1..<16 {
            code |= try bits(1)
            let count = h.counts[length]
            if code - first < count { return h.symbols[index + code - first] }
            index += count
            first = (first + count) << 1
            code <<= 1
        }
        throw InflateError(message: "invalid DEFLATE Huffman code")
    }

    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
        131, 163, 195, 227, 258,
    ]
    private static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
        2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12,
        13, 13,
    ]

    // The fixed codes of RFC 1951 §3.2.6 (valid lengths: they never throw).
    private static let fixedLengths = try! Huffman(
        lengths: ArraySlice(
            [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
                + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8)))
    private static let fixedDistances = try! Huffman(
        lengths: ArraySlice([Int](repeating: 5, count: 30)))

    /// The literal/length and distance codes of a dynamic block (RFC 1951 §3.2.7).
    private mutating func dynamicTables() throws(InflateError) -> (Huffman, Huffman) {
        let literals = try bits(5) + 257
        let distances = try bits(5) + 1
        let codeLengthCodes = try bits(4) + 4
        guard literals <= 286, distances <= 30 else {
            throw InflateError(message: "invalid DEFLATE code counts")
        }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var lengths = [Int](repeating: 0, count: 19)
        for i in 0..<codeLengthCodes { lengths[order[i]] = try bits(3) }
        let lengthCode = try Huffman(lengths: lengths[...])
        var all: [Int] = []
        all.reserveCapacity(literals + distances)
        while all.count < literals + distances {
            let symbol = try decode(lengthCode)
            var repeated = 0
            var value = 0
            switch symbol {
            case 0..<16:
                all.append(symbol)
                continue
            case 16:
                guard let previous = all.last else {
                    throw InflateError(message: "DEFLATE repeats a length before any")
                }
                value = previous
                repeated = 3 + (try bits(2))
            case 17: repeated = 3 + (try bits(3))
            default: repeated = 11 + (try bits(7))
            }
            guard all.count + repeated <= literals + distances else {
                throw InflateError(message: "DEFLATE code lengths overrun")
            }
            all += repeatElement(value, count: repeated)
        }
        guard all[256] != 0 else {
            throw InflateError(message: "DEFLATE block has no end-of-block code")
        }
        return (try Huffman(lengths: all[0..<literals]), try Huffman(lengths: all[literals...]))
    }

    /// The compressed data of a block: literals, and lengths with distances back into the output.
    private mutating func codes(_ lengths: Huffman, _ distances: Huffman) throws(InflateError) {
        while true {
            let symbol = try decode(lengths)
            if symbol < 256 {
                try append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < Self.lengthBase.count else {
                    throw InflateError(message: "invalid DEFLATE length code")
                }
                let length = Self.lengthBase[index] + (try bits(Self.lengthExtra[index]))
                let d = try decode(distances)
                guard d < Self.distanceBase.count else {
                    throw InflateError(message: "invalid DEFLATE distance code")
                }
                let distance = Self.distanceBase[d] + (try bits(Self.distanceExtra[d]))
                guard distance <= output.count else {
                    throw InflateError(message: "DEFLATE distance reaches before the start")
                }
                guard output.count + length <= limit else {
                    throw InflateError(message: "decompressed data larger than \(limit) bytes")
                }
                let from = output.count - distance
                for i in 0..<length { output.append(output[from + i]) }
            }
        }
    }
}

/// CRC-32 (ISO 3309, as ZIP uses it) of a byte array.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
