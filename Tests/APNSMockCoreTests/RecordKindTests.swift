import APNSMockCore
import Testing

/// `RecordKind`: the stored codes are part of the record layout, so they are pinned here.
@Suite("RecordKind")
struct RecordKindTests {
    static let table: [(RecordKind, UInt8)] = [(.push, 0), (.broadcast, 1), (.channel, 2), (.webPush, 3)]

    @Test("Codes: push 0, broadcast 1, channel 2, webPush 3", arguments: table)
    func codes(kind: RecordKind, code: UInt8) {
        #expect(kind.code == code)
        #expect(RecordKind(code: code) == kind)
    }

    @Test("An unknown code reads as push", arguments: [UInt8(4), 7, 255])
    func unknown(code: UInt8) {
        #expect(RecordKind(code: code) == .push)
    }

    @Test("Raw values are the matcher's spelling")
    func rawValues() {
        #expect(RecordKind.allCases.map(\.rawValue) == ["push", "broadcast", "channel", "webPush"])
    }
}
