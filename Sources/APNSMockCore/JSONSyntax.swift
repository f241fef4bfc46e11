/// A JSON syntax check on bytes (RFC 8259): no tree, no allocation, no Foundation.
///
/// `PayloadKind.classify` needs only "is this JSON, and is it an object", which this answers in
/// one pass over the bytes — a fraction of a `JSONSerialization` parse, for the admin API that
/// renders thousands of records a second and for `--strict-payload` on the answer path.
public enum JSONSyntax {
    /// What a whole text is.
    public enum TopLevel: Sendable, Equatable {
        case object
        case otherValue
        case invalid
    }

    /// Deepest nesting accepted (as Foundation's parser).
    public static let maximumDepth = 512

    /// Checks `bytes` as one JSON text, whitespace around it allowed.
    public static func check(_ bytes: UnsafeBufferPointer<UInt8>) -> TopLevel {
        var scanner = Scanner(bytes: bytes)
        scanner.skipWhitespace()
        guard scanner.offset < bytes.count else { return .invalid }
        let isObject = bytes[scanner.offset] == UInt8(ascii: "{")
        guard scanner.value(depth: 0) else { return .invalid }
        scanner.skipWhitespace()
        guard scanner.offset == bytes.count else { return .invalid }
        return isObject ? .object : .otherValue
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var offset = 0

        var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func skipWhitespace() {
            while let byte = current,
                byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
                    || byte == UInt8(ascii: "\t")
            {
                offset += 1
            }
        }

        mutating func value(depth: Int) -> Bool {
            guard let byte = current else { return false }
            switch byte {
            case UInt8(ascii: "{"): return container(depth: depth + 1, close: UInt8(ascii: "}"), keyed: true)
            case UInt8(ascii: "["): return container(depth: depth + 1, close: UInt8(ascii: "]"), keyed: false)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func container(depth: Int, close: UInt8, keyed: Bool) -> Bool {
            guard depth <= JSONSyntax.maximumDepth else { return false }
            offset += 1  // the opening bracket
            skipWhitespace()
            if current == close {
                offset += 1
                return true
            }
            while true {
                if keyed {
                    guard current == UInt8(ascii: "\""), string() else { return false }
                    skipWhitespace()
                    guard current == UInt8(ascii: ":") else { return false }
                    offset += 1
                    skipWhitespace()
                }
                guard value(depth: depth) else { return false }
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","):
                    offset += 1
                    skipWhitespace()
                case close:
                    offset += 1
                    return true
                default:
                    return false
                }
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let length = word.utf8CodeUnitCount
            guard bytes.count - offset >= length else { return false }
            let matches = word.withUTF8Buffer { expected in
                (0..<length).allSatisfy { bytes[offset + $0] == expected[$0] }
            }
            if matches { offset += length }
            return matches
        }

        mutating func digits() -> Int {
            let start = offset
            while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { offset += 1 }
            return offset - start
        }

        mutating func number() -> Bool {
            if current == UInt8(ascii: "-") { offset += 1 }
            if current == UInt8(ascii: "0") {
                offset += 1
            } else {
                guard let first = current, first >= UInt8(ascii: "1"), first <= UInt8(ascii: "9") else { return false }
                _ = digits()
            }
            if current == UInt8(ascii: ".") {
                offset += 1
                guard digits() > 0 else { return false }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                offset += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
                guard digits() > 0 else { return false }
            }
            return true
        }

        mutating func string() -> Bool {
            offset += 1  // the opening quote
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    offset += 1
                    return true
                case UInt8(ascii: "\\"):
                    offset += 1
                    guard let escaped = current else { return false }
                    offset += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                        UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        // A surrogate must come in a pair: high (D800–DBFF), then \u and low.
                        guard let unit = hexUnit() else { return false }
                        if (0xDC00...0xDFFF).contains(unit) { return false }
                        if (0xD800...0xDBFF).contains(unit) {
                            guard bytes.count - offset >= 2, bytes[offset] == UInt8(ascii: "\\"),
                                bytes[offset + 1] == UInt8(ascii: "u")
                            else { return false }
                            offset += 2
                            guard let low = hexUnit(), (0xDC00...0xDFFF).contains(low) else { return false }
                        }
                    default:
                        return false
                    }
                case 0..<0x20:
                    return false  // control characters must be escaped
                case 0x20..<0x80:
                    offset += 1
                default:
                    guard utf8Sequence() else { return false }
                }
            }
            return false  // no closing quote
        }

        /// Four hex digits after `\u`.
        mutating func hexUnit() -> UInt16? {
            guard bytes.count - offset >= 4 else { return nil }
            var unit: UInt16 = 0
            for index in 0..<4 {
                let byte = bytes[offset + index]
                guard APNSMessageID.isHexDigit(byte) else { return nil }
                let value =
                    byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
                unit = unit << 4 | UInt16(value)
            }
            offset += 4
            return unit
        }

        /// One multi-byte UTF-8 sequence, well formed (no overlong forms, no surrogates, at most
        /// U+10FFFF).
        mutating func utf8Sequence() -> Bool {
            let lead = bytes[offset]
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return false
            }
            guard bytes.count - offset >= length else { return false }
            let second = bytes[offset + 1]
            guard second >= low, second <= high else { return false }
            for index in 2..<max(2, length) where bytes[offset + index] & 0xC0 != 0x80 { return false }
            offset += length
            return true
        }
    }
}
