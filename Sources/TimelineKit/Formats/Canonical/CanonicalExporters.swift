/// `json` / `timeline`: one canonical document, one event per line inside `events`, so
/// that its event lines are byte-identical to the NDJSON form.
final class CanonicalDocumentExporter: TimelineExporter {
    private var count = 0
    private var writer = JSONWriter()

    init() {}

    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {
        try writeHead(header, list: "\"events\"", to: out)
    }

    /// `{"schema":"timeline/1","zone":…,` then `list`, a quoted name, and `:[`.
    fileprivate func writeHead(_ header: DocumentHeader, list: StaticString, to out: OutputWriter)
        throws(TimelineError)
    {
        writer.bytes.removeAll(keepingCapacity: true)
        writer.raw("{\"schema\":\"timeline/1\",\"zone\":")
        writer.string(header.zone)
        writer.raw(",")
        writer.raw(list)
        writer.raw(":[")
        try out.write(writer.bytes)
    }

    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        writer.bytes.removeAll(keepingCapacity: true)
        if count > 0 { writer.bytes.append(UInt8(ascii: ",")) }
        writer.bytes.append(0x0A)
        CanonicalEncoder.append(event, to: &writer)
        count += 1
        try out.write(writer.bytes)
    }

    func finish(to out: OutputWriter) throws(TimelineError) {
        try out.write(count > 0 ? "\n]}\n" : "]}\n")
    }
}

extension CanonicalDocumentExporter: SectionExporter {
    func sectionUnit(for grouping: GroupingUnit) -> GroupingUnit? {
        grouping == .none ? nil : grouping
    }

    /// `{"schema":…,"zone":…,"groups":[{"key":…,"count":…,"totals":[…],"events":[…]}]}`,
    /// one event per line as in the flat document.
    func beginSections(
        _ header: DocumentHeader, eventCount: Int, enclosingTotals: SectionTotals?,
        to out: OutputWriter
    ) throws(TimelineError) {
        count = 0
        try writeHead(header, list: "\"groups\"", to: out)
    }

    func write(rendered: [UInt8], of section: TimelineGroup, to out: OutputWriter)
        throws(TimelineError)
    {
        if count > 0 { try out.write([UInt8(ascii: ",")]) }
        count += 1
        try out.write(rendered)
    }

    func render(section group: TimelineGroup) -> [UInt8] {
        var w = JSONWriter()
        w.raw("\n{\"key\":")
        w.string(group.key)
        w.raw(",\"count\":")
        appendDigits(group.events.count, width: 1, to: &w.bytes)
        w.raw(",\"totals\":[")
        for (t, total) in group.totals.enumerated() {
            if t > 0 { w.bytes.append(UInt8(ascii: ",")) }
            w.bytes.append(UInt8(ascii: "{"))
            if let c = total.currency {
                w.raw("\"currency\":")
                w.string(c)
                w.bytes.append(UInt8(ascii: ","))
            }
            w.raw("\"income\":")
            w.string(total.income.description)
            w.raw(",\"expense\":")
            w.string(total.expense.description)
            w.bytes.append(UInt8(ascii: "}"))
        }
        w.raw("],\"events\":[")
        for (i, e) in group.events.enumerated() {
            if i > 0 { w.bytes.append(UInt8(ascii: ",")) }
            w.bytes.append(0x0A)
            CanonicalEncoder.append(e, to: &w)
        }
        w.raw("\n]}")
        return w.bytes
    }

    func finishSections(to out: OutputWriter) throws(TimelineError) {
        try out.write(count == 0 ? "]}\n" : "\n]}\n")
    }
}

/// `ndjson`: one canonical event per line, written as it arrives.
final class CanonicalNDJSONExporter: TimelineExporter {
    private var writer = JSONWriter()

    init() {}

    func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}

    func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        writer.bytes.removeAll(keepingCapacity: true)
        CanonicalEncoder.append(event, to: &writer.bytes)
        writer.bytes.append(0x0A)
        try out.write(writer.bytes)
    }

    func finish(to out: OutputWriter) throws(TimelineError) {}
}

extension CanonicalNDJSONExporter: EventEncodingExporter {
    func encode(_ event: Event, into bytes: inout EncodedBytes) {
        bytes.write(event, capacity: CanonicalEncoder.maximumLength(event) + 1) { event, w in
            CanonicalEncoder.write(event, to: &w)
            w.byte(0x0A)
        }
    }
}
