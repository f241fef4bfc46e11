import APNSMockCore
import APNSMockRegistry
import APNSMockStore
private import CNGHTTP2

/// A request whose headers (and body, or enough of it) have arrived and which waits for its
/// answer.
struct ReadyRequest {
    var streamID: Int32
    /// The stream's collected parts; owned by the session, valid until the answer is submitted.
    var request: StreamRequest
    /// The body outgrew one flow-control window before END_STREAM: the answer goes out now and
    /// the rest of the body is read and discarded.
    var early: Bool
}
