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
    /// Handed to the processor (or answered early); later DATA is read and dropped.
    var answered = false
    /// In the ready list, not yet answered.
    var awaitingAnswer = false
    /// nghttp2 closed the stream.
    var closed = false

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
        answered = false
        awaitingAnswer = false
        closed = false
    }
}
