import APNSMockCore
import APNSMockRegistry
import APNSMockStore
import Hummingbird
import NIOCore

/// Admin routes for the registry: provider keys (`/v1/keys`) and devices (`/v1/devices`).
///
/// Bodies are JSON objects (`ProviderKeySpec`, `DeviceSpec`); a bad one is answered 400
/// `badRequest` with a message naming the field, a bad path parameter 400 `badParameter`,
/// an unknown key or device 404 `notFound`.
enum RegistryRoutes {
    /// The largest request body read.
    static let maximumBodySize = 1 << 20

    // MARK: keys

    /// `GET /v1/keys`.
    static func listKeys(_ registry: Registry) -> AdminRouter.Handler {
        { _, _ in
            var json = JSONWriter()
            json.beginObject()
            json.key("keys")
            json.beginArray()
            for key in registry.keys() { ProviderKeySpec.write(key, to: &json) }
            json.endArray()
            json.endObject()
            return AdminRouter.json(status: .ok, json.bytes)
        }
    }

    /// `PUT /v1/keys/{keyId}`: 201 for a new key, 200 for a replaced one.
    static func putKey(_ registry: Registry) -> AdminRouter.Handler {
        { request, context in
            await answer { () async throws(AdminError) -> Response in
                let keyID = try pathKeyID(context)
                let body = try await readBody(request)
                let key = try decodeBody { () throws(SpecError) -> ProviderKey in
                    try ProviderKeySpec.decode(json: body, keyID: keyID)
                }
                let isNew = registry.key(keyID) == nil
                registry.putKey(key)
                return keyResponse(key, status: isNew ? .created : .ok)
            }
        }
    }

    /// `GET /v1/keys/{keyId}`.
    static func getKey(_ registry: Registry) -> AdminRouter.Handler {
        { _, context in
            await answer { () async throws(AdminError) -> Response in
                let keyID = try pathKeyID(context)
                guard let key = registry.key(keyID) else { throw unknownKey(keyID) }
                return keyResponse(key, status: .ok)
            }
        }
    }

    /// `DELETE /v1/keys/{keyId}`.
    static func deleteKey(_ registry: Registry) -> AdminRouter.Handler {
        { _, context in
            await answer { () async throws(AdminError) -> Response in
                let keyID = try pathKeyID(context)
                guard registry.removeKey(keyID) else { throw unknownKey(keyID) }
                return Response(status: .noContent)
            }
        }
    }

    private static func pathKeyID(_ context: BasicRequestContext) throws(AdminError) -> String {
        let keyID = context.parameters.get("keyId") ?? ""
        guard ProviderKeySpec.isValidID(keyID) else {
            throw .badParameter("path parameter 'keyId' \(ProviderKeySpec.idProblem(keyID))")
        }
        return keyID
    }

    private static func unknownKey(_ keyID: String) -> AdminError {
        .notFound("no key with keyId '\(keyID)' is registered")
    }

    private static func keyResponse(_ key: ProviderKey, status: HTTPResponse.Status) -> Response {
        var json = JSONWriter(capacity: 512)
        ProviderKeySpec.write(key, to: &json)
        return AdminRouter.json(status: status, json.bytes)
    }

    // MARK: devices

    /// `GET /v1/devices[?after=…&limit=…]`: one page of the devices in token order, how many
    /// are registered, and the `after` of the next page when more follow.
    static func listDevices(_ registry: Registry) -> AdminRouter.Handler {
        { request, _ in
            await answer { () async throws(AdminError) -> Response in
                let (after, limit) = try ChannelRoutes.tokenPaging(
                    AdminRouter.parameters(request), of: "GET /v1/devices")
                let page = registry.devicePage(after: after, limit: limit)
                var json = JSONWriter(capacity: 64 + page.devices.count * 160)
                json.beginObject()
                json.key("devices")
                json.beginArray()
                for device in page.devices { DeviceSpec.write(device, to: &json) }
                json.endArray()
                json.key("count")
                json.number(page.count)
                if page.more, let last = page.devices.last {
                    json.key("nextAfter")
                    json.string(last.token)
                }
                json.endObject()
                return AdminRouter.json(status: .ok, json.bytes)
            }
        }
    }

    /// `PUT /v1/devices/{token}`: 201 for a new device, 200 for a replaced one; `now` (epoch ms)
    /// dates its state.
    static func putDevice(_ registry: Registry, now: @escaping @Sendable () -> Int64) -> AdminRouter.Handler {
        { request, context in
            await answer { () async throws(AdminError) -> Response in
                let token = try pathToken(context)
                let body = try await readBody(request)
                let device = try decodeBody { () throws(SpecError) -> DeviceRegistration in
                    try DeviceSpec.decode(json: body, token: token, now: now())
                }
                let isNew = registry.device(token) == nil
                registry.putDevice(device)
                return deviceResponse(device, status: isNew ? .created : .ok)
            }
        }
    }

    /// The largest body of `POST /v1/devices`: a million devices of about 100 bytes each, with room.
    static let maximumBulkBodySize = 256 << 20

    /// `POST /v1/devices`: every device of the body registered or replaced in one change, or,
    /// when one entry is wrong, none (400 naming its index and field). Answers the counts.
    static func putDevices(_ registry: Registry, now: @escaping @Sendable () -> Int64) -> AdminRouter.Handler {
        { request, _ in
            await answer { () async throws(AdminError) -> Response in
                let body = try await readBody(request, limit: maximumBulkBodySize)
                let devices = try decodeBody { () throws(SpecError) -> [DeviceRegistration] in
                    try DeviceSpec.decodeBulk(json: body, now: now())
                }
                let created = registry.putDevices(devices)
                var json = JSONWriter(capacity: 64)
                json.beginObject()
                json.key("count")
                json.number(devices.count)
                json.key("created")
                json.number(created)
                json.key("replaced")
                json.number(devices.count - created)
                json.endObject()
                return AdminRouter.json(status: .ok, json.bytes)
            }
        }
    }

    /// `GET /v1/devices/{token}`.
    static func getDevice(_ registry: Registry) -> AdminRouter.Handler {
        { _, context in
            await answer { () async throws(AdminError) -> Response in
                let token = try pathToken(context)
                guard let device = registry.device(token) else { throw unknownDevice(token) }
                return deviceResponse(device, status: .ok)
            }
        }
    }

    /// `DELETE /v1/devices/{token}`.
    static func deleteDevice(_ registry: Registry) -> AdminRouter.Handler {
        { _, context in
            await answer { () async throws(AdminError) -> Response in
                let token = try pathToken(context)
                guard registry.removeDevice(token) else { throw unknownDevice(token) }
                return Response(status: .noContent)
            }
        }
    }

    /// `POST /v1/devices/{token}/unregister`: dated by the body's `unregisteredAt`, else `now`.
    static func unregisterDevice(_ registry: Registry, now: @escaping @Sendable () -> Int64) -> AdminRouter.Handler {
        { request, context in
            await answer { () async throws(AdminError) -> Response in
                let token = try pathToken(context)
                let body = try await readBody(request)
                let time = try decodeBody { () throws(SpecError) -> Int64 in
                    try DeviceSpec.decodeTime(json: body, field: "unregisteredAt", now: now())
                }
                return deviceResponse(registry.setDeviceState(token, .unregistered(at: time)), status: .ok)
            }
        }
    }

    /// `POST /v1/devices/{token}/expire`: dated by the body's `expiredAt`, else `now`.
    static func expireDevice(_ registry: Registry, now: @escaping @Sendable () -> Int64) -> AdminRouter.Handler {
        { request, context in
            await answer { () async throws(AdminError) -> Response in
                let token = try pathToken(context)
                let body = try await readBody(request)
                let time = try decodeBody { () throws(SpecError) -> Int64 in
                    try DeviceSpec.decodeTime(json: body, field: "expiredAt", now: now())
                }
                return deviceResponse(registry.setDeviceState(token, .expired(at: time)), status: .ok)
            }
        }
    }

    /// The path token, lower-cased.
    static func pathToken(_ context: BasicRequestContext) throws(AdminError) -> String {
        let token = context.parameters.get("token") ?? ""
        guard let normalized = DeviceToken.normalized(token) else {
            throw .badParameter("path parameter 'token' \(DeviceToken.problem(token))")
        }
        return normalized
    }

    private static func unknownDevice(_ token: String) -> AdminError {
        .notFound("no device with token '\(token)' is registered")
    }

    private static func deviceResponse(_ device: DeviceRegistration, status: HTTPResponse.Status) -> Response {
        var json = JSONWriter(capacity: 256)
        DeviceSpec.write(device, to: &json)
        return AdminRouter.json(status: status, json.bytes)
    }

    // MARK: bodies

    /// Runs a route, answering its `AdminError` as JSON.
    static func answer(_ route: () async throws(AdminError) -> Response) async -> Response {
        do throws(AdminError) {
            return try await route()
        } catch {
            return AdminRouter.errorResponse(error)
        }
    }

    /// Decodes a body, turning a `SpecError` into 400 `badRequest`.
    static func decodeBody<T>(_ decode: () throws(SpecError) -> T) throws(AdminError) -> T {
        do throws(SpecError) {
            return try decode()
        } catch {
            throw badBody(error)
        }
    }

    /// The request body, at most `limit` bytes.
    static func readBody(_ request: Request, limit: Int = maximumBodySize) async throws(AdminError) -> [UInt8] {
        var request = request
        do {
            let buffer = try await request.collectBody(upTo: limit)
            return Array(buffer.readableBytesView)
        } catch {
            throw .badRequest("the body is larger than \(limit) bytes or could not be read")
        }
    }

    /// The request body as JSON.
    /// - Throws: 400 `badRequest` naming the line and column where the body stops being JSON, and
    ///   the shape expected (`{"match": …, "action": …}`).
    static func readJSON(_ request: Request, shape: String) async throws(AdminError) -> JSONValue {
        let body = try await readBody(request)
        do throws(JSONSyntaxError) {
            return try JSONValue.parsing(body)
        } catch {
            throw .badRequest("the body is not valid JSON (\(error.description)); it should be \(shape)")
        }
    }

    /// A body error as 400 `badRequest`; an error about the whole body reads "the body …".
    private static func badBody(_ error: SpecError) -> AdminError {
        .badRequest(error.path.isEmpty ? "the body \(error.problem)" : error.description)
    }
}
