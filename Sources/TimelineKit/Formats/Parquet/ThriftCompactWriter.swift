/// Thrift's compact protocol, the encoding of Parquet's page headers and footer: structs as
/// field headers (the id as a delta from the previous field's) and values, integers as
/// zigzag varints, a struct ended by a zero byte. Only what Parquet's metadata uses.
struct ThriftCompactWriter {
    private(set) var bytes: [UInt8] = []
    /// The last field id of each open struct, innermost last.
    private var lastFieldIDs: [Int16] = [0]

    enum FieldType: UInt8 {
        case boolTrue = 1
        case boolFalse = 2
        case byte = 3
        case i16 = 4
        case i32 = 5
        case i64 = 6
        case double = 7
        case binary = 8
        case list = 9
        case set = 10
        case map = 11
        case structure = 12
    }

    private mutating func fieldHeader(_ id: Int16, _ type: FieldType) {
        let delta = id - lastFieldIDs[lastFieldIDs.count - 1]
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            varint(zigzag(Int64(id)))
        }
        lastFieldIDs[lastFieldIDs.count - 1] = id
    }

    private func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }

    private mutating func varint(_ value: UInt64) { BinaryWriter.varint(value, &bytes) }

    mutating func i32(_ id: Int16, _ value: Int32) {
        fieldHeader(id, .i32)
        varint(zigzag(Int64(value)))
    }

    mutating func i64(_ id: Int16, _ value: Int64) {
        fieldHeader(id, .i64)
        varint(zigzag(value))
    }

    mutating func bool(_ id: Int16, _ value: Bool) {
        fieldHeader(id, value ? .boolTrue : .boolFalse)
    }

    mutating func binary(_ id: Int16, _ value: some Collection<UInt8>) {
        fieldHeader(id, .binary)
        varint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func string(_ id: Int16, _ value: String) { binary(id, value.utf8) }

    /// A struct-valued field: `body` writes its fields.
    mutating func structure(_ id: Int16, _ body: (inout ThriftCompactWriter) -> Void) {
        fieldHeader(id, .structure)
        structBody(body)
    }

    /// A struct's fields and its stop byte (a struct in a list, or the outermost one).
    mutating func structBody(_ body: (inout ThriftCompactWriter) -> Void) {
        lastFieldIDs.append(0)
        body(&self)
        bytes.append(0)
        lastFieldIDs.removeLast()
    }

    /// A list field's header: then write `count` elements of `type` without field headers.
    mutating func listHeader(_ id: Int16, of type: FieldType, count: Int) {
        fieldHeader(id, .list)
        if count < 15 {
            bytes.append(UInt8(count) << 4 | type.rawValue)
        } else {
            bytes.append(0xF0 | type.rawValue)
            varint(UInt64(count))
        }
    }

    /// An element of a list of i32 (or of an enum).
    mutating func listElement(_ value: Int32) { varint(zigzag(Int64(value))) }

    /// An element of a list of strings.
    mutating func listElement(_ value: String) {
        varint(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    /// The stop byte of the outermost struct, when its fields were written at top level.
    mutating func stop() { bytes.append(0) }
}
