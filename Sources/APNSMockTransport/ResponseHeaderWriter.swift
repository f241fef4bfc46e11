import APNSMockCore
import APNSMockRegistry
import APNSMockStore
private import CNGHTTP2

/// Writes a response's header fields into one reused buffer.
struct ResponseHeaderWriter {
    private(set) var bytes: [UInt8] = []
    /// Per field: where its name ends (= its value starts), where its value ends, and whether
    /// HPACK must never index it.
    private(set) var fields: [(nameEnd: Int, valueEnd: Int, neverIndexed: Bool)] = []

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
    }

    mutating func add(_ name: StaticString, _ value: String, neverIndexed: Bool = false) {
        var value = value
        value.withUTF8 { add(name, $0, neverIndexed: neverIndexed) }
    }

    mutating func add(_ name: StaticString, _ value: UnsafeBufferPointer<UInt8>, neverIndexed: Bool = false) {
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        let nameEnd = bytes.count
        bytes.append(contentsOf: value)
        fields.append((nameEnd, bytes.count, neverIndexed))
    }

    mutating func add(_ name: StaticString, _ value: ResponseMessageID, neverIndexed: Bool = false) {
        value.withUTF8 { add(name, $0, neverIndexed: neverIndexed) }
    }

    mutating func add(_ name: StaticString, _ value: Int) {
        var digits = String(value)
        digits.withUTF8 { add(name, $0) }
    }
}
