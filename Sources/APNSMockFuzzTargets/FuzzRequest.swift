import APNSMockCore

/// A request and the connection it arrived on, read from fuzz bytes.
///
/// Layout: one byte of flags, then text as on the wire of HTTP/1 (`METHOD PATH`, then `name:
/// value` lines, then an empty line, then the body bytes). A `:authority` line sets the
/// authority. Header bytes go into the `HeaderBlock` as the transport puts them (any bytes).
///
/// Flags: bit 0 production, bits 1–2 authentication (0 token, 1 a connection that already
/// accepted `FuzzFixtures.providerToken`, 2 a single-topic certificate, 3 a multi-topic
/// certificate that did not verify), bit 3 strict payload, bit 4 strict registry, bit 5 the
/// channel-management service, bit 6 a 256-byte payload limit, bit 7 a header list over the limit.
struct FuzzRequest {
    var request: APNSRequest
    var context: ConnectionContext
    var rules: ServiceRules
    var service: APNSService

    init(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        let flags = input.byte()
        let requestLine = input.line()
        let space = requestLine.firstIndex(of: UInt8(ascii: " ")) ?? requestLine.endIndex
        let method = FuzzInput.text(requestLine[..<space])
        let path = FuzzInput.text(requestLine[space...].dropFirst())
        var authority: String?
        var block = HeaderBlock()
        while !input.isAtEnd {
            let line = input.line()
            if line.isEmpty { break }
            let colon = line.dropFirst().firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
            let name = line[..<colon]
            var value = line[colon...].dropFirst()
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
            if name.elementsEqual(":authority".utf8) {
                authority = FuzzInput.text(value)
                continue
            }
            name.withContiguousStorageIfAvailable { name in
                value.withContiguousStorageIfAvailable { value in block.append(name: name, value: value) }
            }
        }
        let body = input.rest()
        request = APNSRequest(
            method: method, path: path, authority: authority, headerBlock: block,
            payload: Array(body.prefix(APNSPushType.largestPayloadLimit)), payloadSize: body.count,
            headerListTooLarge: flags & 0x80 != 0)

        let authentication: AuthenticationMode
        var authState = ConnectionAuthState()
        switch (flags >> 1) & 3 {
        case 0:
            authentication = .token
        case 1:
            authentication = .token
            authState = FuzzFixtures.establishedAuthState
        case 2:
            authentication = .certificate(
                CertificateIdentity(
                    subject: "UID=\(FuzzFixtures.topic)", topics: [FuzzFixtures.topic],
                    bundleID: FuzzFixtures.topic, environment: .both))
        default:
            authentication = .certificate(
                CertificateIdentity(
                    subject: "UID=\(FuzzFixtures.topic)",
                    topics: [FuzzFixtures.topic, FuzzFixtures.topic + ".voip", FuzzFixtures.topic + ".complication"],
                    bundleID: FuzzFixtures.topic, environment: .sandbox, verificationError: "certificate has expired"))
        }
        context = ConnectionContext(
            environment: flags & 1 != 0 ? .production : .sandbox, authentication: authentication,
            authState: authState, registry: FuzzFixtures.registry, now: FuzzFixtures.now)
        rules = ServiceRules(
            policy: ValidationPolicy(
                strictPayload: flags & 0x08 != 0, strictRegistry: flags & 0x10 != 0,
                payloadAnalysis: PayloadAnalysisOptions(payloadLimit: flags & 0x40 != 0 ? 256 : nil)))
        service = flags & 0x20 != 0 ? .channelManagement : .push
    }
}
