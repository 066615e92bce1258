import DeltaSyncCore
import DeltaSyncStorage
import Foundation
import Hummingbird

// The routes that read: the store's counts, items, deltas and conflicts, connections, the clock.
extension FixtureRoutes {
    func status() async throws -> Response {
        let schema = fixture.schema
        let counts = try await fixture.store.read { tx in
            try schema.models.map { model -> JSONValue in
                let (items, tombstones) = try tx.count(model)
                let deltas = try tx.deltaCount(of: model)
                return ["name": .string(model.name), "items": .int(items), "tombstones": .int(tombstones), "deltas": .int(deltas)]
            }
        }
        return Self.json([
            "models": .array(counts), "clock": clockJSON, "faults": .array(fixture.activeFaults.map(\.json)),
            "connections": .int(fixture.connections.count), "conflictDetection": .string(schema.conflictDetection.rawValue),
            "simulation": .bool(fixture.simulationTimeline != nil),
        ])
    }

    func reset(_ request: Request) async throws -> Response {
        let body = try await object(request, allowEmpty: true)
        var models: [String]?
        if let list = body["models"] {
            guard let names = list.arrayValue?.compactMap(\.stringValue), names.count == list.arrayValue?.count else {
                throw Self.badRequest("\"models\" is a list of model names, e.g. [\"Post\"].")
            }
            models = names
        }
        let reset = try await fixture.reset(models: models)
        return Self.json(["reset": .array(reset.map(JSONValue.string))])
    }

    func items(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let model = try fixture.model(named: context.parameters.get("model") ?? "")
        let limit = try Self.limit(request)
        var after: [JSONValue]?
        if let token = request.uri.queryParameters["after"] {
            guard let decoded = Base64URL.decode(String(token)).flatMap({ try? JSONValue(parsing: String(decoding: $0, as: UTF8.self)) }),
                let list = decoded.arrayValue
            else { throw Self.badRequest("'after' is the nextToken of the previous page.") }
            after = list
        }
        let page = try await fixture.store.read { [after] tx in try tx.query(model, ItemQuery(limit: limit, after: after)) }
        let next = page.lastEvaluated.map { JSONValue.string(Base64URL.encode(Data(JSONValue.array($0).jsonText.utf8))) } ?? .null
        return Self.json(["items": .array(page.items.map(JSONValue.object)), "nextToken": next])
    }

    func deltas(_ request: Request, _ context: some RequestContext) async throws -> Response {
        let model = try fixture.model(named: context.parameters.get("model") ?? "")
        let limit = try Self.limit(request)
        let newest = try await fixture.store.read { tx in try tx.latestDeltas(model, limit: limit) }
        return Self.json(["deltas": .array(newest.map { item in
            ["changedAt": .int(item["_lastChangedAt"]?.intValue ?? 0), "item": .object(item)]
        })])
    }

    func conflicts(_ request: Request) async throws -> Response {
        let model = request.uri.queryParameters["model"].map(String.init)
        let limit = try Self.limit(request)
        let records = try await fixture.store.read { tx in try tx.conflicts(model: model, limit: limit) }
        return Self.json(["conflicts": .array(records.map(\.json))])
    }

    func connections() -> Response {
        let listed = fixture.connections.list().map { connection -> JSONValue in
            let (mode, who) = RequestLog.describe(connection.identity)
            return [
                "id": .int(connection.id),
                "connectedAt": .string(AWSDateTimeFormat.string(fromMilliseconds: Int(connection.connectedAt.timeIntervalSince1970 * 1000))),
                "authMode": mode.map(JSONValue.string) ?? .null,
                "identity": who.map(JSONValue.string) ?? .null,
                "subscriptions": .array(connection.subscriptions.map { subscription in
                    ["id": .string(subscription.id), "operation": .string(subscription.field),
                     "mutations": .array(subscription.mutations.map(JSONValue.string))]
                }),
            ]
        }
        return Self.json(["connections": .array(listed)])
    }

    var clockJSON: JSONValue {
        let clock = fixture.clock
        let now = Int((clock.now().timeIntervalSince1970 * 1000).rounded())
        return [
            "now": .string(AWSDateTimeFormat.string(fromMilliseconds: now)), "nowMilliseconds": .int(now),
            "mode": .string(clock.mode.rawValue), "offsetMilliseconds": .int(clock.offsetMilliseconds),
        ]
    }

    func clock() -> Response { Self.json(clockJSON) }
}
