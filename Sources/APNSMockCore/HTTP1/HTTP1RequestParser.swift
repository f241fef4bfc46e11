/// HTTP/1.x requests from a byte stream (RFC 9112), as a pure machine: bytes in, whole requests
/// and errors out, in order. No I/O: the Web Push listener feeds it what TLS decrypted and
/// answers what it returns, one answer per request in the order they came (pipelining).
///
/// What it accepts and refuses:
/// - The request line `METHOD SP target SP HTTP/1.x`; lines may end in CRLF or a bare LF (RFC
///   9112 §2.2 lets a recipient accept LF). Empty lines before a request are skipped (§2.2).
/// - Header fields `name: value`; whitespace between the name and the colon, a line folded onto
///   the next (obs-fold) and a name that is not a token are 400 (§5.1, §5.2).
/// - A body by `Content-Length` or `Transfer-Encoding: chunked` (§6); both at once, differing
///   lengths, or another transfer coding are refused (400, 501), as §6.3 advises a server to.
/// - Limits: a head over `maximumHeadLength` is 431; a body over `maximumBodyLength` is 413,
///   answered before its bytes are read. Bodies up to that are read whole; the first
///   `keptBodyLimit` bytes are kept.
public struct HTTP1RequestParser: Sendable {
    /// The limits of one request.
    public struct Limits: Sendable, Equatable {
        /// The request line and header fields together, in bytes.
        public var maximumHeadLength: Int
        /// The longest body read (and discarded past `keptBodyLimit`) before answering.
        public var maximumBodyLength: Int
        /// How much of a body is kept in `HTTP1Request.body`.
        public var keptBodyLimit: Int

        public init(
            maximumHeadLength: Int = 16 * 1024, maximumBodyLength: Int = 1 << 20, keptBodyLimit: Int = 64 * 1024
        ) {
            self.maximumHeadLength = maximumHeadLength
            self.maximumBodyLength = maximumBodyLength
            self.keptBodyLimit = keptBodyLimit
        }
    }

    private enum State: Sendable {
        case head
        case body(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers
        case failed
    }

    public let limits: Limits
    private var state = State.head
    private var buffer: [UInt8] = []
    private var start = 0
    /// The request whose body is being read.
    private var pending: HTTP1Request?

    public init(limits: Limits = Limits()) { self.limits = limits }

    /// Whether an error ended the stream: nothing more is read.
    public var hasFailed: Bool {
        if case .failed = state { return true }
        return false
    }

    /// Whether bytes of an unfinished request are waiting (a request line, a head or a body
    /// begun): at the end of the connection, a request that was cut off.
    public var hasPartialRequest: Bool {
        switch state {
        case .head: return buffer[start...].contains { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
        case .failed: return false
        default: return true
        }
    }

    /// Reads `bytes`, returning the events they complete, in order.
    public mutating func consume<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [HTTP1ParserEvent] {
        if case .failed = state { return [] }
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
        var events: [HTTP1ParserEvent] = []
        while step(&events) {}
        return events
    }

    /// Takes one step; whether another may follow.
    private mutating func step(_ events: inout [HTTP1ParserEvent]) -> Bool {
        switch state {
        case .failed:
            return false
        case .head:
            return readHead(&events)
        case .body(let remaining):
            let available = min(remaining, buffer.count - start)
            guard available > 0 || remaining == 0 else { return false }
            take(available)
            if remaining - available > 0 {
                state = .body(remaining: remaining - available)
                return false
            }
            finish(&events)
            return true
        case .chunkSize:
            let line: ArraySlice<UInt8>
            switch readLine(limit: Self.maximumChunkLineLength) {
            case .line(let read): line = read
            case .wait: return false
            case .tooLong: return fail(400, "a chunk-size line is over \(Self.maximumChunkLineLength) bytes", &events)
            }
            // chunk-size [ chunk-ext ]: hex digits, then optional ";ext".
            let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != UInt8(ascii: " ") && $0 != 9 }
            guard !digits.isEmpty, digits.count <= 15,
                let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
            else {
                return fail(400, "a chunk size that is not hexadecimal: \(Self.quoted(line))", &events)
            }
            if size == 0 {
                state = .trailers
                return true
            }
            guard (pending?.bodyLength ?? 0) + size <= limits.maximumBodyLength else {
                return fail(413, "the chunked body is over \(limits.maximumBodyLength) bytes", &events)
            }
            state = .chunkData(remaining: size)
            return true
        case .chunkData(let remaining):
            let available = min(remaining, buffer.count - start)
            guard available > 0 else { return false }
            take(available)
            state = remaining - available > 0 ? .chunkData(remaining: remaining - available) : .chunkDataEnd
            return true
        case .chunkDataEnd:
            // CRLF (or LF) ends a chunk's data.
            guard start < buffer.count else { return false }
            if buffer[start] == UInt8(ascii: "\r") {
                guard start + 1 < buffer.count else { return false }
                guard buffer[start + 1] == UInt8(ascii: "\n") else {
                    return fail(400, "a chunk's data is longer than its size", &events)
                }
                start += 2
            } else {
                guard buffer[start] == UInt8(ascii: "\n") else {
                    return fail(400, "a chunk's data is longer than its size", &events)
                }
                start += 1
            }
            state = .chunkSize
            return true
        case .trailers:
            switch readLine(limit: limits.maximumHeadLength) {
            case .line(let line):
                if line.isEmpty { finish(&events) }
                return true
            case .wait: return false
            case .tooLong: return fail(431, "a trailer field is over \(limits.maximumHeadLength) bytes", &events)
            }
        }
    }

    /// Reads a request line and header fields, if all of the head has arrived.
    private mutating func readHead(_ events: inout [HTTP1ParserEvent]) -> Bool {
        // Empty lines before a request line are skipped (RFC 9112 §2.2).
        while start < buffer.count, buffer[start] == UInt8(ascii: "\r") || buffer[start] == UInt8(ascii: "\n") {
            if buffer[start] == UInt8(ascii: "\r"), start + 1 >= buffer.count { return false }
            start += 1
        }
        guard let headEnd = Self.endOfHead(buffer, from: start) else {
            if buffer.count - start > limits.maximumHeadLength {
                return fail(431, "the request's head is over \(limits.maximumHeadLength) bytes", &events)
            }
            return false
        }
        guard headEnd.next - start <= limits.maximumHeadLength else {
            return fail(431, "the request's head is over \(limits.maximumHeadLength) bytes", &events)
        }
        let head = buffer[start..<headEnd.contentEnd]
        start = headEnd.next
        var lines = Self.lines(head)
        let requestLine = lines.removeFirst()
        let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[0].allSatisfy(Self.isTokenByte) else {
            return fail(400, "the request line is not 'METHOD target HTTP/1.1': \(Self.quoted(requestLine))", &events)
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        let minorVersion: Int
        switch version {
        case "HTTP/1.1": minorVersion = 1
        case "HTTP/1.0": minorVersion = 0
        default:
            guard version.hasPrefix("HTTP/") else {
                return fail(400, "the request line's version is not HTTP/1.x: \(Self.quoted(parts[2]))", &events)
            }
            return fail(505, "the version \(Self.quoted(parts[2])) is not HTTP/1.0 or HTTP/1.1", &events)
        }
        guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            return fail(400, "the request target has a space or a control character", &events)
        }
        var headers: [HTTPHeaderField] = []
        for line in lines {
            if let first = line.first, first == UInt8(ascii: " ") || first == 9 {
                return fail(400, "a header field is folded onto the next line (obs-fold, RFC 9112 §5.2)", &events)
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                return fail(400, "a header line has no colon: \(Self.quoted(line))", &events)
            }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(Self.isTokenByte) else {
                return fail(
                    400, "a header field's name is not a token (no spaces before the colon): \(Self.quoted(name))",
                    &events)
            }
            let value = line[(colon + 1)...].drop { $0 == UInt8(ascii: " ") || $0 == 9 }
            let trimmed = value.reversed().drop { $0 == UInt8(ascii: " ") || $0 == 9 }.reversed()
            headers.append(
                HTTPHeaderField(
                    name: String(decoding: name, as: UTF8.self).lowercased(),
                    value: String(decoding: trimmed, as: UTF8.self)))
        }
        var request = HTTP1Request(
            method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
            minorVersion: minorVersion, headers: headers, body: [], bodyLength: 0,
            keepAlive: Self.keepsAlive(minorVersion: minorVersion, headers: headers))
        if minorVersion == 1, request.values(of: "host").count != 1 {
            return fail(
                400,
                "an HTTP/1.1 request has \(request.values(of: "host").count) Host fields; it needs one (RFC 9112 §3.2)",
                &events)
        }
        let transferEncodings = request.values(of: "transfer-encoding")
        let contentLengths = request.values(of: "content-length")
        if !transferEncodings.isEmpty {
            guard contentLengths.isEmpty else {
                return fail(400, "both Transfer-Encoding and Content-Length are sent (RFC 9112 §6.3)", &events)
            }
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }.map {
                $0.trimmingWhitespace(newlines: false).lowercased()
            }
            guard codings == ["chunked"] else {
                return fail(501, "the transfer coding \(codings.joined(separator: ", ")) is not chunked", &events)
            }
            pending = request
            state = .chunkSize
            noteContinue(request, &events)
            return true
        }
        var length = 0
        if !contentLengths.isEmpty {
            let values = Set(
                contentLengths.flatMap { $0.split(separator: ",") }.map { $0.trimmingWhitespace(newlines: false) })
            guard values.count == 1, let text = values.first, !text.isEmpty, text.count <= 15,
                text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let value = Int(text)
            else {
                return fail(
                    400, "the Content-Length is not one number: \(contentLengths.joined(separator: ", "))", &events)
            }
            length = value
        }
        guard length <= limits.maximumBodyLength else {
            return fail(413, "the Content-Length \(length) is over \(limits.maximumBodyLength) bytes", &events)
        }
        request.body.reserveCapacity(min(length, limits.keptBodyLimit))
        pending = request
        state = .body(remaining: length)
        if length > 0 { noteContinue(request, &events) }
        return true
    }

    private func noteContinue(_ request: HTTP1Request, _ events: inout [HTTP1ParserEvent]) {
        guard request.minorVersion == 1,
            request.values(of: "expect").contains(where: { $0.lowercased() == "100-continue" })
        else { return }
        if start >= buffer.count { events.append(.continueExpected) }
    }

    /// Moves `count` body bytes from the buffer into the pending request.
    private mutating func take(_ count: Int) {
        guard count > 0 else { return }
        if var request = pending {
            pending = nil
            let room = max(0, limits.keptBodyLimit - request.body.count)
            request.body.append(contentsOf: buffer[start..<(start + min(room, count))])
            request.bodyLength += count
            pending = request
        }
        start += count
    }

    private mutating func finish(_ events: inout [HTTP1ParserEvent]) {
        if let request = pending { events.append(.request(request)) }
        pending = nil
        state = .head
    }

    private mutating func fail(_ status: Int, _ detail: String, _ events: inout [HTTP1ParserEvent]) -> Bool {
        events.append(.error(HTTP1ParseError(status: status, detail)))
        state = .failed
        buffer = []
        start = 0
        pending = nil
        return false
    }

    /// The longest chunk-size line (size and extensions) read.
    static let maximumChunkLineLength = 1024

    private enum LineRead {
        case line(ArraySlice<UInt8>)
        case wait
        case tooLong
    }

    /// The next line (without its CRLF or LF), consumed; `.wait` until its end arrives;
    /// `.tooLong` once it is known to be longer than `limit` bytes (its end included), however
    /// the bytes were cut.
    private mutating func readLine(limit: Int) -> LineRead {
        guard let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) else {
            return buffer.count - start >= limit ? .tooLong : .wait
        }
        guard newline + 1 - start <= limit else { return .tooLong }
        var end = newline
        if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        let line = buffer[start..<end]
        start = newline + 1
        return .line(line)
    }

    /// Where the head that begins at `from` ends: the end of its content (before the blank
    /// line) and the index after the blank line.
    static func endOfHead(_ bytes: [UInt8], from: Int) -> (contentEnd: Int, next: Int)? {
        var index = from
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            // A blank line follows `newline` when the next byte is LF, or CR then LF.
            let next = newline + 1
            if next < bytes.count, bytes[next] == UInt8(ascii: "\n") {
                return (newline > from && bytes[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline, next + 1)
            }
            if next + 1 < bytes.count, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") {
                return (newline > from && bytes[newline - 1] == UInt8(ascii: "\r") ? newline - 1 : newline, next + 2)
            }
            index = next
        }
        return nil
    }

    /// The lines of a head, without their CRLF or LF.
    static func lines(_ head: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        head.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            $0.last == UInt8(ascii: "\r") ? $0.dropLast() : $0
        }
    }

    /// RFC 9110 §5.6.2's tchar.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    static func keepsAlive(minorVersion: Int, headers: [HTTPHeaderField]) -> Bool {
        let options = headers.filter { $0.name == "connection" }.flatMap { $0.value.split(separator: ",") }.map {
            $0.trimmingWhitespace(newlines: false).lowercased()
        }
        if options.contains("close") { return false }
        return minorVersion >= 1 || options.contains("keep-alive")
    }

    static func quoted(_ bytes: some Collection<UInt8>) -> String {
        RejectionWords.quoted(String(decoding: bytes, as: UTF8.self), limit: 60)
    }
}
