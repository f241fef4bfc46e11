import APNSMockCore
import APNSMockRegistry
import APNSMockStore
private import CNGHTTP2

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
    private var streams: [Int32: StreamRequest] = [:]
    /// The stream whose header block is arriving: HEADERS and CONTINUATION of one stream are
    /// never interleaved with another's, so most callbacks skip the dictionary.
    private var currentStreamID: Int32 = 0
    private var currentStream: StreamRequest?
    /// Finished streams' objects, emptied and kept for the next streams (buffers included).
    private var spareStreams: [StreamRequest] = []
    private static let spareStreamLimit = 128
    private var ready: [ReadyRequest] = []
    /// Response bodies being sent, with the most bytes one DATA frame may carry.
    private var responseBodies: [Int32: (bytes: [UInt8], frameLimit: Int)] = [:]
    /// Streams whose close the session wants to hear of (their answer waits), and those of
    /// them that closed.
    /// Every stream that closed since the last `clearClosedStreams` (answered, reset by either
    /// side, refused), in order: the machine learns of each, and ends those it still owed.
    private(set) var closedStreams: [Int32] = []
    /// Bytes serialized by `sendQueuedFrames`, sent before anything else.
    private var queuedOutput: [UInt8] = []
    /// GOAWAY frames with an error code the session has sent.
    private var errorGoAwaysSent = 0
    /// GOAWAY and RST_STREAM frames the client sent, and those the server sent (whether the
    /// session asked for them or libnghttp2 sent them on its own, as it refuses streams over
    /// the limit), for the connection log.
    private(set) var controlFrames: [ControlFrame] = []
    /// Asked when the client opens a stream beyond the MAX_CONCURRENT_STREAMS it acknowledged:
    /// `true` stops the session from answering in its own way (GOAWAY PROTOCOL_ERROR), and the
    /// read fails with `.streamLimit`, so that the caller sends its own GOAWAY.
    var replacesStreamLimitGoAway: (() -> Bool)?
    /// The client opened more streams than it was allowed and `replacesStreamLimitGoAway` said so.
    private var streamLimitViolated = false
    /// The client sent HEADERS on a stream it never opened, numbered below one it did (RFC 9113
    /// §5.1.1: a connection error PROTOCOL_ERROR). libnghttp2 1.52 drops such a frame without
    /// telling (nghttp2 issues #1300, #2233), so the session notices it in `onBeginFrame`, fails
    /// the read, and the caller sends the GOAWAY.
    private var streamIDRegression: (streamID: Int32, highest: Int32)?
    /// The client put excessive load on the connection (rapid reset, a CONTINUATION flood,
    /// acknowledgements it does not read): the read failed, and the caller sends GOAWAY
    /// ENHANCE_YOUR_CALM.
    private var flood: ClientFlood?
    /// Client resets allowed before it counts as rapid reset.
    private var resetLimit = StreamResetLimit()
    private let started = ContinuousClock.now
    private var nanosecondsSinceStart: UInt64 {
        let elapsed = started.duration(to: .now).components
        return UInt64(max(0, elapsed.seconds)) * 1_000_000_000 + UInt64(max(0, elapsed.attoseconds / 1_000_000_000))
    }
    /// The most recently closed streams, oldest first: HEADERS may still arrive on one of them
    /// (trailers after the server reset it), which RFC 9113 §5.1 says to ignore, not to punish.
    private var recentlyClosedStreams: [Int32] = []
    private static let recentlyClosedLimit = 128
    /// The highest stream id a client HEADERS frame opened, and the stream whose opening HEADERS
    /// is being processed now (`0`: none): cleared when libnghttp2 begins its request, so one
    /// still set after the frame was refused or ignored by the library.
    private var highestOpenedStreamID: Int32 = 0
    private var openingStreamID: Int32 = 0
    /// Streams the client opened that never became a request, since the last
    /// `takeRefusedStreams`: refused when opened, or ended while being received.
    private var refusedWhenOpened = 0
    private var refusedWhileReceiving = 0

    /// A GOAWAY or RST_STREAM frame that went over the connection, worth logging.
    enum ControlFrame: Equatable {
        case goAway(errorCode: UInt32, lastStreamID: Int32, debugData: [UInt8], sent: Bool)
        case resetStream(streamID: Int32, errorCode: UInt32, sent: Bool)
    }
    /// Reused for every response's header block.
    private var responseHeaderWriter = ResponseHeaderWriter()
    private var responseHeaderSpans: [nghttp2_nv] = []
    private let maxHeaderListSize: Int
    private let settings: HTTP2Settings
    /// Body bytes above which a request is answered before END_STREAM (one flow-control window).
    static let earlyAnswerThreshold = 65_535

    /// Creates the session; `start` queues the server's SETTINGS frame.
    init(settings: HTTP2Settings) throws {
        self.settings = settings
        maxHeaderListSize = Int(settings.maxHeaderListSize)
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else {
            throw TLSError("cannot allocate nghttp2 callbacks")
        }
        defer { nghttp2_session_callbacks_del(callbacks) }
        nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks) { _, header, user in
            HTTP2ServerSession.with(user) { $0.onBeginFrame(header!.pointee) }
        }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, user in
            HTTP2ServerSession.with(user) { $0.onBeginHeaders(frame!) }
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameLength, value, valueLength, _, user in
            HTTP2ServerSession.with(user) {
                $0.onHeader(
                    frame!, name: UnsafeBufferPointer(start: name, count: nameLength),
                    value: UnsafeBufferPointer(start: value, count: valueLength))
            }
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, user in
            HTTP2ServerSession.with(user) { $0.onData(streamID, UnsafeBufferPointer(start: data, count: length)) }
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            HTTP2ServerSession.with(user) { $0.onFrameReceived(frame!) }
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, _, user in
            HTTP2ServerSession.with(user) { $0.onStreamClose(streamID) }
        }
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks) { _, frame, user in
            HTTP2ServerSession.with(user) { $0.onFrameSent(frame!) }
        }
        nghttp2_session_callbacks_set_on_invalid_frame_recv_callback(callbacks) { _, frame, error, user in
            HTTP2ServerSession.with(user) { $0.onInvalidFrame(frame!, error: error) }
        }
        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let option else { throw TLSError("cannot allocate nghttp2 options") }
        defer { nghttp2_option_del(option) }
        // The connection checks the client preface itself, so that an HTTP/1.1 request can be
        // told apart and answered in words.
        nghttp2_option_set_no_recv_client_magic(option, 1)
        nghttp2_option_set_peer_max_concurrent_streams(option, 100)
        // The library's own limits stay as a backstop behind the session's: it answers a rapid
        // reset with GOAWAY INTERNAL_ERROR, where RFC 9113 names ENHANCE_YOUR_CALM.
        let backstop = StreamResetLimit()
        nghttp2_option_set_stream_reset_rate_limit(option, UInt64(backstop.burst * 4), UInt64(backstop.perSecond * 4))
        nghttp2_option_set_max_continuations(option, Self.maxContinuations)
        let rc = nghttp2_session_server_new2(&session, callbacks, Unmanaged.passUnretained(self).toOpaque(), option)
        guard rc == 0, session != nil else { throw TLSError("cannot create an nghttp2 session: \(rc)") }
    }

    /// Queues the server's SETTINGS frame, the first thing the server sends;
    /// `initialMaxConcurrentStreams` replaces `settings.maxConcurrentStreams` until
    /// `announceMaxConcurrentStreams` (token connections start with one stream, as APNs's do).
    func start(initialMaxConcurrentStreams: UInt32? = nil) {
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

    /// Calls `body` with the session behind a callback's user pointer, without retaining it
    /// (the session outlives its nghttp2 callbacks).
    private static func with<Result>(_ user: UnsafeMutableRawPointer?, _ body: (HTTP2ServerSession) -> Result) -> Result
    {
        Unmanaged<HTTP2ServerSession>.fromOpaque(user!)._withUnsafeGuaranteedRef(body)
    }

    // MARK: bytes in, bytes out

    /// What became of a read.
    enum ReadOutcome: Equatable {
        case ok
        /// A connection error; `.library`: libnghttp2's own (its GOAWAY may be queued), else
        /// one the caller answers with its own GOAWAY.
        case failed(ConnectionStateMachine.HTTP2Failure)
    }

    /// Feeds received plaintext and says whether the connection survived it.
    func receive(_ bytes: UnsafeBufferPointer<UInt8>) -> ReadOutcome {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .ok }
        let consumed = nghttp2_session_mem_recv(session, base, bytes.count)
        switch consumed {
        case Int(NGHTTP2_ERR_TOO_MANY_CONTINUATIONS.rawValue): flood = flood ?? .continuationFlood
        case Int(NGHTTP2_ERR_FLOODED.rawValue): flood = flood ?? .unreadAcknowledgements
        default: break
        }
        // A HEADERS frame's header and its processing happen in one step of the library: an
        // opening still unclaimed after the read was refused or ignored.
        settleOpening()
        guard consumed < 0 else { return .ok }
        if streamLimitViolated { return .failed(.streamLimit) }
        if let regression = streamIDRegression {
            return .failed(.streamIDWentBack(regression.streamID, highest: regression.highest))
        }
        if let flood { return .failed(.flood(flood)) }
        return .failed(.library)
    }

    /// Whether streams were refused or ended before their request was whole since the last
    /// `takeRefusedStreams`.
    var hasRefusedStreams: Bool { refusedWhenOpened != 0 || refusedWhileReceiving != 0 }

    /// Takes the counts of streams the client opened that never became a request: refused when
    /// opened, and ended while their request was being received.
    func takeRefusedStreams() -> (opening: Int, receiving: Int) {
        defer { (refusedWhenOpened, refusedWhileReceiving) = (0, 0) }
        return (refusedWhenOpened, refusedWhileReceiving)
    }

    /// The connection is gone: streams still being received never become requests (libnghttp2
    /// frees them without closing them one by one).
    func abandonStreamsBeingReceived() {
        settleOpening()
        for (streamID, request) in streams where !request.isHandedOver {
            streams[streamID] = nil
            refusedWhileReceiving += 1
        }
        currentStreamID = 0
        currentStream = nil
    }

    private func settleOpening() {
        if openingStreamID != 0 {
            refusedWhenOpened += 1
            openingStreamID = 0
        }
    }

    /// CONTINUATION frames accepted after one HEADERS frame (libnghttp2's default): a header
    /// block of the largest list the server allows fits in far fewer.
    static let maxContinuations = 8

    /// Whether requests wait to be taken by `takeReadyRequests`.
    var hasReadyRequests: Bool { !ready.isEmpty }

    /// Takes the requests that are ready to be answered into `taken` (emptied by the caller, its
    /// buffer then given back for the next read: no array is allocated per read).
    func takeReadyRequests(into taken: inout [ReadyRequest]) {
        swap(&taken, &ready)
    }

    /// Serializes what the library queued on its own in the last read (SETTINGS ACK,
    /// WINDOW_UPDATE, its GOAWAY on a connection error), ahead of any answer, and keeps the bytes
    /// for the next `collectOutput`. Returns whether a GOAWAY with an error code went out: the
    /// library ended the session, so nothing submitted after it is sent.
    func sendQueuedFrames() -> Bool {
        let before = errorGoAwaysSent
        var bytes = queuedOutput
        queuedOutput = []
        serialize(into: &bytes)
        queuedOutput = bytes
        return errorGoAwaysSent != before
    }

    /// Appends everything nghttp2 wants to send to `output`.
    func collectOutput(into output: inout [UInt8]) {
        if !queuedOutput.isEmpty {
            output.append(contentsOf: queuedOutput)
            queuedOutput.removeAll(keepingCapacity: true)
        }
        serialize(into: &output)
    }

    /// Appends what `nghttp2_session_mem_send` serializes to `output`.
    private func serialize(into output: inout [UInt8]) {
        while true {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            if count <= 0 {
                // A held GOAWAY whose answers went out in this pass goes next.
                if count == 0, !heldGoAways.isEmpty, submitHeldGoAways() { continue }
                return
            }
            output.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        }
    }

    /// Whether the session still wants to read or write; when neither, the connection ends.
    var isActive: Bool { nghttp2_session_want_read(session) != 0 || nghttp2_session_want_write(session) != 0 }

    /// Queues a SETTINGS frame with a new MAX_CONCURRENT_STREAMS.
    func announceMaxConcurrentStreams(_ value: UInt32) {
        var entry = nghttp2_settings_entry(
            settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: value)
        nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &entry, 1)
    }

    /// Queues GOAWAY with `errorCode` and debug data, naming `lastStreamID` (default: the last
    /// stream processed now) as the last stream handled.
    ///
    /// It goes out after every frame submitted before it. libnghttp2 sends its queued HEADERS and
    /// control frames before any DATA, so an answer submitted first would otherwise have its body
    /// follow the GOAWAY: what was submitted is serialized first, and a body that flow control
    /// still holds back keeps the GOAWAY waiting until it is out (or its stream closed). Frames
    /// submitted while it waits may go out before it; the client does not learn of the GOAWAY
    /// (nor libnghttp2 stop taking new streams) until it is sent.
    func goAway(errorCode: UInt32, debugData: [UInt8] = [], lastStreamID: Int32? = nil) {
        let lastStream = lastStreamID ?? nghttp2_session_get_last_proc_stream_id(session)
        var bytes = queuedOutput
        queuedOutput = []
        serialize(into: &bytes)
        queuedOutput = bytes
        let goAway = HeldGoAway(
            errorCode: errorCode, lastStreamID: lastStream, debugData: debugData,
            bodiesBefore: Set(responseBodies.keys))
        if goAway.bodiesBefore.isEmpty && heldGoAways.isEmpty {
            submit(goAway)
        } else {
            heldGoAways.append(goAway)
        }
    }

    /// A GOAWAY waiting for the bodies of answers submitted before it.
    private struct HeldGoAway {
        var errorCode: UInt32
        var lastStreamID: Int32
        var debugData: [UInt8]
        /// Streams whose answer's body had not all gone out when the GOAWAY was asked for.
        var bodiesBefore: Set<Int32>
    }

    /// GOAWAY frames held until the answers submitted before them are out, oldest first.
    private var heldGoAways: [HeldGoAway] = []

    private func submit(_ goAway: HeldGoAway) {
        goAway.debugData.withUnsafeBufferPointer {
            _ = nghttp2_submit_goaway(
                session, UInt8(NGHTTP2_FLAG_NONE.rawValue), goAway.lastStreamID, goAway.errorCode, $0.baseAddress,
                $0.count)
        }
    }

    /// Submits the held GOAWAY frames whose earlier answers are all out; returns whether it did.
    private func submitHeldGoAways() -> Bool {
        var submitted = false
        while var first = heldGoAways.first {
            first.bodiesBefore = first.bodiesBefore.filter { responseBodies[$0] != nil }
            guard first.bodiesBefore.isEmpty else {
                heldGoAways[0] = first
                break
            }
            heldGoAways.removeFirst()
            submit(first)
            submitted = true
        }
        return submitted
    }

    /// Queues RST_STREAM with `errorCode` (an HTTP/2 error code).
    func resetStream(_ streamID: Int32, errorCode: UInt32) {
        _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, errorCode)
    }

    /// Open streams whose request has not been handed over yet (headers or body arriving).
    var streamsBeingReceived: [Int32] {
        streams.filter { !$0.value.isHandedOver }.keys.sorted()
    }

    /// The last stream the session processed (what a default GOAWAY names).
    var lastProcessedStreamID: Int32 { nghttp2_session_get_last_proc_stream_id(session) }

    /// Forgets the closed streams reported (keeping the buffer).
    func clearClosedStreams() { closedStreams.removeAll(keepingCapacity: true) }

    /// Takes the client's GOAWAY and RST_STREAM frames seen so far.
    func takeControlFrames() -> [ControlFrame] {
        defer { controlFrames.removeAll() }
        return controlFrames
    }

    // MARK: answers

    /// Submits a response: HEADERS with END_STREAM when `body` is nil, else HEADERS then one
    /// DATA frame with END_STREAM. `headers` writes the header fields after `:status`.
    func respond(
        streamID: Int32, status: Int, body: [UInt8]?, dataFrames: Int = 1,
        headers: (inout ResponseHeaderWriter) -> Void
    ) {
        var writer = responseHeaderWriter
        responseHeaderWriter = ResponseHeaderWriter()
        writer.removeAll()
        writer.add(":status", status)
        headers(&writer)
        writer.bytes.withUnsafeBufferPointer { buffer in
            Self.nameValuePairs(
                of: writer, written: UnsafeMutablePointer(mutating: buffer.baseAddress), into: &responseHeaderSpans)
            // nghttp2 copies what it must while submitting; the writer is reused afterwards.
            if let body {
                // Split over `dataFrames` frames: at most this many bytes each.
                let frames = max(1, min(dataFrames, body.count))
                responseBodies[streamID] = (body, (body.count + frames - 1) / frames)
                var provider = nghttp2_data_provider()
                provider.read_callback = { _, streamID, buffer, length, flags, _, user in
                    HTTP2ServerSession.with(user) { $0.readBody(streamID, buffer!, length, flags!) }
                }
                _ = nghttp2_submit_response(
                    session, streamID, &responseHeaderSpans, responseHeaderSpans.count, &provider)
            } else {
                _ = nghttp2_submit_response(session, streamID, &responseHeaderSpans, responseHeaderSpans.count, nil)
            }
        }
        responseHeaderWriter = writer
    }

    /// The writer's fields as libnghttp2 takes them. Static names and values are not copied by
    /// libnghttp2 (`NO_COPY_NAME`, `NO_COPY_VALUE`: they live as long as the program); written
    /// values point into `written`, the base of `writer.bytes` (nil when empty).
    private static func nameValuePairs(
        of writer: ResponseHeaderWriter, written: UnsafeMutablePointer<UInt8>?, into spans: inout [nghttp2_nv]
    ) {
        spans.removeAll(keepingCapacity: true)
        for field in writer.fields {
            var flags = UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)
            // A value that changes with every response (an id) would only churn the
            // client's HPACK table: sent as a literal that is never indexed.
            if field.neverIndexed { flags |= UInt8(NGHTTP2_NV_FLAG_NO_INDEX.rawValue) }
            let name = staticBytes(field.name, flags: &flags, noCopy: NGHTTP2_NV_FLAG_NO_COPY_NAME)
            let value: UnsafeMutablePointer<UInt8>
            let valueLength: Int
            if let staticValue = field.staticValue {
                value = staticBytes(staticValue, flags: &flags, noCopy: NGHTTP2_NV_FLAG_NO_COPY_VALUE)
                valueLength = staticValue.utf8CodeUnitCount
            } else if let written {
                value = written + field.valueRange.lowerBound
                valueLength = field.valueRange.count
            } else {
                value = staticBytes("", flags: &flags, noCopy: NGHTTP2_NV_FLAG_NO_COPY_VALUE)
                valueLength = 0
            }
            spans.append(
                nghttp2_nv(
                    name: name, value: value, namelen: field.name.utf8CodeUnitCount, valuelen: valueLength,
                    flags: flags))
        }
    }

    /// A static string's bytes, which live as long as the program: libnghttp2 need not copy them.
    private static func staticBytes(
        _ text: StaticString, flags: inout UInt8, noCopy: nghttp2_nv_flag
    ) -> UnsafeMutablePointer<UInt8> {
        precondition(text.hasPointerRepresentation, "header text must be a string literal")
        flags |= UInt8(noCopy.rawValue)
        return UnsafeMutablePointer(mutating: text.utf8Start)
    }

    private func readBody(
        _ streamID: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ length: Int, _ flags: UnsafeMutablePointer<UInt32>
    ) -> Int {
        guard let entry = responseBodies[streamID] else {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            return 0
        }
        var body = entry.bytes
        let frameLimit = entry.frameLimit
        let count = min(length, frameLimit, body.count)
        if count > 0 { body.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: count) } }
        if count == body.count {
            responseBodies[streamID] = nil
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
        } else {
            body.removeFirst(count)
            responseBodies[streamID] = (body, frameLimit)
        }
        return count
    }

    // MARK: callbacks (collect only)

    /// The stream's request, if it is one being received or answered.
    private func stream(_ streamID: Int32) -> StreamRequest? {
        if streamID == currentStreamID, let currentStream { return currentStream }
        return streams[streamID]
    }

    private func onBeginHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        guard header.type == UInt8(NGHTTP2_HEADERS.rawValue), frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST else {
            return 0
        }
        if header.stream_id == openingStreamID { openingStreamID = 0 }
        let request = spareStreams.popLast() ?? StreamRequest()
        streams[header.stream_id] = request
        currentStreamID = header.stream_id
        currentStream = request
        return 0
    }

    private func onHeader(
        _ frame: UnsafePointer<nghttp2_frame>, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>
    ) -> Int32 {
        guard frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST, let request = stream(frame.pointee.hd.stream_id)
        else { return 0 }
        // RFC 9113 §6.5.2: name + value + 32 octets per field. libnghttp2 1.52 announces
        // MAX_HEADER_LIST_SIZE but does not enforce it; this does.
        request.headerListSize += name.count + value.count + 32
        if request.headerListSize > maxHeaderListSize { request.headerListTooLarge = true }
        if name.first == UInt8(ascii: ":") {
            switch name.count {
            case 5 where ASCIIBytes.equal(name, ":path"):
                request.path = String(decoding: value, as: UTF8.self)
            case 7 where ASCIIBytes.equal(name, ":method"):
                request.method = ASCIIBytes.equal(value, "POST") ? "POST" : String(decoding: value, as: UTF8.self)
            case 10 where ASCIIBytes.equal(name, ":authority"):
                request.authority = String(decoding: value, as: UTF8.self)
            default: break
            }
        } else if !request.headerListTooLarge {
            if name.count == 4, ASCIIBytes.equal(name, "host") { request.host = String(decoding: value, as: UTF8.self) }
            request.headers.append(name: name, value: value)
        }
        return 0
    }

    private func onData(_ streamID: Int32, _ data: UnsafeBufferPointer<UInt8>) -> Int32 {
        guard let request = stream(streamID), !request.isHandedOver else { return 0 }
        let room = APNSPushType.largestPayloadLimit - request.payload.count
        if room > 0 { request.payload.append(contentsOf: data.prefix(room)) }
        request.payloadSize += data.count
        if request.payloadSize > Self.earlyAnswerThreshold { markReady(streamID, request, early: true) }
        return 0
    }

    private func onFrameReceived(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        if header.type == UInt8(NGHTTP2_GOAWAY.rawValue) {
            controlFrames.append(Self.goAway(frame, sent: false))
            return 0
        }
        if header.type == UInt8(NGHTTP2_RST_STREAM.rawValue) {
            controlFrames.append(
                .resetStream(streamID: header.stream_id, errorCode: frame.pointee.rst_stream.error_code, sent: false))
            return 0
        }
        guard header.type == UInt8(NGHTTP2_HEADERS.rawValue) || header.type == UInt8(NGHTTP2_DATA.rawValue),
            header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0,
            let request = stream(header.stream_id), !request.isHandedOver
        else { return 0 }
        markReady(header.stream_id, request, early: false)
        return 0
    }

    /// A frame went out: GOAWAY and RST_STREAM are noted, whoever queued them.
    private func onFrameSent(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        let header = frame.pointee.hd
        if header.type == UInt8(NGHTTP2_RST_STREAM.rawValue) {
            controlFrames.append(
                .resetStream(streamID: header.stream_id, errorCode: frame.pointee.rst_stream.error_code, sent: true))
        } else if header.type == UInt8(NGHTTP2_GOAWAY.rawValue) {
            controlFrames.append(Self.goAway(frame, sent: true))
            if frame.pointee.goaway.error_code != 0 { errorGoAwaysSent += 1 }
        }
        return 0
    }

    private static func goAway(_ frame: UnsafePointer<nghttp2_frame>, sent: Bool) -> ControlFrame {
        let goaway = frame.pointee.goaway
        return .goAway(
            errorCode: goaway.error_code, lastStreamID: goaway.last_stream_id,
            debugData: Array(UnsafeBufferPointer(start: goaway.opaque_data, count: goaway.opaque_data_len)),
            sent: sent)
    }

    private func markReady(_ streamID: Int32, _ request: StreamRequest, early: Bool) {
        request.stage = .ready(streamClosed: false)
        ready.append(ReadyRequest(streamID: streamID, request: request, early: early))
    }

    /// The answer to `request` was submitted (or given up): its object may be reused once the
    /// stream closes.
    func finishAnswer(_ request: StreamRequest) {
        if case .ready(streamClosed: true) = request.stage {
            recycle(request)
        } else {
            request.stage = .handedOver
        }
    }

    /// A frame's header arrived. A client RST_STREAM takes a token of `resetLimit`: none left is
    /// rapid reset. HEADERS on a client stream numbered below the highest one the
    /// client opened, that is neither open nor recently closed, opens a stream out of order:
    /// a connection error (RFC 9113 §5.1.1) the library would let pass.
    private func onBeginFrame(_ header: nghttp2_frame_hd) -> Int32 {
        settleOpening()
        if header.type == UInt8(NGHTTP2_RST_STREAM.rawValue),
            !resetLimit.allowReset(at: nanosecondsSinceStart)
        {
            flood = .rapidReset
            return NGHTTP2_ERR_CALLBACK_FAILURE.rawValue
        }
        guard header.type == UInt8(NGHTTP2_HEADERS.rawValue), header.stream_id & 1 == 1 else { return 0 }
        if header.stream_id > highestOpenedStreamID {
            // A client stream opens: it becomes a request, or is counted as refused.
            highestOpenedStreamID = header.stream_id
            openingStreamID = header.stream_id
        }
        let highest = lastProcessedStreamID
        guard header.stream_id < highest, nghttp2_session_find_stream(session, header.stream_id) == nil,
            !recentlyClosedStreams.contains(header.stream_id)
        else { return 0 }
        streamIDRegression = (header.stream_id, highest)
        return NGHTTP2_ERR_CALLBACK_FAILURE.rawValue
    }

    private func onStreamClose(_ streamID: Int32) -> Int32 {
        if recentlyClosedStreams.count == Self.recentlyClosedLimit { recentlyClosedStreams.removeFirst() }
        recentlyClosedStreams.append(streamID)
        if let request = streams.removeValue(forKey: streamID) {
            if case .receiving = request.stage { refusedWhileReceiving += 1 }
            if case .ready = request.stage {
                // Still in the ready list: recycled once its answer is submitted.
                request.stage = .ready(streamClosed: true)
            } else {
                recycle(request)
            }
        }
        if streamID == currentStreamID {
            currentStreamID = 0
            currentStream = nil
        }
        responseBodies[streamID] = nil
        closedStreams.append(streamID)
        return 0
    }

    /// libnghttp2 found a frame invalid. Request HEADERS that exceed the acknowledged stream
    /// limit come here as NGHTTP2_ERR_PROTO before the library queues its GOAWAY; failing the
    /// callback leaves that GOAWAY unsent (the session is terminated by the caller).
    private func onInvalidFrame(_ frame: UnsafePointer<nghttp2_frame>, error: Int32) -> Int32 {
        let header = frame.pointee.hd
        guard error == NGHTTP2_ERR_PROTO.rawValue, header.type == UInt8(NGHTTP2_HEADERS.rawValue),
            frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST, header.stream_id > lastProcessedStreamID,
            streams.count
                >= Int(nghttp2_session_get_local_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS)),
            replacesStreamLimitGoAway?() == true
        else { return 0 }
        streamLimitViolated = true
        return NGHTTP2_ERR_CALLBACK_FAILURE.rawValue
    }

    private func recycle(_ request: StreamRequest) {
        guard spareStreams.count < Self.spareStreamLimit else { return }
        request.reset()
        spareStreams.append(request)
    }
}
