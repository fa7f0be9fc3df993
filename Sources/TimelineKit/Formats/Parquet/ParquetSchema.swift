/// The Parquet columns of the canonical event: one per field, named by its path
/// (`start.instant`, `amount.value`, `source.record`), as `--fields` names them; `links` and
/// `tags` are lists of strings, `attributes` a map of strings.
struct ParquetSchema {
    /// A column's type in the file.
    enum Kind {
        /// UTF-8 text; `dictionary` when its values tend to repeat (a status, a zone).
        case string(dictionary: Bool)
        /// An instant: TIMESTAMP(NANOS), adjusted to UTC or a wall time.
        case timestamp(utc: Bool)
        /// DATE: days since 1970-01-01.
        case date
        /// A UTC offset in seconds (INT32).
        case seconds
        /// INT64.
        case integer
        /// BOOLEAN.
        case boolean
        /// DECIMAL(38, 18) in 16 bytes: every amount the toolkit reads has at most 18
        /// fraction digits (`DecimalNumber.maximumScale`), and engines sum it exactly.
        case decimal
        /// LIST<STRING>.
        case stringList
        /// MAP<STRING, STRING>.
        case stringMap
    }

    /// A top-level field: its name (the path), what it holds, and whether every event has it.
    struct Field {
        let name: String
        let path: FieldPath
        let kind: Kind
        let required: Bool
    }

    static let decimalScale = 18
    static let decimalPrecision = 38

    let fields: [Field]

    /// The columns of whole events.
    static let canonical = ParquetSchema(paths: FieldPath.all.filter(\.isLeaf))

    /// The columns of `paths`; a path to an object (`start`, `amount`, `source`) stands for
    /// its parts.
    init(paths: [FieldPath]) {
        var fields: [Field] = []
        for path in paths {
            for leaf in path.leaves {
                guard !fields.contains(where: { $0.path == leaf }) else { continue }
                fields.append(
                    Field(
                        name: leaf.name, path: leaf, kind: leaf.parquetKind,
                        required: leaf == .text(.id) || leaf == .text(.title)))
            }
        }
        self.fields = fields
    }

    /// The leaf columns of `field`, as Parquet names them (`tags.list.element`), with their
    /// highest definition and repetition levels.
    static func leaves(of field: Field) -> [Leaf] {
        switch field.kind {
        case .stringList:
            return [
                Leaf(path: [field.name, "list", "element"], maxDefinition: 2, maxRepetition: 1)
            ]
        case .stringMap:
            return [
                Leaf(path: [field.name, "key_value", "key"], maxDefinition: 2, maxRepetition: 1),
                Leaf(path: [field.name, "key_value", "value"], maxDefinition: 2, maxRepetition: 1),
            ]
        default:
            return [
                Leaf(path: [field.name], maxDefinition: field.required ? 0 : 1, maxRepetition: 0)
            ]
        }
    }

    struct Leaf {
        let path: [String]
        let maxDefinition: Int
        let maxRepetition: Int
    }
}

extension ParquetSchema.Kind {
    /// The physical type: BOOLEAN 0, INT32 1, INT64 2, BYTE_ARRAY 6, FIXED_LEN_BYTE_ARRAY 7.
    var physicalType: Int32 {
        switch self {
        case .boolean: return 0
        case .date, .seconds: return 1
        case .timestamp, .integer: return 2
        case .string, .stringList, .stringMap: return 6
        case .decimal: return 7
        }
    }

    var isDictionaryEncoded: Bool {
        switch self {
        case .string(let dictionary): return dictionary
        case .stringMap: return true
        default: return false
        }
    }
}

extension FieldPath {
    /// A path to one value (not an object of several).
    var isLeaf: Bool {
        switch self {
        case .time, .amount, .source: return false
        default: return true
        }
    }

    /// The leaf paths under this one: itself when it is a leaf.
    var leaves: [FieldPath] {
        switch self {
        case .time(let t): return FieldPath.TimePart.allCases.map { .timePart(t, $0) }
        case .amount: return FieldPath.AmountPart.allCases.map { .amountPart($0) }
        case .source: return FieldPath.SourcePart.allCases.map { .sourcePart($0) }
        default: return [self]
        }
    }

    var parquetKind: ParquetSchema.Kind {
        switch self {
        case .text(let t):
            switch t {
            case .id, .detail: return .string(dictionary: false)
            case .title, .status, .category, .location, .series: return .string(dictionary: true)
            }
        case .timePart(_, let part):
            switch part {
            case .instant: return .timestamp(utc: true)
            case .local: return .timestamp(utc: false)
            case .offset: return .seconds
            case .date: return .date
            case .zone, .basis: return .string(dictionary: true)
            case .raw: return .string(dictionary: false)
            }
        case .amountPart(let part):
            switch part {
            case .value: return .decimal
            case .currency: return .string(dictionary: true)
            case .neutral: return .boolean
            }
        case .sourcePart(let part):
            switch part {
            case .format, .file: return .string(dictionary: true)
            case .record, .line: return .integer
            }
        case .list: return .stringList
        case .attributes: return .stringMap
        case .attribute: return .string(dictionary: true)
        case .time, .amount, .source: return .string(dictionary: false)
        }
    }
}
