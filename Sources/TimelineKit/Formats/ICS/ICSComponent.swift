/// An iCalendar component (`VCALENDAR`, `VEVENT`, `VTIMEZONE`, `STANDARD`, …): its
/// properties in order and its sub-components.
final class ICSComponent {
    let name: String
    let line: Int
    var properties: [ICSContentLine] = []
    var children: [ICSComponent] = []

    init(name: String, line: Int) {
        self.name = name
        self.line = line
    }

    func property(_ name: String) -> ICSContentLine? {
        let key = StringIndex.hash(name)
        return properties.first { $0.nameKey == key && $0.name == name }
    }

    func all(_ name: String) -> [ICSContentLine] {
        let key = StringIndex.hash(name)
        return properties.filter { $0.nameKey == key && $0.name == name }
    }

    /// How deep components may nest. RFC 5545 needs three levels (VCALENDAR, VTIMEZONE,
    /// STANDARD; or VEVENT, VALARM); the limit keeps every walk over the tree (and freeing
    /// it) shallow whatever the input.
    static let maximumDepth = 32

    /// Reads every component of an input: unfolds lines (CRLF, LF or lone CR; continuation by
    /// space or tab; blank lines between a name and its folded value are skipped), parses
    /// content lines and nests BEGIN/END blocks. A malformed line, an unbalanced END, a
    /// missing END or a component nested deeper than `maximumDepth` (ignored with all it
    /// holds) is reported through `diagnose` with its physical line; nothing else is
    /// discarded. Returns the top-level components (several VCALENDARs, or a bare VEVENT).
    static func read(_ input: InputReader, diagnose: (ICSLineError) -> Void) throws(TimelineError)
        -> [ICSComponent]
    {
        let root = ICSComponent(name: "", line: 0)
        let items: Set<String> = ["VEVENT", "VTODO", "VJOURNAL"]
        var stack: [ICSComponent] = [root]
        var pending: (text: String, line: Int)?
        var physical = 0
        /// How many BEGINs deep the reader is inside a component too deep to keep.
        var ignoredDepth = 0

        func handle(_ text: String, line: Int) {
            switch ICSContentLine.parse(text, line: line) {
            case .failure(let error):
                if ignoredDepth == 0 { diagnose(error) }
            case .success(let content):
                if ignoredDepth > 0 {
                    if content.name == "BEGIN" { ignoredDepth += 1 }
                    if content.name == "END" { ignoredDepth -= 1 }
                } else if content.name == "BEGIN" && stack.count > maximumDepth {
                    diagnose(
                        ICSLineError(
                            line: line,
                            message:
                                "BEGIN:\(content.value.trimmingSpaces) nests components more than \(maximumDepth) deep; it is ignored with everything inside it"
                        ))
                    ignoredDepth = 1
                } else if content.name == "BEGIN" {
                    let component = ICSComponent(
                        name: content.value.trimmingSpaces.uppercased(), line: line)
                    // An event, to-do or journal cannot nest in another: one that is still
                    // open lost its END, so it ends here rather than swallowing this one.
                    if items.contains(component.name),
                        let open = stack.lastIndex(where: { items.contains($0.name) }), open > 0
                    {
                        diagnose(
                            ICSLineError(
                                line: line,
                                message:
                                    "BEGIN:\(component.name) inside \(stack[open].name) from line \(stack[open].line), which has no END; that one ends here"
                            ))
                        stack.removeSubrange(open...)
                    }
                    stack.last!.children.append(component)
                    stack.append(component)
                } else if content.name == "END" {
                    let name = content.value.trimmingSpaces.uppercased()
                    if let index = stack.lastIndex(where: { $0.name == name }), index > 0 {
                        for open in stack[(index + 1)...] {
                            diagnose(
                                ICSLineError(
                                    line: line,
                                    message:
                                        "END:\(name) closes BEGIN:\(open.name) from line \(open.line) too (its END is missing)"
                                ))
                        }
                        stack.removeSubrange(index...)
                    } else {
                        diagnose(
                            ICSLineError(
                                line: line, message: "END:\(name) without a matching BEGIN:\(name)")
                        )
                    }
                } else {
                    stack.last!.properties.append(content)
                }
            }
        }

        while let raw = try input.nextLine() {
            physical += 1
            // Nearly every line is clean ASCII or UTF-8: read it straight from the buffer.
            // A folded continuation starts with one space or tab, dropped here at byte level.
            let isContinuation = pending != nil && (raw.first == 0x20 || raw.first == 0x09)
            let body = isContinuation ? raw.dropFirst() : raw[...]
            var text: String
            let clean = body.withByteView { p -> String? in
                guard !p.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else {
                    return nil
                }
                return CSVReader.string(p)
            }
            if let clean {
                text = clean
            } else {
                var bytes = Array(body)
                if let bad = bytes.firstIndex(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                    diagnose(
                        ICSLineError(
                            line: physical,
                            message:
                                "control byte 0x\(String(bytes[bad], radix: 16, uppercase: true)) removed"
                        ))
                    bytes.removeAll { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
                }
                if let valid = String(validating: bytes, as: UTF8.self) {
                    text = valid
                } else {
                    diagnose(
                        ICSLineError(
                            line: physical, message: "invalid UTF-8 (replaced with U+FFFD)"))
                    text = String(decoding: bytes, as: UTF8.self)
                }
            }
            if isContinuation {
                pending!.text += text
                continue
            }
            if text.isEmpty { continue }
            if let p = pending { handle(p.text, line: p.line) }
            pending = (text, physical)
        }
        if let p = pending { handle(p.text, line: p.line) }
        for open in stack.dropFirst() {
            diagnose(
                ICSLineError(
                    line: physical,
                    message:
                        "BEGIN:\(open.name) from line \(open.line) has no END before the end of the file"
                ))
        }
        if !root.properties.isEmpty, let first = root.properties.first {
            diagnose(
                ICSLineError(
                    line: first.line,
                    message:
                        "\(root.properties.count) propert\(root.properties.count == 1 ? "y" : "ies") outside any component ignored"
                ))
        }
        return root.children
    }
}
