import APNSMockCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A minimal HTTP/1.1 client for the admin API (plain HTTP, `Connection: close`), so that the
/// `apns-mock` binary carries no HTTP client library (and no second TLS stack): `verify` only
/// talks to a local admin port.
struct AdminClient {
    /// An admin API answer.
    struct Response {
        var status: Int
        var body: [UInt8]
    }

    /// A failure to reach or read the admin API, in words.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let host: String
    let port: Int

    /// The `authorization` header for `token`, or for `$APNS_MOCK_ADMIN_TOKEN` when none is
    /// given; none without either.
    static func authorization(token: String?) -> [(String, String)] {
        guard let token = token ?? ProcessInfo.processInfo.environment[ServeCommand.adminTokenVariable],
            !token.isEmpty
        else { return [] }
        return [("authorization", "Bearer \(token)")]
    }

    /// Reads `http://HOST:PORT` (a trailing path is ignored).
    init?(url: String) {
        guard let components = URLComponents(string: url), components.scheme == "http",
            let host = components.host, !host.isEmpty
        else { return nil }
        self.host = host
        self.port = components.port ?? 80
    }

    /// Sends one request and reads the whole answer; `timeout` bounds every socket operation.
    func send(method: String, path: String, headers: [(String, String)] = [], body: [UInt8] = [], timeout: Int)
        throws(Failure) -> Response
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw Failure(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(list) }
        var socketFD: Int32 = -1
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        var lastError = "no address"
        while let info = cursor {
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd >= 0 {
                var limit = timeval(tv_sec: timeout, tv_usec: 0)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
                if connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 {
                    socketFD = fd
                    break
                }
                lastError = String(cString: strerror(errno))
                close(fd)
            }
            cursor = info.pointee.ai_next
        }
        guard socketFD >= 0 else { throw Failure(description: "\(lastError.lowercased())") }
        defer { close(socketFD) }
        var head = "\(method) \(path) HTTP/1.1\r\nhost: \(host):\(port)\r\nconnection: close\r\n"
        head += "content-length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let request = Array((head + "\r\n").utf8) + body
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { write(socketFD, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "the connection broke while sending") }
            sent += n
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(socketFD, $0.baseAddress, $0.count) }
            if n == 0 { break }
            guard n > 0 else { throw Failure(description: "no complete answer within \(timeout) s") }
            answer += buffer[..<n]
        }
        return try Self.parse(answer)
    }

    /// Status and body of a `Connection: close` answer (content-length or read to the end;
    /// chunked bodies are decoded).
    static func parse(_ answer: [UInt8]) throws(Failure) -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = answer.firstRange(of: separator) else {
            throw Failure(description: "the answer is not HTTP")
        }
        let head = String(decoding: answer[..<end.lowerBound], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines.first?.split(separator: " ") ?? []
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else {
            throw Failure(description: "the answer has no HTTP status line")
        }
        var body = Array(answer[end.upperBound...])
        let chunked = lines.dropFirst().contains {
            $0.lowercased().hasPrefix("transfer-encoding:") && $0.lowercased().contains("chunked")
        }
        if chunked {
            var decoded: [UInt8] = []
            var index = 0
            while let lineEnd = body[index...].firstRange(of: [13, 10]) {
                let sizeText = String(decoding: body[index..<lineEnd.lowerBound], as: UTF8.self)
                guard let size = Int(sizeText.split(separator: ";").first ?? "", radix: 16) else { break }
                if size == 0 { break }
                let start = lineEnd.upperBound
                guard start + size <= body.count else { break }
                decoded += body[start..<(start + size)]
                index = start + size + 2
                guard index <= body.count else { break }
            }
            body = decoded
        }
        return Response(status: status, body: body)
    }
}

extension AdminClient {
    /// `GET path` of one delivery for a command (`explain`, `export`): the body of a 200, or the
    /// command fails with the admin API's message: exit 1 for an answer that is not 200 (no such
    /// delivery), 2 for a bad apns-id or `--admin`, an unreachable API or a 401.
    static func deliveryResource(
        command: String, apnsID: String, path: String, admin: String?, token: String?
    ) -> [UInt8] {
        guard APNSMessageID.isValid(apnsID) else {
            fail(2, "apns-mock \(command): the apns-id must be a UUID (8-4-4-4-12 hex digits); got '\(apnsID)'")
        }
        var options = AdminOptions()
        options.admin = admin
        options.adminToken = token
        // An unreachable API, a bad --admin or a 401: exit 2 (in send); any other answer than 200: exit 1.
        let response = options.send(command, "GET", path)
        guard response.status == 200 else { fail(1, "apns-mock \(command): \(AdminOptions.message(response))") }
        return response.body
    }
}

/// Writes `message` to standard error and exits with `code`: a command's failure, one line.
func fail(_ code: Int32, _ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    Foundation.exit(code)
}
