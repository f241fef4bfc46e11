import APNSMockCore
private import CNGHTTP2

/// The HTTP/2 settings the server announces, APNs's values by default.
public struct HTTP2Settings: Sendable, Hashable {
    public var maxConcurrentStreams: UInt32 = 1000
    public var headerTableSize: UInt32 = 4096
    public var maxHeaderListSize: UInt32 = 8000
    public var initialWindowSize: UInt32 = 65_535
    public var maxFrameSize: UInt32 = 16_384

    public init(maxConcurrentStreams: UInt32 = 1000, maxHeaderListSize: UInt32 = 8000) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.maxHeaderListSize = maxHeaderListSize
    }
}

/// A request whose headers (and body, or enough of it) have arrived and which waits for its
/// answer.
struct ReadyRequest {
    var streamID: Int32
    var request: APNSRequestParts
    /// The body outgrew one flow-control window before END_STREAM: the answer goes out now and
    /// the rest of the body is read and discarded.
    var early: Bool
}

/// Request fields as collected from nghttp2 callbacks.
struct APNSRequestParts {
    var method = ""
    var path = ""
    var authority: String?
    var host: String?
    var headers: [HTTPHeaderField] = []
    var headerListSize = 0
    var headerListTooLarge = false
    var payload: [UInt8] = []
    var payloadSize = 0
}

/// A server-side libnghttp2 session driven by bytes: `receive` plaintext, `collectOutput` to
/// send.
///
/// Owns one `nghttp2_session*`, freed in `deinit`. Callbacks only collect into Swift state;
/// answers are submitted after `nghttp2_session_mem_recv` returns, never from inside a
/// callback. Not thread-safe: one connection, one event loop.
final class HTTP2ServerSession {
    private var session: OpaquePointer?
    /// Requests being received, by stream id. A class per stream, so that appending a header
    /// or body chunk mutates in place instead of copying the parts out and back.
    private var streams: [Int32: StreamState] = [:]
    private var answered: Set<Int32> = []
    private var ready: [ReadyRequest] = []
    private var responseBodies: [Int32: [UInt8]] = [:]
    private let maxHeaderListSize: Int
    /// Body bytes above which a request is answered before END_STREAM (one flow-control window).
    static let earlyAnswerThreshold = 65_535

    /// Creates the session and queues the server SETTINGS frame; `initialMaxConcurrentStreams`
    /// replaces `settings.maxConcurrentStreams` until `announceMaxConcurrentStreams` (token
    /// connections start with one stream, as APNs's do).
    init(settings: HTTP2Settings, initialMaxConcurrentStreams: UInt32? = nil) throws {
        maxHeaderListSize = Int(settings.maxHeaderListSize)
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else {
            throw TLSError("cannot allocate nghttp2 callbacks")
        }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, user in
            HTTP2ServerSession.from(user).onBeginHeaders(frame!)
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameLength, value, valueLength, _, user in
            HTTP2ServerSession.from(user).onHeader(
                frame!, name: UnsafeBufferPointer(start: name, count: nameLength),
                value: UnsafeBufferPointer(start: value, count: valueLength))
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, user in
            HTTP2ServerSession.from(user).onData(streamID, UnsafeBufferPointer(start: data, count: length))
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            HTTP2ServerSession.from(user).onFrameReceived(frame!)
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, _, user in
            HTTP2ServerSession.from(user).onStreamClose(streamID)
        }
        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let option else { throw TLSError("cannot allocate nghttp2 options") }
        defer { nghttp2_option_del(option) }
        // The connection checks the client preface itself, so that an HTTP/1.1 request can be
        // told apart and answered in words.
        nghttp2_option_set_no_recv_client_magic(option, 1)
        nghttp2_option_set_peer_max_concurrent_streams(option, 100)
        let rc = nghttp2_session_server_new2(&session, callbacks, Unmanaged.passUnretained(self).toOpaque(), option)
        guard rc == 0, session != nil else { throw TLSError("cannot create an nghttp2 session: \(rc)") }
        var entries = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_HEADER_TABLE_SIZE.rawValue), value: settings.headerTableSize),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                value: initialMaxConcurrentStreams ?? settings.maxConcurrentStreams),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: settings.initialWindowSize),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_FRAME_SIZE.rawValue), value: settings.maxFrameSize),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue), value: settings.maxHeaderListSize),
        ]
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entries, entries.count)
    }

    deinit {
        nghttp2_session_del(session)
    }

    private static func from(_ user: UnsafeMutableRawPointer?) -> HTTP2ServerSession {
        Unmanaged<HTTP2ServerSession>.fromOpaque(user!).takeUnretainedValue()
    }

    // MARK: bytes in, bytes out

    /// Feeds received plaintext. Returns `false` on a connection error (a GOAWAY may be queued).
    func receive(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
        let consumed = nghttp2_session_mem_recv(session, base, bytes.count)
        return consumed >= 0
    }

    /// Takes the requests that are ready to be answered.
    func takeReadyRequests() -> [ReadyRequest] {
        defer { ready.removeAll(keepingCapacity: true) }
        return ready
    }

    /// Appends everything nghttp2 wants to send to `output`.
    func collectOutput(into output: inout [UInt8]) {
        while true {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            if count <= 0 { return }
            output.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        }
    }

    /// GOAWAY error code NO_ERROR.
    static let noError = NGHTTP2_NO_ERROR.rawValue

    /// Whether the session still wants to read or write; when neither, the connection ends.
    var isActive: Bool { nghttp2_session_want_read(session) != 0 || nghttp2_session_want_write(session) != 0 }

    /// Queues a SETTINGS frame with a new MAX_CONCURRENT_STREAMS.
    func announceMaxConcurrentStreams(_ value: UInt32) {
        var entry = nghttp2_settings_entry(
            settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: value)
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entry, 1)
    }

    /// Queues GOAWAY with `errorCode` and debug data, naming `lastStreamID` (default: the last
    /// stream processed) as the last stream handled.
    func goAway(errorCode: UInt32, debugData: [UInt8] = [], lastStreamID: Int32? = nil) {
        let lastStream = lastStreamID ?? nghttp2_session_get_last_proc_stream_id(session)
        debugData.withUnsafeBufferPointer {
            _ = nghttp2_submit_goaway(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStream, errorCode, $0.baseAddress, $0.count)
        }
    }

    // MARK: answers

    /// Submits a response: HEADERS with END_STREAM when `body` is nil, else HEADERS then one
    /// DATA frame with END_STREAM.
    func respond(streamID: Int32, status: Int, headers: [(String, String)], body: [UInt8]?) {
        answered.insert(streamID)
        var storage: [UInt8] = []
        storage.reserveCapacity(160)
        var spans: [(Int, Int, Int, Int)] = []
        spans.reserveCapacity(headers.count + 1)
        func add(_ name: String, _ value: String) {
            let nameStart = storage.count
            storage.append(contentsOf: name.utf8)
            let valueStart = storage.count
            storage.append(contentsOf: value.utf8)
            spans.append((nameStart, valueStart - nameStart, valueStart, storage.count - valueStart))
        }
        add(":status", String(status))
        for (name, value) in headers { add(name, value) }
        storage.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            var nva = spans.map { span in
                nghttp2_nv(
                    name: base + span.0, value: base + span.2, namelen: span.1, valuelen: span.3,
                    flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            if let body {
                responseBodies[streamID] = body
                var provider = nghttp2_data_provider()
                provider.read_callback = { _, streamID, buffer, length, flags, _, user in
                    HTTP2ServerSession.from(user).readBody(streamID, buffer!, length, flags!)
                }
                _ = nghttp2_submit_response(session, streamID, &nva, nva.count, &provider)
            } else {
                _ = nghttp2_submit_response(session, streamID, &nva, nva.count, nil)
            }
        }
    }

    private func readBody(
        _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ length: Int, _ flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard var body = responseBodies[streamID] else {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            return 0
        }
        let count = min(length, body.count)
        body.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) }
        if count == body.count {
            responseBodies[streamID] = nil
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        } else {
            body.removeFirst(count)
            responseBodies[streamID] = body
        }
        return count
    }

    // MARK: callbacks (collect only)

    private func onBeginHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        guard header.type == UInt8(NGHTTP2_HEADERS.rawValue), frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else {
            return 0
        }
        streams[header.stream_id] = StreamState()
        return 0
    }

    private func onHeader(
        _ frame: UnsafePointer<nghttp2_frame>, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>
    ) -> Int32 {
        guard frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else { return 0 }
        let streamID = frame.pointee.hd.stream_id
        guard let state = streams[streamID] else { return 0 }
        // RFC 9113 §6.5.2: name + value + 32 octets per field. libnghttp2 1.52 announces
        // MAX_HEADER_LIST_SIZE but does not enforce it; this does.
        state.parts.headerListSize += name.count + value.count + 32
        if state.parts.headerListSize > maxHeaderListSize { state.parts.headerListTooLarge = true }
        let nameString = String(decoding: name, as: UTF8.self)
        let valueString = String(decoding: value, as: UTF8.self)
        if name.first == UInt8(ascii: ":") {
            switch nameString {
            case ":method": state.parts.method = valueString
            case ":path": state.parts.path = valueString
            case ":authority": state.parts.authority = valueString
            default: break
            }
        } else if !state.parts.headerListTooLarge {
            if nameString == "host" { state.parts.host = valueString }
            state.parts.headers.append(HTTPHeaderField(name: nameString, value: valueString))
        }
        return 0
    }

    private func onData(_ streamID: Int32, _ data: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard let state = streams[streamID], !answered.contains(streamID) else { return 0 }
        let room = APNSPushType.largestPayloadLimit - state.parts.payload.count
        if room > 0 { state.parts.payload.append(contentsOf: data.prefix(room)) }
        state.parts.payloadSize += data.count
        let early = state.parts.payloadSize > Self.earlyAnswerThreshold
        if early {
            answered.insert(streamID)
            ready.append(ReadyRequest(streamID: streamID, request: state.parts, early: true))
        }
        return 0
    }

    private func onFrameReceived(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        guard header.type == UInt8(NGHTTP2_HEADERS.rawValue) || header.type == UInt8(NGHTTP2_DATA.rawValue),
            header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0,
            let state = streams[header.stream_id], !answered.contains(header.stream_id)
        else { return 0 }
        answered.insert(header.stream_id)
        ready.append(ReadyRequest(streamID: header.stream_id, request: state.parts, early: false))
        return 0
    }

    private func onStreamClose(_ streamID: Int32) -> Int32 {
        streams[streamID] = nil
        answered.remove(streamID)
        responseBodies[streamID] = nil
        return 0
    }
}

/// The parts of one request as they arrive (see `HTTP2ServerSession.streams`).
private final class StreamState {
    var parts = APNSRequestParts()
}
