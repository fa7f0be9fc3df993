import Foundation

/// Builds small XLSX workbooks for hostile cases: a ZIP archive written here (stored
/// entries, and DEFLATE entries of one repeated byte for ZIP bombs), so that each test makes
/// its file from nothing.
struct HostileWorkbook {
    enum Content {
        case stored([UInt8])
        /// `prefix`, then `byte` `count` times, then `suffix`, compressed.
        case repeated(prefix: [UInt8], byte: UInt8, count: Int, suffix: [UInt8])
    }

    var entries: [(name: String, content: Content, declaredSize: Int?)] = []

    /// A workbook of one sheet `S` whose `sheetData` is `rows` (and whatever else `sheet`
    /// adds around it).
    static func sheet(_ sheetXML: String, sharedStrings: String? = nil, styles: String? = nil)
        -> HostileWorkbook
    {
        var book = HostileWorkbook()
        book.add(
            "xl/workbook.xml",
            #"<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>"#)
        book.add(
            "xl/_rels/workbook.xml.rels",
            #"<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>"#
        )
        book.add("xl/worksheets/sheet1.xml", sheetXML)
        if let sharedStrings { book.add("xl/sharedStrings.xml", sharedStrings) }
        if let styles { book.add("xl/styles.xml", styles) }
        return book
    }

    /// A workbook of one sheet whose part is `content`, declaring `declaredSize` when given.
    static func sheet(part content: Content, declaredSize: Int? = nil) -> HostileWorkbook {
        var book = HostileWorkbook.sheet("")
        book.entries.removeLast()
        book.add("xl/worksheets/sheet1.xml", content, declaredSize: declaredSize)
        return book
    }

    /// `prefix`, `a` `count` times, `suffix`: what compresses as a ZIP bomb does.
    static func run(_ prefix: String, _ count: Int, _ suffix: String) -> Content {
        .repeated(
            prefix: Array(prefix.utf8), byte: UInt8(ascii: "a"), count: count,
            suffix: Array(suffix.utf8))
    }

    /// A sheet of a `time,title` header and `rows` (XML of `row` elements) inside `sheetData`.
    static func table(_ rows: String, after: String = "") -> String {
        "<worksheet><sheetData>" + row(1, "time", "title") + rows + "</sheetData>" + after
            + "</worksheet>"
    }

    static func row(_ n: Int, _ time: String, _ title: String) -> String {
        #"<row r="\#(n)"><c r="A\#(n)" t="inlineStr"><is><t>\#(time)</t></is></c><c r="B\#(n)" t="inlineStr"><is><t>\#(title)</t></is></c></row>"#
    }

    mutating func add(_ name: String, _ text: String) {
        entries.append((name, .stored(Array(text.utf8)), nil))
    }

    mutating func add(_ name: String, _ content: Content, declaredSize: Int? = nil) {
        entries.append((name, content, declaredSize))
    }

    func write(to url: URL) throws {
        try Data(bytes()).write(to: url)
    }

    func bytes() -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for (name, content, declared) in entries {
            let (method, data, crc, size): (Int, [UInt8], UInt32, Int)
            switch content {
            case .stored(let bytes):
                (method, data, crc, size) = (0, bytes, Self.crc32([bytes]), bytes.count)
            case .repeated(let prefix, let byte, let count, let suffix):
                (method, data) = (
                    8, Self.deflateRun(prefix: prefix, byte: byte, count: count, suffix: suffix)
                )
                // Past 16 MB not the real checksum: those entries are refused before they are
                // expanded, or expand past their declared size first.
                crc =
                    count <= 16 << 20
                    ? Self.crc32([prefix, [UInt8](repeating: byte, count: count), suffix]) : 0
                size = prefix.count + count + suffix.count
            }
            let offset = out.count
            let nameBytes = Array(name.utf8)
            func header(_ signature: UInt32, central: Bool) -> [UInt8] {
                var h = le32(signature)
                if central { h += le16(20) }
                h +=
                    le16(20) + le16(0) + le16(method) + le16(0) + le16(0) + le32(crc)
                    + le32(data.count) + le32(declared ?? size)
                h += le16(nameBytes.count) + le16(0)
                if central { h += le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) }
                return h + nameBytes
            }
            out += header(0x0403_4B50, central: false) + data
            directory += header(0x0201_4B50, central: true)
        }
        let directoryOffset = out.count
        out += directory
        out +=
            le32(0x0605_4B50) + le16(0) + le16(0) + le16(entries.count) + le16(entries.count)
            + le32(directory.count) + le32(directoryOffset)
            + le16(0)
        return out
    }

    private func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    private func le32<T: BinaryInteger>(_ v: T) -> [UInt8] {
        let v = UInt32(truncatingIfNeeded: v)
        return (0..<4).map { UInt8(v >> (8 * $0) & 0xFF) }
    }

    /// CRC-32 (ISO-HDLC), bit by bit: test files are small but for the repeated runs.
    static func crc32(_ parts: [[UInt8]]) -> UInt32 {
        var table = [UInt32](repeating: 0, count: 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            table[i] = c
        }
        var crc: UInt32 = 0xFFFF_FFFF
        for part in parts {
            for b in part { crc = table[Int((crc ^ UInt32(b)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// One fixed-Huffman DEFLATE block (RFC 1951 §3.2.6): the prefix as literals, the byte,
    /// copies of 258 bytes at distance 1 (13 bits each: about 159 times smaller), the rest as
    /// literals.
    static func deflateRun(prefix: [UInt8], byte: UInt8, count: Int, suffix: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var buffer: UInt32 = 0
        var bits = 0
        func put(_ value: UInt32, _ n: Int) {  // LSB first
            buffer |= value << UInt32(bits)
            bits += n
            while bits >= 8 {
                out.append(UInt8(buffer & 0xFF))
                buffer >>= 8
                bits -= 8
            }
        }
        func huffman(_ code: UInt32, _ n: Int) {  // Huffman codes go most significant bit first
            var reversed: UInt32 = 0
            for i in 0..<n where code >> UInt32(i) & 1 == 1 { reversed |= 1 << UInt32(n - 1 - i) }
            put(reversed, n)
        }
        func literal(_ b: UInt8) {
            b < 144 ? huffman(0x30 + UInt32(b), 8) : huffman(0x190 + UInt32(b) - 144, 9)
        }
        put(1, 1)  // final block
        put(1, 2)  // fixed Huffman
        prefix.forEach(literal)
        var left = count
        if left > 0 {
            literal(byte)
            left -= 1
        }
        while left >= 258 {
            huffman(0xC5, 8)  // length code 285: 258 bytes
            huffman(0, 5)  // distance code 0: 1 byte back
            left -= 258
        }
        for _ in 0..<left { literal(byte) }
        suffix.forEach(literal)
        huffman(0, 7)  // end of block
        if bits > 0 { out.append(UInt8(buffer & 0xFF)) }
        return out
    }
}
