/// A sorted readable output (text, HTML, Markdown, the JSON document under `--group`) drawn from
/// records rather than from held events. Each event becomes a record on the worker thread
/// that mapped it; the records are sorted as bytes (`EncodedRecordSorter`, which spills and
/// merges within `--memory` as for NDJSON); the thread that writes the output only cuts the
/// sorted records into sections where the section number changes, and each section is turned
/// back into events and drawn on a worker thread (`SectionWriter`). Holding events instead
/// would copy and destroy every event on that one thread, twice.
///
/// A record: the event's section (`TimelineGrouping.number`, 8 bytes little endian), then
/// the event (`EventRunCodec`, which gives back the same event).
final class SectionRecordEncoder: EventRecordEncoding, Sendable {
    let unit: GroupingUnit
    let zone: ZoneRules

    init(unit: GroupingUnit, zone: ZoneRules) {
        self.unit = unit
        self.zone = zone
    }

    func encode(_ event: Event, into bytes: inout EncodedBytes) {
        let number = TimelineGrouping.number(of: event, unit: unit, zone: zone)
        bytes.write(number, capacity: 8) { number, w in w.integer(number) }
        EventRunCodec.append(event, to: &bytes)
    }

    /// The section a run of records makes: its events, key and totals.
    func section(of records: [UInt8]) throws(TimelineError) -> TimelineGroup {
        var events: [Event] = []
        try EventRunCodec.forEach(in: records, prefix: 8) { events.append($0) }
        guard let first = events.first else {
            return TimelineGroup(key: "", events: [], totals: [])
        }
        return TimelineGroup(
            key: TimelineGrouping.key(of: first, unit: unit, zone: zone), events: events,
            totals: TimelineGrouping.totals(events))
    }
}

/// Cuts sorted section records, chunk after chunk, into the records of each section.
struct SectionRecordCutter {
    typealias Emit = (_ records: [UInt8]) throws(TimelineError) -> Void
    private var number: Int64?
    private var records: [UInt8] = []

    /// Takes a chunk of whole records, in order; hands on each section that ends in it.
    mutating func add(_ chunk: [UInt8], emit: Emit) throws(TimelineError) {
        // Where each record starts and the section it is in, read first: the bytes are lent
        // to a closure that cannot throw the output's errors.
        let cuts = chunk.withByteView { view in
            var cuts: [(start: Int, number: Int64)] = []
            var offset = 0
            while offset + 12 <= view.count {
                cuts.append((offset, view.integer(at: offset, as: Int64.self)))
                offset += 12 + Int(view.integer(at: offset + 8, as: UInt32.self))
            }
            precondition(offset == view.count, "a chunk ends inside a record")
            return cuts
        }
        var sectionStart = 0
        for cut in cuts where cut.number != number {
            records += chunk[sectionStart..<cut.start]
            sectionStart = cut.start
            if number != nil { try finish(emit: emit) }
            number = cut.number
        }
        records += chunk[sectionStart...]
    }

    /// Hands on the section being gathered, if any.
    mutating func finish(emit: Emit) throws(TimelineError) {
        guard !records.isEmpty else { return }
        let section = records
        records = []
        try emit(section)
    }
}

/// What a sorted readable output needs from every event before its first section, gathered
/// from each batch on the worker thread that mapped it and merged in input order: HTML's
/// totals of each month (shown before its days), and the offsets times were written with
/// when days are counted in UTC only by default (`UTCDayOffsets`).
struct SectionFacts: Sendable {
    var totals: SectionTotals?
    var offsets: UTCDayOffsets?

    mutating func add(_ event: borrowing Event) {
        totals?.add(event)
        offsets?.add(event)
    }

    /// Adds the facts of the events that came after these.
    mutating func merge(_ later: SectionFacts) {
        if let other = later.totals { totals?.merge(other) }
        if let other = later.offsets { offsets?.merge(other) }
    }

    /// The same facts to gather, none gathered yet.
    var empty: SectionFacts {
        SectionFacts(totals: totals?.empty, offsets: offsets.map { _ in UTCDayOffsets() })
    }
}
