import APNSMock
import APNSMockCore
import APNSMockStore
import Foundation
import Synchronization
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
    /// (The wait is not the 200 ms default here: a writer thread that a busy machine leaves
    /// unscheduled longer than that is what giving up is for, tested below.)
    @Test func awaitWrittenReturnsOnceTheRecordsAreInTheFile() throws {
        let path = JournalTests.temporaryPath("journal.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try DeliveryJournal(path: path, maximumWait: .seconds(60))
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

    /// What a connection does with `--journal`, without blocking its event loop: it holds its
    /// answers while the records they are for are not written (`isSettled`), and is called back
    /// when they are (`whenSettled`); a wait that runs out (`gaveUpWaiting`) marks the journal
    /// `behind`, releases every waiter, and answers stop waiting until it has caught up.
    @Test func waitersAreCalledBackOnceTheirRecordsAreWritten() async throws {
        let path = JournalTests.temporaryPath("journal.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try DeliveryJournal(path: path)
        defer { journal.finish() }
        #expect(journal.isSettled(upTo: journal.handedOverCount), "nothing handed over: nothing to wait for")
        for sequence in 1...100 { journal.recordDecided(Self.record(UInt64(sequence))) }
        let target = journal.handedOverCount
        #expect(target == 100)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            journal.whenSettled(upTo: target) { done.resume() }
        }
        // Called back only once the records are in the file.
        #expect(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").count == 100)
        #expect(journal.isSettled(upTo: target))
        // Called at once when already written.
        let immediate = Mutex(false)
        journal.whenSettled(upTo: target) { immediate.withLock { $0 = true } }
        #expect(immediate.withLock { $0 })
    }

    /// A wait that ran out: giving up releases every waiter (the connections write what they
    /// held); a journal that has caught up is not `behind`.
    @Test func givingUpReleasesEveryWaiter() throws {
        let path = JournalTests.temporaryPath("journal.jsonl")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = try DeliveryJournal(path: path, maximumWait: .milliseconds(50))
        defer { journal.finish() }
        // A count never handed over is never written: only giving up releases its waiters.
        let released = Mutex(0)
        for _ in 0..<3 { journal.whenSettled(upTo: 1_000) { released.withLock { $0 += 1 } } }
        #expect(released.withLock { $0 } == 0)
        journal.gaveUpWaiting()
        #expect(released.withLock { $0 } == 3)
        #expect(!journal.progress.behind, "nothing was handed over: nothing is behind")
    }

    /// A disk that refuses every write (`/dev/full`): answers do not wait forever, and the
    /// records are counted as not journaled.
    @Test func aFullDiskIsCountedNotWaitedFor() throws {
        // A failed write settles its records, so the wait ends when the writer has tried; 60 s
        // only bounds a machine too busy to schedule the writer (50 ms was not enough under load).
        let journal = try DeliveryJournal(path: "/dev/full", maximumWait: .seconds(60))
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
