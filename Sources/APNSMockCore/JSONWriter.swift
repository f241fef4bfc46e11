/// Writes JSON text by hand: field order as written, raw JSON embedded without re-parsing.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Whether the container being written has a value already (the next one needs a comma).
    private var hasValue = false
    /// `hasValue` of the enclosing containers, innermost last.
    private var enclosing: [Bool] = []

    public init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    public mutating func beginObject() {
        separator()
        bytes.append(UInt8(ascii: "{"))
        enclosing.append(hasValue)
        hasValue = false
    }
    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        hasValue = enclosing.removeLast()
    }
    public mutating func beginArray() {
        separator()
        bytes.append(UInt8(ascii: "["))
        enclosing.append(hasValue)
        hasValue = false
    }
    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        hasValue = enclosing.removeLast()
    }

    /// Writes `"name":` inside an object for a name fixed when the program is built (ASCII with
    /// nothing to escape, checked in debug builds), copied as it is; the next value call writes
    /// the value.
    public mutating func key(_ name: StaticString) {
        separator()
        name.withUTF8Buffer { name in
            assert(name.allSatisfy { $0 < 0x80 } && Self.firstEscape(in: name, from: 0) == name.count)
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: name)
            bytes.append(UInt8(ascii: "\""))
        }
        bytes.append(UInt8(ascii: ":"))
        hasValue = false
    }

    /// Writes `"name":` for a name known only at run time, escaped as `string` escapes.
    public mutating func key(escaping name: String) {
        separator()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        hasValue = false
    }

    /// Writes `"name":` for a name given as UTF-8 bytes, escaped as `string` escapes.
    public mutating func key(utf8 name: UnsafeBufferPointer<UInt8>) {
        separator()
        writeString(bytes: name)
        bytes.append(UInt8(ascii: ":"))
        hasValue = false
    }

    public mutating func string(_ value: String?) {
        separator()
        guard let value else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        writeString(value)
    }

    /// Writes UTF-8 `bytes` as a JSON string (escaped as `string` escapes).
    public mutating func string(utf8 value: UnsafeBufferPointer<UInt8>) {
        separator()
        writeString(bytes: value)
    }

    public mutating func number<T: BinaryInteger>(_ value: T?) {
        separator()
        guard let value else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        // Digits straight into the buffer (no intermediate string), last digit first.
        guard let magnitude = UInt64(exactly: value.magnitude) else {
            bytes.append(contentsOf: String(value).utf8)
            return
        }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        writeDigits(magnitude)
    }

    private mutating func writeDigits(_ value: UInt64) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64.max's 20 digits
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[index...]))
        }
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
        if hasValue { bytes.append(UInt8(ascii: ",")) }
        hasValue = true
    }

    private mutating func writeString(_ value: String) {
        let inPlace: Void? = value.utf8.withContiguousStorageIfAvailable { writeString(bytes: $0) }
        guard inPlace == nil else { return }
        var copy = value
        copy.withUTF8 { writeString(bytes: $0) }
    }

    /// Where the first byte at or after `start` that a JSON string must escape is (a control
    /// character, `"` or `\`), or `value.count`. Eight bytes at a time: a word's bytes are
    /// tested together with the usual has-zero-byte and has-less-than-n bit tricks.
    private static func firstEscape(in value: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        if let base = value.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= value.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let quote = word ^ (ones &* 0x22)
                let backslash = word ^ (ones &* 0x5C)
                let found =
                    ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash) | ((word &- ones &* 0x20) & ~word)
                if found & highs != 0 { break }
                index += 8
            }
        }
        while index < value.count {
            let byte = value[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }

    private mutating func writeString(bytes value: UnsafeBufferPointer<UInt8>) {
        bytes.append(UInt8(ascii: "\""))
        // Runs of bytes that need no escape are copied whole.
        var runStart = 0
        while true {
            let index = Self.firstEscape(in: value, from: runStart)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: value[runStart..<index]))
            guard index < value.count else { break }
            runStart = index + 1
            let byte = value[index]
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
        bytes.append(UInt8(ascii: "\""))
    }
}
