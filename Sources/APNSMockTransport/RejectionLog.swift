import APNSMockCore
import Logging
import NIOConcurrencyHelpers

/// One `notice` log line per rejected request, saying Apple's reason and the mock's `detail`,
/// at most `linesPerSecond` a second across the server so that a load test of rejections does
/// not flood the log: the lines left out are counted and the next line that goes out says how
/// many. Shared by every connection of the listeners.
///
/// Thread-safe: its window is behind a lock taken only for a rejection, never for a success.
final class RejectionLog: Sendable {
    /// The most lines a second.
    let linesPerSecond: Int
    private let window = NIOLockedValueBox(Window())

    private struct Window {
        var second: Int64 = -1
        var written = 0
        var leftOut = 0
    }

    init(linesPerSecond: Int = 10) {
        self.linesPerSecond = linesPerSecond
    }

    /// Logs the rejection of a request recorded as `apnsID` on `connectionID`, unless this
    /// second's lines are used up. `now` is epoch milliseconds.
    func note(
        status: Int?, reason: APNSReason?, detail: String?, kind: RecordKind, apnsID: String, connectionID: UInt64,
        now: Int64, logger: Logger
    ) {
        let leftOut: Int? = window.withLockedValue { window in
            let second = now / 1000
            if second != window.second {
                window.second = second
                window.written = 0
            }
            guard window.written < linesPerSecond else {
                window.leftOut += 1
                return nil
            }
            window.written += 1
            defer { window.leftOut = 0 }
            return window.leftOut
        }
        guard let leftOut else { return }
        var metadata: Logger.Metadata = [
            "apnsmock.connection.id": "\(connectionID)", "apnsmock.apns.id": "\(apnsID)", "apnsmock.kind": "\(kind)",
        ]
        if leftOut > 0 { metadata["apnsmock.rejections.not_logged"] = "\(leftOut)" }
        let answer = status.map { "\($0) " } ?? "GOAWAY "
        logger.notice(
            "rejected: \(answer)\(reason?.rawValue ?? "") — \(detail ?? "no detail")", metadata: metadata)
    }
}
