/// Reads a `Localizable.strings` file: `"key" = "value";` entries with `/* */` and `//`
/// comments, the escapes `\" \\ \n \t \r` and `\U` with four hex digits (other escaped
/// characters stand for themselves), unquoted keys and values made of letters, digits, `_`, `.`
/// and `-`, and `"key";` meaning the key is its own value. A key given twice keeps its last value.
///
/// The text is UTF-8 (a BOM is skipped), or UTF-16 with a BOM (little or big endian), or UTF-16
/// without one when the bytes contain NULs (the endianness is guessed from where they are).
struct StringsFileParser {
    private let scalars: [Unicode.Scalar]
    private let fileName: String
    private var index = 0
    private var line = 1

    /// The entries of the file `bytes`, named `fileName` in errors.
    static func parse(_ bytes: [UInt8], fileName: String) throws(LocalizationError) -> [String: String] {
        var parser = StringsFileParser(scalars: try decode(bytes, fileName: fileName), fileName: fileName)
        return try parser.entries()
    }

    private init(scalars: [Unicode.Scalar], fileName: String) {
        self.scalars = scalars
        self.fileName = fileName
    }

    // MARK: Decoding

    private enum Encoding {
        case utf8, utf16LittleEndian, utf16BigEndian
    }

    static func decode(_ bytes: [UInt8], fileName: String) throws(LocalizationError) -> [Unicode.Scalar] {
        var start = 0
        let encoding: Encoding
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            (encoding, start) = (.utf8, 3)
        } else if bytes.starts(with: [0xFF, 0xFE]) {
            (encoding, start) = (.utf16LittleEndian, 2)
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            (encoding, start) = (.utf16BigEndian, 2)
        } else if bytes.contains(0) {
            // ASCII text in UTF-16 has its NULs in the high bytes: odd offsets in little endian.
            var nulsAtOdd = 0
            var nulsAtEven = 0
            for (offset, byte) in bytes.enumerated() where byte == 0 {
                if offset % 2 == 1 { nulsAtOdd += 1 } else { nulsAtEven += 1 }
            }
            encoding = nulsAtOdd >= nulsAtEven ? .utf16LittleEndian : .utf16BigEndian
        } else {
            encoding = .utf8
        }
        let body = bytes[start...]
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(body.count)
        func failure(_ message: String) -> LocalizationError {
            LocalizationError(fileName: fileName, line: scalars.count { $0 == "\n" } + 1, message: message)
        }
        switch encoding {
        case .utf8:
            var decoder = UTF8()
            var iterator = body.makeIterator()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: return scalars
                case .error: throw failure("the file is not valid UTF-8 (nor UTF-16 with a byte order mark)")
                }
            }
        case .utf16LittleEndian, .utf16BigEndian:
            guard body.count % 2 == 0 else {
                throw LocalizationError(
                    fileName: fileName, line: nil, message: "the file has an odd number of bytes for UTF-16")
            }
            let littleEndian = encoding == .utf16LittleEndian
            let units = stride(from: body.startIndex, to: body.endIndex, by: 2).map { offset in
                let first = UInt16(bytes[offset])
                let second = UInt16(bytes[offset + 1])
                return littleEndian ? second << 8 | first : first << 8 | second
            }
            var decoder = UTF16()
            var iterator = units.makeIterator()
            while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar): scalars.append(scalar)
                case .emptyInput: return scalars
                case .error: throw failure("the file is not valid UTF-16 (an unpaired surrogate)")
                }
            }
        }
    }

    // MARK: Parsing

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func failure(_ message: String, line: Int? = nil) -> LocalizationError {
        LocalizationError(fileName: fileName, line: line ?? self.line, message: message)
    }

    private mutating func advance() {
        if scalars[index] == "\n" { line += 1 }
        index += 1
    }

    private mutating func entries() throws(LocalizationError) -> [String: String] {
        var result: [String: String] = [:]
        while true {
            try skipTrivia()
            guard current != nil else { return result }
            guard let key = try token() else {
                throw failure("expected a key (a quoted string) but found '\(current!)'")
            }
            let keyLine = line
            try skipTrivia()
            if current == ";" {
                advance()
                result[key] = key
                continue
            }
            guard current == "=" else { throw failure("expected '=' after the key \"\(key)\"", line: keyLine) }
            advance()
            try skipTrivia()
            guard let value = try token() else {
                throw failure("expected a value after '=' for the key \"\(key)\"")
            }
            let valueLine = line
            try skipTrivia()
            guard current == ";" else { throw failure("expected ';' after the value", line: valueLine) }
            advance()
            result[key] = value
        }
    }

    /// Skips whitespace and comments.
    private mutating func skipTrivia() throws(LocalizationError) {
        while let scalar = current {
            if scalar.properties.isWhitespace || scalar == "\u{FEFF}" {
                advance()
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                while let next = current, next != "\n" { advance() }
            } else if scalar == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                let startLine = line
                index += 2
                while true {
                    guard current != nil else {
                        throw failure("unterminated comment ('/*' without '*/')", line: startLine)
                    }
                    if current == "*", index + 1 < scalars.count, scalars[index + 1] == "/" {
                        index += 2
                        break
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    private static func isUnquoted(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII
            && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || scalar == "_" || scalar == "." || scalar == "-")
    }

    /// A quoted string or an unquoted word; `nil` when neither starts here.
    private mutating func token() throws(LocalizationError) -> String? {
        guard let first = current else { return nil }
        if Self.isUnquoted(first) {
            var word = String.UnicodeScalarView()
            while let scalar = current, Self.isUnquoted(scalar) {
                word.append(scalar)
                index += 1
            }
            return String(word)
        }
        guard first == "\"" else { return nil }
        let startLine = line
        index += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let scalar = current else {
                throw failure("unterminated string (no closing '\"')", line: startLine)
            }
            if scalar == "\"" {
                index += 1
                return String(text)
            }
            guard scalar == "\\" else {
                text.append(scalar)
                advance()
                continue
            }
            index += 1
            guard let escaped = current else { throw failure("unterminated string (no closing '\"')", line: startLine) }
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "U":
                index += 1
                text.append(try unicodeEscape())
                continue
            default: text.append(escaped)  // \" \\ and any other escaped character stand for themselves
            }
            advance()
        }
    }

    /// The character of a `\U` escape whose four hex digits start here (a high surrogate must be
    /// followed by a `\U` low surrogate).
    private mutating func unicodeEscape() throws(LocalizationError) -> Unicode.Scalar {
        guard let unit = hex4() else { throw failure("\\U must be followed by four hex digits") }
        if (0xDC00...0xDFFF).contains(unit) { throw failure("\\U\(hex(unit)) is an unpaired low surrogate") }
        guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(unit)! }
        guard index + 1 < scalars.count, scalars[index] == "\\", scalars[index + 1] == "U" else {
            throw failure("\\U\(hex(unit)) is a high surrogate without a \\U low surrogate after it")
        }
        index += 2
        guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else {
            throw failure("\\U\(hex(unit)) is a high surrogate without a \\U low surrogate after it")
        }
        return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!
    }

    private func hex(_ unit: UInt32) -> String {
        let digits = String(unit, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= scalars.count else { return nil }
        var value: UInt32 = 0
        for scalar in scalars[index..<index + 4] {
            guard scalar.isASCII, let digit = UInt32(String(scalar), radix: 16) else { return nil }
            value = value << 4 | digit
        }
        index += 4
        return value
    }
}
