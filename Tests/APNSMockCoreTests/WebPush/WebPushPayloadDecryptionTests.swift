import APNSMockCore
import Crypto
import Testing

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `WebPushPayloadDecryption`: RFC 8291's example, then one defect per test, each of which a
/// decryptor without that check would report as something else (or not at all).
@Suite("WebPushPayloadDecryption: RFC 8291 messages and what is wrong with the others")
struct WebPushPayloadDecryptionTests {
    let keys = RFC8291Example.keys

    func decrypt(_ body: [UInt8], with keys: WebPushSubscriptionKeys? = nil)
        -> Result<[UInt8], WebPushDecryptionProblem>
    {
        WebPushPayloadDecryption.decrypt(body, with: keys ?? self.keys)
    }

    func problem(_ body: [UInt8], with keys: WebPushSubscriptionKeys? = nil) -> WebPushDecryptionProblem? {
        guard case .failure(let problem) = decrypt(body, with: keys) else { return nil }
        return problem
    }

    /// The RFC example with byte `index` set to `value`.
    func example(setting index: Int, to value: UInt8) -> [UInt8] {
        var body = RFC8291Example.body
        body[index] = value
        return body
    }

    /// The RFC example with the record size `recordSize`.
    func example(recordSize: UInt32) -> [UInt8] {
        var body = RFC8291Example.body
        body.replaceSubrange(16..<20, with: withUnsafeBytes(of: recordSize.bigEndian) { Array($0) })
        return body
    }

    @Test("RFC 8291 Appendix A: the example message decrypts to its plaintext")
    func rfcExample() throws {
        #expect(RFC8291Example.body.count == 144)
        #expect(try decrypt(RFC8291Example.body).get() == Array(RFC8291Example.plaintext.utf8))
    }

    @Test("The test encryptor reproduces RFC 8291 Appendix A byte for byte, so its other messages are trustworthy")
    func encryptorMatchesTheRFC() throws {
        var message = WebPushTestMessage(RFC8291Example.plaintext)
        message.salt = RFC8291Example.bytes(RFC8291Example.salt)
        message.senderKey = try P256.KeyAgreement.PrivateKey(
            rawRepresentation: RFC8291Example.bytes(RFC8291Example.applicationServerPrivateKey))
        #expect(message.encrypt(for: keys) == RFC8291Example.body)
    }

    @Test("A message for freshly generated keys, with padding after the delimiter, decrypts")
    func generatedKeysAndPadding() throws {
        let fresh = WebPushSubscriptionKeys.generate()
        var message = WebPushTestMessage(#"{"title":"Hi"}"#)
        message.paddingLength = 100
        #expect(try decrypt(message.encrypt(for: fresh), with: fresh).get() == Array(#"{"title":"Hi"}"#.utf8))
        // An empty plaintext (the delimiter alone) is a valid message too.
        #expect(try decrypt(WebPushTestMessage("").encrypt(for: fresh), with: fresh).get() == [])
    }

    @Test("A record exactly rs bytes long is accepted, as Chromium and http_ece accept it (mock's choice)")
    func recordAsLongAsRecordSize() throws {
        #expect(try decrypt(example(recordSize: 58)).get() == Array(RFC8291Example.plaintext.utf8))
    }

    // MARK: The header (RFC 8188 §2.1, RFC 8291 §4)

    @Test("A body shorter than the fixed header (21 bytes) → bodyShorterThanHeader")
    func shorterThanFixedHeader() {
        #expect(
            problem(Array(RFC8291Example.body.prefix(20))) == .bodyShorterThanHeader(bodyLength: 20, headerLength: 21))
        #expect(problem([]) == .bodyShorterThanHeader(bodyLength: 0, headerLength: 21))
    }

    @Test("A body cut inside the keyid → bodyShorterThanHeader naming the 86-byte header")
    func cutInsideKeyID() {
        #expect(
            problem(Array(RFC8291Example.body.prefix(60))) == .bodyShorterThanHeader(bodyLength: 60, headerLength: 86))
    }

    @Test("rs 17 → recordSizeBelowMinimum (RFC 8188 §2.1: below 18 is invalid)")
    func recordSizeSeventeen() {
        #expect(problem(example(recordSize: 17)) == .recordSizeBelowMinimum(recordSize: 17))
        #expect(problem(example(recordSize: 0)) == .recordSizeBelowMinimum(recordSize: 0))
    }

    @Test("rs 18 under a 58-byte record → recordSizeSmallerThanRecord (RFC 8291 §4: rs larger than the record)")
    func recordSizeSmallerThanTheRecord() {
        #expect(problem(example(recordSize: 18)) == .recordSizeSmallerThanRecord(recordSize: 18, recordLength: 58))
        #expect(problem(example(recordSize: 57)) == .recordSizeSmallerThanRecord(recordSize: 57, recordLength: 58))
    }

    @Test("idlen 64 → keyIDLength (RFC 8291 §4: the keyid is the 65-byte server key)")
    func keyIDSixtyFourBytes() {
        #expect(problem(example(setting: 20, to: 64)) == .keyIDLength(64))
        #expect(problem(example(setting: 20, to: 0)) == .keyIDLength(0))
    }

    @Test("A keyid that is a compressed-point prefix or off the curve → keyIDNotUncompressedPoint")
    func keyIDNotAPoint() {
        #expect(problem(example(setting: 21, to: 0x02)) == .keyIDNotUncompressedPoint(firstByte: 0x02))
        // Changing the last byte of Y moves the point off the curve.
        let offCurve = example(setting: 85, to: RFC8291Example.body[85] ^ 0x01)
        #expect(problem(offCurve) == .keyIDNotUncompressedPoint(firstByte: 0x04))
    }

    @Test("The subscription's own key (p256dh) as keyid → keyIDIsSubscriptionKey")
    func keyIDIsTheSubscriptionsKey() {
        var message = WebPushTestMessage("hello")
        message.keyID = keys.publicKeyBytes
        #expect(problem(message.encrypt(for: keys)) == .keyIDIsSubscriptionKey)
    }

    // MARK: The record

    @Test("A body that stops after the header, or inside the tag → recordTooShort")
    func truncatedRecord() {
        #expect(problem(Array(RFC8291Example.body.prefix(86))) == .recordTooShort(length: 0))
        #expect(problem(Array(RFC8291Example.body.prefix(96))) == .recordTooShort(length: 10))
    }

    @Test("The last byte cut off → authenticationFailed")
    func lastByteCutOff() {
        #expect(problem(Array(RFC8291Example.body.dropLast())) == .authenticationFailed)
    }

    @Test("One flipped byte in the ciphertext, the tag or the salt → authenticationFailed")
    func flippedByte() {
        for index in [0, 86, 100, 143] {
            let body = example(setting: index, to: RFC8291Example.body[index] ^ 0x80)
            #expect(problem(body) == .authenticationFailed, "byte \(index)")
        }
    }

    @Test("The right private key with another auth secret → authenticationFailed")
    func wrongAuthSecret() throws {
        let otherAuth = try #require(
            WebPushSubscriptionKeys(privateKey: keys.privateKey, authSecret: [UInt8](repeating: 7, count: 16)))
        #expect(problem(RFC8291Example.body, with: otherAuth) == .authenticationFailed)
    }

    @Test("Another subscription's keys → authenticationFailed, with the sentence the brief asks for")
    func otherSubscription() {
        let found = problem(RFC8291Example.body, with: .generate())
        #expect(found == .authenticationFailed)
        #expect(
            found?.explanation
                == "decryption failed: the message was not encrypted for this subscription's keys (p256dh/auth), or was altered"
        )
    }

    @Test("Two records → multipleRecords (RFC 8291 §4: a push message is one record)")
    func twoRecords() {
        var message = WebPushTestMessage(String(repeating: "x", count: 40))
        message.recordSize = 40
        message.recordCount = 2
        let body = message.encrypt(for: keys)
        #expect(body.count == 86 + 40 + (40 - 23 + 1 + 16))
        #expect(problem(body) == .multipleRecords(recordSize: 40, count: 2))
    }

    // MARK: The padding (RFC 8188 §2)

    @Test("No delimiter after the plaintext → noPaddingDelimiter naming the last byte")
    func noDelimiter() {
        var message = WebPushTestMessage("hello")
        message.lastDelimiter = nil
        #expect(problem(message.encrypt(for: keys)) == .noPaddingDelimiter(lastByte: UInt8(ascii: "o")))
    }

    @Test("Only zeros (no delimiter, padding alone) → noPaddingDelimiter(nil)")
    func onlyZeros() {
        var message = WebPushTestMessage("")
        message.lastDelimiter = nil
        message.paddingLength = 8
        #expect(problem(message.encrypt(for: keys)) == .noPaddingDelimiter(lastByte: nil))
    }

    @Test("A non-zero byte in the padding after 0x02 → noPaddingDelimiter")
    func nonZeroPadding() {
        var message = WebPushTestMessage("hi")
        message.plaintext += [0x02, 0x00, 0x07]
        message.lastDelimiter = nil
        #expect(problem(message.encrypt(for: keys)) == .noPaddingDelimiter(lastByte: 0x07))
    }

    @Test("The delimiter 0x01 of a record that is not the last → notLastRecordDelimiter")
    func notLastDelimiter() {
        var message = WebPushTestMessage("hello")
        message.lastDelimiter = 0x01
        #expect(problem(message.encrypt(for: keys)) == .notLastRecordDelimiter)
    }

    @Test("Every problem has a code and a one-sentence explanation")
    func explanations() {
        let problems: [WebPushDecryptionProblem] = [
            .bodyShorterThanHeader(bodyLength: 3, headerLength: 21), .recordSizeBelowMinimum(recordSize: 17),
            .keyIDLength(64), .keyIDNotUncompressedPoint(firstByte: 3), .keyIDIsSubscriptionKey,
            .recordTooShort(length: 0), .recordTooShort(length: 9),
            .recordSizeSmallerThanRecord(recordSize: 18, recordLength: 58), .multipleRecords(recordSize: 40, count: 2),
            .authenticationFailed, .noPaddingDelimiter(lastByte: 0x6F), .noPaddingDelimiter(lastByte: nil),
            .notLastRecordDelimiter,
        ]
        #expect(Set(problems.map(\.code)).count == 11)
        for problem in problems {
            #expect(!problem.explanation.isEmpty && !problem.explanation.contains("\n"))
            #expect(!problem.explanation.hasSuffix("."), "a detail is a clause, as the mock's other details")
        }
        #expect(WebPushDecryptionProblem.keyIDNotUncompressedPoint(firstByte: 3).explanation.contains("0x03"))
    }
}
