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
                    connection,
                    .init(
                        at: now, kind: sent ? "goawaySent" : "goawayReceived",
                        details: [
                            ("errorCode", .string(HTTP2ErrorCode(errorCode).description)),
                            ("lastStreamId", .integer(Int64(lastStreamID))),
                            ("debug", .string(String(decoding: debugData, as: UTF8.self))),
                        ]))
            case .resetStream(let streamID, let errorCode, let sent):
                log.note(
                    connection,
                    .init(
                        at: now, kind: "streamReset",
                        details: [
                            ("by", .string(sent ? "server" : "client")), ("streamId", .integer(Int64(streamID))),
                            ("errorCode", .string(HTTP2ErrorCode(errorCode).description)),
                        ]))
            }
        }
    }
}
