import APNSMockCore
import APNSMockMetrics
import APNSMockRegistry
import APNSMockStore

/// What the admin API's handlers work on: the store and its reader, the registry, fault control,
/// the connection log, the clock, the metrics and the server's facts. One value, built once by
/// `AdminRouter.build`, handed to `AdminRouter.handler(for:_:)` for every operation.
struct AdminServices: Sendable {
    var store: DeliveryStore
    var reader: DeliveryReader
    var registry: Registry
    var executor: AdminExecutor
    /// Puts keys and devices back to the start-up setup (`POST /v1/reset`).
    var reset: @Sendable () async -> Void
    /// Reaches live APNs connections (`closeConnections=true`, the shutdown mode's GOAWAY).
    var connections: (any ConnectionControl)?
    var faults: FaultControl
    var connectionLog: ConnectionLog
    /// The clock (epoch ms) that dates rules, modes, devices and channels.
    var now: @Sendable () -> Int64
    var metrics: MockMetrics
    /// The server's addresses, version and CA; `nil`: no `info` and `caCertificate` routes.
    var info: ServerInfo?
    /// The server's clock; `nil`: no clock routes.
    var clock: MockClock?
    /// The events of the event stream, rendered once for every reader.
    var renderedEvents: RenderedEventCache
    /// The router's responder, for the MCP tools' admin calls.
    var selfCalls: MCPEndpoint.SelfCalls
}
