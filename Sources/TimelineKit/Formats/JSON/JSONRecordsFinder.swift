/// Finds a document's records when no `--records` path or preset names them (a carrier's
/// tracking response, a Google Timeline export): every array of objects in the document is a
/// candidate, gathered through the arrays around it (`shipments[].events` is the events of
/// every shipment), and the one with the most objects holding a time among their own
/// members is the records — the deeper one on a tie (a shipment's events, not the shipments
/// that hold them). A document that is an array has its elements' arrays searched through it
/// (`[].shipment.event`: La Poste's shipments, each holding its events).
struct JSONRecordsFinder {
    /// An array of objects at `path`, in `--records` syntax.
    struct Candidate {
        var path: String
        var depth: Int
        var objects: Int
        /// How many of the sampled objects hold a time among their own members.
        var timed: Int
    }

    let sniffer: TimeColumnSniffer
    /// How many objects of each array are looked at.
    static let sample = 64

    /// Every array of objects in `root` (an object, or an array of objects), scored.
    func candidates(in root: JSONValue) -> [Candidate] {
        var found: [String: (depth: Int, items: [[(String, JSONValue)]])] = [:]
        var order: [String] = []
        func walk(_ node: JSONValue, _ path: [String]) {
            guard case .object(let pairs) = node else { return }
            for (key, value) in pairs {
                switch value {
                case .array(let items):
                    let objects = items.compactMap { item -> [(String, JSONValue)]? in
                        if case .object(let p) = item { return p } else { return nil }
                    }
                    guard !objects.isEmpty else { continue }
                    let name = (path + [key]).joined(separator: ".")
                    if found[name] == nil { order.append(name) }
                    found[name, default: (path.count + 1, [])].items += objects
                    for object in objects { walk(.object(object), path + [key + "[]"]) }
                case .object:
                    walk(value, path + [key])
                default: break
                }
            }
        }
        if case .array(let items) = root {
            for item in items { walk(item, ["[]"]) }
        } else {
            walk(root, [])
        }
        return order.map { name in
            let entry = found[name]!
            let timed = entry.items.prefix(Self.sample).filter(holdsTime).count
            return Candidate(
                path: name, depth: entry.depth, objects: entry.items.count, timed: timed)
        }
    }

    /// Whether an object has a member, of its own, whose value reads as a time.
    func holdsTime(_ pairs: [(String, JSONValue)]) -> Bool {
        pairs.contains { key, value in
            switch value {
            case .string(let text): return sniffer.isTime(text, header: key)
            case .number(let text): return sniffer.isTime(text, header: key)
            default: return false
            }
        }
    }

    /// The records' path, or why none can be chosen (several equally good: the paths to pass).
    func choose(in root: JSONValue) -> Result<
        (path: String, note: String, hadOthers: Bool), Failure
    > {
        let all = candidates(in: root)
        let timed = all.filter { $0.timed > 0 }.sorted {
            ($0.timed, $0.depth) > ($1.timed, $1.depth)
        }
        guard let best = timed.first else { return .failure(.none(arrays: all.map(\.path))) }
        let tied = timed.filter { $0.timed == best.timed && $0.depth == best.depth }
        guard tied.count == 1 else { return .failure(.several(tied.map(\.path))) }
        let others = all.filter { $0.path != best.path }.map {
            "'\($0.path)' (\($0.objects), \($0.timed == 0 ? "none" : "\($0.timed)") with times)"
        }
        var note =
            "the records are at '\(best.path)' (\(best.objects) objects, \(best.timed) of those sampled with times)"
        if !others.isEmpty {
            note += "; other arrays of objects: " + others.joined(separator: ", ")
        }
        return .success((best.path, note, !others.isEmpty))
    }

    enum Failure: Error {
        /// No array of objects holds times.
        case none(arrays: [String])
        /// Several hold as many, as deep.
        case several([String])
    }
}
