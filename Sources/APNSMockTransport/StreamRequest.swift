import APNSMockCore
import APNSMockRegistry
import APNSMockStore
private import CNGHTTP2

/// The parts of one request as they arrive (see `HTTP2ServerSession.streams`). Reused for later
/// streams of the connection once answered and closed, buffers and all.
final class StreamRequest {
    var method = ""
    var path = ""
    var authority: String?
    var host: String?
    var headers = HeaderBlock()
    var headerListSize = 0
    var headerListTooLarge = false
    var payload: [UInt8] = []
    var payloadSize = 0
    /// Where the request is in its life on the session; the object is recycled when its stream
    /// has closed and its answer no longer needs it.
    var stage = Stage.receiving

    /// A request's life on the session: received, handed over in the ready list, answered.
    /// (What its answer is and whether it waits is the connection state machine's business.)
    enum Stage {
        /// Headers or body arriving.
        case receiving
        /// Whole (or past the early-answer threshold), in the ready list: later DATA is read and
        /// dropped. `streamClosed`: the stream closed meanwhile, so the object is recycled once
        /// the answer is submitted.
        case ready(streamClosed: Bool)
        /// The answer was submitted (or given up); recycled when the stream closes.
        case handedOver
    }

    /// Whether the request was handed over (ready or answered): later DATA is dropped.
    var isHandedOver: Bool {
        if case .receiving = stage { return false }
        return true
    }

    func reset() {
        method = ""
        path = ""
        authority = nil
        host = nil
        headers.removeAll()
        headerListSize = 0
        headerListTooLarge = false
        payload.removeAll(keepingCapacity: true)
        payloadSize = 0
        stage = .receiving
    }
}
