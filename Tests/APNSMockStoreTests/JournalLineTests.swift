import APNSMockCore
import Synchronization
import Testing

@testable import APNSMockStore

/// The journal's line (`DeliveryRecordJSON.journalLine`), its reading back (`decode`), the
/// store's `restore`, and the sink the store tells of decided records (issue 22, "Nothing lost").
@Suite struct JournalLineTests {
    /// Collects what the store hands over.
    final class CollectingSink: DeliveryRecordSink, Sendable {
        let records = Mutex<[DeliveryRecord]>([])
        func recordDecided(_ record: DeliveryRecord) { records.withLock { $0.append(record) } }
        var handedOverCount: UInt64 { UInt64(records.withLock { $0.count }) }
        func isSettled(upTo target: UInt64) -> Bool { true }
        func whenSettled(upTo target: UInt64, _ release: @escaping @Sendable () -> Void) { release() }
        var maximumWait: Duration { .zero }
        func gaveUpWaiting() {}
        var progress: DeliveryRecordSinkProgress {
            DeliveryRecordSinkProgress(written: 0, queued: 0, dropped: 0, failedWrites: 0, behind: false)
        }
    }

    static func line(_ record: DeliveryRecord) -> [UInt8] {
        var tokens = DeliveryRecordJSON.TokenCache()
        return DeliveryRecordJSON.journalLine(record, tokens: &tokens)
    }

    static func readBack(_ line: [UInt8]) throws -> DeliveryRecord {
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(!line.dropLast().contains(UInt8(ascii: "\n")), "one line")
        let value = try #require(JSONValue.parse(line.dropLast()))
        return try DeliveryRecordJSON.decode(value)
    }

    static func json(_ record: DeliveryRecord) -> String {
        String(decoding: DeliveryRecordJSON.encode(record), as: UTF8.self)
    }

    @Test func everyFieldRoundTripsThroughALine() throws {
        var original = RecordFieldTableTests.everyFieldSet()
        original.sequence = 42
        let read = try Self.readBack(Self.line(original))
        #expect(Self.json(read) == Self.json(original))
        #expect(read.headers == original.headers)
        #expect(read.payload == original.payload)
    }

    /// What the admin JSON cannot say exactly, `wire` does: repeated header names, the payload's
    /// spacing and bytes that are not UTF-8; a generated id stays generated, in its letter case.
    @Test func theWireCopyKeepsWhatTheAdminJSONLoses() throws {
        var record = RecordFieldTableTests.everyFieldSet()
        record.sequence = 3
        record.headerBlock.append(name: "x-repeated", value: "one")
        record.headerBlock.append(name: "x-repeated", value: "two, three")
        record.payload = Array("{ \"aps\" : {\"alert\":\"spaced\"} }".utf8)
        record.payloadSize = record.payload.count
        record.apnsID = .generated(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210, lowercase: true)
        let read = try Self.readBack(Self.line(record))
        #expect(read.headers == record.headers)
        #expect(read.payload == record.payload)
        #expect(read.apnsID == record.apnsID)
        #expect(read.apnsIDGenerated)

        record.payload = [0x7B, 0xFF, 0xFE, 0x00, 0x7D]
        record.payloadSize = 5000
        let binary = try Self.readBack(Self.line(record))
        #expect(binary.payload == record.payload)
        #expect(binary.payloadSize == 5000)
    }

    @Test func theTokensSignatureIsNotWritten() throws {
        var record = DeliveryStoreTests.draft()
        record.sequence = 1
        let text = String(decoding: Self.line(record), as: UTF8.self)
        #expect(!text.contains("c2lnbmF0dXJl"), "the signature segment")
        #expect(text.contains(#""bearer aGVhZA.Y2xhaW1z""#), "header and claims kept, as the store keeps them")
    }

    /// A record as the admin API shows it (no `wire`) reads back too: `--restore` takes an export.
    @Test func anAdminRecordReadsBackWithoutTheWireCopy() throws {
        var original = RecordFieldTableTests.everyFieldSet()
        original.sequence = 8
        let value = try #require(JSONValue.parse(DeliveryRecordJSON.encode(original)))
        let read = try DeliveryRecordJSON.decode(value)
        #expect(Self.json(read) == Self.json(original))
    }

    @Test func aLineThatIsNoRecordSaysWhichKeyIsWrong() throws {
        var original = RecordFieldTableTests.everyFieldSet()
        original.sequence = 1
        guard case .object(var members)? = JSONValue.parse(DeliveryRecordJSON.encode(original)) else {
            Issue.record("not an object")
            return
        }
        let index = try #require(members.firstIndex { $0.key == "outcome" })
        members[index].value = .string("exploded")
        #expect(throws: DeliveryRecordJSON.DecodingError(key: "outcome", problem: "unknown value 'exploded'")) {
            try DeliveryRecordJSON.decode(.object(members))
        }
        members.removeAll { $0.key == "sequence" }
        #expect(throws: DeliveryRecordJSON.DecodingError(key: "sequence", problem: "must be a non-negative integer")) {
            try DeliveryRecordJSON.decode(.object(members))
        }
        #expect(throws: DeliveryRecordJSON.DecodingError.self) { try DeliveryRecordJSON.decode(.array([])) }
    }

    /// The sink hears of a record when its answer is decided: at once for an answered push, at
    /// `complete` for a delayed one (never while it is pending), with the store's sequence number
    /// and the apns-id as decided.
    @Test func theSinkHearsOfEachRecordOnceItsAnswerIsDecided() {
        let sink = CollectingSink()
        let store = DeliveryStore(capacity: 10, sink: sink)
        var generated = DeliveryStoreTests.draft()
        generated.apnsID = .generated(high: 1, low: 2, lowercase: false)
        let first = store.record(generated)
        var delayed = DeliveryStoreTests.draft()
        delayed.response = nil
        delayed.outcome = .pending
        let second = store.append(delayed)
        #expect(sink.records.withLock { $0.map(\.sequence) } == [first])
        #expect(sink.records.withLock { $0.first?.apnsID } == generated.apnsID)
        store.complete(sequence: second, with: DeliveryResponse(status: 200, reason: nil, respondedAt: 5))
        let heard = sink.records.withLock { $0 }
        #expect(heard.map(\.sequence) == [first, second])
        #expect(heard.last?.outcome == .answered)
        #expect(heard.last?.status == 200)
    }

    /// Restored records keep their sequence numbers and ids (a generated id is found by id), a
    /// missing number stays missing, an open answer becomes `connectionClosed`, later records
    /// follow the last restored one, and the sink is not told of the restored ones.
    @Test func restoreKeepsNumbersAndIdsAndFillsGaps() throws {
        var records: [DeliveryRecord] = []
        for sequence: UInt64 in [5, 6, 8] {
            var record = DeliveryStoreTests.draft(apnsID: "00000000-0000-0000-0000-00000000000\(sequence)")
            record.sequence = sequence
            records.append(record)
        }
        // As Core generates them: version 4, RFC 4122 variant.
        records[1].apnsID = .generated(high: 0x0000_00AB_0000_4000, low: 0x8000_0000_0000_00CD, lowercase: false)
        records[2].response = nil
        records[2].outcome = .pending
        let sink = CollectingSink()
        let store = DeliveryStore(capacity: 10, sink: sink)
        #expect(store.restore(records.reversed()) == 3)
        #expect(store.count == 3)
        #expect(store.record(sequence: 7) == nil, "the gap stays a gap")
        let restoredGenerated = try #require(store.record(sequence: 6))
        #expect(restoredGenerated.apnsIDGenerated)
        #expect(restoredGenerated.apnsID.text == records[1].apnsID.text)
        let byID = store.query(DeliveryQuery(matcher: DeliveryMatcher([.apnsID(records[1].apnsID.text)])))
        #expect(byID.deliveries.map(\.sequence) == [6])
        #expect(store.record(sequence: 8)?.outcome == .connectionClosed)
        #expect(store.append(DeliveryStoreTests.draft()) == 9)
        #expect(sink.records.withLock { $0.map(\.sequence) } == [9])
        #expect(store.restore(records) == 0, "only into an empty store")
    }

    /// Only the newest records whose numbers fit the capacity are restored.
    @Test func restoreKeepsTheNewestThatFit() {
        let records = (1...10).map { sequence -> DeliveryRecord in
            var record = DeliveryStoreTests.draft()
            record.sequence = UInt64(sequence)
            return record
        }
        let store = DeliveryStore(capacity: 4)
        #expect(store.restore(records) == 4)
        #expect(store.firstSequence == 7)
        #expect(store.append(DeliveryStoreTests.draft()) == 11)
        #expect(store.count == 4)
    }
}
