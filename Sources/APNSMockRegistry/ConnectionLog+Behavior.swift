import APNSMockCore

extension ConnectionLog {
    /// What the provider-behaviour report needs of the logged connections: open and close
    /// times, the largest MAX_CONCURRENT_STREAMS announced (`settingsSent`), and the
    /// RST_STREAM REFUSED_STREAM frames the server sent (`streamReset` by the server).
    public func behaviorConnections() -> [BehaviorConnection] {
        connections().map { connection in
            var result = BehaviorConnection(
                id: connection.id, openedAt: connection.openedAt, closedAt: connection.closedAt)
            for event in connection.events {
                switch event.kind {
                case "settingsSent":
                    if let value = event.value("maxConcurrentStreams"), case .number(let limit, _) = value {
                        result.maxConcurrentStreams = max(result.maxConcurrentStreams ?? 0, Int(limit))
                    }
                case "streamReset":
                    if event.value("by") == .string("server"),
                        event.value("errorCode") == .string(HTTP2ErrorCode.refusedStream.description)
                    {
                        result.refusedStreams += 1
                    }
                default:
                    break
                }
            }
            return result
        }
    }
}

extension ConnectionLog.Event {
    /// The detail named `key`, if the event has it.
    func value(_ key: String) -> JSONValue? { details.first { $0.key == key }?.value }
}
