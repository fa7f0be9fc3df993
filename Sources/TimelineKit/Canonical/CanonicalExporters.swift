/// `json` / `timeline`: one canonical document, one event per line inside `events`, so
/// that its event lines are byte-identical to the NDJSON form.
public final class CanonicalDocumentExporter: TimelineExporter {
    private var count = 0
    private var writer = JSONWriter()

    public init() {}

    public func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {
        writer.bytes.removeAll(keepingCapacity: true)
        writer.raw("{\"schema\":\"timeline/1\",\"zone\":")
        writer.string(header.zone)
        writer.raw(",\"events\":[")
        try out.write(writer.bytes)
    }

    public func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        writer.bytes.removeAll(keepingCapacity: true)
        if count > 0 { writer.bytes.append(UInt8(ascii: ",")) }
        writer.bytes.append(0x0A)
        CanonicalEncoder.append(event, to: &writer)
        count += 1
        try out.write(writer.bytes)
    }

    public func finish(to out: OutputWriter) throws(TimelineError) {
        try out.write(count > 0 ? "\n]}\n" : "]}\n")
    }
}

/// `ndjson`: one canonical event per line, written as it arrives.
public final class CanonicalNDJSONExporter: TimelineExporter {
    private var writer = JSONWriter()

    public init() {}

    public func begin(_ header: DocumentHeader, to out: OutputWriter) throws(TimelineError) {}

    public func write(_ event: Event, to out: OutputWriter) throws(TimelineError) {
        writer.bytes.removeAll(keepingCapacity: true)
        CanonicalEncoder.append(event, to: &writer)
        writer.bytes.append(0x0A)
        try out.write(writer.bytes)
    }

    public func finish(to out: OutputWriter) throws(TimelineError) {}
}
