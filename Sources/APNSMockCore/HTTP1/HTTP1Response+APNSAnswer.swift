extension HTTP1Response {
    /// `answer` as an HTTP/1.1 response (a Web Push connection without ALPN h2): the header
    /// fields an HTTP/2 answer carries, in lower case, and its body. A fault rule's `dataFrames`
    /// has no HTTP/1.1 counterpart: the body goes out whole.
    public init(_ answer: APNSAnswer) {
        var headers: [HTTPHeaderField] = []
        if answer.body != nil { headers.append(HTTPHeaderField(name: "content-type", value: "application/json")) }
        headers.append(HTTPHeaderField(name: answer.idHeader.name, value: answer.apnsID.text))
        if let uniqueID = answer.uniqueID {
            headers.append(HTTPHeaderField(name: "apns-unique-id", value: uniqueID.text))
        }
        if let channelID = answer.channelID {
            headers.append(HTTPHeaderField(name: "apns-channel-id", value: channelID))
        }
        self.init(status: answer.status, headers: headers, body: answer.body ?? [])
    }
}
