import APNSMockCore
import APNSMockStore
import Hummingbird

/// `GET /v1/devices/{token}/notifications`: the device's own view (`DeviceView`): the
/// notifications its user sees, each app's badge, its Live Activities and what APNs holds for
/// it, as of the server's clock.
///
/// A token that is not hex of a device token's length is answered 400 `badParameter`; a token
/// the mock never saw has an empty view (200), as a device nobody pushed to would.
enum DeviceViewRoutes {
    /// How many notifications the view lists unless `limit` says.
    static let defaultLimit = 100
    /// The most it lists.
    static let maximumLimit = 10_000

    /// `GET /v1/devices/{token}/notifications[?limit=N]`, as of `now`.
    static func notifications(
        reader: DeliveryReader, executor: AdminExecutor, now: @escaping @Sendable () -> Int64
    ) -> AdminRouter.Handler {
        { request, context in
            let token: String
            let limit: Int
            do throws(AdminError) {
                token = try RegistryRoutes.pathToken(context)
                limit = try self.limit(AdminRouter.parameters(request))
            } catch {
                return AdminRouter.errorResponse(error)
            }
            let time = now()
            return try await executor.run {
                AdminRouter.json(status: .ok, reader.deviceView(of: token, now: time).json(notificationLimit: limit))
            }
        }
    }

    /// Reads the query: `limit` at most once, nothing else.
    static func limit(_ parameters: [(String, String)]) throws(AdminError) -> Int {
        var limit: Int?
        for (name, value) in parameters {
            guard name == "limit" else {
                throw .badParameter(
                    "unknown query parameter '\(name)'; GET /v1/devices/{token}/notifications takes only limit")
            }
            guard limit == nil else { throw .badParameter("query parameter 'limit' is given twice") }
            guard let number = Int(value), (1...maximumLimit).contains(number) else {
                throw .badParameter(
                    "query parameter 'limit' must be a whole number from 1 to \(maximumLimit); got '\(value)'")
            }
            limit = number
        }
        return limit ?? defaultLimit
    }
}
