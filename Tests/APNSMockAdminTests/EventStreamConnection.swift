import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A `GET /v1/events` request on a plain socket to 127.0.0.1, read as it comes: the test
/// clients of HummingbirdTesting wait for a whole body, which an event stream never ends.
/// Every read has a timeout, so a test that waits for text that never comes fails instead of
/// hanging. It is 60 s: text that comes arrives at once, and under `make test-asan`, with every
/// suite running beside it on two cores, a server's first bytes once took more than 10 s. Reads block a dispatch thread, not one of the few threads of Swift's cooperative
/// pool, which the server's handlers need.
final class EventStreamConnection: @unchecked Sendable {
    // Unchecked: one test owns the connection and awaits each read before the next, so the
    // socket and `received` are touched by one thread at a time.
    private let socket: Int32
    /// Everything read so far (the headers and the chunked body, undecoded).
    private(set) var received = ""

    /// Connects to `port` and sends `GET path`.
    init(port: Int, path: String, readTimeoutSeconds: Int = 60) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw Problem("socket() failed") }
        var timeout = timeval(tv_sec: readTimeoutSeconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw Problem("cannot connect to 127.0.0.1:\(port)")
        }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        guard send(socket, request, request.count, 0) == request.count else {
            close(socket)
            throw Problem("cannot send the request")
        }
    }

    deinit { close(socket) }

    /// Reads until what was received contains `text`; throws when a read times out or the
    /// server closes the connection first.
    func read(until text: String) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                do {
                    try self.blockingRead(until: text)
                    done.resume()
                } catch {
                    done.resume(throwing: error)
                }
            }
        }
    }

    private func blockingRead(until text: String) throws {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !received.contains(text) {
            let count = recv(socket, &buffer, buffer.count, 0)
            guard count > 0 else {
                throw Problem("no '\(text)' in the stream (read \(received.utf8.count) bytes): \(received.suffix(400))")
            }
            received += String(decoding: buffer[..<count], as: UTF8.self)
        }
    }

    struct Problem: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
