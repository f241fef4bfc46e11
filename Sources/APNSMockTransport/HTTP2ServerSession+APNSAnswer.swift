import APNSMockCore

extension HTTP2ServerSession {
    /// Submits `answer` on `streamID`: `:status`, the JSON body's `content-type`, `apns-id` (or
    /// `apns-request-id`), `apns-unique-id` and `apns-channel-id` when the answer has them, and
    /// the body over the answer's `dataFrames`.
    func respond(streamID: Int32, _ answer: APNSAnswer) {
        respond(streamID: streamID, status: answer.status, body: answer.body, dataFrames: answer.dataFrames) {
            headers in
            if answer.body != nil { headers.add("content-type", "application/json") }
            switch answer.idHeader {
            case .apnsID: headers.add("apns-id", answer.apnsID, neverIndexed: true)
            case .requestID: headers.add("apns-request-id", answer.apnsID, neverIndexed: true)
            }
            if let uniqueID = answer.uniqueID { headers.add("apns-unique-id", uniqueID, neverIndexed: true) }
            if let channelID = answer.channelID {
                headers.add("apns-channel-id", string: channelID, neverIndexed: true)
            }
        }
    }
}
