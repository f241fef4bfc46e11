import APNSMockCore

/// The admin API's reference: an OpenAPI 3.1 document, served at `GET /v1/openapi.yaml`.
///
/// It is compiled into the binary (a release binary is copied alone into container images, so
/// no resource bundle), and kept as YAML text so that it reads as the API's reference here too.
/// `AdminAPIDocumentTests` checks that its paths and methods are exactly the router's; the
/// end-to-end `OpenAPIConformanceTests` run schemathesis against a live server from it.
public enum AdminAPIDocument {
    /// The path it is served at.
    public static let path = "/v1/openapi.yaml"

    /// Its media type: `application/yaml`, registered by RFC 9512, which every YAML-aware tool
    /// and browser knows. (`application/openapi+yaml` says more but is still a draft
    /// registration that few clients recognise.)
    public static let contentType = "application/yaml"

    /// The document.
    public static let yaml = #"""
        openapi: 3.1.0
        info:
          title: apns-mock admin API
          version: "1"
          summary: Read, wait for and verify what a mock APNs received; manage its keys and devices.
          description: |
            The admin API of apns-mock, plain HTTP/1.1 on the admin port (2198 by default).

            Conventions: JSON fields are camelCase; times are epoch milliseconds; durations
            are strings with a unit (`500ms`, `5s`, `2m`, `1h`), and a bare number means seconds.
            Device tokens are hex, compared case-insensitively and stored lower-case. Records
            are numbered by `sequence`, which never goes back (not even on reset).

            Every error is `{"error": {"code": "…", "message": "…"}}` with a stable `code`
            (`badParameter`, `badRequest`, `notFound`, `unauthorized`, `methodNotAllowed`) and
            a sentence naming the offending parameter or field. Unknown query parameters are
            refused (400 `badParameter`) rather than ignored.

            When the server runs with `--admin-token`, every endpoint but `/health` needs
            `Authorization: Bearer <token>` and answers 401 `unauthorized` without it.
        security:
          - bearerAuth: []
          - {}
        tags:
          - name: deliveries
            description: Records of every answered push, accepted or rejected.
          - name: registry
            description: Provider keys and devices.
          - name: faults
            description: Fault rules, APNs connection behaviors and server-wide modes.
          - name: connections
            description: What happened on each APNs connection.
          - name: server
            description: Health, reset and this document.
        paths:
          /health:
            get:
              operationId: health
              tags: [server]
              summary: Whether the server is up (never needs the admin token).
              security: []
              responses:
                "200":
                  description: Up.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [status]
                        properties:
                          status: {type: string, const: ok}
          /v1/openapi.yaml:
            get:
              operationId: openAPIDocument
              tags: [server]
              summary: This document.
              responses:
                "200":
                  description: The OpenAPI 3.1 document of the admin API.
                  content:
                    application/yaml:
                      schema: {type: string}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/deliveries:
            get:
              operationId: listDeliveries
              tags: [deliveries]
              summary: One page of the records that match, oldest first unless `order=desc`.
              description: |
                Matcher parameters are ANDed; a repeated one adds another condition. Page on
                with `since=<next>` (ascending) or `before=<next>` (descending).
              parameters:
                - $ref: "#/components/parameters/token"
                - $ref: "#/components/parameters/tokenPrefix"
                - $ref: "#/components/parameters/topic"
                - $ref: "#/components/parameters/pushType"
                - $ref: "#/components/parameters/status"
                - $ref: "#/components/parameters/reason"
                - $ref: "#/components/parameters/apnsIdFilter"
                - $ref: "#/components/parameters/collapseId"
                - $ref: "#/components/parameters/priority"
                - $ref: "#/components/parameters/environment"
                - $ref: "#/components/parameters/authMethod"
                - $ref: "#/components/parameters/headersAndPayload"
                - $ref: "#/components/parameters/connectionIdFilter"
                - $ref: "#/components/parameters/faultId"
                - $ref: "#/components/parameters/outcome"
                - $ref: "#/components/parameters/kind"
                - $ref: "#/components/parameters/lint"
                - $ref: "#/components/parameters/since"
                - $ref: "#/components/parameters/before"
                - name: limit
                  in: query
                  description: The most records on the page.
                  schema: {type: integer, minimum: 1, maximum: \#(DeliveryQueryParser.maximumLimit), default: \#(DeliveryQueryParser.defaultLimit)}
                - name: order
                  in: query
                  schema: {type: string, enum: [asc, desc], default: asc}
              responses:
                "200":
                  description: The page.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/DeliveryPage"}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
            delete:
              operationId: deleteDeliveries
              tags: [deliveries]
              summary: Deletes the records that match (all of them without parameters).
              parameters:
                - $ref: "#/components/parameters/token"
                - $ref: "#/components/parameters/tokenPrefix"
                - $ref: "#/components/parameters/topic"
                - $ref: "#/components/parameters/pushType"
                - $ref: "#/components/parameters/status"
                - $ref: "#/components/parameters/reason"
                - $ref: "#/components/parameters/apnsIdFilter"
                - $ref: "#/components/parameters/collapseId"
                - $ref: "#/components/parameters/priority"
                - $ref: "#/components/parameters/environment"
                - $ref: "#/components/parameters/authMethod"
                - $ref: "#/components/parameters/headersAndPayload"
                - $ref: "#/components/parameters/connectionIdFilter"
                - $ref: "#/components/parameters/faultId"
                - $ref: "#/components/parameters/outcome"
                - $ref: "#/components/parameters/kind"
                - $ref: "#/components/parameters/lint"
              responses:
                "200":
                  description: How many records were deleted.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [deleted]
                        properties:
                          deleted: {type: integer, minimum: 0}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/deliveries/wait:
            get:
              operationId: waitForDeliveries
              tags: [deliveries]
              summary: Waits until at least `count` records match, or `timeout` runs out.
              description: |
                Answers 200 as soon as `count` matching records exist (those already stored
                count; `since` skips older ones), else 408 with the records seen when the
                timeout ran out. Woken by new records, never by polling.
              parameters:
                - $ref: "#/components/parameters/token"
                - $ref: "#/components/parameters/tokenPrefix"
                - $ref: "#/components/parameters/topic"
                - $ref: "#/components/parameters/pushType"
                - $ref: "#/components/parameters/status"
                - $ref: "#/components/parameters/reason"
                - $ref: "#/components/parameters/apnsIdFilter"
                - $ref: "#/components/parameters/collapseId"
                - $ref: "#/components/parameters/priority"
                - $ref: "#/components/parameters/environment"
                - $ref: "#/components/parameters/authMethod"
                - $ref: "#/components/parameters/headersAndPayload"
                - $ref: "#/components/parameters/connectionIdFilter"
                - $ref: "#/components/parameters/faultId"
                - $ref: "#/components/parameters/outcome"
                - $ref: "#/components/parameters/kind"
                - $ref: "#/components/parameters/lint"
                - $ref: "#/components/parameters/since"
                - $ref: "#/components/parameters/before"
                - name: count
                  in: query
                  description: How many matching records to wait for.
                  schema: {type: integer, minimum: 1, maximum: \#(DeliveryQueryParser.maximumLimit), default: 1}
                - name: timeout
                  in: query
                  description: |
                    How long to wait, at most \#(Int(AdminRouter.maximumWaitSeconds)) seconds:
                    a number of seconds, or a duration such as `500ms`, `5s`, `2m`.
                  schema: {$ref: "#/components/schemas/QueryDuration"}
              responses:
                "200":
                  description: At least `count` records matched.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/WaitResult"}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "408":
                  description: The timeout ran out first; the records that did match.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/WaitResult"}
          /v1/deliveries/{apnsId}:
            get:
              operationId: getDelivery
              tags: [deliveries]
              summary: The most recent record with this `apnsId`.
              parameters:
                - name: apnsId
                  in: path
                  required: true
                  schema: {$ref: "#/components/schemas/UUID"}
              responses:
                "200":
                  description: The record.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Delivery"}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
          /v1/deliveries/{apnsId}/preview:
            get:
              operationId: getDeliveryPreview
              tags: [deliveries]
              summary: What the device would show for the most recent accepted push with this `apnsId`.
              parameters:
                - name: apnsId
                  in: path
                  required: true
                  schema: {$ref: "#/components/schemas/UUID"}
              responses:
                "200":
                  description: The preview.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Preview"}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
          /v1/deliveries/{apnsId}/simulator.apns:
            get:
              operationId: getDeliverySimulatorFile
              tags: [deliveries]
              summary: The payload as an iOS Simulator `.apns` file (`xcrun simctl push booted FILE`).
              description: |
                The payload's members with `Simulator Target Bundle` first: the topic without its
                push-type suffix. `apns-mock export APNSID` writes it to a file.
              parameters:
                - name: apnsId
                  in: path
                  required: true
                  schema: {$ref: "#/components/schemas/UUID"}
              responses:
                "200":
                  description: The file.
                  content:
                    application/json:
                      schema: {type: object}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
          /v1/events:
            get:
              operationId: deliveryEvents
              tags: [deliveries]
              summary: New matching records as Server-Sent Events.
              description: |
                One `delivery` event per new matching record (`id:` its sequence, `data:` the
                record as JSON), comments as keep-alives. `Last-Event-ID` (or `since`) resumes
                after that record. A reader so slow that records age out of the store before it
                reads them gets a final `dropped` event (`{"missed": N, "reason": "…"}`) and the
                stream ends.
              parameters:
                - $ref: "#/components/parameters/token"
                - $ref: "#/components/parameters/tokenPrefix"
                - $ref: "#/components/parameters/topic"
                - $ref: "#/components/parameters/pushType"
                - $ref: "#/components/parameters/status"
                - $ref: "#/components/parameters/reason"
                - $ref: "#/components/parameters/apnsIdFilter"
                - $ref: "#/components/parameters/collapseId"
                - $ref: "#/components/parameters/priority"
                - $ref: "#/components/parameters/environment"
                - $ref: "#/components/parameters/authMethod"
                - $ref: "#/components/parameters/headersAndPayload"
                - $ref: "#/components/parameters/connectionIdFilter"
                - $ref: "#/components/parameters/faultId"
                - $ref: "#/components/parameters/outcome"
                - $ref: "#/components/parameters/kind"
                - $ref: "#/components/parameters/lint"
                - $ref: "#/components/parameters/since"
                - name: Last-Event-ID
                  in: header
                  description: Resume after this sequence number (wins over `since`).
                  schema: {type: string}
              responses:
                "200":
                  description: The event stream (it ends only when the client or server closes it).
                  content:
                    text/event-stream:
                      schema: {type: string}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/verify:
            post:
              operationId: verify
              tags: [deliveries]
              summary: Checks expectations against the records, waiting up to each one's `within`.
              description: |
                The expectation-file format of `apns-mock verify`, as JSON: `{"expect": [...]}`
                or the bare list. Answers 200 whether the expectations passed or not; failures
                list the closest records ("near misses") and how they differ.
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      oneOf:
                        - type: object
                          required: [expect]
                          additionalProperties: false
                          properties:
                            expect: {$ref: "#/components/schemas/ExpectationList"}
                        - $ref: "#/components/schemas/ExpectationList"
                    example:
                      expect:
                        - name: welcome push
                          match:
                            topic: com.example.app
                            payload: {aps: {alert: {title: Welcome}}}
                          count: {exactly: 1}
                          within: 5s
                        - name: nothing rejected
                          match: {status: 400}
                          count: {none: true}
              responses:
                "200":
                  description: Each expectation's outcome.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/VerifyResult"}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/reset:
            post:
              operationId: reset
              tags: [server]
              summary: Deletes every record and puts keys and devices back to the start-up setup.
              parameters:
                - name: closeConnections
                  in: query
                  description: Also close every live APNs connection.
                  schema: {type: string, enum: ["true", "false"], default: "false"}
              responses:
                "200":
                  description: Reset.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [reset, closedConnections]
                        properties:
                          reset: {type: boolean, const: true}
                          closedConnections: {type: integer, minimum: 0}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/keys:
            get:
              operationId: listKeys
              tags: [registry]
              summary: The registered provider (token-signing) keys.
              responses:
                "200":
                  description: The keys.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [keys]
                        properties:
                          keys:
                            type: array
                            items: {$ref: "#/components/schemas/Key"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/keys/{keyId}:
            parameters:
              - name: keyId
                in: path
                required: true
                schema: {$ref: "#/components/schemas/KeyID"}
            get:
              operationId: getKey
              tags: [registry]
              summary: One key.
              responses:
                "200":
                  description: The key.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Key"}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
            put:
              operationId: putKey
              tags: [registry]
              summary: Registers or replaces a key.
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: "#/components/schemas/KeyBody"}
                    example:
                      teamId: DEF123GHIJ
                      environment: both
                      publicKey: |
                        -----BEGIN PUBLIC KEY-----
                        MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEBhtjmBK67nGuRGolVgBb3AI/d+sE
                        8XeYWhpvgLvGgm4IKRpUg65B5H9c1AbXWOIs+2Jzt2qE9D8REYCyxTExMw==
                        -----END PUBLIC KEY-----
              responses:
                "200":
                  description: Replaced.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Key"}
                "201":
                  description: Registered.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Key"}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
            delete:
              operationId: deleteKey
              tags: [registry]
              summary: Removes a key.
              responses:
                "204": {description: Removed.}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
          /v1/devices:
            get:
              operationId: listDevices
              tags: [registry]
              summary: The registered devices.
              responses:
                "200":
                  description: The devices.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [devices]
                        properties:
                          devices:
                            type: array
                            items: {$ref: "#/components/schemas/Device"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/devices/{token}:
            parameters:
              - $ref: "#/components/parameters/deviceToken"
            get:
              operationId: getDevice
              tags: [registry]
              summary: One device.
              responses:
                "200":
                  description: The device.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Device"}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
            put:
              operationId: putDevice
              tags: [registry]
              summary: Registers or replaces a device (an empty body registers an active device for any topic).
              requestBody:
                required: false
                content:
                  application/json:
                    schema: {$ref: "#/components/schemas/DeviceBody"}
                    example: {topic: com.example.app, environment: sandbox}
              responses:
                "200":
                  description: Replaced.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Device"}
                "201":
                  description: Registered.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Device"}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
            delete:
              operationId: deleteDevice
              tags: [registry]
              summary: Removes a device.
              responses:
                "204": {description: Removed.}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
          /v1/devices/{token}/unregister:
            parameters:
              - $ref: "#/components/parameters/deviceToken"
            post:
              operationId: unregisterDevice
              tags: [registry]
              summary: Marks the device unregistered (registering it first if unknown); pushes then get 410 Unregistered.
              requestBody:
                required: false
                content:
                  application/json:
                    schema:
                      type: object
                      additionalProperties: false
                      properties:
                        unregisteredAt:
                          description: When (epoch ms); now if left out.
                          $ref: "#/components/schemas/OptionalTime"
              responses:
                "200":
                  description: The device.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Device"}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/devices/{token}/expire:
            parameters:
              - $ref: "#/components/parameters/deviceToken"
            post:
              operationId: expireDevice
              tags: [registry]
              summary: Marks the device's token expired (registering it first if unknown); pushes then get 410 ExpiredToken.
              requestBody:
                required: false
                content:
                  application/json:
                    schema:
                      type: object
                      additionalProperties: false
                      properties:
                        expiredAt:
                          description: When (epoch ms); now if left out.
                          $ref: "#/components/schemas/OptionalTime"
              responses:
                "200":
                  description: The device.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Device"}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/faults:
            get:
              operationId: listFaults
              tags: [faults]
              summary: The fault rules, in the order they are tried, with their counts.
              responses:
                "200":
                  description: The rules.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [faults]
                        properties:
                          faults:
                            type: array
                            items: {$ref: "#/components/schemas/FaultRule"}
                "401": {$ref: "#/components/responses/Unauthorized"}
            post:
              operationId: addFault
              tags: [faults]
              summary: Adds a fault rule after the others.
              description: |
                The rules are tried in order for each APNs request; the first that matches and selects
                it acts (an answer, a delay, a hang, a reset, a GOAWAY, a close or a new stream limit).
                Without `id` the rule is named `f1`, `f2`, …; an `id` in use is refused (400). A listed
                rule may be posted back: its `createdAt`, `hits` and `matches` are ignored.
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: "#/components/schemas/FaultRuleBody"}
                    example:
                      id: gone
                      match: {token: 740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad}
                      select: {first: 2}
                      action: {respond: {status: 410, reason: Unregistered, timestamp: 1700000000000}}
              responses:
                "201":
                  description: Added; the rule as it is listed.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/FaultRule"}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
            delete:
              operationId: deleteFaults
              tags: [faults]
              summary: Removes every fault rule.
              responses:
                "200":
                  description: How many rules were removed.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [removed]
                        properties:
                          removed: {type: integer, minimum: 0}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/faults/{id}:
            parameters:
              - name: id
                in: path
                required: true
                schema: {$ref: "#/components/schemas/FaultRuleID"}
            get:
              operationId: getFault
              tags: [faults]
              summary: One fault rule, with its counts.
              responses:
                "200":
                  description: The rule.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/FaultRule"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
            delete:
              operationId: deleteFault
              tags: [faults]
              summary: Removes a fault rule.
              responses:
                "204": {description: Removed.}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404": {$ref: "#/components/responses/NotFound"}
          /v1/behaviors:
            get:
              operationId: listBehaviors
              tags: [faults]
              summary: The APNs connection behaviors switched on.
              responses:
                "200":
                  description: The behaviors on.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Behaviors"}
                "401": {$ref: "#/components/responses/Unauthorized"}
            post:
              operationId: enableBehavior
              tags: [faults]
              summary: Switches on a connection habit of APNs that providers have reported (again, to change `lockout`).
              requestBody:
                required: true
                content:
                  application/json:
                    schema: {$ref: "#/components/schemas/BehaviorBody"}
                    example: {name: token-update-lockout, lockout: 30s}
              responses:
                "201":
                  description: Switched on; every behavior now on.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Behaviors"}
                "400": {$ref: "#/components/responses/BadRequest"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/behaviors/{name}:
            delete:
              operationId: disableBehavior
              tags: [faults]
              summary: Switches a behavior off.
              parameters:
                - name: name
                  in: path
                  required: true
                  schema: {$ref: "#/components/schemas/BehaviorName"}
              responses:
                "204": {description: Switched off.}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
                "404":
                  description: The behavior is not on (`notFound`).
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Error"}
          /v1/modes:
            get:
              operationId: getModes
              tags: [faults]
              summary: The server-wide modes.
              responses:
                "200":
                  description: The modes.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Modes"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/modes/shutdown:
            post:
              operationId: startShutdown
              tags: [faults]
              summary: Sends GOAWAY `{"reason":"Shutdown"}` on every APNs connection; pushes get 503 Shutdown until it ends.
              responses:
                "200":
                  description: Shutting down.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [mode, active, goawaySent]
                        properties:
                          mode: {const: shutdown}
                          active: {const: true}
                          goawaySent: {type: integer, minimum: 0, description: How many connections were sent GOAWAY.}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
            delete:
              operationId: stopShutdown
              tags: [faults]
              summary: Ends the shutdown mode (connections already sent GOAWAY stay so).
              responses:
                "200":
                  description: No longer shutting down.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [mode, active]
                        properties:
                          mode: {const: shutdown}
                          active: {const: false}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/modes/unavailable:
            post:
              operationId: startUnavailable
              tags: [faults]
              summary: Answers every push 503 ServiceUnavailable, for a while or until switched off.
              parameters:
                - name: for
                  in: query
                  description: How long, up to 24 hours; until `DELETE` without it.
                  schema: {$ref: "#/components/schemas/DayDuration"}
              responses:
                "200":
                  description: The modes.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Modes"}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
            delete:
              operationId: stopUnavailable
              tags: [faults]
              summary: Ends the unavailable mode.
              responses:
                "200":
                  description: The modes.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Modes"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/modes/refuse-tls:
            post:
              operationId: refuseTLS
              tags: [faults]
              summary: Fails the TLS handshake of the next `count` APNs connections.
              parameters:
                - name: count
                  in: query
                  description: How many connections to refuse (replaces any count left).
                  schema: {type: integer, minimum: 1, maximum: 1000000, default: 1}
              responses:
                "200":
                  description: The modes.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Modes"}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
            delete:
              operationId: stopRefusingTLS
              tags: [faults]
              summary: Refuses no more handshakes.
              responses:
                "200":
                  description: The modes.
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/Modes"}
                "401": {$ref: "#/components/responses/Unauthorized"}
          /v1/connections:
            get:
              operationId: listConnections
              tags: [connections]
              summary: Live APNs connections, then recently closed ones, each with what happened on it.
              parameters:
                - name: state
                  in: query
                  description: "`open`: live connections only."
                  schema: {type: string, enum: [open, all], default: all}
              responses:
                "200":
                  description: The connections.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [connections]
                        properties:
                          connections:
                            type: array
                            items: {$ref: "#/components/schemas/Connection"}
                "400": {$ref: "#/components/responses/BadParameter"}
                "401": {$ref: "#/components/responses/Unauthorized"}
        components:
          securitySchemes:
            bearerAuth:
              type: http
              scheme: bearer
              description: The value of `--admin-token`; only when the server was started with one.
          parameters:
            token:
              name: token
              in: query
              description: The device token (hex, any case).
              schema: {type: string, minLength: 1}
            tokenPrefix:
              name: tokenPrefix
              in: query
              description: The start of the device token (hex, any case).
              schema: {type: string, minLength: 1}
            topic:
              name: topic
              in: query
              description: The `apns-topic`, exactly.
              schema: {type: string}
            pushType:
              name: pushType
              in: query
              schema: {$ref: "#/components/schemas/PushType"}
            status:
              name: status
              in: query
              description: The HTTP status of the answer.
              schema: {type: integer, minimum: 100, maximum: 599}
            reason:
              name: reason
              in: query
              description: The reason of the answer (`BadDeviceToken`, …), exactly.
              schema: {type: string}
            apnsIdFilter:
              name: apnsId
              in: query
              schema: {$ref: "#/components/schemas/UUID"}
            collapseId:
              name: collapseId
              in: query
              description: The `apns-collapse-id`, exactly.
              schema: {type: string}
            priority:
              name: priority
              in: query
              description: The `apns-priority`.
              schema: {type: integer, minimum: 0, maximum: 100}
            environment:
              name: environment
              in: query
              schema: {type: string, enum: [sandbox, production]}
            authMethod:
              name: authMethod
              in: query
              schema: {type: string, enum: [token, certificate, none]}
            headersAndPayload:
              name: headersAndPayload
              in: query
              description: |
                Conditions on request headers and payload, one query parameter each:
                `headers.<name>=<value>` (a header's value, name in any case) and
                `payload.<path>=<value>` (`payload.aps.alert.title=Hi`: the payload holds this
                string at this path) and `preview.<field>=<value>` (`preview.body=Hello`: what the
                device would show; `preview.sound.name=default`).
              style: form
              explode: true
              schema:
                type: object
                additionalProperties: false
                # Values are left untyped: a query string's values are all text.
                patternProperties:
                  "^headers\\.[^.].*$": {description: The header's value.}
                  "^payload\\.[^.]+(\\.[^.]+)*$": {description: The text the payload holds at this path.}
                  "^preview\\.[^.]+(\\.[^.]+)*$": {description: The text the preview holds at this path.}
            connectionIdFilter:
              name: connectionId
              in: query
              description: The APNs connection (`connectionId` of the records).
              schema: {type: integer, minimum: 1, maximum: 18446744073709551615}
            faultId:
              name: faultId
              in: query
              description: The fault rule that acted on the request, exactly.
              schema: {type: string, minLength: 1}
            outcome:
              name: outcome
              in: query
              schema: {$ref: "#/components/schemas/DeliveryOutcome"}
            kind:
              name: kind
              in: query
              description: What the record is of.
              schema: {$ref: "#/components/schemas/RecordKind"}
            lint:
              name: lint
              in: query
              description: |
                The payload's lint: `error` or `warning` (a finding of that severity), `clean` (no
                finding), or a finding's code (`badge-not-integer`).
              schema: {$ref: "#/components/schemas/LintFilter"}
            since:
              name: since
              in: query
              description: Only records after this sequence number.
              schema: {$ref: "#/components/schemas/Sequence"}
            before:
              name: before
              in: query
              description: Only records before this sequence number.
              schema: {$ref: "#/components/schemas/Sequence"}
            deviceToken:
              name: token
              in: path
              required: true
              description: The device token, hex (any case).
              schema: {$ref: "#/components/schemas/DeviceToken"}
          responses:
            BadParameter:
              description: A query or path parameter is not valid (`badParameter`).
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
            BadRequest:
              description: The body, or a parameter, is not valid (`badRequest`, `badParameter`).
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
            NotFound:
              description: Nothing is stored or registered under this name (`notFound`).
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
            Unauthorized:
              description: The server has an admin token and the request did not carry it (`unauthorized`).
              headers:
                WWW-Authenticate:
                  description: The scheme to use.
                  schema: {type: string, const: 'Bearer realm="apns-mock admin"'}
              content:
                application/json:
                  schema: {$ref: "#/components/schemas/Error"}
          schemas:
            Error:
              type: object
              required: [error]
              properties:
                error:
                  type: object
                  required: [code, message]
                  properties:
                    code:
                      type: string
                      description: Stable; `badParameter`, `badRequest`, `notFound`, `unauthorized`, `methodNotAllowed`.
                    message:
                      type: string
                      description: A sentence naming the offending parameter or field.
            Sequence:
              type: integer
              minimum: 0
              maximum: 18446744073709551615
            UUID:
              type: string
              description: 8-4-4-4-12 hex digits, any case.
              pattern: "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$"
            DeviceToken:
              type: string
              description: An even number of hex digits, 8 to 256 bytes.
              pattern: "^([0-9A-Fa-f]{2}){8,256}$"
            KeyID:
              type: string
              description: Letters and digits (Apple's are 10 characters, e.g. ABC123DEFG).
              pattern: "^[A-Za-z0-9]+$"
            PushType:
              type: string
              enum: [alert, background, location, voip, complication, fileprovider, mdm, liveactivity, pushtotalk,
                widgets, controls]
            RecordKind:
              type: string
              description: What a record is of (`push`, a request on the APNs port).
              enum: [push]
            DeliveryOutcome:
              type: string
              description: |
                What became of the request: `pending` (a delay is running), `hung` (a fault rule holds it
                and never answers), `answered`, `goAway` (GOAWAY instead of an answer), `reset` (the mock
                reset the stream), `cancelled` (the client reset it), `connectionClosed` (the connection
                ended first).
              enum: [pending, hung, answered, goAway, reset, cancelled, connectionClosed]
            DelayDuration:
              type: string
              description: |
                A duration from 0 to 1 hour, with a unit (`ms`, `s`, `m`, `h`) or bare seconds: `500ms`,
                `2s`, `1.5m`; rounded to the millisecond.
              anyOf:
                - title: seconds
                  pattern: "^(3600(\\.0+)?|(3[0-5][0-9]{2}|[12][0-9]{3}|[0-9]{1,3})(\\.[0-9]+)?)s?$"
                - title: milliseconds
                  pattern: "^(3600000(\\.0+)?|(3[0-5][0-9]{5}|[12][0-9]{6}|[0-9]{1,6})(\\.[0-9]+)?)ms$"
                - title: minutes
                  pattern: "^(60(\\.0+)?|[1-5]?[0-9](\\.[0-9]+)?)m$"
                - title: hours
                  pattern: "^(1(\\.0+)?|0(\\.[0-9]+)?)h$"
            DayDuration:
              type: string
              description: |
                A duration up to 24 hours, with a unit (`ms`, `s`, `m`, `h`) or bare seconds: `30s`,
                `1500ms`, `2m`, `1h`, `0.5s`.
              anyOf:
                - title: fraction of a unit
                  pattern: "^0\\.[0-9]*[1-9][0-9]*(s|ms|m|h)?$"
                - title: seconds
                  pattern: "^(86400(\\.0+)?|(86[0-3][0-9]{2}|8[0-5][0-9]{3}|[1-7][0-9]{4}|[1-9][0-9]{0,3})(\\.[0-9]+)?)s?$"
                - title: milliseconds
                  pattern: "^(86400000(\\.0+)?|(86[0-3][0-9]{5}|8[0-5][0-9]{6}|[1-7][0-9]{7}|[1-9][0-9]{0,6})(\\.[0-9]+)?)ms$"
                - title: minutes
                  pattern: "^(1440(\\.0+)?|(14[0-3][0-9]|1[0-3][0-9]{2}|[1-9][0-9]{0,2})(\\.[0-9]+)?)m$"
                - title: hours
                  pattern: "^(24(\\.0+)?|(2[0-3]|1[0-9]|[1-9])(\\.[0-9]+)?)h$"
            FaultRuleID:
              type: string
              description: 1 to 64 characters from `A-Z a-z 0-9 . _ -`.
              pattern: "^[A-Za-z0-9._-]{1,64}$"
            FaultRuleBody:
              type: object
              description: |
                Which requests (`match`; every request without it), which of those (`select`; every
                match without it), and what to do to them (`action`).
              required: [action]
              additionalProperties: false
              properties:
                id:
                  description: The rule's name; `f1`, `f2`, … when left out.
                  $ref: "#/components/schemas/FaultRuleID"
                match: {$ref: "#/components/schemas/FaultMatch"}
                select: {$ref: "#/components/schemas/FaultSelection"}
                action: {$ref: "#/components/schemas/FaultAction"}
                createdAt: {type: integer, minimum: 0, maximum: 9223372036854775807, description: Read-only; ignored.}
                hits: {type: integer, minimum: 0, maximum: 9223372036854775807, description: Read-only; ignored.}
                matches: {type: integer, minimum: 0, maximum: 9223372036854775807, description: Read-only; ignored.}
            FaultRule:
              description: |
                A rule as listed: every part written out (durations with a unit, the `seed` of a
                `probability`), when it was created, and its counts.
              allOf:
                - $ref: "#/components/schemas/FaultRuleBody"
              required: [id, match, select, action, createdAt, hits, matches]
              properties:
                createdAt: {type: integer, description: Epoch ms; a `for` window starts then.}
                hits: {type: integer, minimum: 0, description: How many requests the rule acted on.}
                matches: {type: integer, minimum: 0, description: How many requests matched it.}
            FaultMatch:
              type: object
              description: |
                The conditions of a `Matcher`, all of them, and `connectionId`: the only APNs connection
                the rule applies to. `{}` matches every request.
              additionalProperties: false
              properties:
                token: {$ref: "#/components/schemas/Matcher/properties/token"}
                tokenPrefix: {$ref: "#/components/schemas/Matcher/properties/tokenPrefix"}
                topic: {$ref: "#/components/schemas/MatcherText"}
                pushType: {$ref: "#/components/schemas/PushType"}
                status: {$ref: "#/components/schemas/Matcher/properties/status"}
                reason: {$ref: "#/components/schemas/MatcherText"}
                apnsId: {$ref: "#/components/schemas/UUID"}
                collapseId: {$ref: "#/components/schemas/MatcherText"}
                priority: {$ref: "#/components/schemas/Matcher/properties/priority"}
                environment: {type: string, enum: [sandbox, production]}
                authMethod: {type: string, enum: [token, certificate, none]}
                headers: {$ref: "#/components/schemas/Matcher/properties/headers"}
                payload: {$ref: "#/components/schemas/Matcher/properties/payload"}
                connectionId: {type: integer, minimum: 0, maximum: 18446744073709551615}
                faultId: {$ref: "#/components/schemas/Matcher/properties/faultId"}
                outcome: {$ref: "#/components/schemas/DeliveryOutcome"}
                kind: {$ref: "#/components/schemas/RecordKind"}
                lint: {$ref: "#/components/schemas/LintFilter"}
                preview: {$ref: "#/components/schemas/Matcher/properties/preview"}
            FaultSelection:
              description: |
                Which of the matching requests the rule acts on, counted in match order: every one
                (`{}`), the first N, the Nth only, every Kth, each with a probability, or all until a
                time after the rule was created.
              oneOf:
                - title: every match
                  type: object
                  additionalProperties: false
                  maxProperties: 0
                - title: first
                  type: object
                  required: [first]
                  additionalProperties: false
                  properties:
                    first: {type: integer, minimum: 1, maximum: 9223372036854775807}
                - title: nth
                  type: object
                  required: [nth]
                  additionalProperties: false
                  properties:
                    nth: {type: integer, minimum: 1, maximum: 9223372036854775807}
                - title: every
                  type: object
                  required: [every]
                  additionalProperties: false
                  properties:
                    every: {type: integer, minimum: 1, maximum: 9223372036854775807}
                - title: probability
                  type: object
                  required: [probability]
                  additionalProperties: false
                  properties:
                    probability: {type: number, minimum: 0, maximum: 1}
                    seed:
                      description: |
                        The seed of the rule's generator (also used for delay ranges); derived from the
                        server's `--seed` and the rule's id when left out, so the draws are reproducible.
                      type: integer
                      minimum: 0
                      maximum: 18446744073709551615
                - title: for
                  type: object
                  required: [for]
                  additionalProperties: false
                  properties:
                    for:
                      description: How long after the rule was created (1 ms to 24 hours).
                      $ref: "#/components/schemas/DayDuration"
            FaultAction:
              type: object
              description: |
                What to do to a selected request: one action, or `delay` and at most one other. A delay
                alone is followed by the normal answer.
              additionalProperties: false
              minProperties: 1
              maxProperties: 2
              anyOf:
                - maxProperties: 1
                - required: [delay]
              properties:
                delay: {$ref: "#/components/schemas/FaultDelay"}
                respond: {$ref: "#/components/schemas/FaultResponse"}
                hang:
                  description: Never answer the stream.
                  type: object
                  additionalProperties: false
                  maxProperties: 0
                resetStream:
                  description: Reset the stream (RST_STREAM) instead of answering.
                  type: object
                  additionalProperties: false
                  properties:
                    errorCode:
                      description: "`REFUSED_STREAM` when left out."
                      $ref: "#/components/schemas/HTTP2ErrorCode"
                goaway:
                  description: |
                    Send GOAWAY instead of answering, then take no more streams on the connection. The
                    debug data is `debug` as is, or `{"reason": …}` from `reason`, or
                    `{"reason":"Shutdown"}` without either; at most \#(FaultEffect.goAwayDebugDataLimit) bytes.
                  type: object
                  additionalProperties: false
                  not: {required: [debug, reason]}
                  properties:
                    errorCode:
                      description: "`NO_ERROR` when left out."
                      $ref: "#/components/schemas/HTTP2ErrorCode"
                    lastStreamId:
                      description: The last stream id announced; the last stream processed when left out.
                      type: integer
                      minimum: 0
                      maximum: 2147483647
                    debug: {type: string, maxLength: \#(FaultEffect.goAwayDebugDataLimit)}
                    reason: {type: string, minLength: 1, maxLength: \#(FaultEffect.goAwayDebugDataLimit - 13)}
                close:
                  description: Close the TCP connection.
                  type: object
                  additionalProperties: false
                  properties:
                    respondFirst: {type: boolean, default: false, description: Answer the request normally first.}
                setMaxConcurrentStreams:
                  description: Announce this SETTINGS_MAX_CONCURRENT_STREAMS on the connection, and answer normally.
                  type: object
                  required: [value]
                  additionalProperties: false
                  properties:
                    value: {type: integer, minimum: 0, maximum: 2147483647}
            FaultDelay:
              description: How long to hold the stream first; a range draws uniformly from the rule's generator.
              oneOf:
                - type: object
                  required: [duration]
                  additionalProperties: false
                  properties:
                    duration: {$ref: "#/components/schemas/DelayDuration"}
                - type: object
                  description: "`min` must not be longer than `max`."
                  required: [min, max]
                  additionalProperties: false
                  properties:
                    min: {$ref: "#/components/schemas/DelayDuration"}
                    max: {$ref: "#/components/schemas/DelayDuration"}
            FaultResponse:
              description: |
                The answer to send instead: any status and reason (Apple's or invented), but like APNs a
                200 has no body and any other status has a reason.
              oneOf:
                - title: success
                  type: object
                  required: [status]
                  additionalProperties: false
                  properties:
                    status: {const: 200}
                - title: error
                  type: object
                  required: [status, reason]
                  additionalProperties: false
                  properties:
                    status:
                      type: integer
                      minimum: 100
                      maximum: 599
                      not: {const: 200}
                    reason: {type: string, minLength: 1}
                    timestamp: {type: integer, minimum: 0, maximum: 9223372036854775807, description: Epoch ms, as APNs sends with 410.}
                    dataFrames:
                      description: How many DATA frames the body is split over.
                      type: integer
                      minimum: 1
                      maximum: \#(FaultResponse.dataFramesLimit)
                      default: 1
            HTTP2ErrorCode:
              description: An HTTP/2 error code by RFC 9113's name, or any 32-bit number.
              oneOf:
                - type: string
                  enum: [NO_ERROR, PROTOCOL_ERROR, INTERNAL_ERROR, FLOW_CONTROL_ERROR, SETTINGS_TIMEOUT, STREAM_CLOSED,
                    FRAME_SIZE_ERROR, REFUSED_STREAM, CANCEL, COMPRESSION_ERROR, CONNECT_ERROR, ENHANCE_YOUR_CALM,
                    INADEQUATE_SECURITY, HTTP_1_1_REQUIRED]
                - {type: integer, minimum: 0, maximum: 4294967295}
            BehaviorName:
              type: string
              description: |
                `streams-after-rejection`: after a rejected push, MAX_CONCURRENT_STREAMS 1 until the next
                accepted one. `expired-token-poison`: after an ExpiredProviderToken the connection refuses
                open streams and answers every later push 403 ExpiredProviderToken.
                `token-update-lockout`: after a 429 TooManyProviderTokenUpdates the connection keeps
                answering 429 for `lockout`. `stream-limit-goaway`: a client that opens more streams than
                it acknowledged gets GOAWAY REFUSED_STREAM "Maximum active streams violated for this
                endpoint." and the connection closes.
              enum: [streams-after-rejection, expired-token-poison, token-update-lockout, stream-limit-goaway]
            BehaviorBody:
              oneOf:
                - type: object
                  required: [name]
                  additionalProperties: false
                  properties:
                    name: {const: token-update-lockout}
                    lockout:
                      description: How long the 429s last (60s when left out).
                      $ref: "#/components/schemas/DayDuration"
                - type: object
                  required: [name]
                  additionalProperties: false
                  properties:
                    name: {type: string, enum: [streams-after-rejection, expired-token-poison, stream-limit-goaway]}
            Behaviors:
              type: object
              required: [behaviors]
              properties:
                behaviors:
                  type: array
                  items:
                    type: object
                    required: [name]
                    properties:
                      name: {$ref: "#/components/schemas/BehaviorName"}
                      lockout: {type: string, description: Only for token-update-lockout (`60s`).}
            Modes:
              type: object
              required: [shutdown, unavailable, unavailableUntil, refuseTls, throttle]
              properties:
                shutdown: {type: boolean}
                unavailable: {type: boolean}
                unavailableUntil:
                  description: When the unavailable mode ends (epoch ms); null when it is off or lasts until switched off.
                  type: [integer, "null"]
                refuseTls: {type: integer, minimum: 0, description: TLS handshakes still to fail.}
                throttle: {type: [string, "null"], description: "`--throttle` (`3/10s`: pushes per token per window), if set."}
            Connection:
              type: object
              required: [id, peer, state, openedAt, closedAt, events, droppedEvents]
              properties:
                id: {type: integer, minimum: 0, description: The `connectionId` of its records.}
                peer: {type: string, description: "`127.0.0.1:54321`."}
                state: {type: string, enum: [open, closed]}
                openedAt: {type: integer, description: Epoch ms.}
                closedAt: {type: [integer, "null"], description: Epoch ms.}
                events:
                  type: array
                  items:
                    type: object
                    description: One thing that happened; the fields besides `at` and `kind` depend on the kind.
                    required: [at, kind]
                    properties:
                      at: {type: integer, description: Epoch ms.}
                      kind:
                        type: string
                        description: |
                          `opened`, `handshake`, `handshakeFailed`, `settingsSent`, `goawaySent`,
                          `goawayReceived`, `streamReset`, `refused`, `closed`.
                droppedEvents: {type: integer, minimum: 0, description: Events not kept (a connection keeps its first 200).}
            QueryDuration:
              type: string
              description: |
                A number of seconds, bare or with a unit (`s`, `ms`, `m`, `h`), at most
                \#(Int(AdminRouter.maximumWaitSeconds)) seconds: `0.5`, `5s`, `500ms`, `2m`. (`h` is accepted
                too, up to the same bound, though no pattern here lists it.)
              anyOf:
                - title: seconds
                  pattern: "^(300(\\.0+)?|[12]?[0-9]{1,2}(\\.[0-9]+)?)s?$"
                - title: milliseconds
                  pattern: "^(300000(\\.0+)?|[12]?[0-9]{1,5}(\\.[0-9]+)?)ms$"
                - title: minutes
                  pattern: "^(5(\\.0+)?|[0-4](\\.[0-9]+)?)m$"
            Duration:
              description: |
                A number of seconds (JSON number), or a string as for a query's duration (`500ms`,
                `5s`, `2m`); at most \#(Int(AdminRouter.maximumWaitSeconds)) seconds.
              oneOf:
                - type: number
                  minimum: 0
                  maximum: \#(Int(AdminRouter.maximumWaitSeconds))
                - {$ref: "#/components/schemas/QueryDuration"}
            OptionalTime:
              type: [integer, "null"]
              minimum: 0
              maximum: 9223372036854775807
            WaitResult:
              type: object
              required: [deliveries, count, satisfied]
              properties:
                deliveries:
                  type: array
                  items: {$ref: "#/components/schemas/Delivery"}
                count: {type: integer, minimum: 0}
                satisfied: {type: boolean}
            DeliveryPage:
              type: object
              required: [deliveries, next, total, dropped]
              properties:
                deliveries:
                  type: array
                  items: {$ref: "#/components/schemas/Delivery"}
                next:
                  description: The cursor of the next page (`since` or `before`), or null on the last page.
                  type: [integer, "null"]
                  minimum: 0
                total:
                  description: How many records match in all.
                  type: integer
                  minimum: 0
                dropped:
                  description: How many records the store has dropped (oldest first) since it started.
                  type: integer
                  minimum: 0
            Delivery:
              type: object
              description: One answered request, accepted or rejected, and its answer.
              required: [sequence, kind, receivedAt, respondedAt, connectionId, streamId, environment, method, path,
                authority, token, headers, authorization, priority, expiration, collapseId, topic, pushType, apnsId,
                apnsIdGenerated, uniqueId, payloadKind, payload, payloadSize, auth, response, outcome, faultId,
                payloadLimit, payloadBytesRemaining, lint, preview]
              properties:
                sequence: {type: integer, minimum: 1}
                kind: {$ref: "#/components/schemas/RecordKind"}
                receivedAt: {type: integer, description: Epoch ms.}
                respondedAt: {type: [integer, "null"], description: Epoch ms.}
                connectionId: {type: integer, minimum: 0}
                streamId: {type: integer, minimum: 0}
                environment: {type: string, enum: [sandbox, production]}
                method: {type: string}
                path: {type: string}
                authority: {type: [string, "null"]}
                token: {type: [string, "null"], description: From the path; lower-case when it is hex.}
                headers:
                  type: object
                  description: Every header by name (repeated values joined with ", ").
                  additionalProperties: {type: string}
                authorization:
                  description: The provider token's scheme and decoded JWT header and claims (null when they do not decode).
                  type: [object, "null"]
                  required: [scheme, header, claims]
                  properties:
                    scheme: {type: string}
                    header: {description: The JOSE header (JSON).}
                    claims: {description: The claims (JSON).}
                priority: {type: [integer, "null"]}
                expiration: {type: [integer, "null"]}
                collapseId: {type: [string, "null"]}
                topic: {type: [string, "null"]}
                pushType:
                  oneOf:
                    - {$ref: "#/components/schemas/PushType"}
                    - {type: "null"}
                apnsId: {type: string}
                apnsIdGenerated: {type: boolean, description: The mock made the apns-id up (the request had none).}
                uniqueId: {type: [string, "null"], description: The apns-unique-id (sandbox only).}
                payloadKind: {type: string, enum: [empty, object, otherJSON, notJSON, truncated]}
                payload:
                  description: The payload as JSON (`object`, `otherJSON`), as text (`notJSON`, `truncated`) or null (`empty`).
                payloadSize: {type: integer, minimum: 0, description: Bytes received (more than were kept when truncated).}
                auth:
                  description: How the request authenticated, or null when it got no verdict.
                  oneOf:
                    - {type: "null"}
                    - type: object
                      required: [method, teamId, keyId, signatureVerified, keyUnknown]
                      properties:
                        method: {const: token}
                        teamId: {type: [string, "null"]}
                        keyId: {type: [string, "null"]}
                        signatureVerified: {type: boolean}
                        keyUnknown: {type: boolean}
                    - type: object
                      required: [method, certificateSubject, certificateTopics]
                      properties:
                        method: {const: certificate}
                        certificateSubject: {type: [string, "null"]}
                        certificateTopics:
                          type: array
                          items: {type: string}
                response:
                  type: [object, "null"]
                  required: [status, reason, timestamp, goAway]
                  properties:
                    status: {type: [integer, "null"], description: "null when the answer was only a GOAWAY (its reason went out as the GOAWAY's debug data)."}
                    reason: {type: [string, "null"]}
                    timestamp: {type: [integer, "null"], description: The 410 answer's timestamp (epoch ms).}
                    goAway: {type: boolean, description: The answer was a GOAWAY, not a response on the stream.}
                outcome:
                  description: What became of the request; `response` is null unless it was answered (or sent GOAWAY).
                  $ref: "#/components/schemas/DeliveryOutcome"
                faultId: {type: [string, "null"], description: The fault rule that acted on the request, if any.}
                payloadLimit: {type: integer, description: The payload limit that applied (bytes).}
                payloadBytesRemaining: {type: integer, description: Bytes left under the limit (negative when over).}
                lint:
                  type: array
                  description: What the payload analysis found (computed on first read).
                  items: {$ref: "#/components/schemas/LintFinding"}
                preview:
                  description: What the device would show; null for a rejected push or a payload that is no JSON object.
                  oneOf:
                    - {$ref: "#/components/schemas/Preview"}
                    - {type: "null"}
            LintFinding:
              type: object
              required: [code, severity, path, message]
              properties:
                code: {type: string, description: Stable code (the README's lint table).}
                severity: {type: string, enum: [error, warning]}
                path: {type: string, description: "Where: `aps.badge`, `aps.alert.loc-args`, `header:apns-priority`, or empty for the whole payload."}
                message: {type: string}
            Preview:
              type: object
              required: [silent]
              properties:
                title: {type: string}
                subtitle: {type: string}
                body: {type: string}
                badge: {type: integer}
                sound:
                  type: object
                  required: [critical]
                  properties:
                    name: {type: string}
                    critical: {type: boolean}
                    volume: {type: number}
                category: {type: string}
                threadId: {type: string}
                interruptionLevel: {type: string}
                silent: {type: boolean, description: Nothing shown, played or badged.}
            LintFilter:
              type: string
              description: "`error`, `warning`, `clean`, or a lint code."
              enum: [error, warning, clean, \#(LintCode.all.map(\.rawValue).joined(separator: ", "))]
            ExpectationList:
              type: array
              items: {$ref: "#/components/schemas/Expectation"}
            Expectation:
              oneOf:
                - $ref: "#/components/schemas/SingleExpectation"
                - type: object
                  description: A sequence; each step counts only the records after those of the step before.
                  required: [name, inOrder, steps]
                  additionalProperties: false
                  properties:
                    name: {type: string, minLength: 1}
                    inOrder: {const: true}
                    within: {$ref: "#/components/schemas/Duration"}
                    steps:
                      type: array
                      minItems: 1
                      items: {$ref: "#/components/schemas/Step"}
            SingleExpectation:
              type: object
              required: [name, match]
              additionalProperties: false
              properties:
                name: {type: string, minLength: 1}
                match: {$ref: "#/components/schemas/Matcher"}
                count: {$ref: "#/components/schemas/Count"}
                within:
                  description: How long to wait for it to hold; judged at once without.
                  $ref: "#/components/schemas/Duration"
                inOrder: {const: false}
            Step:
              type: object
              description: A step of a sequence; named `step N` without a name, waits its sequence's `within`.
              required: [match]
              additionalProperties: false
              properties:
                name: {type: string, minLength: 1}
                match: {$ref: "#/components/schemas/Matcher"}
                count: {$ref: "#/components/schemas/Count"}
                within: {$ref: "#/components/schemas/Duration"}
                inOrder: {const: false}
            Count:
              description: "How many matching records; `{atLeast: 1}` when left out."
              oneOf:
                - type: object
                  required: [exactly]
                  additionalProperties: false
                  properties:
                    exactly: {$ref: "#/components/schemas/CountNumber"}
                - type: object
                  required: [atLeast]
                  additionalProperties: false
                  properties:
                    atLeast: {$ref: "#/components/schemas/CountNumber"}
                - type: object
                  required: [atMost]
                  additionalProperties: false
                  properties:
                    atMost: {$ref: "#/components/schemas/CountNumber"}
                - type: object
                  required: [none]
                  additionalProperties: false
                  properties:
                    none: {enum: [true, "true"]}
            CountNumber:
              oneOf:
                - {type: integer, minimum: 0, maximum: 9223372036854775807}
                - {type: string, pattern: "^[0-9]{1,18}$"}
            MatcherText:
              description: A string (a number or boolean is read as its text).
              type: [string, number, boolean]
            Matcher:
              type: object
              description: The conditions a record must meet, all of them; `{}` matches every record.
              additionalProperties: false
              properties:
                token:
                  description: Not empty.
                  type: [string, number, boolean]
                  minLength: 1
                tokenPrefix:
                  description: Not empty.
                  type: [string, number, boolean]
                  minLength: 1
                topic: {$ref: "#/components/schemas/MatcherText"}
                pushType: {$ref: "#/components/schemas/PushType"}
                status:
                  oneOf:
                    - {type: integer, minimum: 100, maximum: 599}
                    - {type: string, pattern: "^[1-5][0-9]{2}$"}
                reason: {$ref: "#/components/schemas/MatcherText"}
                apnsId: {$ref: "#/components/schemas/UUID"}
                collapseId: {$ref: "#/components/schemas/MatcherText"}
                priority:
                  oneOf:
                    - {type: integer, minimum: 0, maximum: 100}
                    - {type: string, pattern: "^(100|[1-9]?[0-9])$"}
                environment: {type: string, enum: [sandbox, production]}
                authMethod: {type: string, enum: [token, certificate, none]}
                headers:
                  type: object
                  description: Header values by name (any case).
                  additionalProperties: {$ref: "#/components/schemas/MatcherText"}
                payload:
                  description: A structural subset of the payload (any JSON; arrays compare whole).
                connectionId:
                  description: The APNs connection (`connectionId` of the records).
                  oneOf:
                    - {type: integer, minimum: 1, maximum: 18446744073709551615}
                    - {type: string, pattern: "^0*[1-9][0-9]{0,18}$"}
                faultId:
                  description: The fault rule that acted on the request; not empty.
                  type: [string, number, boolean]
                  minLength: 1
                outcome: {$ref: "#/components/schemas/DeliveryOutcome"}
                kind: {$ref: "#/components/schemas/RecordKind"}
                lint: {$ref: "#/components/schemas/LintFilter"}
                preview:
                  type: object
                  description: "A structural subset of the preview, such as {body: Hello}."
            VerifyResult:
              type: object
              required: [passed, results]
              properties:
                passed: {type: boolean}
                results:
                  type: array
                  items: {$ref: "#/components/schemas/ExpectationResult"}
            ExpectationResult:
              type: object
              required: [name, passed]
              properties:
                name: {type: string}
                passed: {type: boolean}
                within: {type: string}
                note: {type: string, description: Why a sequence failed, or that a step was not reached.}
                inOrder: {const: true}
                steps:
                  type: array
                  items: {$ref: "#/components/schemas/ExpectationResult"}
                match: {$ref: "#/components/schemas/Matcher"}
                expected: {type: string, description: "`exactly 1`, `at least 2`, `at most 0`, `none`."}
                count: {$ref: "#/components/schemas/Count"}
                matched: {type: integer, minimum: 0}
                matchedSequences:
                  description: The first matching records' sequence numbers.
                  type: array
                  items: {type: integer}
                nearMisses:
                  type: array
                  items:
                    type: object
                    required: [sequence, satisfied, of, differences, record]
                    properties:
                      sequence: {type: integer}
                      satisfied: {type: integer, minimum: 0}
                      of: {type: integer, minimum: 0}
                      differences:
                        type: array
                        items:
                          type: object
                          required: [field, expected, actual]
                          properties:
                            field: {type: string}
                            expected: {type: string}
                            actual: {type: [string, "null"]}
                      record: {$ref: "#/components/schemas/Delivery"}
            Key:
              type: object
              required: [keyId, teamId, environment, topics, relatedKeyId, publicKey]
              properties:
                keyId: {type: string}
                teamId: {type: string}
                environment: {type: string, enum: [sandbox, production, both]}
                topics:
                  type: array
                  items: {type: string}
                relatedKeyId: {type: [string, "null"]}
                publicKey: {type: [string, "null"], description: PEM `PUBLIC KEY`.}
            KeyBody:
              type: object
              description: |
                Exactly one of `publicKey` (PEM `PUBLIC KEY`, EC P-256) or `privateKey` (the text of
                Apple's `.p8` file; only its public half is kept). A field given as null is left out.
              required: [teamId]
              additionalProperties: false
              oneOf:
                - required: [publicKey]
                  properties:
                    publicKey: {type: string}
                    privateKey: {type: "null"}
                - required: [privateKey]
                  properties:
                    privateKey: {type: string}
                    publicKey: {type: "null"}
              properties:
                keyId:
                  description: Must equal the path's `keyId` when given.
                  type: [string, "null"]
                teamId: {$ref: "#/components/schemas/KeyID"}
                publicKey: {type: [string, "null"]}
                privateKey: {type: [string, "null"]}
                environment:
                  type: [string, "null"]
                  enum: [sandbox, production, both, null]
                  default: both
                topics:
                  description: A topic-specific key signs only for these topics.
                  type: [array, "null"]
                  items: {type: string, minLength: 1}
                relatedKeyId:
                  description: Another key of the same topic-specific pair; needs `topics`.
                  oneOf:
                    - {$ref: "#/components/schemas/KeyID"}
                    - {type: "null"}
            Device:
              type: object
              required: [token, topic, environment, state]
              properties:
                token: {type: string, description: Lower-case hex.}
                topic: {type: [string, "null"], description: null accepts any topic.}
                environment:
                  description: null accepts either environment.
                  type: [string, "null"]
                  enum: [sandbox, production, null]
                state: {type: string, enum: [active, unregistered, expired]}
                unregisteredAt: {type: integer, description: Epoch ms; only when unregistered.}
                expiredAt: {type: integer, description: Epoch ms; only when expired.}
                locale: {type: [string, "null"], description: The device's language for previews; null takes the server's.}
            DeviceBody:
              description: |
                Every field is optional; a field given as null is left out. `state` defaults to
                `active`, or to the state whose time is given; that time defaults to now.
              oneOf:
                - title: active
                  type: object
                  additionalProperties: false
                  properties:
                    token: {$ref: "#/components/schemas/DeviceBodyToken"}
                    topic: {$ref: "#/components/schemas/DeviceBodyTopic"}
                    environment: {$ref: "#/components/schemas/DeviceBodyEnvironment"}
                    locale: {$ref: "#/components/schemas/DeviceBodyLocale"}
                    state: {enum: [active, null]}
                    unregisteredAt: {type: "null"}
                    expiredAt: {type: "null"}
                - title: unregistered
                  description: Pushes get 410 Unregistered.
                  type: object
                  additionalProperties: false
                  anyOf:
                    - {required: [state], properties: {state: {const: unregistered}}}
                    - {required: [unregisteredAt], properties: {unregisteredAt: {type: integer}}}
                  properties:
                    token: {$ref: "#/components/schemas/DeviceBodyToken"}
                    topic: {$ref: "#/components/schemas/DeviceBodyTopic"}
                    environment: {$ref: "#/components/schemas/DeviceBodyEnvironment"}
                    locale: {$ref: "#/components/schemas/DeviceBodyLocale"}
                    state: {enum: [unregistered, null]}
                    unregisteredAt: {$ref: "#/components/schemas/OptionalTime"}
                    expiredAt: {type: "null"}
                - title: expired
                  description: Pushes get 410 ExpiredToken.
                  type: object
                  additionalProperties: false
                  anyOf:
                    - {required: [state], properties: {state: {const: expired}}}
                    - {required: [expiredAt], properties: {expiredAt: {type: integer}}}
                  properties:
                    token: {$ref: "#/components/schemas/DeviceBodyToken"}
                    topic: {$ref: "#/components/schemas/DeviceBodyTopic"}
                    environment: {$ref: "#/components/schemas/DeviceBodyEnvironment"}
                    locale: {$ref: "#/components/schemas/DeviceBodyLocale"}
                    state: {enum: [expired, null]}
                    unregisteredAt: {type: "null"}
                    expiredAt: {$ref: "#/components/schemas/OptionalTime"}
            DeviceBodyToken:
              description: Must equal the path's token (any case) when given.
              type: [string, "null"]
            DeviceBodyTopic:
              description: Pushes for another topic get 400 DeviceTokenNotForTopic; left out, any topic.
              type: [string, "null"]
              minLength: 1
            DeviceBodyEnvironment:
              description: Pushes in the other environment get 400 BadDeviceToken; left out, either.
              type: [string, "null"]
              enum: [sandbox, production, null]
            DeviceBodyLocale:
              description: The device's language, for previews of localized alerts; left out, the server's `--locale`.
              type: [string, "null"]
              pattern: "^(Base|[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8})*)$"
        """#
}
