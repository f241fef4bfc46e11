import APNSMockCore
import Foundation
import Testing

@testable import APNSMockRegistry

/// The registry, the fault controls and the connection log are changed from event loops and
/// admin handlers at once. Each test changes one from several threads at the same time and finds
/// every change kept; under `make test-tsan` ThreadSanitizer also checks that the lock they use is
/// one it sees (it reported the toolchain's `Mutex`, whose contended path it cannot see).
@Suite struct SharedStateConcurrencyTests {
    static let threads = 4
    static let changesPerThread = 200

    /// Runs `body(thread, index)` `changesPerThread` times on each of `threads` threads, all at
    /// once, and returns when every thread is done. Plain threads (`Thread`, `NSCondition`):
    /// ThreadSanitizer's libdispatch support on Linux crashed inside `concurrentPerform`.
    static func onThreads(_ body: @escaping @Sendable (Int, Int) -> Void) {
        let done = NSCondition()
        nonisolated(unsafe) var finished = 0
        for thread in 0..<threads {
            Thread {
                for index in 0..<changesPerThread { body(thread, index) }
                done.lock()
                finished += 1
                done.signal()
                done.unlock()
            }.start()
        }
        done.lock()
        while finished < threads { done.wait() }
        done.unlock()
    }

    @Test func channelChangesFromSeveralThreadsAreAllKept() throws {
        let registry = Registry(channelLimit: 10_000, now: 1)
        let scope = ChannelScope(bundleID: "com.example.app", environment: .sandbox)
        Self.onThreads { thread, index in
            var random = FastRandom()
            guard
                let channel = try? registry.createChannel(
                    in: scope, storagePolicy: .noMessageStored, createdAt: 2, using: &random)
            else { return }
            let token = String(format: "%02x%06x", thread, index) + String(repeating: "ab", count: 28)
            registry.subscribe(token, to: channel.id)
            if index % 2 == 0 {
                registry.unsubscribe(token, from: channel.id)
                registry.deleteChannel(channel.id)
            }
        }
        let directory = registry.channelDirectory()
        let kept = directory.channels(in: scope)
        #expect(kept.count == Self.threads * Self.changesPerThread / 2)
        #expect(kept.allSatisfy { registry.subscriberCount(of: $0.id) == 1 })
        // Creations and deletions are changes to the snapshot; subscriptions are not.
        #expect(registry.changeCount >= UInt64(Self.threads * Self.changesPerThread * 3 / 2))
    }

    @Test func deviceStatesFromSeveralThreadsAreAllKept() {
        let registry = Registry()
        Self.onThreads { thread, index in
            let token = String(format: "%02x%06x", thread, index) + String(repeating: "cd", count: 28)
            registry.setDeviceState(token, .unregistered(at: Int64(index)))
        }
        #expect(registry.devices().count == Self.threads * Self.changesPerThread)
    }

    @Test func faultRulesAddedAndRemovedFromSeveralThreads() throws {
        let faults = FaultControl()
        Self.onThreads { thread, index in
            let id = "rule-\(thread)-\(index)"
            let rule: JSONValue = .object([
                ("id", .string(id)), ("match", .object([("token", .string(String(repeating: "ef", count: 32)))])),
                (
                    "action",
                    .object([("respond", .object([("status", .integer(410)), ("reason", .string("Unregistered"))]))])
                ),
            ])
            do { _ = try faults.addRule(json: rule, now: 1) } catch { Issue.record("rule \(id): \(error)") }
            if index % 4 != 0 { _ = faults.removeRule(id: id) }
            faults.setShutdown(index % 2 == 0)
        }
        #expect(faults.rules().count == Self.threads * Self.changesPerThread / 4)
    }

    @Test func connectionsLoggedFromSeveralThreads() {
        let log = ConnectionLog(closedLimit: 10_000, eventLimit: 10)
        Self.onThreads { thread, index in
            let id = UInt64(thread * Self.changesPerThread + index + 1)
            log.opened(id: id, peer: "127.0.0.1:\(index)", at: 1)
            log.note(id, at: 2, .settingsSent(.init(maxConcurrentStreams: 1)))
            if index % 2 == 0 { log.closed(id: id, at: 3, by: "client", reason: "done") }
        }
        let connections = log.connections()
        #expect(connections.count == Self.threads * Self.changesPerThread)
    }
}
