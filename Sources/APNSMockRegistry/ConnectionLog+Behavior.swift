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
                switch event.event {
                case .settingsSent(let settings):
                    result.maxConcurrentStreams = max(
                        result.maxConcurrentStreams ?? 0, Int(settings.maxConcurrentStreams))
                case .streamReset(by: .server, _, errorCode: .refusedStream):
                    result.refusedStreams += 1
                default:
                    break
                }
            }
            return result
        }
    }
}
