import NIOCore
import NIOHTTP1

/// The channel handler of one `AdminAPIClient` call: sends the request when the connection is
/// up, collects the answer (head, body parts, end) and completes `promise` once: with the
/// answer, or with why there is none (timeout, early close, bytes that are not HTTP).
final class AdminAPIResponseReader: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let request: HTTPRequestHead
    private let body: [UInt8]
    private let timeout: TimeAmount
    private let promise: EventLoopPromise<AdminAPIResponse>
    private var head: HTTPResponseHead?
    private var collected: [UInt8] = []
    private var finished = false
    private var deadline: Scheduled<Void>?

    init(request: HTTPRequestHead, body: [UInt8], timeout: TimeAmount, promise: EventLoopPromise<AdminAPIResponse>) {
        self.request = request
        self.body = body
        self.timeout = timeout
        self.promise = promise
    }

    func channelActive(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: timeout) {
            let (reader, context) = loopBound.value
            reader.finish(.failure(AdminAPIClientError.timedOut(seconds: reader.timeout.nanoseconds / 1_000_000_000)))
            context.close(promise: nil)
        }
        context.write(wrapOutboundOut(.head(request)), promise: nil)
        if !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            // An informational answer (1xx) is not the answer.
            guard head.status.code >= 200 else { return }
            self.head = head
        case .body(var buffer):
            collected += buffer.readBytes(length: buffer.readableBytes) ?? []
        case .end:
            guard let head else { return }
            finish(
                .success(
                    AdminAPIResponse(
                        status: Int(head.status.code), headers: head.headers.map { (name: $0.name, value: $0.value) },
                        body: collected)))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(.failure(AdminAPIClientError.malformed(from: error)))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(.failure(AdminAPIClientError.closedEarly(gotHead: head != nil)))
        context.fireChannelInactive()
    }

    private func finish(_ result: Result<AdminAPIResponse, any Error>) {
        guard !finished else { return }
        finished = true
        deadline?.cancel()
        promise.completeWith(result)
    }
}
