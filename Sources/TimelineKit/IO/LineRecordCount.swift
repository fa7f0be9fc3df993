/// How many records and lines an input holds, counted without reading the records: the first
/// pass of a distributed job that numbers each split's records and lines as the whole
/// file's. A record starts on a line that holds more than blanks; with `csvQuotes`, only on
/// a line that starts outside a quoted field (a field may hold line breaks).
package struct LineRecordCount: Sendable, Equatable {
    package var records = 0
    package var lines = 0
    /// The input ends inside a quoted field (a record runs on past it).
    package var endsInQuotes = false

    package init(reading reader: InputReader, csvQuotes: Bool) throws(TimelineError) {
        var quoted = false
        var lineHasContent = false
        var lineStartedQuoted = false
        var atLineStart = true
        while let chunk = try reader.nextChunk() {
            for byte in chunk {
                if atLineStart {
                    lineStartedQuoted = quoted
                    lineHasContent = false
                    atLineStart = false
                }
                switch byte {
                case 0x0A:
                    if lineHasContent && !lineStartedQuoted { records += 1 }
                    lines += 1
                    atLineStart = true
                case 0x20, 0x09, 0x0D: break
                case 0x22:
                    lineHasContent = true
                    if csvQuotes { quoted.toggle() }
                default: lineHasContent = true
                }
            }
        }
        // A last line without a line break.
        if !atLineStart {
            if lineHasContent && !lineStartedQuoted { records += 1 }
            lines += 1
        }
        endsInQuotes = quoted
    }
}
