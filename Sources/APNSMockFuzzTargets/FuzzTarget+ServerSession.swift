import APNSMockStore
import APNSMockTransport

extension FuzzTarget {
    /// Raw client bytes after TLS and the 24-byte client preface, fed to a new server session
    /// (`InMemoryAPNSConnection`: nghttp2, the connection's state machine, the rules, the store)
    /// in chunks of the size the first byte gives (0: all at once), the server's output
    /// collected after each, as the TLS layer would.
    static let serverSession = FuzzTarget(
        name: "server-session",
        summary: "chunk-size byte + HTTP/2 frames after the preface -> InMemoryAPNSConnection",
        maximumLength: 16384
    ) { bytes in
        var input = FuzzInput(bytes)
        let chunk = Int(input.byte())
        let frames = input.rest()
        guard
            let connection = try? InMemoryAPNSConnection(
                context: FuzzServer.makeContext(store: DeliveryStore(capacity: 16)))
        else { preconditionFailure("cannot create an in-memory connection") }
        var output: [UInt8] = []
        frames.withUnsafeBufferPointer { all in
            var start = 0
            repeat {
                let end = chunk == 0 ? all.count : min(all.count, start + chunk)
                let open = connection.receive(UnsafeBufferPointer(rebasing: all[start..<end]))
                output.removeAll(keepingCapacity: true)
                connection.collectOutput(into: &output)
                start = end
                if !open { break }
            } while start < all.count
        }
    }
}
