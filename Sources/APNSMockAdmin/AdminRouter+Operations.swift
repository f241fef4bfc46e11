import Hummingbird

extension AdminRouter {
    /// What answers one admin operation.
    typealias Handler = @Sendable (Request, BasicRequestContext) async throws -> Response

    /// The handler of each operation of the admin API's document (`AdminOperation`, generated
    /// from `openapi.yaml`), registered at the operation's method and path by `build`.
    ///
    /// The switch is exhaustive and has no `default`: an operation added to the document (and
    /// regenerated) without a handler does not compile, and since routes are registered only
    /// from `AdminOperation.allCases`, no route exists that the document does not describe.
    /// `nil`: the operation has no handler in this router because what it reads was not given
    /// (`info`, `clock`: a router built without a server).
    static func handler(for operation: AdminOperation, _ services: AdminServices) -> Handler? {
        let faults = FaultRoutes.Targets(
            faults: services.faults, connectionLog: services.connectionLog, connections: services.connections,
            now: services.now)
        let registry = services.registry
        let now = services.now
        switch operation {
        // server
        case .health: return health(services)
        case .info: return services.info.map(info)
        case .caCertificate: return services.info.map(caCertificate)
        case .openAPIDocument: return openAPIDocument()
        case .metrics: return metrics(services)
        case .verify: return verify(services)
        case .reset: return reset(services)
        case .postMCP: return MCPEndpoint.handler(calls: services.selfCalls, version: services.info?.version)
        // dashboard
        case .dashboard, .dashboardScript, .dashboardStyleSheet: return DashboardRoutes.handler(for: operation)
        // deliveries
        case .listDeliveries: return listDeliveries(services)
        case .deleteDeliveries: return deleteDeliveries(services)
        case .waitForDeliveries: return waitForDeliveries(services)
        case .getDelivery: return getDelivery(services)
        case .getDeliveryPreview: return getDeliveryPreview(services)
        case .getDeliverySimulatorFile: return getDeliverySimulatorFile(services)
        case .deliveryEvents: return deliveryEvents(services)
        case .getDeliveryLog: return DeliveryLogRoutes.log(store: services.store, executor: services.executor)
        case .getReport:
            return ReportRoutes.report(
                reader: services.reader, executor: services.executor, connectionLog: services.connectionLog, now: now)
        // registry
        case .listKeys: return RegistryRoutes.listKeys(registry)
        case .getKey: return RegistryRoutes.getKey(registry)
        case .putKey: return RegistryRoutes.putKey(registry)
        case .deleteKey: return RegistryRoutes.deleteKey(registry)
        case .listDevices: return RegistryRoutes.listDevices(registry)
        case .getDevice: return RegistryRoutes.getDevice(registry)
        case .putDevice: return RegistryRoutes.putDevice(registry, now: now)
        case .putDevices: return RegistryRoutes.putDevices(registry, now: now)
        case .deleteDevice: return RegistryRoutes.deleteDevice(registry)
        case .unregisterDevice: return RegistryRoutes.unregisterDevice(registry, now: now)
        case .expireDevice: return RegistryRoutes.expireDevice(registry, now: now)
        case .deviceNotifications:
            return DeviceViewRoutes.notifications(reader: services.reader, executor: services.executor, now: now)
        // Web Push (the endpoints need the server's Web Push URL)
        case .listWebPushSubscriptions: return services.info.map { WebPushRoutes.list(registry, info: $0, now: now) }
        case .createWebPushSubscription:
            return services.info.map { WebPushRoutes.create(registry, info: $0, now: now) }
        case .getWebPushSubscription: return services.info.map { WebPushRoutes.get(registry, info: $0, now: now) }
        case .putWebPushDevice: return services.info.map { WebPushRoutes.putDevice(registry, info: $0, now: now) }
        case .deleteWebPushSubscription:
            return services.info.map { WebPushRoutes.delete(registry, info: $0, now: now) }
        // channels
        case .listChannels: return ChannelRoutes.listChannels(registry)
        case .createChannel: return ChannelRoutes.createChannel(registry, now: now)
        case .getChannel: return ChannelRoutes.getChannel(registry)
        case .deleteChannel: return ChannelRoutes.deleteChannel(registry)
        case .subscribeDevices: return ChannelRoutes.subscribeDevices(registry)
        case .subscribeDevice: return ChannelRoutes.subscribeDevice(registry)
        case .unsubscribeDevice: return ChannelRoutes.unsubscribeDevice(registry)
        case .getBroadcastCapability: return ChannelRoutes.getBroadcastCapability(registry)
        case .setBroadcastCapability: return ChannelRoutes.setBroadcastCapability(registry)
        // faults
        case .listFaults: return FaultRoutes.listFaults(faults)
        case .addFault: return FaultRoutes.addFault(faults)
        case .deleteFaults: return FaultRoutes.deleteFaults(faults)
        case .getFault: return FaultRoutes.getFault(faults)
        case .putFault: return FaultRoutes.putFault(faults)
        case .deleteFault: return FaultRoutes.deleteFault(faults)
        case .listBehaviors: return FaultRoutes.listBehaviors(faults)
        case .enableBehavior: return FaultRoutes.enableBehavior(faults)
        case .disableBehavior: return FaultRoutes.disableBehavior(faults)
        case .getModes: return FaultRoutes.getModes(faults)
        case .startShutdown: return FaultRoutes.startShutdown(faults)
        case .stopShutdown: return FaultRoutes.stopShutdown(faults)
        case .startUnavailable: return FaultRoutes.startUnavailable(faults)
        case .stopUnavailable: return FaultRoutes.stopUnavailable(faults)
        case .refuseTLS: return FaultRoutes.refuseTLS(faults)
        case .stopRefusingTLS: return FaultRoutes.stopRefusingTLS(faults)
        case .listConnections: return FaultRoutes.listConnections(faults)
        // clock
        case .getClock: return services.clock.map { ClockRoutes.getClock($0) }
        case .moveClock: return services.clock.map { ClockRoutes.moveClock($0, store: services.store) }
        case .resetClock: return services.clock.map { ClockRoutes.resetClock($0) }
        }
    }
}
