import APNSMockCore
import APNSMockRegistry
import Logging

/// GOAWAY and RST_STREAM frames that crossed a connection, either way (libnghttp2's own too), as
/// the connection log keeps them (`goawaySent`, `goawayReceived`, `streamReset` with who sent
/// it); a GOAWAY the server sent is logged at `info` too.
enum ControlFrameLog {
    static func note(
        _ frames: [HTTP2ServerSession.ControlFrame], connection: UInt64, log: ConnectionLog, now: Int64,
        logger: Logger
    ) {
        for frame in frames {
            switch frame {
            case .goAway(let errorCode, let lastStreamID, let debugData, let sent):
                if sent {
                    logger.info(
                        "GOAWAY: \(String(decoding: debugData, as: UTF8.self))",
                        metadata: ["apnsmock.error": "\(HTTP2ErrorCode(errorCode))"])
                }
                log.note(
                    connection, at: now,
                    .goAway(
                        sentBy: sent ? .server : .client, errorCode: HTTP2ErrorCode(errorCode),
                        lastStreamID: lastStreamID, debug: String(decoding: debugData, as: UTF8.self)))
            case .resetStream(let streamID, let errorCode, let sent):
                log.note(
                    connection, at: now,
                    .streamReset(by: sent ? .server : .client, streamID: streamID, errorCode: HTTP2ErrorCode(errorCode))
                )
            }
        }
    }
}
