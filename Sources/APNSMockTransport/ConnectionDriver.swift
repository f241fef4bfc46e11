import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Logging

/// What an `APNSSession` needs from the connection around it: timers and closing. The
/// connection handler implements it on its event loop; tests implement it by hand.
protocol ConnectionDriver: AnyObject {
    /// Calls the session's `timerFired(streamID:)` after `milliseconds`.
    func startTimer(streamID: Int32, milliseconds: Int64)
    func cancelTimer(streamID: Int32)
    /// Closes the connection, once what is queued has been sent (`afterFlush`) or at once.
    func closeConnection(afterFlush: Bool)
}
