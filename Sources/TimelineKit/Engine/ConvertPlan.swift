/// What a conversion does, settled before it starts: how inputs are read, how events are
/// written, their order and grouping, the memory and directory a sort may use, and who hears
/// of diagnostics, rejects, progress and every event. `Timeline` builds one per run;
/// `ConvertPipeline` runs it and changes nothing in it.
struct ConvertPlan {
    var read = ReadOptions()
    var write = WriteOptions()
    var sort: SortOrder = .asc
    /// With `.day` or `.month` the exporter (which must be a `SectionExporter`) receives the
    /// events in sections by day or month in the display zone.
    var grouping: GroupingUnit = .none
    /// Report decisions (format, header, preset, sorted runs) as notes.
    var verbose = false
    /// Where a sort spills its runs (`ExternalSorter`); nil sorts in memory.
    var sortDirectory: String?
    /// About how many bytes of events a sort holds before it spills.
    var sortMemory = 256 << 20
    /// What a format that must expand its input before reading it (XLSX) may hold.
    var inputMemory = 256 << 20
    /// Watches every event read (validation): digested in batches on the worker threads
    /// that map them where the importer allows, absorbed in input order on the thread that
    /// runs the pipeline.
    var observer: (any EventStreamObserver)?
    /// Receives diagnostics as they happen (the CLI prints them).
    var onDiagnostic: (Diagnostic) -> Void = { _ in }
    /// Receives each rejected record (the CLI reports and optionally writes them).
    var onReject: (RejectedRecord) -> Void = { _ in }
    /// Told where the run is: every `progressInterval` records read or events merged, at
    /// each sorted run spilled, and as each phase begins.
    var onProgress: (ConvertProgress) -> Void = { _ in }
    var progressInterval = 10_000
}
