import Foundation

/// A conversion: read every input with its importer, order the events, hand them to an
/// exporter, as its plan says. Streams end to end with `--sort input`; otherwise holds the
/// events to sort.
final class ConvertPipeline {
    let plan: ConvertPlan
    /// Where the run is, as `plan.onProgress` last heard it.
    private(set) var progress = ConvertProgress()
    /// Counts the input bytes read, for `progress`.
    private let meter = ReadMeter()
    /// How many byte sequences of the inputs were not valid in their encoding (each read as
    /// U+FFFD).
    private(set) var replacedSequences = 0
    /// What the run had read, written and rejected when reading stopped with an error.
    private(set) var summaryAtFailure: ConvertSummary?

    init(_ plan: ConvertPlan) {
        self.plan = plan
    }

    /// Runs the conversion of `sources` (standard input when there are none) into
    /// `exporter`, writing to `output` (not committed).
    func run(sources: [TimelineSource], exporter: any TimelineExporter, output: OutputWriter)
        throws(TimelineError) -> ConvertSummary
    {
        let header = plan.write.documentHeader
        // Sections (text, HTML, Markdown; JSON under --group) are cut from the sorted
        // events as they come; unsorted and ungrouped, those outputs order the events they
        // are handed themselves.
        let sectioner = exporter as? any SectionExporter
        let unit = sectioner?.sectionUnit(for: plan.grouping)
        if plan.grouping != .none && unit == nil {
            throw TimelineError(
                .usage,
                "\(.group, "\(plan.grouping.rawValue)") needs an output that holds groups (json, timeline); use \(.group, "none")"
            )
        }
        let sections =
            plan.grouping != .none || plan.sort != .input
            ? unit.map { (unit: $0, exporter: sectioner!) } : nil
        if sections == nil { try exporter.begin(header, to: output) }
        // Streaming: encode (on the mapping threads where the exporter allows) and write on
        // a second thread while this one reads.
        let stage =
            plan.sort == .input && sections == nil
            ? ExportStage(exporter: exporter, output: output) : nil
        let showsDisplayZone = exporter.showsTimesInDisplayZone || sections != nil
        // A sorted conversion may spill to disk and merge: the exporter's own records when
        // they stand alone (NDJSON: encoded on the mapping threads), or the records sections
        // are drawn from (`SectionRecords`), else the events.
        let sorts = stage == nil && plan.sort != .input
        let zone = plan.write.displayZone.rules
        let sectionRecords =
            sorts ? sections.map { SectionRecordEncoder(unit: $0.unit, zone: zone) } : nil
        // What the sections need from every event before the first of them.
        let enclosing = sections?.exporter.enclosingUnit
        let facts =
            sectionRecords != nil && (enclosing != nil || countsUTCDayOffsets)
            ? SectionFacts(
                totals: enclosing.map { SectionTotals(unit: $0, zone: zone) },
                offsets: countsUTCDayOffsets ? UTCDayOffsets() : nil) : nil
        // An exporter that builds parts (Parquet) sorts its events as records too, rebuilt
        // into parts on the workers (`PartRecords`).
        let partBuilder = sorts && sections == nil ? exporter as? any PartBuildingExporter : nil
        let partRecords = partBuilder.map { _ in EventRecordEncoder() }
        let recordEncoder: (any EventRecordEncoding)? =
            sectionRecords
            ?? (sections == nil && !showsDisplayZone ? exporter as? any EventEncodingExporter : nil)
            ?? partRecords
        let encodedSorter =
            sorts
            ? recordEncoder.map {
                EncodedRecordSorter(
                    order: plan.sort, zone: zone, budget: plan.sortMemory,
                    directory: plan.sortDirectory,
                    encoder: $0, onSpill: sortProgress)
            } : nil
        let sorter =
            sorts && encodedSorter == nil && plan.sortDirectory != nil
            ? ExternalSorter(
                order: plan.sort, zone: zone, budget: plan.sortMemory,
                directory: plan.sortDirectory,
                onSpill: sortProgress) : nil
        let sink = EventSink(
            stage: stage,
            encoder: sectionRecords ?? exporter as? any EventEncodingExporter ?? partRecords,
            observer: plan.observer,
            limit: .either(showsDisplayZone ? .showingTimes(in: zone) : nil, exporter.limit),
            sorter: sorter,
            encodedSorter: encodedSorter,
            facts: facts,
            progressInterval: plan.progressInterval,
            onProgress: { [unowned self] records in
                progress.recordsRead = records
                progress.bytesRead = meter.bytes
                plan.onProgress(progress)
            }, onReject: plan.onReject)
        progress.totalBytes = (sources.isEmpty ? [.standardInput] : sources).reduce(0) {
            total, source in source.byteCount.flatMap { n in total.map { $0 + n } }
        }
        plan.onProgress(progress)
        do throws(TimelineError) {
            try read(sources, into: sink)
        } catch {
            // What was handed to the output before the error is written out, so that the
            // summary says what the output holds.
            try? sink.finish()
            summaryAtFailure = sink.summary
            throw error
        }
        try sink.finish()
        progress.recordsRead = sink.summary.read
        progress.bytesRead = meter.bytes
        if let encodedSorter {
            let runs = encodedSorter.runCount + 1
            if runs > 1 {
                merging(
                    sink.summary.written, of: sink.summary.written + encodedSorter.count, runs: runs
                )
            }
            func written(_ records: Int) {
                let before = sink.summary.written
                sink.summary.written += records
                if runs > 1
                    && before / plan.progressInterval != sink.summary.written
                        / plan.progressInterval
                {
                    merging(sink.summary.written)
                }
            }
            if let sections, let sectionRecords {
                try sections.exporter.beginSections(
                    header, eventCount: encodedSorter.count, enclosingTotals: sink.facts?.totals,
                    to: output)
                var cutter = SectionRecordCutter()
                let writer = SectionWriter(sections.exporter, to: output)
                let emit = { (records: [UInt8]) throws(TimelineError) in
                    try writer.add(records: records, from: sectionRecords)
                }
                do throws(TimelineError) {
                    try encodedSorter.drain {
                        (chunk: [UInt8], records: Int) throws(TimelineError) in
                        try cutter.add(chunk, emit: emit)
                        written(records)
                    }
                    try cutter.finish(emit: emit)
                    try writer.finish()
                } catch {
                    writer.abandon()
                    throw error
                }
                try sections.exporter.finishSections(to: output)
                sink.facts?.offsets?.note(to: plan.onDiagnostic)
                noteRuns(runs)
                return sink.summary
            }
            if let partBuilder {
                let writer = PartRecordWriter(partBuilder, to: output)
                do throws(TimelineError) {
                    try encodedSorter.drain {
                        (chunk: [UInt8], records: Int) throws(TimelineError) in
                        try writer.add(records: chunk)
                        written(records)
                    }
                    try writer.finish()
                } catch {
                    writer.abandon()
                    throw error
                }
            } else {
                try encodedSorter.drain {
                    (chunk: [UInt8], records: Int) throws(TimelineError) in
                    try output.write(chunk)
                    written(records)
                }
            }
            noteRuns(runs)
            try exporter.finish(to: output)
            return sink.summary
        }
        if let sorter {
            try sorter.finishSpilling()
            let runs = sorter.runCount + 1
            if runs > 1 {
                merging(sink.summary.written, of: sink.summary.written + sorter.count, runs: runs)
            }
            func written() {
                sink.summary.written += 1
                if runs > 1 && sink.summary.written % plan.progressInterval == 0 {
                    merging(sink.summary.written)
                }
            }
            try sorter.drain { (event: Event) throws(TimelineError) in
                try exporter.write(event, to: output)
                written()
            }
            try exporter.finish(to: output)
            noteRuns(runs)
            return sink.summary
        }
        let held = sink.held
        let order = held.timelineOrder(plan.sort, zone: plan.write.displayZone.rules)
        if let sections {
            if countsUTCDayOffsets {
                var offsets = UTCDayOffsets()
                for event in held { offsets.add(event) }
                offsets.note(to: plan.onDiagnostic)
            }
            let groups = TimelineGrouping.group(
                order.map { held[$0] }, unit: sections.unit, zone: zone)
            try sections.exporter.write(sections: groups, header: header, zone: zone, to: output)
            sink.summary.written += held.count
            return sink.summary
        }
        for i in order {
            try exporter.write(held[i], to: output)
            sink.summary.written += 1
        }
        try exporter.finish(to: output)
        return sink.summary
    }

    /// Whether days are counted in UTC only because no zone was named and the data declares
    /// none: then times written with other offsets are counted (`UTCDayOffsets`).
    private var countsUTCDayOffsets: Bool {
        plan.write.displayZoneChoice == .defaulted && plan.write.displayZone.identifier == "UTC"
    }

    /// A sorter spilled a run.
    private func sortProgress(_ step: SortProgress) {
        guard case .spilled(let runs) = step else { return }
        progress.runsOnDisk = runs
        progress.bytesRead = meter.bytes
        plan.onProgress(progress)
    }

    /// The merge has written `written` events (of `total` from `runs` runs — the last one
    /// held in memory — given as it starts).
    private func merging(_ written: Int, of total: Int? = nil, runs: Int? = nil) {
        progress.phase = .merging
        if let total { progress.eventsToWrite = total }
        if let runs { progress.runsOnDisk = runs - 1 }
        progress.eventsWritten = written
        plan.onProgress(progress)
    }

    /// The checks over the whole timeline begin.
    func validating() {
        progress.phase = .validating
        plan.onProgress(progress)
    }

    private func noteRuns(_ runs: Int) {
        guard plan.verbose && runs > 1 else { return }
        plan.onDiagnostic(
            Diagnostic(
                .info,
                "sorted in \(runs) runs (\(runs - 1) spilled to '\(plan.sortDirectory ?? "")'), merged"
            ))
    }

    /// Reads every source (standard input when there are none) into `sink`.
    private func read(_ sources: [TimelineSource], into sink: EventSink) throws(TimelineError) {
        let parser = DateParser(options: plan.read.dates)
        let recurrence = RecurrenceBudget(
            RecurrenceBudget.perRun, occurrences: plan.read.ics.maxTotalOccurrences)
        for source in sources.isEmpty ? [.standardInput] : sources {
            let reader = try source.open()
            reader.meter = meter
            reader.maxLine = plan.read.maxRecordSize
            let probe = try InputProbe(
                reader, options: plan.read, verbose: plan.verbose,
                onDiagnostic: plan.onDiagnostic)
            let (format, encoding) = (probe.format, probe.encoding)
            try format.check(plan.read)
            let importer = format.makeReader(plan.read)!
            let context = ImportContext(
                options: plan.read, format: format.id, dateParser: parser,
                onEvent: { (event: Event) throws(TimelineError) in try sink.take(event) },
                onReject: { record in sink.reject(record) },
                onDiagnostic: plan.onDiagnostic, batches: sink, recurrence: recurrence,
                memory: plan.inputMemory, verbose: plan.verbose)
            try importer.read(from: reader, context: context)
            if context.records == 0 && !context.isRecognised && reader.sawContent {
                throw TimelineError(
                    .data,
                    "no record was read from '\(source.name)', which is not empty: nothing in it reads as \(format.id)",
                    at: SourceLocation(file: source.name),
                    notes: [
                        "name its format with \(.from), or its columns with \(.map, "start=COLUMN")"
                    ])
            }
            if let (count, offset) = reader.replacedSequences {
                replacedSequences += count
                plan.onDiagnostic(
                    Diagnostic(
                        .warning,
                        "\(count) byte sequence(s) are not valid \(encoding.rawValue) (the first at byte \(offset)); they were read as U+FFFD",
                        at: SourceLocation(file: source.name), code: "encoding",
                        notes: ["check \(.encoding); the file may be in another encoding"]))
            }
        }
    }
}

/// Looks at every event of a run without holding the stream. Each batch of events is shown
/// to an observation the observer makes, event by event as the batch is filled (on the
/// worker thread that maps them, so the events need not be kept).
protocol EventStreamObserver: AnyObject {
    /// - Parameter expectedCount: about how many events the batch will have.
    func makeObservation(expectedCount: Int) -> any EventObservation
}

/// What an observer takes from the events of one batch as they are added.
protocol EventObservation: AnyObject {
    /// Reads `event` (lent for the call only).
    func add(_ event: EventRef)
    /// Events added.
    var count: Int { get }
    /// Reads what was added (on the worker thread, several batches at once: it must not
    /// touch shared state) into the step that folds it into the observer.
    func digest() -> ObservationDigest
}

/// What an observation took from one batch, ready to be folded into its observer: the
/// stream calls `absorb` once per batch, in input order. (The digest's type stays the
/// observer's own, inside the closure.)
struct ObservationDigest: Sendable {
    let absorb: @Sendable () -> Void
}
