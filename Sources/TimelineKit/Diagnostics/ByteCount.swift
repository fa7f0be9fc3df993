/// Sizes as messages give them: `64 MB`, `1.5 MB`, `900 KB`, `512 bytes`.
enum ByteCount {
    static func text(_ bytes: Int) -> String {
        if bytes >= 10 << 20 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 20 {
            let tenths = (bytes * 10) >> 20
            return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
        }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}
