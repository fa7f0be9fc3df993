/// Finds a table's start column from its values when no name, preset or flag names one
/// (Amazon's `Order Date`, Etsy's `Sale Date`, Taobao's `订单创建时间`, Revolut's
/// `Started Date`): every column is scored on a sample of its values — how many read as a
/// date, a date-time or an epoch number — and on its header's words, and one is chosen the
/// same way every time.
///
/// A column is a time column when at least 80% of its sampled values (placeholders such as
/// `Not Available` left out) read as times. A column of bare digits (an order number can
/// look like an epoch) counts only when its header says it is a time. Among time columns
/// the one whose header names the record's beginning comes first (started; then created,
/// placed, order, sale, 创建, 下单, …), then one whose header names a time at all; of equal
/// rank, values that carry their own offset before local ones, then the leftmost. A column
/// of dates alone is joined with a column of times of day (`Date`, `Time`), as the name
/// rules join them.
struct TimeColumnSniffer {
    /// What was chosen, and what else there was.
    struct Choice {
        var start: FieldSource
        /// The chosen column(s) and why, for a note.
        var reason: String
        /// The other time columns, in order.
        var others: [String]
        /// Of those, the one whose header names an end (`endDate`, `Ended at`, `结束时间`).
        var end: String?
        /// Of those, when the start names a beginning, the one that names when the record
        /// was made (`creationDate`).
        var recorded: String?
        /// Each column's score, for `--verbose`: `Order Date: 5 of 5 values are times`.
        var scores: [String]

        /// Sets the start in `sources`, and the end and recorded time where no column feeds
        /// them yet.
        func apply(to sources: inout [MappedField: FieldSource]) {
            sources[.start] = start
            if let end, sources[.end] == nil { sources[.end] = FieldSource(columns: [end]) }
            if let recorded, sources[.recorded] == nil {
                sources[.recorded] = FieldSource(columns: [recorded])
            }
        }

        /// The note that says which column was chosen and why, and which other time columns
        /// there are (with `verbose`, every column's score).
        func note(file: String, line: Int?, verbose: Bool) -> Diagnostic {
            var text = "the start time is read from \(reason)"
            if let end { text += "; the end from '\(end)'" }
            if let recorded { text += "; the recorded time from '\(recorded)'" }
            let kept = others.filter { $0 != end && $0 != recorded }
            if !kept.isEmpty {
                text +=
                    "; other time columns, kept as attributes: "
                    + kept.map { "'\($0)'" }.joined(separator: ", ")
            }
            var notes = ["\(.map, "start=COLUMN") chooses another"]
            if verbose { notes += scores }
            return Diagnostic(.info, text, at: SourceLocation(file: file, line: line), notes: notes)
        }
    }

    let parser: DateParser

    /// How many records a sniffer looks at.
    static let sampleSize = 64

    /// What a column's sampled values are.
    struct Column {
        var index: Int
        var name: String
        var values = 0
        var times = 0
        var datesOnly = 0
        /// Values that carry their own offset (or are UTC, or an epoch): instants as written.
        var absolute = 0
        var timesOfDay = 0
        var digitsOnly = true
        var rank: Int { HeaderWords.rank(name) }
        /// Most of its values read as times (a column of bare digits only when its header
        /// says it is a time).
        var isTimeColumn: Bool {
            values > 0 && times * 5 >= values * 4 && (!digitsOnly || rank < HeaderWords.none)
        }
        var holdsDatesOnly: Bool { times > 0 && datesOnly == times }
        var isTimeOfDayColumn: Bool { values > 0 && timesOfDay * 5 >= values * 4 }
    }

    /// Scores every column of `header` on `rows` (a sample of its records, each as wide as
    /// the header).
    func columns(header: [String], rows: [[String]]) -> [Column] {
        header.enumerated().map { index, name in
            var column = Column(index: index, name: name)
            for row in rows.prefix(Self.sampleSize) where index < row.count {
                let value = row[index].cleanedCell
                guard !value.isEmpty, !Placeholder.isPlaceholder(value) else { continue }
                column.values += 1
                if !value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                    column.digitsOnly = false
                }
                if Self.isTimeOfDay(value) {
                    column.timesOfDay += 1
                    continue
                }
                switch parser.parse(value, inZone: .utc) {
                case .success(let parsed):
                    column.times += 1
                    if parsed.value.date != nil { column.datesOnly += 1 }
                    if parsed.value.basis == .offset || parsed.value.basis == .epoch {
                        column.absolute += 1
                    }
                case .failure(.ambiguousFieldOrder):
                    column.times += 1
                    column.datesOnly += value.utf8.contains(UInt8(ascii: ":")) ? 0 : 1
                case .failure(.nonexistentLocalTime), .failure(.ambiguousLocalTime):
                    column.times += 1
                default: break
                }
            }
            return column
        }
    }

    /// The start of a table with `header` from `rows`, leaving out `used` columns (mapped to
    /// other fields). `named` is the start the header names found, if any: it stays unless
    /// its sampled values are all empty (Strava's `Start Time`), or hold dates alone where
    /// another column has the same moments with their time of day (Wise's `Date` beside
    /// `Date Time`). Nil when no column holds times, or the named one stays.
    func choose(header: [String], rows: [[String]], used: Set<String>, named: FieldSource? = nil)
        -> Choice?
    {
        let all = columns(header: header, rows: rows)
        let scores = all.filter { $0.values > 0 }.map {
            "\($0.name): \($0.times) of \($0.values) values are dates or times"
                + ($0.timesOfDay > 0 ? ", \($0.timesOfDay) times of day" : "")
        }
        let free = all.filter {
            !used.contains($0.name) && !(named?.columns.contains($0.name) ?? false)
        }
        // Of equal rank, a column of instants as written (USPS's GMTTimestamp) before one of
        // local times (its eventTimestamp, to the minute), then the leftmost.
        let candidates = free.filter(\.isTimeColumn).sorted {
            ($0.rank, $0.absolute < $0.times ? 1 : 0, $0.index) < (
                $1.rank, $1.absolute < $1.times ? 1 : 0, $1.index
            )
        }
        var why: String?
        if let named {
            let own = all.filter { named.columns.contains($0.name) }
            if own.allSatisfy({ $0.values == 0 }) {
                why = "'\(named)', named as the start, is empty in every sampled record"
            } else if named.columns.count == 1, let column = own.first, column.holdsDatesOnly,
                let better = candidates.first(where: {
                    !$0.holdsDatesOnly && $0.rank <= HeaderWords.time
                })
            {
                return choice(
                    better, among: all, candidates: candidates, scores: scores,
                    why:
                        "'\(column.name)' holds dates alone, '\(better.name)' the same moments with their times of day"
                )
            } else {
                return nil
            }
        }
        guard let chosen = candidates.first else { return nil }
        return choice(chosen, among: all, candidates: candidates, scores: scores, why: why)
    }

    private func choice(
        _ chosen: Column, among all: [Column], candidates: [Column], scores: [String], why: String?
    ) -> Choice {
        var source = FieldSource(columns: [chosen.name], zone: ColumnZone.split(chosen.name)?.zone)
        var reason =
            "'\(chosen.name)' (\(chosen.times) of \(chosen.values) sampled values are \(chosen.holdsDatesOnly ? "dates" : "times")"
            + (chosen.rank <= HeaderWords.creation ? "; its name says when the record began)" : ")")
        // A column of dates and one of times of day are one start.
        if chosen.holdsDatesOnly,
            let time = all.filter(\.isTimeOfDayColumn).min(by: {
                abs($0.index - chosen.index) < abs($1.index - chosen.index)
            })
        {
            source = FieldSource(columns: [chosen.name, time.name], zone: source.zone)
            reason = "'\(chosen.name)' and '\(time.name)' joined (dates and times of day)"
        }
        if let why { reason += ": " + why }
        let rest = candidates.filter { !source.columns.contains($0.name) }
        let end = rest.first { HeaderWords.namesEnd($0.name) }?.name
        let recorded =
            chosen.rank == HeaderWords.start
            ? rest.first { $0.rank == HeaderWords.creation }?.name : nil
        return Choice(
            start: source, reason: reason, others: rest.map(\.name), end: end, recorded: recorded,
            scores: scores)
    }

    /// Whether one value, under `header`, reads as a time (a bare number only when the
    /// header names a time).
    func isTime(_ value: String, header: String) -> Bool {
        let text = value.cleanedCell
        guard !text.isEmpty, !Placeholder.isPlaceholder(text) else { return false }
        if text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            && HeaderWords.rank(header) == HeaderWords.none
        {
            return false
        }
        switch parser.parse(text, inZone: .utc) {
        case .success, .failure(.ambiguousFieldOrder), .failure(.nonexistentLocalTime),
            .failure(.ambiguousLocalTime):
            return true
        default: return false
        }
    }

    /// `15:15`, `15:15:22`, `3:15 PM`, `15:15:22.123`: a time of day and nothing else.
    static func isTimeOfDay(_ text: String) -> Bool {
        var digits = 0
        var colons = 0
        var rest = Substring(text)
        for suffix in [" AM", " PM", " am", " pm", "AM", "PM"] where rest.hasSuffix(suffix) {
            rest = rest.dropLast(suffix.count)
            break
        }
        for b in rest.utf8 {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: ":"): colons += 1
            case UInt8(ascii: "."): continue
            default: return false
            }
        }
        return (colons == 1 || colons == 2) && digits >= 3 && digits <= 12
            && rest.first?.isNumber == true
    }
}
