/// What to do with a local time that does not exist (a DST gap).
package enum GapPolicy: String, Sendable, Hashable, CaseIterable {
    /// Move it forward by the length of the gap (02:30 → 03:30 on a spring-forward day).
    case shift
    /// Reject the value (TZ104).
    case reject
}

/// What to do with a local time that exists twice (a DST overlap).
package enum OverlapPolicy: String, Sendable, Hashable, CaseIterable {
    /// The first of the two instants (the offset before the change), as RFC 5545 says.
    case earlier
    /// The second of the two instants.
    case later
    /// Reject the value (TZ105).
    case reject
}

/// Settings for reading date/time values. A value type with documented defaults.
package struct DateParsingOptions: Sendable {
    /// User patterns, tried in order after the built-in fast paths. Default none.
    package var patterns: [DatePattern] = []
    /// The zone applied to values with no offset and no zone (`--assume-zone`). Default none:
    /// such values are errors.
    package var assumedZone: ResolvedZone?
    /// Day-first or month-first for `12/06/2024`. Default nil: decided per value if a field
    /// exceeds 12, else an error.
    package var fieldOrder: FieldOrder?
    /// Default `.shift`.
    package var onGap: GapPolicy = .shift
    /// Default `.earlier`.
    package var onOverlap: OverlapPolicy = .earlier
    /// Resolves zone names and user abbreviations (`--abbrev`).
    package var zoneResolver = ZoneResolver()
    /// Whether bare numbers are read as epoch values. Default true.
    package var acceptsEpochNumbers = true

    /// No patterns, no assumed zone, day/month order from the values, shift gaps, earlier overlaps.
    package init() {}
}

/// Something the parser decided that the user should hear about (reported, not fatal).
package enum DateNotice: Hashable, Sendable {
    /// A local time in a DST gap, moved forward to `shiftedTo` (TZ104).
    case nonexistentLocalTime(LocalDateTime, zone: String, shiftedTo: LocalDateTime)
    /// A local time in a DST overlap; the `chosen` offset was used (TZ105).
    case ambiguousLocalTime(LocalDateTime, zone: String, chosen: UTCOffset, other: UTCOffset)
    /// An explicit offset that the named zone does not have at that instant (TZ106).
    case offsetContradictsZone(UTCOffset, zone: String, zoneOffset: UTCOffset)

    /// The validation code it is reported under (TZ104, TZ105, TZ106).
    public var code: FindingCode {
        switch self {
        case .nonexistentLocalTime: return .dstGap
        case .ambiguousLocalTime: return .dstOverlap
        case .offsetContradictsZone: return .offsetZoneMismatch
        }
    }

    /// What happened and what was done, for a diagnostic.
    public var message: String {
        switch self {
        case .nonexistentLocalTime(let local, let zone, let shifted):
            return "\(local.isoString(fractionDigits: 0)) does not exist in '\(zone)' (DST gap); "
                + "shifted to \(shifted.isoString(fractionDigits: 0)) (use \(.onGap, "reject") to refuse such values)"
        case .ambiguousLocalTime(let local, let zone, let chosen, let other):
            return "\(local.isoString(fractionDigits: 0)) occurs twice in '\(zone)' (DST overlap); "
                + "used offset \(chosen.isoString), not \(other.isoString) (see \(.onOverlap))"
        case .offsetContradictsZone(let offset, let zone, let zoneOffset):
            return
                "offset \(offset.isoString) contradicts '\(zone)', which is at \(zoneOffset.isoString) "
                + "at that instant; the explicit offset was used"
        }
    }
}

/// Why a value could not be read.
package enum DateParseError: Error, Hashable, Sendable {
    /// Nothing but whitespace.
    case empty
    /// Longer than `DateParser.maximumLength` bytes.
    case tooLong(Int)
    /// No parser accepted it; `closest` names the one that read the most bytes.
    case unreadable(closest: String, understoodBytes: Int)
    /// A time with no offset or zone, and no `--assume-zone` (TZ101).
    case naive
    /// `03/04/2024` with no way to tell day from month (TZ112).
    case ambiguousFieldOrder
    /// The zone name could not be used (TZ109 / TZ110).
    case zone(ZoneResolutionError)
    /// A DST gap under `--on-gap reject` (TZ104).
    case nonexistentLocalTime(LocalDateTime, zone: String)
    /// A DST overlap under `--on-overlap reject` (TZ105).
    case ambiguousLocalTime(LocalDateTime, zone: String)
    /// A value outside the years 0001–9999 (E008); says where it falls (`10000-01-01T09:00:00Z in UTC`).
    case outOfRange(String)
    /// A value with the shape of a date or time that is not one (E001): `2024-02-30`, a
    /// contradicting weekday, `2021-03-04T`.
    case invalid(DateProblem)

    /// The validation code the value's record is rejected under (E001, TZ101, TZ109, …).
    public var code: FindingCode {
        switch self {
        case .empty, .tooLong, .unreadable, .invalid: return .unparseable
        case .naive: return .naiveTime
        case .ambiguousFieldOrder: return .fieldOrderAmbiguous
        case .zone(.ambiguousAbbreviation): return .ambiguousAbbreviation
        case .zone(.unknownZone): return .unknownZone
        case .nonexistentLocalTime: return .dstGap
        case .ambiguousLocalTime: return .dstOverlap
        case .outOfRange: return .outOfRange
        }
    }

    /// What went wrong and how to fix it, for a value `raw`.
    public func message(for raw: String) -> String {
        let shown = raw.count > 60 ? String(raw.prefix(60)) + "…" : raw
        switch self {
        case .empty:
            return "empty value where a date/time was expected"
        case .tooLong(let n):
            return
                "value of \(n) bytes is too long to be a date/time (limit \(DateParser.maximumLength))"
        case .unreadable(let closest, let n):
            return
                "cannot read '\(shown)' as a date/time; closest: \(closest) (understood \(n) of \(raw.utf8.count) bytes); "
                + "add a pattern with \(.dateFormat), e.g. \(.dateFormat, "'dd/MM/yyyy HH:mm'")"
        case .naive:
            return
                "'\(shown)' has no UTC offset or zone; pass \(.assumeZone, "ZONE") (e.g. \(.assumeZone, "Asia/Shanghai"))"
        case .ambiguousFieldOrder:
            return
                "'\(shown)' could be day-first or month-first; pass \(.dayFirst) or \(.monthFirst)"
        case .zone(let e):
            return "in '\(shown)': " + e.message
        case .nonexistentLocalTime(let local, let zone):
            return
                "'\(shown)': \(local.isoString(fractionDigits: 0)) does not exist in '\(zone)' (DST gap); "
                + "use \(.onGap, "shift") to move it forward"
        case .ambiguousLocalTime(let local, let zone):
            return
                "'\(shown)': \(local.isoString(fractionDigits: 0)) occurs twice in '\(zone)' (DST overlap); "
                + "use \(.onOverlap, "earlier") or later"
        case .invalid(let problem):
            return "cannot read '\(shown)': \(problem.message)"
        case .outOfRange(let where_):
            return "'\(shown)' is \(where_): \(SupportedRange.outside)"
        }
    }
}

/// A value read by the engine, and anything it decided along the way.
package struct ParsedTimeValue: Hashable, Sendable {
    /// The value read.
    public var value: TimeValue
    /// What was decided on the way (a DST gap or overlap resolved), to report.
    public var notice: DateNotice?
    /// The text's form, when it is exactly the value's own rendering in one
    /// (`TimeValue.setRaw`): read by the fast path, with nothing trimmed around it.
    package var rawForm: TimeValue.RawForm? = nil
}

/// The date/time engine's entry point: the ordered fallback chain (ISO 8601, RFC 2822, epoch, user patterns, catalogue) plus zone
/// resolution. Independent of any file format.
///
/// Order: ISO 8601 / RFC 3339 → RFC 2822 → epoch numbers → user patterns → the built-in
/// catalogue. On total failure the error names the strategy that read furthest.
/// Not thread-safe (it caches zone lookups); use one per thread.
package final class DateParser {
    /// The settings the parser was made with.
    public let options: DateParsingOptions
    private let iso = ISO8601Syntax()
    private let rfc2822 = RFC2822Syntax()
    private var catalogue: CatalogueSyntax
    private var scratch = CatalogueSyntax.Scratch()
    private var zoneCache: [String: Result<ResolvedZone, ZoneResolutionError>] = [:]
    // Hot-path settings held apart from `options`, so reading one never copies the struct.
    private let assumedZone: ResolvedZone?
    private let patterns: [DatePattern]
    private let acceptsEpochNumbers: Bool
    private let onGap: GapPolicy
    private let onOverlap: OverlapPolicy

    /// Values longer than this (in bytes, after trimming) are refused outright.
    public static let maximumLength = 256

    /// A parser with these settings (patterns are compiled already; zones resolve lazily).
    public init(options: DateParsingOptions = DateParsingOptions()) {
        self.options = options
        self.catalogue = CatalogueSyntax(
            fieldOrder: options.fieldOrder, fieldOrderIsExplicit: options.fieldOrder != nil)
        self.assumedZone = options.assumedZone
        self.patterns = options.patterns
        self.acceptsEpochNumbers = options.acceptsEpochNumbers
        self.onGap = options.onGap
        self.onOverlap = options.onOverlap
    }

    /// Day-first/month-first decided later (from a column's values), if not set by a flag.
    package func setFieldOrder(_ order: FieldOrder?) {
        if options.fieldOrder == nil { catalogue.fieldOrder = order }
    }

    /// Reads `text`, placing a value without offset or zone in `zone` (a per-record zone
    /// column) with basis `zone`; otherwise as `parse(_:)`.
    public func parse(_ text: String, inZone zone: ResolvedZone?) -> Result<
        ParsedTimeValue, DateParseError
    > {
        switch text.withByteView({ parse(bytes: $0, recordZone: zone) }) {
        case .success(var parsed):
            parsed.value.raw = text
            return .success(parsed)
        case .failure(let error):
            return .failure(error)
        }
    }

    /// Reads `text`; `raw` in the result is `text` as given.
    public func parse(_ text: String) -> Result<ParsedTimeValue, DateParseError> {
        parse(text, inZone: nil)
    }

    /// Reads a value from UTF-8 bytes (surrounding whitespace ignored). The result's `raw`
    /// is nil; callers that keep source text set it.
    package func parse(bytes input: ByteView) -> Result<ParsedTimeValue, DateParseError> {
        parse(bytes: input, recordZone: nil)
    }

    /// Reads `input` with `pattern` alone, for a caller that already knows the value's shape
    /// (a timestamp found in text); the fields are resolved as any value's are (zones, DST).
    package func parse(bytes input: ByteView, pattern: DatePattern) -> Result<
        ParsedTimeValue, DateParseError
    > {
        var attempt = SyntaxAttempt()
        guard let fields = pattern.parse(input, attempt: &attempt) else {
            return .failure(
                attempt.problem.map { .invalid($0) }
                    ?? .unreadable(closest: pattern.name, understoodBytes: attempt.progress))
        }
        return Self.inSupportedRange(resolve(fields, in: input, recordZone: nil))
    }

    /// As `parse(bytes:)`; a naive value is placed in `recordZone` (basis `zone`) when given.
    package func parse(bytes input: ByteView, recordZone: ResolvedZone?) -> Result<
        ParsedTimeValue, DateParseError
    > {
        Self.inSupportedRange(read(input, recordZone: recordZone))
    }

    /// Reads `input` into `value`, its source text kept, when it is the common case: an
    /// RFC 3339 time with nothing around it and nothing to report (in range, and an offset
    /// that `recordZone`, when given, has at that instant). A record's time is then read in
    /// place, with no `Result` of a `ParsedTimeValue` made and copied on its way into the
    /// event. Returns false, leaving `value` as it was, for anything else: then
    /// `parse(bytes:recordZone:)` reads it or says why not.
    package func readCommonForm(
        _ input: ByteView, recordZone: ResolvedZone?, into value: inout TimeValue
    ) -> Bool {
        guard let m = RFC3339FastPath.parse(input) else { return false }
        var zone: String?
        if let recordZone {
            guard recordZone.offset(at: m.instant) == m.offset else { return false }
            zone = recordZone.identifier
        }
        let read = TimeValue(
            instant: m.instant, offset: m.offset, zone: zone, basis: .offset,
            fractionDigits: m.fractionDigits)
        guard read.isInSupportedRange else { return false }
        value = read
        value.setRaw(input, form: m.form)
        return true
    }

    /// `result`, or `outOfRange` when the value it read leaves the years 0001–9999 in UTC or
    /// in its own offset.
    @inline(__always)
    private static func inSupportedRange(_ result: Result<ParsedTimeValue, DateParseError>)
        -> Result<ParsedTimeValue, DateParseError>
    {
        if case .success(let parsed) = result, !parsed.value.isInSupportedRange {
            return .failure(.outOfRange(parsed.value.outOfRangeDescription()))
        }
        return result
    }

    /// The fallback chain over trimmed `input`.
    private func read(_ input: ByteView, recordZone: ResolvedZone?) -> Result<
        ParsedTimeValue, DateParseError
    > {
        var start = 0
        var end = input.count
        while start < end,
            input[start] == 0x20 || input[start] == 0x09 || input[start] == 0x0D
                || input[start] == 0x0A
        { start += 1 }
        while end > start,
            input[end - 1] == 0x20 || input[end - 1] == 0x09 || input[end - 1] == 0x0D
                || input[end - 1] == 0x0A
        { end -= 1 }
        guard end > start else { return .failure(.empty) }
        guard end - start <= DateParser.maximumLength else {
            return .failure(.tooLong(end - start))
        }
        let bytes = input[start..<end]
        if let m = RFC3339FastPath.parse(bytes) {
            var parsed = Self.offsetValue(
                m.instant, m.offset, fractionDigits: m.fractionDigits, recordZone: recordZone)
            if start == 0, end == input.count { parsed.rawForm = m.form }
            return .success(parsed)
        }

        // The strategy that got furthest names the error; a problem of a value that had a
        // syntax's shape says what is wrong, and a definite one ends the chain there.
        var best = (name: iso.name, attempt: SyntaxAttempt())
        func tried(_ name: String, _ attempt: SyntaxAttempt) -> DateParseError? {
            if attempt.isDefinite, let problem = attempt.problem { return .invalid(problem) }
            if attempt.progress > best.attempt.progress
                || (best.attempt.problem == nil && attempt.problem != nil)
            {
                best = (name, attempt)
            }
            return nil
        }
        var attempt = SyntaxAttempt()
        if let fields = iso.parse(bytes, attempt: &attempt) {
            return resolve(fields, in: bytes, recordZone: recordZone)
        }
        if let error = tried(iso.name, attempt) { return .failure(error) }
        attempt = SyntaxAttempt()
        if let fields = rfc2822.parse(bytes, attempt: &attempt) {
            return resolve(fields, in: bytes, recordZone: recordZone)
        }
        if let error = tried(rfc2822.name, attempt) { return .failure(error) }
        attempt = SyntaxAttempt()
        if let (m, offset) = EpochSyntax.parseDotNet(bytes, attempt: &attempt) {
            let value = TimeValue(
                instant: m.instant, offset: offset ?? .utc, basis: offset == nil ? .epoch : .offset,
                fractionDigits: m.fractionDigits)
            return .success(ParsedTimeValue(value: value))
        }
        if acceptsEpochNumbers {
            attempt = SyntaxAttempt()
            if let m = EpochSyntax.parse(bytes, attempt: &attempt) {
                let value = TimeValue(
                    instant: m.instant, offset: .utc, basis: .epoch,
                    fractionDigits: m.fractionDigits)
                return .success(ParsedTimeValue(value: value))
            }
            if let error = tried(EpochSyntax.name, attempt) { return .failure(error) }
        }
        for pattern in patterns {
            attempt = SyntaxAttempt()
            if let fields = pattern.parse(bytes, attempt: &attempt) {
                return resolve(fields, in: bytes, recordZone: recordZone)
            }
            if let error = tried(pattern.name, attempt) { return .failure(error) }
        }
        attempt = SyntaxAttempt()
        switch catalogue.parse(bytes, scratch: &scratch, attempt: &attempt) {
        case .fields(let fields): return resolve(fields, in: bytes, recordZone: recordZone)
        case .ambiguousFieldOrder: return .failure(.ambiguousFieldOrder)
        case .failure: if let error = tried("built-in formats", attempt) { return .failure(error) }
        }
        if let problem = best.attempt.problem { return .failure(.invalid(problem)) }
        return .failure(.unreadable(closest: best.name, understoodBytes: best.attempt.progress))
    }

    /// Resolves a zone name with a per-parser cache.
    package func zone(named name: String) -> Result<ResolvedZone, ZoneResolutionError> {
        if let cached = zoneCache[name] { return cached }
        let result = Result { () throws(ZoneResolutionError) in
            try options.zoneResolver.resolve(name)
        }
        zoneCache[name] = result
        return result
    }

    private func resolve(_ f: DateFields, in bytes: ByteView, recordZone: ResolvedZone?) -> Result<
        ParsedTimeValue, DateParseError
    > {
        let digits = f.fractionDigits
        if let range = f.zoneName {
            let name = bytes[range].string
            let zone: ResolvedZone
            switch self.zone(named: name) {
            case .success(let z): zone = z
            case .failure(let e): return .failure(.zone(e))
            }
            if let offset = f.offset ?? zone.fixedOffset {
                let instant = Instant(local: f.local, offset: offset)
                let zoneOffset = zone.rules.offset(at: instant)
                let notice: DateNotice? =
                    zoneOffset == offset
                    ? nil
                    : .offsetContradictsZone(offset, zone: zone.identifier, zoneOffset: zoneOffset)
                let basis: TimeBasis = f.offset != nil ? .offset : .zone
                let value = TimeValue(
                    instant: instant, offset: offset, zone: zone.identifier, basis: basis,
                    fractionDigits: digits)
                return .success(ParsedTimeValue(value: value, notice: notice))
            }
            return place(f.local, in: zone.rules, basis: .zone, fractionDigits: digits)
        }
        if let offset = f.offset {
            return .success(
                Self.offsetValue(
                    Instant(local: f.local, offset: offset), offset, fractionDigits: digits,
                    recordZone: recordZone))
        }
        if !f.hasTime {
            return .success(ParsedTimeValue(value: TimeValue(date: f.local.date)))
        }
        guard let assumed = recordZone ?? assumedZone else { return .failure(.naive) }
        let basis: TimeBasis = recordZone != nil ? .zone : .assumed
        if let fixed = assumed.fixedOffset {
            let value = TimeValue(
                instant: Instant(local: f.local, offset: fixed), offset: fixed,
                zone: assumed.identifier, basis: basis, fractionDigits: digits)
            return .success(ParsedTimeValue(value: value))
        }
        return place(f.local, in: assumed.rules, basis: basis, fractionDigits: digits)
    }

    /// A value written with an offset. A zone the record names (a zone column) is held
    /// against the offset as a `[Zone]` suffix is (TZ106 when it has another offset there),
    /// and recorded with the value.
    private static func offsetValue(
        _ instant: Instant, _ offset: UTCOffset, fractionDigits: Int, recordZone: ResolvedZone?
    ) -> ParsedTimeValue {
        guard let recordZone else {
            return ParsedTimeValue(
                value: TimeValue(
                    instant: instant, offset: offset, basis: .offset, fractionDigits: fractionDigits
                ))
        }
        let zoneOffset = recordZone.offset(at: instant)
        let notice: DateNotice? =
            zoneOffset == offset
            ? nil
            : .offsetContradictsZone(offset, zone: recordZone.identifier, zoneOffset: zoneOffset)
        let value = TimeValue(
            instant: instant, offset: offset, zone: recordZone.identifier, basis: .offset,
            fractionDigits: fractionDigits)
        return ParsedTimeValue(value: value, notice: notice)
    }

    /// Turns a wall time into an instant in `rules`, applying the gap/overlap policies.
    package func place(
        _ local: LocalDateTime, in rules: ZoneRules, basis: TimeBasis, fractionDigits: Int
    ) -> Result<ParsedTimeValue, DateParseError> {
        Self.inSupportedRange(
            placeUnchecked(local, in: rules, basis: basis, fractionDigits: fractionDigits))
    }

    private func placeUnchecked(
        _ local: LocalDateTime, in rules: ZoneRules, basis: TimeBasis, fractionDigits: Int
    ) -> Result<
        ParsedTimeValue, DateParseError
    > {
        let zoneID = rules.identifier
        func value(_ offset: UTCOffset) -> TimeValue {
            TimeValue(
                instant: Instant(local: local, offset: offset), offset: offset, zone: zoneID,
                basis: basis, fractionDigits: fractionDigits)
        }
        switch rules.resolve(local) {
        case .unique(let offset):
            return .success(ParsedTimeValue(value: value(offset)))
        case .gap(let before, let after):
            guard onGap == .shift else {
                return .failure(.nonexistentLocalTime(local, zone: zoneID))
            }
            // The wall time read with the pre-gap offset lands after the transition.
            let instant = Instant(local: local, offset: before)
            let v = TimeValue(
                instant: instant, offset: after, zone: zoneID, basis: basis,
                fractionDigits: fractionDigits)
            return .success(
                ParsedTimeValue(
                    value: v,
                    notice: .nonexistentLocalTime(
                        local, zone: zoneID, shiftedTo: instant.local(in: after))))
        case .overlap(let earlier, let later):
            switch onOverlap {
            case .reject: return .failure(.ambiguousLocalTime(local, zone: zoneID))
            case .earlier:
                return .success(
                    ParsedTimeValue(
                        value: value(earlier),
                        notice: .ambiguousLocalTime(
                            local, zone: zoneID, chosen: earlier, other: later)))
            case .later:
                return .success(
                    ParsedTimeValue(
                        value: value(later),
                        notice: .ambiguousLocalTime(
                            local, zone: zoneID, chosen: later, other: earlier)))
            }
        }
    }
}
