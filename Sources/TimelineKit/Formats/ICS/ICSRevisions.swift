/// Several components of one calendar that are versions of one thing: the same UID (and the
/// same RECURRENCE-ID, or none), as a file that gathers several exports of an event holds
/// them. RFC 5545 numbers the revisions with SEQUENCE (§3.8.7.4) and identifies an instance
/// by UID and RECURRENCE-ID (§3.8.4.4): the current version is the one with the highest
/// SEQUENCE, then the latest DTSTAMP (or LAST-MODIFIED), then the last in the file; the
/// others are dropped, so the rest of the import sees one master per UID and one override
/// per instance, and ids stay unique. Components without a UID are never merged.
struct ICSRevisions {
    /// The positions (in the list given) of the components that are older versions.
    private(set) var dropped: Set<Int> = []
    /// One note per UID and RECURRENCE-ID that had several versions, at the kept one's line.
    private(set) var notes: [(message: String, line: Int)] = []

    init(_ items: [ICSComponent]) {
        // Nearly every UID occurs once: components are only grouped by kind and RECURRENCE-ID
        // under a UID met more than once.
        var firstOfUID: [String: Int] = [:]
        var sharing: [String: [Int]] = [:]
        var repeated: [String] = []
        for (i, item) in items.enumerated() where Self.kinds.contains(item.name) {
            guard let uid = item.property("UID")?.value.trimmingSpaces, !uid.isEmpty else {
                continue
            }
            guard let first = firstOfUID[uid] else {
                firstOfUID[uid] = i
                continue
            }
            if sharing[uid] == nil {
                repeated.append(uid)
                sharing[uid] = [first]
            }
            sharing[uid]!.append(i)
        }
        for uid in repeated {
            // Within a UID, a version is of the same thing when kind and RECURRENCE-ID agree.
            var groups: [Key: [Int]] = [:]
            var order: [Key] = []
            for i in sharing[uid]! {
                let recurrence = items[i].property("RECURRENCE-ID")
                let key = Key(
                    kind: items[i].name, recurrenceZone: recurrence?.parameter("TZID"),
                    recurrenceID: recurrence?.value.trimmingSpaces)
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(i)
            }
            for key in order {
                guard let versions = groups[key], versions.count > 1 else { continue }
                let ranked = versions.map { (index: $0, revision: Revision(items[$0])) }
                let current = ranked.max {
                    $0.revision < $1.revision || ($0.revision == $1.revision && $0.index < $1.index)
                }!
                dropped.formUnion(versions.filter { $0 != current.index })
                let what =
                    key.recurrenceID.map { "instance \($0) (RECURRENCE-ID) of UID '\(uid)'" }
                    ?? "UID '\(uid)'"
                let others = ranked.filter { $0.index != current.index }.map {
                    "line \(items[$0.index].line) (SEQUENCE \($0.revision.sequence))"
                }
                notes.append(
                    (
                        "\(key.kind) \(what) has \(versions.count) versions: the current one (SEQUENCE \(current.revision.sequence)) is kept, "
                            + "older or identical ones dropped: \(others.joined(separator: ", "))",
                        items[current.index].line
                    ))
            }
        }
    }

    private static let kinds: Set<String> = ["VEVENT", "VTODO", "VJOURNAL"]

    private struct Key: Hashable {
        var kind: String
        /// RECURRENCE-ID's TZID and value; nil for a master (or a single event).
        var recurrenceZone: String?
        var recurrenceID: String?
    }

    /// How new a version is: SEQUENCE, then DTSTAMP or LAST-MODIFIED (UTC date-times, which
    /// order as text in their basic form).
    private struct Revision: Comparable {
        var sequence: Int
        var stamp: String

        init(_ c: ICSComponent) {
            sequence = c.property("SEQUENCE").flatMap { Int($0.value.trimmingSpaces) } ?? 0
            stamp =
                [c.property("LAST-MODIFIED"), c.property("DTSTAMP")].compactMap {
                    $0?.value.trimmingSpaces
                }.max() ?? ""
        }

        static func < (a: Revision, b: Revision) -> Bool {
            (a.sequence, a.stamp) < (b.sequence, b.stamp)
        }
    }
}
