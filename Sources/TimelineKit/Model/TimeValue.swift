/// How the instant of a time value was determined (SPEC §3.1).
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
public struct TimeValue: Hashable, Sendable {
    public enum Moment: Hashable, Sendable {
        case instant(Instant, offset: UTCOffset, zone: String?)
        case date(CivilDate)
    }

    public var moment: Moment
    public var basis: TimeBasis
    /// Fraction digits written for the instant and local time (0…9).
    public var fractionDigits: Int
    /// The source text, for auditing.
    public var raw: String?

    /// An instant. `basis` must not be `.date`.
    public init(
        instant: Instant, offset: UTCOffset, zone: String? = nil, basis: TimeBasis,
        fractionDigits: Int = 0, raw: String? = nil
    ) {
        precondition(basis != .date, "an instant cannot have basis 'date'")
        self.moment = .instant(instant, offset: offset, zone: zone)
        self.basis = basis
        self.fractionDigits = min(max(fractionDigits, 0), 9)
        self.raw = raw
    }

    /// An all-day date.
    public init(date: CivilDate, raw: String? = nil) {
        self.moment = .date(date)
        self.basis = .date
        self.fractionDigits = 0
        self.raw = raw
    }

    public var instant: Instant? {
        if case .instant(let i, _, _) = moment { return i }
        return nil
    }

    public var date: CivilDate? {
        if case .date(let d) = moment { return d }
        return nil
    }

    public var offset: UTCOffset? {
        if case .instant(_, let o, _) = moment { return o }
        return nil
    }

    public var zone: String? {
        if case .instant(_, _, let z) = moment { return z }
        return nil
    }

    /// The wall time in the value's own offset; nil for dates.
    public var local: LocalDateTime? {
        if case .instant(let i, let o, _) = moment { return i.local(in: o) }
        return nil
    }

    /// RFC 3339 in the value's own offset (`2024-06-12T08:00:00+08:00`), or `YYYY-MM-DD`.
    public var rfc3339: String {
        switch moment {
        case .date(let d):
            return d.isoString
        case .instant(let i, let o, _):
            var out = [UInt8]()
            i.local(in: o).appendISO(to: &out, fractionDigits: fractionDigits)
            o.appendRFC3339(to: &out)
            return String(decoding: out, as: UTF8.self)
        }
    }
}
