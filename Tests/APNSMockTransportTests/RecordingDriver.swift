import Testing

@testable import APNSMockTransport

/// A `ConnectionDriver` that records what its session asks for (timers) instead of doing it,
/// with the closes its steps return (`recordClose`), and fires a timer when a test says so
/// (`fire(_:)`), as the event loop would once its delay had run out: tests of delayed streams
/// need no clock and no sleep.
///
/// A close after a flush collects what the session has queued first, as the connection
/// handler does after the step; those bytes are the client's (`takeFlushedOutput()`, which
/// `InProcessConnection.pump` delivers before anything collected later).
///
/// Not thread-safe: one test, one thread.
final class RecordingDriver: ConnectionDriver {
    /// One request of the session, in the order it came.
    enum Call: Equatable {
        case startTimer(streamID: Int32, milliseconds: Int64)
        case cancelTimer(streamID: Int32)
        /// A step asked to close; `flushed`: the frames the session had queued when it asked
        /// to close after a flush (none for a close at once, which sends nothing more).
        case closeConnection(afterFlush: Bool, flushed: [ServerFrame])
    }

    /// The session whose timers fire; it holds this driver weakly.
    weak var session: APNSSession?
    /// Every request so far.
    private(set) var calls: [Call] = []
    /// Streams whose timer was started and has neither fired nor been cancelled.
    private(set) var runningTimers: Set<Int32> = []
    /// Bytes collected for a close after a flush, not yet taken for the client.
    private var flushedOutput: [UInt8] = []

    func startTimer(streamID: Int32, milliseconds: Int64) {
        calls.append(.startTimer(streamID: streamID, milliseconds: milliseconds))
        runningTimers.insert(streamID)
    }

    func cancelTimer(streamID: Int32) {
        calls.append(.cancelTimer(streamID: streamID))
        runningTimers.remove(streamID)
    }

    /// Records the close a session step returned, if any, doing what the handler does with it.
    func recordClose(_ close: APNSSession.StepClose?) {
        guard let close else { return }
        let afterFlush = close == .afterFlush
        var flushed: [UInt8] = []
        if afterFlush { session?.collectOutput(into: &flushed) }
        flushedOutput += flushed
        calls.append(.closeConnection(afterFlush: afterFlush, flushed: ServerFrame.frames(in: flushed)))
    }

    /// The delay of `streamID` has run out: its timer must be running (the event loop fires no
    /// other), and the session is told.
    func fire(_ streamID: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        guard runningTimers.remove(streamID) != nil else {
            Issue.record("no timer runs for stream \(streamID)", sourceLocation: sourceLocation)
            return
        }
        recordClose(session?.timerFired(streamID: streamID))
    }

    /// The bytes a close after a flush collected, for the client; empties them.
    func takeFlushedOutput() -> [UInt8] {
        defer { flushedOutput = [] }
        return flushedOutput
    }
}
