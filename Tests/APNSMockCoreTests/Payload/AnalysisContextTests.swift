import APNSMockCore
import Testing

/// Which context a request's payload is analysed in, by what the request is: the one choice
/// records and fault rules share (`PayloadAnalysisOptions.context(kind:…)`).
@Suite struct AnalysisContextTests {
    static let options = PayloadAnalysisOptions()

    static func context(_ kind: RecordKind, viaChannel: Bool = false) -> PayloadContext? {
        options.context(
            kind: kind, viaChannel: viaChannel, pushType: kind == .push ? .liveactivity : nil,
            pushTypeHeaderPresent: true, priority: "10", topic: "com.example.app", locale: nil)
    }

    @Test func aDevicePushIsJudgedByItsHeaders() throws {
        let context = try #require(Self.context(.push))
        #expect(!context.isBroadcast)
        #expect(context.topic == "com.example.app")
        #expect(context.effectiveLimit == 4096)
    }

    @Test("A broadcast, and its delivery to a subscribed device, are judged as a broadcast")
    func broadcasts() throws {
        for context in [Self.context(.broadcast), Self.context(.push, viaChannel: true)] {
            let context = try #require(context)
            #expect(context.isBroadcast)
            #expect(context.topic == nil, "no topic to check: the bundle id is in the path")
            #expect(context.effectiveLimit == 5120)
        }
    }

    @Test("A channel request's body is a channel's configuration: nothing to analyse")
    func channelRequests() {
        #expect(Self.context(.channel) == nil)
    }
}
