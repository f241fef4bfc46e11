import APNSMockStore
import APNSMockTransport

/// A store holding the records of `FuzzServer.pushes`, sent through an in-memory connection
/// (accepted and rejected pushes, a broadcast), for the targets that query records. Built once;
/// queries do not change it (analyses are cached, which changes no answer).
enum FuzzDeliveries {
    static let reader: DeliveryReader = {
        let store = DeliveryStore(capacity: 64)
        guard let connection = try? InMemoryAPNSConnection(context: FuzzServer.makeContext(store: store)) else {
            fatalError("cannot create an in-memory connection")
        }
        FuzzServer.exchange(FuzzServer.pushes, with: connection)
        return DeliveryReader(store: store, analyses: PayloadAnalyses(capacity: 64))
    }()
}
