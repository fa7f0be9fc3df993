#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TextEncoding {
    /// The name iconv knows it by.
    fileprivate var iconvName: String {
        switch self {
        case .utf8: return "UTF-8"
        case .gb18030: return "GB18030"
        case .utf16: return "UTF-16"
        case .latin1: return "ISO-8859-1"
        case .windows1252: return "CP1252"
        case .latin9: return "ISO-8859-15"
        case .shiftJIS: return "CP932"
        case .eucKR: return "CP949"
        case .big5: return "CP950"
        }
    }
}

/// Converts a byte stream to UTF-8 with the C library's iconv, chunk by chunk: a multi-byte
/// sequence split across chunks is carried over. A sequence that is invalid in the source
/// encoding becomes U+FFFD and is counted, so the caller can say so; it is skipped by one of
/// the encoding's code units (two bytes in UTF-16), so what follows is read in step.
final class Transcoder {
    private let cd: iconv_t
    private let unit: Int
    private var pending: [UInt8] = []
    private(set) var replacedSequences = 0
    /// Byte offset (in the source) of the first replaced sequence.
    private(set) var firstReplacementOffset: Int?
    private var consumed = 0

    init(from encoding: TextEncoding) throws(TimelineError) {
        let handle = iconv_open("UTF-8", encoding.iconvName)
        guard handle != iconv_t(bitPattern: -1) else {
            throw TimelineError(
                .usage, "the C library cannot convert from '\(encoding.rawValue)' on this machine")
        }
        cd = handle!
        unit = encoding == .utf16 ? 2 : 1
    }

    deinit { iconv_close(cd) }

    /// Converts `input` (plus what was carried over); with `final`, flushes everything.
    func convert(_ input: [UInt8], final: Bool) -> [UInt8] {
        var source = pending + input
        pending = []
        var output = [UInt8](repeating: 0, count: source.count * 4 + 16)
        var produced = 0
        var position = 0
        source.withUnsafeMutableBufferPointer { src in
            output.withUnsafeMutableBufferPointer { dst in
                while position < src.count {
                    var inPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(
                        src.baseAddress! + position
                    ).assumingMemoryBound(to: CChar.self)
                    var inLeft = src.count - position
                    var outPtr: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(
                        dst.baseAddress! + produced
                    ).assumingMemoryBound(
                        to: CChar.self)
                    var outLeft = dst.count - produced
                    let result = iconv(cd, &inPtr, &inLeft, &outPtr, &outLeft)
                    let used = (src.count - position) - inLeft
                    position += used
                    produced = dst.count - outLeft
                    if result != -1 { break }
                    if errno == EINVAL && !final {
                        // An incomplete sequence at the end: keep it for the next chunk.
                        pending = Array(src[position...])
                        position = src.count
                        break
                    }
                    // An invalid (or, at the very end, incomplete) sequence: U+FFFD, skip a unit.
                    replacedSequences += 1
                    if firstReplacementOffset == nil {
                        firstReplacementOffset = consumed + position
                    }
                    for b: UInt8 in [0xEF, 0xBF, 0xBD] where produced < dst.count {
                        dst[produced] = b
                        produced += 1
                    }
                    position = min(src.count, position + unit)
                }
            }
        }
        consumed += source.count - pending.count
        output.removeLast(output.count - produced)
        return output
    }
}
