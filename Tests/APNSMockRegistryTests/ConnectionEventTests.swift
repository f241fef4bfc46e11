import APNSMockCore
import Testing

@testable import APNSMockRegistry

/// The connection log's events are typed; their JSON (`GET /v1/connections`) keeps the names and
/// order users read, and the provider report reads them by case.
@Suite struct ConnectionEventTests {
    static func json(_ event: ConnectionEvent) -> String {
        "\(event.kind) " + event.details.map { "\($0.key)=\($0.value.jsonText)" }.joined(separator: " ")
    }

    @Test func eventsKeepTheirJSONNamesAndOrder() {
        #expect(Self.json(.opened) == "opened ")
        #expect(
            Self.json(
                .handshake(
                    .init(
                        tlsVersion: "TLSv1.3", alpn: "h2", serverName: nil,
                        clientCertificate: (subject: "UID=com.example.app", trusted: true))))
                == #"handshake tlsVersion="TLSv1.3" alpn="h2" serverName=null clientCertificate="UID=com.example.app" clientCertificateTrusted=true"#
        )
        #expect(
            Self.json(.handshakeFailed(error: "refused by the refuse-tls mode", alpnRefused: nil))
                == #"handshakeFailed error="refused by the refuse-tls mode""#)
        #expect(
            Self.json(.settingsSent(.init(maxConcurrentStreams: 1000, headerTableSize: 4096)))
                == "settingsSent maxConcurrentStreams=1000 headerTableSize=4096")
        #expect(
            Self.json(.goAway(sentBy: .server, errorCode: .noError, lastStreamID: 5, debug: "bye"))
                == #"goawaySent errorCode="NO_ERROR" lastStreamId=5 debug="bye""#)
        #expect(
            Self.json(.goAway(sentBy: .client, errorCode: .protocolError, lastStreamID: 0, debug: ""))
                .hasPrefix("goawayReceived "))
        #expect(
            Self.json(.streamReset(by: .client, streamID: 3, errorCode: .cancel))
                == #"streamReset by="client" streamId=3 errorCode="CANCEL""#)
        #expect(Self.json(.closed(by: "server", reason: "idle")) == #"closed by="server" reason="idle""#)
    }

    /// The report's view: the highest stream limit announced and the server's REFUSED_STREAM
    /// resets, read from typed events.
    @Test func theReportReadsEventsByCase() {
        let log = ConnectionLog()
        log.opened(id: 1, peer: "127.0.0.1:1", at: 0)
        log.note(1, at: 1, .settingsSent(.init(maxConcurrentStreams: 1)))
        log.note(1, at: 2, .settingsSent(.init(maxConcurrentStreams: 1000)))
        log.note(1, at: 3, .streamReset(by: .server, streamID: 3, errorCode: .refusedStream))
        log.note(1, at: 4, .streamReset(by: .client, streamID: 5, errorCode: .refusedStream))
        log.note(1, at: 5, .streamReset(by: .server, streamID: 7, errorCode: .cancel))
        let connection = try? #require(log.behaviorConnections().first)
        #expect(connection?.maxConcurrentStreams == 1000)
        #expect(connection?.refusedStreams == 1)
    }
}
