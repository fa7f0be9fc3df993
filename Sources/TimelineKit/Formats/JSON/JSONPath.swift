/// Dotted paths into a JSON document: `data.tracking.checkpoints`, and through arrays,
/// `data.accepted[].track_info.tracking.providers[].events` (`[]` after a key: every
/// element of the array there); a path that begins with `[]` goes through the elements of a
/// document that is an array (`[].shipment.event`).
enum JSONPath {
    /// The arrays `path` leads to (one for a plain path, one per element passed through for
    /// a path with `[]`), each with the scalar fields of the objects on the way to it — a
    /// tracking number beside its events — outer ones first.
    static func arrays(at path: String, in root: JSONValue) -> [(
        items: [JSONValue], siblings: [(String, JSONValue)]
    )] {
        var found: [(items: [JSONValue], siblings: [(String, JSONValue)])] = []
        func walk(
            _ node: JSONValue, _ rest: ArraySlice<Substring>, _ siblings: [(String, JSONValue)]
        ) {
            guard let head = rest.first else {
                if case .array(let items) = node { found.append((items, siblings)) }
                return
            }
            if head == "[]" {
                guard case .array(let elements) = node else { return }
                for element in elements { walk(element, rest.dropFirst(), siblings) }
                return
            }
            let each = head.hasSuffix("[]")
            let key = each ? head.dropLast(2) : head
            guard case .object(let pairs) = node, let next = pairs.first(where: { $0.0 == key })?.1
            else { return }
            let around = siblings + pairs.filter { $0.0 != key && !isContainer($0.1) }
            guard each, rest.count > 1 else { return walk(next, rest.dropFirst(), around) }
            guard case .array(let elements) = next else { return }
            for element in elements { walk(element, rest.dropFirst(), around) }
        }
        walk(root, path.split(separator: ".")[...], [])
        return found
    }

    static func isContainer(_ v: JSONValue) -> Bool {
        switch v {
        case .array, .object: return true
        default: return false
        }
    }
}
