extension DeliveryMatcher {
    /// Whether `name` is a matcher field in a query string (`headers.X` and `payload.…` included).
    public static func isQueryField(_ name: String) -> Bool {
        fieldNames.contains(name) || pathFieldNames.contains { name.hasPrefix($0 + ".") }
    }

    /// Adds the condition of query parameter `name=value` (`payload.aps.alert.title=Hi` is a
    /// payload subset written flat, `headers.apns-priority=10` a header).
    /// - Throws: `MatcherError` naming the parameter when the value is not valid for it.
    public mutating func add(queryParameter name: String, value: String) throws(MatcherError) {
        if name.hasPrefix("headers.") {
            let header = String(name.dropFirst("headers.".count)).lowercased()
            guard !header.isEmpty else { throw MatcherError(.missingPath, field: "headers.", "needs a header name") }
            append(.header(name: header, value: value))
            return
        }
        if Self.pathFieldNames.contains(name) {
            throw MatcherError(
                .missingPath, field: name,
                "needs a path: \(name).<\(name == "headers" ? "name" : "path")>=value (such as \(Self.pathExample(name)))"
            )
        }
        for family in Self.pathFieldNames where family != "headers" && name.hasPrefix(family + ".") {
            let path = name.dropFirst(family.count + 1).split(separator: ".", omittingEmptySubsequences: false)
            guard !path.contains(where: \.isEmpty) else {
                throw MatcherError(.emptyValue, field: name, "has an empty step in its path")
            }
            let steps = path.map { PayloadPathComponent.key(String($0)) }
            switch family {
            case "payload": append(.payload(path: steps, expected: .string(value)))
            case "preview": append(.preview(path: steps, expected: .string(value)))
            default: append(.webPush(path: steps, expected: .string(value)))
            }
            return
        }
        append(try Self.scalarCondition(name, label: name, text: value, number: nil))
    }

    /// A query parameter of the family `name` (`headers`, `payload`, `preview`, `webPush`) with
    /// its path, for messages.
    private static func pathExample(_ name: String) -> String {
        switch name {
        case "headers": "headers.apns-priority=5"
        case "webPush": "webPush.urgency=high"
        default: name + ".aps.badge=3"
        }
    }

    /// A matcher from a JSON (or YAML) object such as
    /// `{"token": "…", "status": 200, "headers": {"apns-priority": "10"}, "payload": {"aps": {…}}}`.
    /// - Parameter at: where the object sits, for messages (`expect[0].match`).
    /// - Throws: `MatcherError` naming the field (unknown fields too).
    public init(json: JSONValue, at location: String = "match") throws(MatcherError) {
        self.init()
        guard case .object(let members) = json else {
            throw MatcherError(
                .notAnObject, field: location, naming: .quotedPath, "must be an object of matcher fields")
        }
        for (name, value) in members {
            switch name {
            case "headers":
                guard case .object(let headers) = value else {
                    throw MatcherError(
                        .notAnObject, field: "\(location).headers", naming: .quotedPath,
                        "must be an object of header names and values")
                }
                for (header, headerValue) in headers {
                    guard let text = headerValue.scalarText, headerValue != .null else {
                        throw MatcherError(
                            .invalidValue, field: "\(location).headers.\(header)", naming: .quotedPath,
                            "must be a string")
                    }
                    append(.header(name: header.lowercased(), value: text))
                }
            case "payload":
                Self.flatten(value, path: [], into: &self) { .payload(path: $0, expected: $1) }
            case "preview":
                guard case .object = value else {
                    throw MatcherError(
                        .notAnObject, field: "\(location).preview", naming: .quotedPath,
                        "must be an object of preview fields such as {body: \"Hello\"}")
                }
                Self.flatten(value, path: [], into: &self) { .preview(path: $0, expected: $1) }
            case "webPush":
                guard case .object = value else {
                    throw MatcherError(
                        .notAnObject, field: "\(location).webPush", naming: .quotedPath,
                        "must be an object of a web push record's webPush fields such as {urgency: high}")
                }
                Self.flatten(value, path: [], into: &self) { .webPush(path: $0, expected: $1) }
            default:
                guard Self.fieldNames.contains(name) else {
                    throw MatcherError(
                        .unknownField, field: "\(location).\(name)",
                        "\(NameSuggestion.didYouMean(name, among: Self.fieldNames)); known: \(Self.fieldNames.joined(separator: ", "))"
                    )
                }
                guard let text = value.scalarText, value != .null else {
                    throw MatcherError(
                        .invalidValue, field: "\(location).\(name)", naming: .quotedPath, "must be a string or a number"
                    )
                }
                // Hex is text (YAML files keep an unquoted token as text: `SpecValue.tokenKeys`).
                if name == "token" || name == "tokenPrefix" {
                    guard case .string = value else {
                        throw MatcherError(
                            .invalidValue, field: "\(location).\(name)", naming: .quotedPath,
                            "must be a string of hex digits; got \(text)")
                    }
                }
                var number: Double?
                if case .number(let parsed, _) = value { number = parsed }
                append(try Self.scalarCondition(name, label: "\(location).\(name)", text: text, number: number))
            }
        }
    }

    /// Leaf conditions of a payload subset: each scalar, and each empty object or array, at
    /// its path.
    private static func flatten(
        _ value: JSONValue, path: [PayloadPathComponent], into matcher: inout DeliveryMatcher,
        _ condition: ([PayloadPathComponent], JSONValue) -> Condition
    ) {
        switch value {
        case .object(let members) where !members.isEmpty:
            for member in members {
                flatten(member.value, path: path + [.key(member.key)], into: &matcher, condition)
            }
        default:
            // Arrays compare whole (length and order matter), so they stay one condition.
            matcher.append(condition(path, value))
        }
    }

    private static func scalarCondition(_ name: String, label: String, text: String, number: Double?)
        throws(MatcherError)
        -> Condition
    {
        func integer(_ range: ClosedRange<Int>, _ what: String) throws(MatcherError) -> Int {
            // A JSON number written with a fraction or exponent is read by value: 95.0 is 95, as
            // JSON Schema's `integer` says; text must be the plain decimal ("0200" and "+200" are
            // not, as the OpenAPI document's patterns say).
            let parsed = number.flatMap { Int(exactly: $0) } ?? Int(text).flatMap { String($0) == text ? $0 : nil }
            guard let value = parsed, range.contains(value) else {
                throw MatcherError(.invalidValue, field: label, "must be \(what); got '\(text)'")
            }
            return value
        }
        /// The case of `Value` spelled `text`.
        func oneOf<Value: RawRepresentable & CaseIterable>(_: Value.Type) throws(MatcherError) -> Value
        where Value.RawValue == String {
            guard let value = Value(rawValue: text) else {
                throw MatcherError(
                    .invalidValue, field: label,
                    "must be one of \(Value.allCases.map(\.rawValue).joined(separator: ", ")); got '\(text)'")
            }
            return value
        }
        switch name {
        case "token":
            guard !text.isEmpty else { throw MatcherError(.emptyValue, field: label, "is empty") }
            guard let token = DeviceToken.normalized(text) else {
                throw MatcherError(.invalidValue, field: label, DeviceToken.problem(text))
            }
            return .token(token)
        case "tokenPrefix":
            guard !text.isEmpty else { throw MatcherError(.emptyValue, field: label, "is empty") }
            guard DeviceToken.isHexPrefix(text) else {
                throw MatcherError(
                    .invalidValue, field: label,
                    "must be the start of a device token: 1 to \(DeviceToken.maximumBytes * 2) hex digits; got '\(DeviceToken.shown(text))'"
                )
            }
            return .tokenPrefix(text.lowercased())
        case "topic": return .topic(text)
        case "reason": return .reason(text)
        case "collapseId": return .collapseID(text)
        case "subscriptionId":
            guard !text.isEmpty else { throw MatcherError(.emptyValue, field: label, "is empty") }
            guard text.utf8.allSatisfy(Base64URL.isAlphabetByte) else {
                throw MatcherError(
                    .invalidValue, field: label,
                    "must be a Web Push subscription's id (base64url: letters, digits, '-' and '_'); got '\(text)'")
            }
            return .subscriptionID(text)
        case "pushType":
            return .pushType(try oneOf(APNSPushType.self))
        case "status":
            return .status(
                try integer(APNSStatus.answerRange, "an HTTP status code from 200 to 599, such as 200 or 410"))
        case "priority":
            let priority = try integer(1...10, "an apns-priority: 10, 5 or 1")
            guard Self.priorities.contains(priority) else {
                throw MatcherError(.invalidValue, field: label, "must be an apns-priority: 10, 5 or 1; got '\(text)'")
            }
            return .priority(priority)
        case "apnsId":
            guard APNSMessageID.isValid(text) else {
                throw MatcherError(.invalidValue, field: label, "must be a UUID (8-4-4-4-12 hex digits); got '\(text)'")
            }
            return .apnsID(text)
        case "environment":
            guard let environment = APNSEnvironment(rawValue: text) else {
                throw MatcherError(.invalidValue, field: label, "must be 'sandbox' or 'production'; got '\(text)'")
            }
            return .environment(environment)
        case "connectionId":
            let parsed = UInt64(text) ?? number.flatMap { UInt64(exactly: $0) }
            guard let id = parsed, id > 0 else {
                throw MatcherError(
                    .invalidValue, field: label,
                    "must be a connection id (a positive integer); got '\(text)'")
            }
            return .connectionID(id)
        case "faultId":
            guard !text.isEmpty else { throw MatcherError(.emptyValue, field: label, "is empty") }
            return .faultID(text)
        case "channelId":
            guard !text.isEmpty else { throw MatcherError(.emptyValue, field: label, "is empty") }
            return .channelID(text)
        case "kind":
            return .kind(try oneOf(RecordKind.self))
        case "outcome":
            return .outcome(try oneOf(DeliveryOutcome.self))
        case "delivery":
            return .delivery(try oneOf(DeviceDelivery.State.self))
        case "deliveryReason":
            return .deliveryReason(try oneOf(DeviceDelivery.Reason.self))
        case "lint":
            guard lintSummaries.contains(text) || LintCode.all.contains(where: { $0.rawValue == text }) else {
                throw MatcherError(
                    .invalidValue, field: label,
                    "must be error, warning, clean or a lint code such as badge-not-integer; got '\(text)'"
                )
            }
            return .lint(text)
        case "authMethod":
            guard ["token", "certificate", "none"].contains(text) else {
                throw MatcherError(
                    .invalidValue, field: label, "must be 'token', 'certificate' or 'none'; got '\(text)'")
            }
            return .authMethod(text)
        default:
            throw MatcherError(
                .unknownField, field: label,
                "\(NameSuggestion.didYouMean(name, among: fieldNames)); known: \(fieldNames.joined(separator: ", "))")
        }
    }

    /// The matcher as a JSON object, in the shape `init(json:)` reads.
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        var headers: [(key: String, value: JSONValue)] = []
        var payload: JSONValue?
        var preview: JSONValue?
        var webPush: JSONValue?
        for condition in conditions {
            switch condition {
            case .header(let name, let value): headers.append((name, .string(value)))
            case .payload(let path, let expected):
                payload = Self.inserting(expected, at: path[...], into: payload ?? .object([]))
            case .preview(let path, let expected):
                preview = Self.inserting(expected, at: path[...], into: preview ?? .object([]))
            case .webPush(let path, let expected):
                webPush = Self.inserting(expected, at: path[...], into: webPush ?? .object([]))
            case .status(let status): members.append(("status", .integer(Int64(status))))
            case .priority(let priority): members.append(("priority", .integer(Int64(priority))))
            case .connectionID(let id): members.append(("connectionId", .integer(Int64(clamping: id))))
            default: members.append((condition.fieldName, .string(condition.expectedText)))
            }
        }
        if !headers.isEmpty { members.append(("headers", .object(headers))) }
        // Written whenever there is a payload condition, even `{}` or a scalar at the root.
        if let payload { members.append(("payload", payload)) }
        if let preview { members.append(("preview", preview)) }
        if let webPush { members.append(("webPush", webPush)) }
        return .object(members)
    }

    private static func inserting(_ value: JSONValue, at path: ArraySlice<PayloadPathComponent>, into node: JSONValue)
        -> JSONValue
    {
        guard let first = path.first else { return value }
        guard case .object(var members) = node else {
            return .object([(first.description, inserting(value, at: path.dropFirst(), into: .object([])))])
        }
        if let index = members.firstIndex(where: { $0.key == first.description }) {
            members[index].value = inserting(value, at: path.dropFirst(), into: members[index].value)
        } else {
            members.append((first.description, inserting(value, at: path.dropFirst(), into: .object([]))))
        }
        return .object(members)
    }
}
