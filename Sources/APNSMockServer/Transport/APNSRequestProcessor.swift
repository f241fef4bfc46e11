import APNSMockCore

/// Turns a ready request into an answer and a record: the one place where the rules, the id
/// generator and the store meet. Transport-free, so the HTTP/2 tests drive it without sockets.
struct APNSRequestProcessor {
    let context: APNSListenerContext
    let connectionID: UInt64
    var random = FastRandom()

    /// The answer for one request.
    struct Answer {
        var status: Int
        var headers: [(String, String)]
        var body: [UInt8]?
    }

    init(context: APNSListenerContext, connectionID: UInt64) {
        self.context = context
        self.connectionID = connectionID
    }

    mutating func answer(
        _ ready: ReadyRequest, serverName: String?, receivedAt: Int64
    ) -> Answer {
        let parts = ready.request
        let authority = parts.authority ?? parts.host
        let environment = context.environmentMode.resolve(serverName: serverName, authority: authority)
        let headers = parts.headers.map { HTTPHeaderField(name: $0.name, value: $0.value) }
        let request = APNSRequest(
            method: parts.method, path: parts.path, authority: authority, headers: headers,
            payload: parts.payload, payloadSize: parts.payloadSize, headerListTooLarge: parts.headerListTooLarge)
        let verdict = context.rules.evaluate(request, context: ConnectionContext(environment: environment))
        let sentID = request.header("apns-id")
        let echo = sentID.map(APNSMessageID.isValid) ?? false
        let apnsID = echo ? sentID! : APNSMessageID.generate(using: &random)
        var uniqueID: String?
        let answer: Answer
        if verdict.isAccepted {
            var responseHeaders = [("apns-id", apnsID)]
            if environment == .sandbox {
                let id = APNSMessageID.generate(using: &random).lowercased()
                uniqueID = id
                responseHeaders.append(("apns-unique-id", id))
            }
            answer = Answer(status: 200, headers: responseHeaders, body: nil)
        } else {
            let reason = verdict.reason ?? .internalServerError
            answer = Answer(
                status: verdict.status,
                headers: [("content-type", "application/json"), ("apns-id", apnsID)],
                body: APNSErrorBody.encode(reason: reason))
        }
        let topic = request.header("apns-topic")
        context.store.append(
            DeliveryDraft(
                receivedAt: receivedAt, respondedAt: context.now(), connectionID: connectionID,
                streamID: ready.streamID, environment: environment, method: request.method, path: request.path,
                authority: authority, headers: headers, deviceToken: verdict.deviceToken, topic: topic,
                pushType: verdict.pushType, apnsID: apnsID, apnsIDGenerated: !echo, uniqueID: uniqueID,
                payload: request.payload, payloadSize: request.payloadSize, status: verdict.status,
                reason: verdict.reason))
        return answer
    }
}
