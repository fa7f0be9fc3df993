/// The entries of a ZIP archive (an XLSX workbook is one), read from its central directory,
/// and their contents: stored or DEFLATE-compressed, CRC-checked. ZIP64 archives (over
/// 4 GiB), encrypted entries and two entries of one name (readers disagree on which is
/// meant) are refused with a message.
struct ZipArchive {
    struct Entry {
        let name: String
        let method: Int
        let crc: UInt32
        let compressedSize: Int
        let size: Int
        let localHeaderOffset: Int
    }

    struct ZipError: Error, Sendable {
        let message: String
        /// The archive is well formed but expands beyond what the reader may hold.
        var tooLarge = false
    }

    /// How many bytes the entries read from one archive may expand to, together, and how
    /// far one entry may expand beyond its compressed size: spreadsheet XML, whose cell
    /// references differ from cell to cell, stays well within `ratio`; only long runs of
    /// repeated bytes, which no sheet has and a ZIP bomb is made of, go past it.
    struct ExpansionBudget {
        /// Bytes left for the entries still to be read.
        var remaining: Int
        static let ratio = 100
        /// Entries up to this size are not held to `ratio` (a tiny part may compress well).
        static let ratioFloor = 1 << 20

        init(bytes: Int) {
            remaining = bytes
        }

        /// Takes what `entry` declares it expands to, or fails saying why it is refused.
        mutating func take(_ entry: Entry) throws(ZipError) -> Int {
            let allowed = min(
                remaining,
                max(
                    Self.ratioFloor,
                    entry.compressedSize.multipliedReportingOverflow(by: Self.ratio).partialValue))
            guard entry.size <= allowed else {
                let reason =
                    entry.size > remaining
                    ? "its parts expand to more than the \(ByteCount.text(remaining)) left of the memory budget"
                    : "the entry '\(entry.name)' expands \(entry.size / max(entry.compressedSize, 1)) times (at most \(Self.ratio) is read)"
                throw ZipError(message: "workbook too large: \(reason)", tooLarge: true)
            }
            remaining -= entry.size
            return entry.size
        }
    }

    let bytes: [UInt8]
    let entries: [Entry]

    init(_ bytes: [UInt8]) throws(ZipError) {
        self.bytes = bytes
        // The end-of-central-directory record: within the last 64 KiB + 22 bytes.
        let floor = max(0, bytes.count - 65_557)
        var eocd: Int?
        var i = bytes.count - 22
        while i >= floor {
            if Self.u32(bytes, i) == 0x0605_4B50 {
                eocd = i
                break
            }
            i -= 1
        }
        guard let eocd else {
            throw ZipError(message: "not a ZIP archive (no end of central directory)")
        }
        let count = Self.u16(bytes, eocd + 10)
        let directorySize = Int(Self.u32(bytes, eocd + 12))
        let directoryOffset = Int(Self.u32(bytes, eocd + 16))
        guard count != 0xFFFF, directoryOffset != 0xFFFF_FFFF else {
            throw ZipError(message: "ZIP64 archives are not supported")
        }
        guard directoryOffset + directorySize <= bytes.count else {
            throw ZipError(message: "the ZIP central directory lies outside the file")
        }
        var entries: [Entry] = []
        var p = directoryOffset
        for _ in 0..<count {
            guard p + 46 <= bytes.count, Self.u32(bytes, p) == 0x0201_4B50 else {
                throw ZipError(message: "damaged ZIP central directory")
            }
            let flags = Self.u16(bytes, p + 8)
            let nameLength = Self.u16(bytes, p + 28)
            let extraLength = Self.u16(bytes, p + 30)
            let commentLength = Self.u16(bytes, p + 32)
            guard p + 46 + nameLength <= bytes.count else {
                throw ZipError(message: "damaged ZIP central directory")
            }
            let name = String(decoding: bytes[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            guard flags & 1 == 0 else {
                throw ZipError(message: "the ZIP entry '\(name)' is encrypted")
            }
            guard !entries.contains(where: { $0.name == name }) else {
                throw ZipError(
                    message:
                        "the ZIP archive holds two entries named '\(name)' (readers differ on which is meant)"
                )
            }
            entries.append(
                Entry(
                    name: name, method: Self.u16(bytes, p + 10), crc: Self.u32(bytes, p + 16),
                    compressedSize: Int(Self.u32(bytes, p + 20)),
                    size: Int(Self.u32(bytes, p + 24)),
                    localHeaderOffset: Int(Self.u32(bytes, p + 42))))
            p += 46 + nameLength + extraLength + commentLength
        }
        self.entries = entries
    }

    /// The entry called `name` (ZIP names are case-sensitive; XLSX writers agree on case).
    func entry(_ name: String) -> Entry? {
        entries.first { $0.name == name }
    }

    /// The uncompressed contents of `entry`, taken from `budget`: the size it declares is
    /// what it may expand to, and no more.
    func contents(_ entry: Entry, budget: inout ExpansionBudget) throws(ZipError) -> [UInt8] {
        let allowed = try budget.take(entry)
        let p = entry.localHeaderOffset
        guard p + 30 <= bytes.count, Self.u32(bytes, p) == 0x0403_4B50 else {
            throw ZipError(message: "damaged ZIP entry '\(entry.name)'")
        }
        let start = p + 30 + Self.u16(bytes, p + 26) + Self.u16(bytes, p + 28)
        guard entry.compressedSize <= bytes.count - start else {
            throw ZipError(message: "the ZIP entry '\(entry.name)' is cut short")
        }
        let data = bytes[start..<(start + entry.compressedSize)]
        let result: [UInt8]
        switch entry.method {
        case 0: result = Array(data)
        case 8:
            do throws(Inflater.InflateError) {
                result = try Inflater.inflate(data, limit: allowed)
            } catch {
                throw ZipError(
                    message:
                        "the ZIP entry '\(entry.name)' cannot be decompressed: \(error.message)")
            }
        default:
            throw ZipError(
                message:
                    "the ZIP entry '\(entry.name)' uses compression method \(entry.method) (only stored and DEFLATE are read)"
            )
        }
        guard result.count == entry.size, CRC32.checksum(result) == entry.crc else {
            throw ZipError(
                message:
                    "the ZIP entry '\(entry.name)' is damaged (its size or checksum does not match)"
            )
        }
        return result
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> Int {
        guard i >= 0, i + 2 <= b.count else { return 0 }
        return Int(b[i]) | Int(b[i + 1]) << 8
    }

    private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        guard i >= 0, i + 4 <= b.count else { return 0 }
        return UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3])
            << 24
    }
}
