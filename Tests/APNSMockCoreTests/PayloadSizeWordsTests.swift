import APNSMockCore
import Testing

/// A 413's detail gives the payload's size as the request declares it, not the bytes the mock
/// had read when it answered (a 3 MB body is answered after its first 64 KB or so).
@Suite struct PayloadSizeWordsTests {
    @Test func aDeclaredContentLengthIsTheSize() {
        var builder = RequestBuilder()
        builder.payloadSize = 76_899
        builder.payloadComplete = false
        builder.extraHeaders = [HTTPHeaderField(name: "content-length", value: "3145728")]
        let detail = builder.evaluate().detail ?? ""
        #expect(
            detail.hasPrefix("the payload is 3145728 bytes (content-length); alert pushes may have at most 4096"),
            "\(detail)")
    }

    @Test func withoutContentLengthAnEarlyAnswerSaysMoreThan() {
        var builder = RequestBuilder()
        builder.payloadSize = 76_899
        builder.payloadComplete = false
        let detail = builder.evaluate().detail ?? ""
        #expect(detail.hasPrefix("the payload is more than 76899 bytes (answered before the body's end)"), "\(detail)")
    }

    @Test func aWholeBodyIsItsSize() {
        var builder = RequestBuilder()
        builder.payload = RequestBuilder.jsonPayload(size: 4097)
        let detail = builder.evaluate().detail ?? ""
        #expect(detail.hasPrefix("the payload is 4097 bytes; alert pushes may have at most 4096"), "\(detail)")
    }
}
