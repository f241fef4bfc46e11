import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A listener on 127.0.0.1 that answers every connection with the same bytes (read the
/// request's head, write `answer`, then close or keep the connection open without a word), for
/// what a client does with an answer no real server gives: a bad chunk, a truncated body.
final class CannedHTTPServer: @unchecked Sendable {
    /// The port it listens on.
    let port: Int
    private let listener: Int32

    /// Listens on an ephemeral port; each connection gets `answer`, then is closed after
    /// `holdSeconds` (0: at once).
    init(answer: [UInt8], holdSeconds: Double = 0) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread {
            while true {
                let connection = accept(fd, nil, nil)
                guard connection >= 0 else { return }
                Thread {
                    var head: [UInt8] = []
                    var byte: UInt8 = 0
                    while read(connection, &byte, 1) == 1 {
                        head.append(byte)
                        if head.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
                    }
                    answer.withUnsafeBytes { _ = write(connection, $0.baseAddress, $0.count) }
                    if holdSeconds > 0 { Thread.sleep(forTimeInterval: holdSeconds) }
                    close(connection)
                }.start()
            }
        }.start()
    }

    /// `http://127.0.0.1:PORT`.
    var url: String { "http://127.0.0.1:\(port)" }

    /// Stops listening (connections being answered finish).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
