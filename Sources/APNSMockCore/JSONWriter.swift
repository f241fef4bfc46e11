/// Writes JSON text by hand: field order as written, raw JSON embedded without re-parsing.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = [false]

    public init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    public mutating func beginObject() {
        separator()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma.removeLast()
    }
    public mutating func beginArray() {
        separator()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma.removeLast()
    }

    /// Writes `"name":` inside an object; the next value call writes the value.
    public mutating func key(_ name: String) {
        separator()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
    }

    public mutating func string(_ value: String?) {
        separator()
        guard let value else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        writeString(value)
    }

    public mutating func number<T: BinaryInteger>(_ value: T?) {
        separator()
        guard let value else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        bytes.append(contentsOf: String(value).utf8)
    }

    public mutating func bool(_ value: Bool) {
        separator()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    public mutating func null() {
        separator()
        bytes.append(contentsOf: "null".utf8)
    }

    /// Embeds bytes that are already valid JSON.
    public mutating func raw<C: Collection>(_ json: C) where C.Element == UInt8 {
        separator()
        bytes.append(contentsOf: json)
    }

    private mutating func separator() {
        if needsComma[needsComma.count - 1] { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private mutating func writeString(_ value: String) {
        var value = value
        value.withUTF8 { writeString(bytes: $0) }
    }

    private mutating func writeString(bytes value: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        // Runs of bytes that need no escape are copied whole.
        var runStart = 0
        for (index, byte) in value.enumerated()
        where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[runStart..<index]))
            runStart = index + 1
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            default:
                let hex: StaticString = "0123456789abcdef"
                hex.withUTF8Buffer { digits in
                    bytes.append(contentsOf: [
                        UInt8(ascii: "\\"), UInt8(ascii: "u"), 0x30, 0x30, digits[Int(byte >> 4)],
                        digits[Int(byte & 0xF)],
                    ])
                }
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[runStart...]))
        bytes.append(UInt8(ascii: "\""))
    }
}
