import APNSMock
import APNSMockCore
import APNSMockStore
import Foundation
import Testing

/// The journal's writer (`DeliveryJournal`) on its own: what `awaitWritten` promises, and what
/// happens when the disk refuses.
@Suite struct DeliveryJournalTests {
    static func record(_ sequence: UInt64) -> DeliveryRecord {
        var record = DeliveryRecord(
            receivedAt: 1_700_000_000_000, connectionID: 1, streamID: 1, environment: .sandbox, method: "POST",
            path: "/3/device/ab", authority: "localhost", headerBlock: HeaderBlock(), token: "ab", topic: "t",
            pushType: .alert, apnsID: .echoed("00000000-0000-0000-0000-000000000001"), uniqueID: nil,
            payload: Array(#"{"aps":{}}"#.utf8), payloadSize: 10,
            response: DeliveryResponse(status: 200, reason: nil, respondedAt: 1_700_000_000_001))
        record.sequence = sequence
        return record
    }

    /// Once `awaitWritten` returns, every record handed over before is in the file: the
    /// transport calls it before answers go out.
    @Test func awaitWrittenReturnsOnceTheRecordsAreInTheFile() throws {
        let path = JournalTests.temporaryPath("journal.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try DeliveryJournal(path: path)
        defer { journal.finish() }
        for round in 0..<50 {
            for index in 0..<20 { journal.recordDecided(Self.record(UInt64(round * 20 + index + 1))) }
            journal.awaitWritten()
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == (round + 1) * 20, "round \(round)")
        }
        #expect(
            journal.progress
                == DeliveryRecordSinkProgress(written: 1000, queued: 0, dropped: 0, failedWrites: 0, behind: false))
        let contents = try DeliveryJournal.read(path: path)
        #expect(contents.records.map(\.sequence) == Array(1...1000))
        #expect(!contents.cutOffLastLine)
    }

    /// A disk that refuses every write (`/dev/full`): answers do not wait forever, and the
    /// records are counted as not journaled.
    @Test func aFullDiskIsCountedNotWaitedFor() throws {
        let journal = try DeliveryJournal(path: "/dev/full", maximumWait: .milliseconds(50))
        defer { journal.finish() }
        for sequence in 1...10 { journal.recordDecided(Self.record(UInt64(sequence))) }
        journal.awaitWritten()
        let progress = journal.progress
        #expect(progress.written == 0)
        #expect(progress.dropped == 10)
        #expect(progress.failedWrites >= 1)
    }

    @Test func aJournalThatCannotBeOpenedSaysWhy() {
        #expect(throws: DeliveryJournal.OpenError.self) { try DeliveryJournal(path: "/nonexistent-dir/j.jsonl") }
        do {
            _ = try DeliveryJournal(path: "/nonexistent-dir/j.jsonl")
        } catch {
            #expect("\(error)" == "cannot open the journal '/nonexistent-dir/j.jsonl': No such file or directory")
        }
    }

    /// A last line cut off mid-write (the kill came during a `write`) is skipped; a bad line
    /// anywhere else stops the restore with its line number.
    @Test func restoreSkipsACutOffLastLineOnly() throws {
        let path = JournalTests.temporaryPath("journal.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        var tokens = DeliveryRecordJSON.TokenCache()
        let good = DeliveryRecordJSON.journalLine(Self.record(1), tokens: &tokens)
        let second = DeliveryRecordJSON.journalLine(Self.record(2), tokens: &tokens)
        try Data(good + second.prefix(40)).write(to: URL(fileURLWithPath: path))
        let contents = try DeliveryJournal.read(path: path)
        #expect(contents.records.map(\.sequence) == [1])
        #expect(contents.cutOffLastLine)

        try Data(good + Array("{\"sequence\":2}\n".utf8) + good).write(to: URL(fileURLWithPath: path))
        #expect(throws: DeliveryJournal.RestoreError.self) { try DeliveryJournal.read(path: path) }
        do {
            _ = try DeliveryJournal.read(path: path)
        } catch {
            #expect("\(error)".hasPrefix("\(path) line 2: not a record: "), "\(error)")
        }
    }
}
