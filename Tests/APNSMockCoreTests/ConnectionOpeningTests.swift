import Testing

@testable import APNSMockCore

/// The connection's state machine before it serves streams: the client's first bytes (TLS or
/// cleartext), the handshake, the HTTP/2 client preface, and why a connection closed. The
/// transport only moves bytes; these decisions are the machine's.
@Suite struct ConnectionOpeningTests {
    typealias Machine = ConnectionStateMachine
    static let preface = ClientGreeting.http2Preface

    static func accepted(authStreamLimit: Bool = false) -> Machine {
        Machine(configuredStreams: 1000, authStreamLimit: authStreamLimit)
    }

    static func plaintext(_ machine: inout Machine, _ bytes: [UInt8]) -> Machine.OnPlaintext {
        bytes.withUnsafeBufferPointer { machine.plaintextReceived($0) }
    }

    @Test(arguments: [
        ([0x16, 0x03, 0x01], ClientGreeting.tls),
        ([0x16], .tls),
        (Array("POST /3/device/abcd HTTP/1.1\r\n".utf8), .plaintext),
        (Array("GET / HTTP/1.1\r\n".utf8), .plaintext),
        (Array("G".utf8), .plaintext),
        (Array("P".utf8), .undecided),
        (Array("PRI * HTTP/2.0\r\n".utf8), .undecided),
        (Array("PRI * HTTP/1.1\r\n".utf8), .plaintext),
        (preface, .cleartextHTTP2),
        (preface + [0, 0, 0, 4, 0, 0, 0, 0, 0], .cleartextHTTP2),
        ([0x00, 0x01, 0x02], .plaintext),
        ([0x15, 0x03, 0x03], .plaintext),
    ])
    func greetingIsClassified(_ bytes: [UInt8], _ expected: ClientGreeting) {
        #expect(ClientGreeting(bytes) == expected)
    }

    @Test func aTLSClientGoesThroughHandshakeAndPrefaceToServing() {
        var machine = Self.accepted()
        #expect(machine.phaseName == "greeting")
        #expect(machine.inbound == .greeting)
        #expect(machine.greetingReceived(.undecided) == .readMore)
        #expect(machine.greetingReceived(.tls) == .startTLS)
        #expect(machine.inbound == .handshake)
        #expect(machine.mayWriteHTTP2 == false)
        let opened = machine.handshakeCompleted(authentication: .token, alpn: nil)
        #expect(opened == .init(maxConcurrentStreams: 1000, sendSettingsNow: false))
        #expect(machine.phaseName == "awaitingPreface")
        #expect(machine.inbound == .tls)
        // Without ALPN h2 nothing HTTP/2 goes out before the preface.
        #expect(machine.mayWriteHTTP2 == false)
        #expect(Self.plaintext(&machine, Array(Self.preface.prefix(10))) == .prefaceIncomplete)
        #expect(machine.mayWriteHTTP2 == false)
        // The rest of the preface and the first frame's bytes in one read.
        let rest = Array(Self.preface.dropFirst(10)) + [0, 0, 0, 4]
        #expect(Self.plaintext(&machine, rest) == .http2(from: 14))
        #expect(machine.phaseName == "serving")
        #expect(machine.mayWriteHTTP2 == true)
        // Serving: every byte is HTTP/2.
        #expect(Self.plaintext(&machine, [0, 0, 0]) == .http2(from: 0))
    }

    @Test func alpnH2SendsSettingsAtOnce() {
        var machine = Self.accepted()
        _ = machine.greetingReceived(.tls)
        #expect(machine.handshakeCompleted(authentication: .token, alpn: "h2").sendSettingsNow)
        #expect(machine.mayWriteHTTP2 == true)
        #expect(machine.phaseName == "awaitingPreface")
    }

    @Test func aTokenConnectionStartsWithOneStreamWhenAuthStreamLimitIsOn() {
        var token = Self.accepted(authStreamLimit: true)
        _ = token.greetingReceived(.tls)
        #expect(token.handshakeCompleted(authentication: .token, alpn: "h2").maxConcurrentStreams == 1)
        var certificate = Self.accepted(authStreamLimit: true)
        _ = certificate.greetingReceived(.tls)
        let identity = CertificateIdentity(
            subject: "CN=x", topics: ["com.example"], bundleID: "com.example", environment: .both,
            verificationError: nil)
        #expect(
            certificate.handshakeCompleted(authentication: .certificate(identity), alpn: "h2").maxConcurrentStreams
                == 1000)
    }

    /// RFC 9113 §3.4: after ALPN h2, a wrong preface is a connection error (GOAWAY
    /// PROTOCOL_ERROR); without it, an HTTP/1.x request is answered in words, anything else closed.
    @Test(
        arguments: [
            (
                "h2", "GET / HTTP/1.1\r\n",
                Machine.PrefaceRefusal.goAway(debugData: Array("invalid connection preface".utf8))
            ),
            (nil, "GET / HTTP/1.1\r\n", .answerHTTP1),
            (nil, "POST /3/device/ab HTTP/1.1\r\n", .answerHTTP1),
            (nil, "\u{1}\u{2}garbage", .close),
            (nil, "PRI * HTTP/1.1\r\n", .answerHTTP1),
            (nil, "pri * http/2.0\r\n", .close),
        ] as [(String?, String, Machine.PrefaceRefusal)])
    func aBadPrefaceIsRefused(_ alpn: String?, _ sent: String, _ expected: Machine.PrefaceRefusal) {
        var machine = Self.accepted()
        _ = machine.greetingReceived(.tls)
        _ = machine.handshakeCompleted(authentication: .token, alpn: alpn)
        #expect(Self.plaintext(&machine, Array(sent.utf8)) == .refused(expected))
        #expect(machine.isClosed == true)
        #expect(Self.plaintext(&machine, Self.preface) == .ignored)
        var actions: [Machine.Action] = []
        let reason = machine.connectionClosed(into: &actions).reason
        #expect(reason == (alpn == "h2" ? .invalidPreface : .noClientPreface))
        #expect(reason.by == "server")
    }

    @Test func cleartextClientsAreToldToUseTLS() {
        var http1 = Self.accepted()
        #expect(http1.greetingReceived(.plaintext) == .answerCleartextRequest)
        #expect(http1.inbound == .ignored)
        var actions: [Machine.Action] = []
        #expect(http1.connectionClosed(into: &actions).reason == .cleartextRequest)

        var h2c = Self.accepted()
        #expect(h2c.greetingReceived(.cleartextHTTP2) == .refuseCleartextHTTP2)
        #expect(h2c.inbound == .cleartextHTTP2)
        let first = h2c.close(.cleartextHTTP2)
        let second = h2c.close(.clientClosed)
        #expect(first == .closeNow)
        #expect(second == .alreadyClosing, "closing once")
        #expect(h2c.connectionClosed(into: &actions).reason == .cleartextHTTP2)
    }

    @Test func theRefuseTLSModeClosesBeforeTheHandshake() {
        var machine = Self.accepted()
        #expect(machine.greetingReceived(.tls, tlsRefused: true) == .refuseTLS)
        #expect(machine.inbound == .ignored)
        var actions: [Machine.Action] = []
        #expect(machine.connectionClosed(into: &actions).reason == .refuseTLSMode)
    }

    @Test func aShutdownOrIdleTimeoutBeforeHTTP2ClosesAtOnce() {
        for phase in ["greeting", "handshaking"] {
            var machine = Self.accepted()
            if phase == "handshaking" { _ = machine.greetingReceived(.tls) }
            var actions: [Machine.Action] = []
            #expect(machine.shutdown(debugData: [], into: &actions) == .closeNow)
            #expect(actions == [.close(afterFlush: false)], "\(phase)")
            #expect(machine.connectionClosed(into: &actions).reason == .shutdownBeforeHTTP2)

            var idle = Self.accepted()
            if phase == "handshaking" { _ = idle.greetingReceived(.tls) }
            actions = []
            #expect(idle.idleTimeoutElapsed(streamsBeingReceived: 0, debugData: [], into: &actions) == .ended)
            #expect(actions == [.close(afterFlush: false)])
            #expect(idle.connectionClosed(into: &actions).reason == .idleTimeout)
        }
        // Past TLS, before the preface: a GOAWAY, as on an HTTP/2 connection.
        var machine = Self.accepted()
        _ = machine.greetingReceived(.tls)
        _ = machine.handshakeCompleted(authentication: .token, alpn: "h2")
        var actions: [Machine.Action] = []
        #expect(machine.shutdown(debugData: [1], into: &actions) == .goAwaySent)
        #expect(actions == [.goAway(errorCode: 0, lastStreamID: nil, debugData: [1])])
        #expect(machine.phaseName == "draining")
    }

    /// The connection log's `closed` says who closed and why: the server's first reason wins;
    /// without one, the client closed (or its socket failed).
    @Test func whoClosedAndWhy() {
        var actions: [Machine.Action] = []
        var quiet = Machine(configuredStreams: 10, authLimited: false)
        #expect(quiet.connectionClosed(into: &actions).reason == .clientClosed)
        #expect(CloseReason.clientClosed.by == "client")

        var failed = Machine(configuredStreams: 10, authLimited: false)
        let error = failed.connectionClosed(error: "Connection reset by peer", into: &actions).reason
        #expect(error == .connectionError("Connection reset by peer"))
        #expect(error.by == "client")

        var ended = Machine(configuredStreams: 10, authLimited: false)
        #expect(ended.http2Failed(.library, into: &actions) == .closeAfterFlush)
        #expect(actions.last == .close(afterFlush: true))
        #expect(ended.http2Failed(.library, into: &actions) == .alreadyClosing)
        let closedAgain = ended.close(.sessionEnded)
        #expect(closedAgain == .alreadyClosing)
        #expect(ended.connectionClosed(into: &actions).reason == .http2Error)

        var idle = Machine(configuredStreams: 10, authLimited: false)
        #expect(idle.idleTimeoutElapsed(streamsBeingReceived: 0, debugData: [], into: &actions) == .ended)
        let closedAfterDraining = idle.close(.sessionEnded)
        #expect(closedAfterDraining == .closeNow, "the GOAWAY drains; the close follows when the session ends")
        #expect(idle.connectionClosed(into: &actions).reason == .idleTimeout)

        var limit = Machine(configuredStreams: 10, authLimited: false)
        _ = limit.http2Failed(.streamLimit, into: &actions)
        #expect(limit.connectionClosed(into: &actions).reason == .streamLimitExceeded)
        #expect(CloseReason.streamLimitExceeded.by == "server")
    }

    /// `--handshake-timeout`: a connection not serving HTTP/2 yet is closed, and says why; one
    /// that is serving is left alone (the idle timeout is its business).
    @Test func theHandshakeTimeoutClosesOnlyConnectionsNotYetServing() {
        var actions: [Machine.Action] = []
        var greeting = Self.accepted()
        let closedGreeting = greeting.handshakeTimeoutElapsed(into: &actions)
        #expect(closedGreeting == .close)
        #expect(actions == [.close(afterFlush: false)])
        let reason = greeting.connectionClosed(into: &actions).reason
        #expect(reason == .handshakeTimeout)

        var handshaking = Self.accepted()
        _ = handshaking.greetingReceived(.tls)
        let closedHandshaking = handshaking.handshakeTimeoutElapsed(into: &actions)
        #expect(closedHandshaking == .close)

        var awaitingPreface = Self.accepted()
        _ = awaitingPreface.greetingReceived(.tls)
        _ = awaitingPreface.handshakeCompleted(authentication: .token, alpn: "h2")
        let closedAwaiting = awaitingPreface.handshakeTimeoutElapsed(into: &actions)
        #expect(closedAwaiting == .close)

        var serving = Self.accepted()
        _ = serving.greetingReceived(.tls)
        _ = serving.handshakeCompleted(authentication: .token, alpn: "h2")
        _ = Self.plaintext(&serving, Self.preface)
        #expect(serving.phaseName == "serving")
        actions.removeAll()
        let closedServing = serving.handshakeTimeoutElapsed(into: &actions)
        #expect(closedServing == .keepOpen)
        #expect(actions.isEmpty)
    }
}
