public import CNGHTTP2

/// An nghttp2 client session driven by bytes, for tests and the instruction-count benchmark:
/// submits requests and records every frame it receives. Bytes move by hand between it and a
/// server session: no sockets.
///
/// Owns one `nghttp2_session*`, freed in `deinit`. Not thread-safe.
public final class InMemoryHTTP2Client {
    /// A received frame's header.
    public struct Frame: Equatable, Sendable {
        public var type: UInt8
        public var streamID: Int32
        public var flags: UInt8
        public var length: Int
    }

    public private(set) var session: OpaquePointer?
    public private(set) var frames: [Frame] = []
    public private(set) var headers: [Int32: [(String, String)]] = [:]
    public private(set) var bodies: [Int32: [UInt8]] = [:]
    public private(set) var closed: [Int32: UInt32] = [:]
    public private(set) var goAwayReceived = false
    /// Keep received frames, headers and bodies (off for long benchmark runs).
    public var recordsFrames = true
    /// Streams closed so far.
    public private(set) var closedCount = 0
    private var uploads: [Int32: [UInt8]] = [:]
    private var pendingUpload: [UInt8]?

    public init() {
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            let client = InMemoryHTTP2Client.from(user)
            guard client.recordsFrames else { return 0 }
            let hd = frame!.pointee.hd
            client.frames.append(Frame(type: hd.type, streamID: hd.stream_id, flags: hd.flags, length: hd.length))
            if hd.type == UInt8(NGHTTP2_GOAWAY.rawValue) { client.goAwayReceived = true }
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameLength, value, valueLength, _, user in
            let client = InMemoryHTTP2Client.from(user)
            guard client.recordsFrames else { return 0 }
            let id = frame!.pointee.hd.stream_id
            client.headers[id, default: []].append(
                (
                    String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)
                ))
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, user in
            let client = InMemoryHTTP2Client.from(user)
            guard client.recordsFrames else { return 0 }
            client.bodies[streamID, default: []].append(contentsOf: UnsafeBufferPointer(start: data, count: length))
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, errorCode, user in
            let client = InMemoryHTTP2Client.from(user)
            client.closedCount += 1
            if client.recordsFrames { client.closed[streamID] = errorCode }
            return 0
        }
        nghttp2_session_client_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque())
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil, 0)
    }

    deinit { nghttp2_session_del(session) }

    private static func from(_ user: UnsafeMutableRawPointer?) -> InMemoryHTTP2Client {
        Unmanaged<InMemoryHTTP2Client>.fromOpaque(user!).takeUnretainedValue()
    }

    /// Submits a request; `body` nil sends HEADERS with END_STREAM. Returns the stream id.
    @discardableResult
    public func submit(
        method: String = "POST", path: String, authority: String? = "api.sandbox.push.apple.com",
        headers: [(String, String)] = [], body: [UInt8]? = nil
    ) -> Int32 {
        var fields: [(String, String)] = [(":method", method), (":scheme", "https"), (":path", path)]
        if let authority { fields.append((":authority", authority)) }
        fields += headers
        var storage: [UInt8] = []
        var spans: [(Int, Int, Int, Int)] = []
        for (name, value) in fields {
            let n = storage.count
            storage += Array(name.utf8)
            let v = storage.count
            storage += Array(value.utf8)
            spans.append((n, v - n, v, storage.count - v))
        }
        return storage.withUnsafeMutableBufferPointer { buffer -> Int32 in
            let base = buffer.baseAddress!
            var nva = spans.map {
                nghttp2_nv(
                    name: base + $0.0, value: base + $0.2, namelen: $0.1, valuelen: $0.3,
                    flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            guard let body else {
                return nghttp2_submit_request(session, nil, &nva, nva.count, nil, nil)
            }
            var provider = nghttp2_data_provider()
            provider.read_callback = { _, streamID, buffer, length, flags, _, user in
                let client = InMemoryHTTP2Client.from(user)
                var upload = client.uploads[streamID] ?? client.pendingUpload ?? []
                client.pendingUpload = nil
                let count = min(length, upload.count)
                upload.withUnsafeBufferPointer { buffer!.update(from: $0.baseAddress!, count: count) }
                upload.removeFirst(count)
                client.uploads[streamID] = upload
                if upload.isEmpty { flags!.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
                return count
            }
            pendingUpload = body
            let id = nghttp2_submit_request(session, nil, &nva, nva.count, &provider, nil)
            if id > 0, let pending = pendingUpload {
                uploads[id] = pending
                pendingUpload = nil
            }
            return id
        }
    }

    /// Bytes the client wants to send.
    public func output() -> [UInt8] {
        var out: [UInt8] = []
        while true {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            if count <= 0 { break }
            out.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        }
        return out
    }

    /// Feeds bytes from the server.
    public func receive(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { _ = nghttp2_session_mem_recv(session, $0.baseAddress, $0.count) }
    }

    /// Frames received on `streamID`.
    public func frames(on streamID: Int32) -> [Frame] { frames.filter { $0.streamID == streamID } }

    public func header(_ name: String, on streamID: Int32) -> String? {
        headers[streamID]?.first { $0.0 == name }?.1
    }
}
