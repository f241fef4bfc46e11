import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Logging

/// What an `APNSSession` needs from the connection around it while it performs a step: timers.
/// (A close is the step's result, which the caller performs after the step.) The connection
/// handler implements it on its event loop; tests implement it by hand.
protocol ConnectionDriver: AnyObject {
    /// Calls the session's `timerFired(streamID:)` after `milliseconds`.
    func startTimer(streamID: Int32, milliseconds: Int64)
    func cancelTimer(streamID: Int32)
}
