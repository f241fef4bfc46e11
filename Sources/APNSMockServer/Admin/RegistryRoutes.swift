import Hummingbird

/// Admin routes for keys and devices (written next).
enum RegistryRoutes {
    static func add(to router: Router<BasicRequestContext>, registry: Registry) {}
}
