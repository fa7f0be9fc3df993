/// Writes rejected records to `--rejects FILE`: for CSV input a CSV with the input's header
/// plus `reject_line` and `reject_reason` and the fields unchanged; otherwise NDJSON objects
/// `{"file","line","column","code","reason","raw"}`. The form follows the file's extension
/// (`.csv`/`.tsv` or `.ndjson`/`.jsonl`/`.json`), else the first rejected record's input.
/// With `safe` (`--safe-csv`) the CSV's cells are made safe to open in a spreadsheet as the
/// CSV output's are (`SpreadsheetSafety`).
package final class RejectsWriter {
    private let output: OutputWriter
    private var csv: Bool?
    private var wroteHeader = false
    private let safe: Bool
    private let audience: MessageAudience

    package init(output: OutputWriter, safe: Bool = false, audience: MessageAudience) {
        self.output = output
        self.safe = safe
        self.audience = audience
        let lower = output.name.lowercased()
        if lower.hasSuffix(".csv") || lower.hasSuffix(".tsv") { csv = true }
        if lower.hasSuffix(".ndjson") || lower.hasSuffix(".jsonl") || lower.hasSuffix(".json") {
            csv = false
        }
    }

    package func write(_ r: RejectedRecord) throws(TimelineError) {
        if csv == nil { csv = r.header != nil }
        if csv == true { try writeCSV(r) } else { try writeJSON(r) }
    }

    private func writeCSV(_ r: RejectedRecord) throws(TimelineError) {
        var text = ""
        if !wroteHeader {
            wroteHeader = true
            text +=
                ((r.header ?? ["raw"]) + ["reject_line", "reject_reason"]).map(cell).joined(
                    separator: ",") + "\r\n"
        }
        let fields = r.fields ?? [r.raw]
        text +=
            (fields + [r.location.line.map(String.init) ?? "", r.reason(for: audience)]).map(cell)
            .joined(
                separator: ",") + "\r\n"
        try output.write(text)
    }

    private func cell(_ text: String) -> String {
        Self.quote(safe ? SpreadsheetSafety.neutralised(text) : text)
    }

    static func quote(_ cell: String) -> String {
        guard
            cell.contains(where: {
                $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n"
            })
        else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private func writeJSON(_ r: RejectedRecord) throws(TimelineError) {
        var w = JSONWriter()
        w.raw("{\"file\":")
        w.string(r.location.file)
        if let line = r.location.line {
            w.raw(",\"line\":")
            w.bytes += Array(String(line).utf8)
        }
        if let column = r.location.column {
            w.raw(",\"column\":")
            w.bytes += Array(String(column).utf8)
        }
        w.raw(",\"code\":")
        w.string(r.code.rawValue)
        w.raw(",\"reason\":")
        w.string(r.reason(for: audience))
        w.raw(",\"raw\":")
        w.string(r.raw)
        w.raw("}\n")
        try output.write(w.bytes)
    }
}
