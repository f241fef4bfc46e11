import APNSMockCore
import NIOConcurrencyHelpers
import Synchronization

/// A `DeliveryConditionsSource` kept in memory: the conditions `setDeliveryConditions` was
/// given, for a `DeliveryStore` used without a registry (the store's unit tests, the benchmark
/// tool). The server gives its store the registry instead, which holds every device's conditions.
public final class DeliveryConditionsTable: DeliveryConditionsSource {
    private let table = NIOLockedValueBox<[String: DeviceConditions]>([:])
    private let count = Atomic<Int>(0)

    public init() {}

    public var hasDeliveryConditions: Bool { count.load(ordering: .acquiring) > 0 }

    public func deliveryConditions(of key: String) -> DeviceConditions? {
        table.withLockedValue { $0[key] }
    }

    /// Keeps `conditions` for `key`; the standard ones are not kept.
    public func set(_ conditions: DeviceConditions, for key: String) {
        table.withLockedValue { table in
            table[key] = conditions.needsModel ? conditions : nil
            count.store(table.count, ordering: .releasing)
        }
    }

    /// Forgets every key's conditions.
    public func removeAll() {
        table.withLockedValue { table in
            table.removeAll()
            count.store(0, ordering: .releasing)
        }
    }
}
