/// Where JSON text stops being JSON: the line and column (both from 1) of the first byte the
/// parser could not take, and what it found there.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    /// The line of the offending byte, from 1.
    public let line: Int
    /// The column of the offending character on its line, from 1 (characters, not bytes).
    public let column: Int
    /// What stands there: `'}'`, or `the end of the text`.
    public let found: String

    /// Locates `offset` (the parser's position when it gave up) in `bytes`.
    init(bytes: UnsafeBufferPointer<UInt8>, offset: Int) {
        var line = 1
        var column = 1
        for index in 0..<min(offset, bytes.count) {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        self.line = line
        self.column = column
        if offset >= bytes.count {
            found = "the end of the text"
        } else {
            var end = offset + 1
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            let character = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<end]), as: UTF8.self)
            found = bytes[offset] < 0x20 ? "a control character (\(bytes[offset]))" : "'\(character)'"
        }
    }

    /// "unexpected '}' at line 1, column 9".
    public var description: String { "unexpected \(found) at line \(line), column \(column)" }
}
