/// How the instant of a time value was determined (docs/canonical-format.md).
public enum TimeBasis: String, Hashable, Sendable, CaseIterable {
    /// The source carried an explicit UTC offset or `Z`.
    case offset
    /// The source named a zone; the offset comes from that zone's rules.
    case zone
    /// The source carried neither; the user-supplied zone was applied.
    case assumed
    /// A numeric epoch value.
    case epoch
    /// An all-day calendar date with no time and no zone.
    case date
}

/// A canonical time value: an exact instant observed in an offset (and maybe a zone), or
/// an all-day date. Keeps the source text and the number of fraction digits it was read
/// with, so `.5` is written back as `.5` and `.123000` as `.123000`.
public struct TimeValue: Sendable {
    /// The value as a choice: an instant with its offset and zone, or a date.
    package enum Moment: Hashable, Sendable {
        /// An exact moment, observed in `offset` (and `zone`, when known).
        case instant(Instant, offset: UTCOffset, zone: String?)
        /// An all-day date.
        case date(CivilDate)
    }

    // Stored flat rather than as a `Moment` enum: every parsed value is copied several
    // times on its way out, and a flat struct copies with two retains, not an enum witness.
    // For a date, `seconds` holds its day number and the offset is zero.
    private(set) var seconds: Int64
    private(set) var nanoseconds: Int32
    private(set) var offsetSeconds: Int32
    private var digits: UInt8
    /// How the instant was determined (or `.date`).
    public var basis: TimeBasis
    private var zoneName: String?
    /// The source text, when it is held as a string (`raw`).
    package private(set) var rawText: String?
    /// The source text's form, when it is held as one instead of a string: the value's own
    /// rendering (`write(_:to:)`).
    package private(set) var rawForm: RawForm?

    /// The source text, for auditing.
    public var raw: String? {
        get { rawForm.map(rendering) ?? rawText }
        set {
            rawText = newValue
            rawForm = nil
        }
    }

    /// An instant, or an all-day date (basis `date`).
    package var moment: Moment {
        get {
            basis == .date
                ? .date(CivilDate(daysSinceEpoch: seconds))
                : .instant(
                    Instant(unchecked: seconds, nanoseconds: nanoseconds),
                    offset: UTCOffset(seconds: Int(offsetSeconds)), zone: zoneName)
        }
        set {
            keepRawAsText()
            switch newValue {
            case .date(let d):
                seconds = d.daysSinceEpoch
                nanoseconds = 0
                offsetSeconds = 0
                zoneName = nil
                digits = 0
                basis = .date
            case .instant(let i, let o, let z):
                seconds = i.seconds
                nanoseconds = i.nanoseconds
                offsetSeconds = Int32(o.seconds)
                zoneName = z
                if basis == .date { basis = .offset }
            }
        }
    }

    /// Fraction digits written for the instant and local time (0…9).
    public var fractionDigits: Int {
        get { Int(digits) }
        set {
            keepRawAsText()
            digits = UInt8(min(max(newValue, 0), 9))
        }
    }

    /// An instant. `basis` must not be `.date`.
    public init(
        instant: Instant, offset: UTCOffset, zone: String? = nil, basis: TimeBasis,
        fractionDigits: Int = 0, raw: String? = nil
    ) {
        precondition(basis != .date, "an instant cannot have basis 'date'")
        seconds = instant.seconds
        nanoseconds = instant.nanoseconds
        offsetSeconds = Int32(offset.seconds)
        digits = UInt8(min(max(fractionDigits, 0), 9))
        self.basis = basis
        zoneName = zone
        self.raw = raw
    }

    /// An all-day date.
    public init(date: CivilDate, raw: String? = nil) {
        seconds = date.daysSinceEpoch
        nanoseconds = 0
        offsetSeconds = 0
        digits = 0
        basis = .date
        zoneName = nil
        self.raw = raw
    }

    /// The exact moment; nil for a date.
    public var instant: Instant? {
        basis == .date ? nil : Instant(unchecked: seconds, nanoseconds: nanoseconds)
    }

    /// The all-day date; nil for an instant.
    public var date: CivilDate? {
        basis == .date ? CivilDate(daysSinceEpoch: seconds) : nil
    }

    /// The offset the instant was observed in; nil for a date.
    public var offset: UTCOffset? {
        basis == .date ? nil : UTCOffset(seconds: Int(offsetSeconds))
    }

    /// The IANA zone, when known.
    public var zone: String? { zoneName }

    /// The wall time in the value's own offset; nil for dates.
    public var local: LocalDateTime? {
        guard basis != .date else { return nil }
        return Instant(unchecked: seconds, nanoseconds: nanoseconds).local(
            in: UTCOffset(seconds: Int(offsetSeconds)))
    }

    /// RFC 3339 in the value's own offset (`2024-06-12T08:00:00+08:00`), or `YYYY-MM-DD`.
    public var rfc3339: String {
        if case .date(let d) = moment { return d.isoString }
        var out = [UInt8]()
        appendRFC3339(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `rfc3339`'s bytes.
    func appendRFC3339(to out: inout [UInt8]) {
        switch moment {
        case .date(let d):
            out.append(utf8: d.isoString)
        case .instant(let i, let o, _):
            i.local(in: o).appendISO(to: &out, fractionDigits: fractionDigits)
            o.appendRFC3339(to: &out)
        }
    }

    // MARK: The source text kept by its form

    /// The forms in which source text is the value's own rendering: nearly every RFC 3339
    /// value read, which then needs no string of its own (one of more than 15 bytes is a
    /// heap allocation, made and freed for every record). `T` or a space between date and
    /// time, then `Z` or the offset (`±HH:MM`).
    package enum RawForm: UInt8, Sendable {
        case tZ, tOffset, spaceZ, spaceOffset

        /// The byte between date and time.
        var separator: UInt8 {
            self == .tZ || self == .tOffset ? UInt8(ascii: "T") : UInt8(ascii: " ")
        }

        /// Whether the text ends in `Z` rather than the offset.
        var endsInZ: Bool { self == .tZ || self == .spaceZ }
    }

    /// Writes the value in `form`: its local time, fraction digits and offset. For an
    /// instant only.
    func write(_ form: RawForm, to w: inout FixedWriter) {
        let offset = UTCOffset(seconds: Int(offsetSeconds))
        let local = Instant(unchecked: seconds, nanoseconds: nanoseconds).local(in: offset)
        local.write(to: &w, fractionDigits: Int(digits), separator: form.separator)
        if form.endsInZ { w.byte(UInt8(ascii: "Z")) } else { offset.write(to: &w) }
    }

    /// The most bytes `write(_:to:)` writes, for any year (`LocalDateTime.write`) and offset.
    package static let renderingBound = 56

    private func rendering(_ form: RawForm) -> String {
        FixedWriter.string(capacity: Self.renderingBound) { write(form, to: &$0) }
    }

    /// Keeps `text` as the source text: by `form`, when the date engine found the text to be
    /// exactly the value's own rendering in one (`ParsedTimeValue.rawForm`), else as a string.
    package mutating func setRaw(_ text: ByteView, form: RawForm?) {
        if let form {
            setRaw(form: form)
        } else {
            rawText = text.string
            rawForm = nil
        }
    }

    /// Keeps the source text by its form alone.
    package mutating func setRaw(form: RawForm) {
        rawText = nil
        rawForm = form
    }

    /// Holds the source text as a string before what its rendering reads changes.
    private mutating func keepRawAsText() {
        guard let form = rawForm else { return }
        rawText = rendering(form)
        rawForm = nil
    }

    /// Whether the source text ends in `Z` (or `z`): UTC itself, not an offset of a place.
    package var rawEndsInZ: Bool {
        if let rawForm { return rawForm.endsInZ }
        return rawText?.utf8.last.map { $0 == UInt8(ascii: "Z") || $0 == UInt8(ascii: "z") }
            ?? false
    }

    /// The most UTF-8 bytes `raw` has.
    package var rawLengthBound: Int {
        rawForm != nil ? Self.renderingBound : rawText?.utf8.count ?? 0
    }
}

extension TimeValue: Hashable {
    /// Equal values: the same time, basis, zone and source text, however the text is held.
    public static func == (a: TimeValue, b: TimeValue) -> Bool {
        guard
            a.seconds == b.seconds, a.nanoseconds == b.nanoseconds,
            a.offsetSeconds == b.offsetSeconds, a.digits == b.digits, a.basis == b.basis,
            a.zoneName == b.zoneName
        else { return false }
        if a.rawForm == b.rawForm, a.rawText == b.rawText { return true }
        return a.raw == b.raw
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(seconds)
        hasher.combine(nanoseconds)
        hasher.combine(offsetSeconds)
        hasher.combine(digits)
        hasher.combine(basis)
        hasher.combine(zoneName)
        hasher.combine(raw)
    }
}
