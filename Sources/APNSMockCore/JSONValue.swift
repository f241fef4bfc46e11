/// A parsed JSON document (RFC 8259), objects with their keys in document order.
///
/// Used where a payload's tree is needed (the matcher's `payload` subset, expectation files),
/// never on the answer path: parsing is on demand.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, with the text it was written as (so `1` and `1.0` print as sent).
    case number(Double, text: String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// A number from an integer.
    public static func integer(_ value: Int64) -> JSONValue { .number(Double(value), text: String(value)) }

    /// The value of `key` when this is an object (the first, if repeated).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The text of a string, or of a number or boolean as JSON writes it.
    public var scalarText: String? {
        switch self {
        case .string(let text): text
        case .number(_, let text): text
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        case .array, .object: nil
        }
    }

    /// The value as compact JSON text.
    public var jsonText: String {
        var writer = JSONWriter(capacity: 64)
        write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Writes the value as JSON.
    public func write(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.null()
        case .bool(let value): writer.bool(value)
        case .number(_, let text): writer.raw(text.utf8)
        case .string(let text): writer.string(text)
        case .array(let elements):
            writer.beginArray()
            for element in elements { element.write(to: &writer) }
            writer.endArray()
        case .object(let members):
            writer.beginObject()
            for member in members {
                writer.key(escaping: member.key)
                member.value.write(to: &writer)
            }
            writer.endObject()
        }
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a, _), .number(let b, _)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value, _): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .array(let elements): hasher.combine(elements)
        case .object(let members):
            for member in members {
                hasher.combine(member.key)
                hasher.combine(member.value)
            }
        }
    }

    /// Parses `bytes` as one JSON value; `nil` when they are not JSON.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> JSONValue? {
        try? parsing(bytes)
    }

    /// Parses `bytes` as one JSON value.
    /// - Throws: `JSONSyntaxError` naming the line and column where the text stops being JSON.
    public static func parsing<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(JSONSyntaxError) -> JSONValue {
        let array = Array(bytes)
        let result = array.withUnsafeBufferPointer { buffer -> Result<JSONValue, JSONSyntaxError> in
            var parser = Parser(bytes: buffer)
            guard let value = parser.value(depth: 0) else {
                return .failure(JSONSyntaxError(bytes: buffer, offset: parser.offset))
            }
            parser.skipWhitespace()
            guard parser.offset == buffer.count else {
                return .failure(JSONSyntaxError(bytes: buffer, offset: parser.offset))
            }
            return .success(value)
        }
        return try result.get()
    }

    /// Parses `text` as one JSON value; `nil` when it is not JSON.
    public static func parse(_ text: String) -> JSONValue? { parse(Array(text.utf8)) }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0
        static let maximumDepth = 512

        mutating func skipWhitespace() {
            while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
        }

        mutating func value(depth: Int) -> JSONValue? {
            guard depth < Self.maximumDepth else { return nil }
            skipWhitespace()
            guard offset < bytes.count else { return nil }
            switch bytes[offset] {
            case UInt8(ascii: "{"): return object(depth: depth)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "\""): return string().map(JSONValue.string)
            case UInt8(ascii: "t"): return literal("true", .bool(true))
            case UInt8(ascii: "f"): return literal("false", .bool(false))
            case UInt8(ascii: "n"): return literal("null", .null)
            default: return number()
            }
        }

        mutating func literal(_ word: StaticString, _ value: JSONValue) -> JSONValue? {
            let count = word.utf8CodeUnitCount
            guard offset + count <= bytes.count else { return nil }
            for index in 0..<count where bytes[offset + index] != word.utf8Start[index] { return nil }
            offset += count
            return value
        }

        mutating func object(depth: Int) -> JSONValue? {
            offset += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "}") {
                offset += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\""), let key = string() else { return nil }
                skipWhitespace()
                guard offset < bytes.count, bytes[offset] == UInt8(ascii: ":") else { return nil }
                offset += 1
                guard let value = value(depth: depth + 1) else { return nil }
                members.append((key, value))
                skipWhitespace()
                guard offset < bytes.count else { return nil }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    continue
                }
                guard bytes[offset] == UInt8(ascii: "}") else { return nil }
                offset += 1
                return .object(members)
            }
        }

        mutating func array(depth: Int) -> JSONValue? {
            offset += 1
            var elements: [JSONValue] = []
            skipWhitespace()
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "]") {
                offset += 1
                return .array(elements)
            }
            while true {
                guard let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                skipWhitespace()
                guard offset < bytes.count else { return nil }
                if bytes[offset] == UInt8(ascii: ",") {
                    offset += 1
                    continue
                }
                guard bytes[offset] == UInt8(ascii: "]") else { return nil }
                offset += 1
                return .array(elements)
            }
        }

        mutating func number() -> JSONValue? {
            let start = offset
            func digits() -> Int {
                let from = offset
                while offset < bytes.count, bytes[offset] >= UInt8(ascii: "0"), bytes[offset] <= UInt8(ascii: "9") {
                    offset += 1
                }
                return offset - from
            }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: "-") { offset += 1 }
            let integerStart = offset
            let integerDigits = digits()
            guard integerDigits > 0 else { return nil }
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { return nil }
            if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
                offset += 1
                guard digits() > 0 else { return nil }
            }
            if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
                offset += 1
                if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
                    offset += 1
                }
                guard digits() > 0 else { return nil }
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
            guard let value = Double(text) else { return nil }
            return .number(value, text: text)
        }

        /// A string starting at the opening quote.
        mutating func string() -> String? {
            offset += 1
            // The text's UTF-8 bytes, validated once at the end: appending scalar by scalar to
            // a String cost about 500 instructions per character (2.3 M for a 4 KB alert).
            var utf8: [UInt8] = []
            var escaped = false
            let start = offset
            var runStart = offset
            func flush(_ end: Int) {
                if end > runStart { utf8.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<end])) }
            }
            func append(_ scalar: Unicode.Scalar) { UTF8.encode(scalar) { utf8.append($0) } }
            while offset < bytes.count {
                let byte = bytes[offset]
                if byte == UInt8(ascii: "\"") {
                    defer { offset += 1 }
                    guard escaped else {
                        return String(validating: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
                    }
                    flush(offset)
                    return String(validating: utf8, as: UTF8.self)
                }
                if byte < 0x20 { return nil }
                if byte == UInt8(ascii: "\\") {
                    if !escaped {
                        escaped = true
                        utf8.reserveCapacity(offset - start + 16)
                    }
                    flush(offset)
                    offset += 1
                    guard offset < bytes.count else { return nil }
                    let escape = bytes[offset]
                    offset += 1
                    switch escape {
                    case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
                    case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
                    case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
                    case UInt8(ascii: "b"): utf8.append(0x08)
                    case UInt8(ascii: "f"): utf8.append(0x0C)
                    case UInt8(ascii: "n"): utf8.append(0x0A)
                    case UInt8(ascii: "r"): utf8.append(0x0D)
                    case UInt8(ascii: "t"): utf8.append(0x09)
                    case UInt8(ascii: "u"):
                        guard let unit = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(unit) {
                            // A high surrogate must be followed by an escaped low one.
                            guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"),
                                bytes[offset + 1] == UInt8(ascii: "u")
                            else { return nil }
                            offset += 2
                            guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                            guard let scalar = Unicode.Scalar(value) else { return nil }
                            append(scalar)
                        } else {
                            guard let scalar = Unicode.Scalar(unit) else { return nil }
                            append(scalar)
                        }
                    default: return nil
                    }
                    runStart = offset
                    continue
                }
                offset += 1
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard offset + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[offset]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                offset += 1
            }
            return value
        }
    }
}
