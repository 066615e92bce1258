import DeltaSyncCore
import DeltaSyncGraphQL
import DeltaSyncStorage
import Foundation
import HTTPTypes
import Hummingbird

/// The fixture API under `/admin/` (the README's "Fixture API" lists every route): data,
/// snapshots, the clock, faults, connections and the request log, for test suites and the
/// console. Every request needs the admin key in `x-deltasync-admin-key`; the API key is
/// never enough. Off with ``ServerConfiguration/fixtureAPI`` `false` (`--no-admin`).
struct AdminRoutes: Sendable {
    static let keyHeader = HTTPField.Name("x-deltasync-admin-key")!

    let fixture: Fixture
    let adminKey: String
    /// What `GET /admin/client-config` describes.
    let clientConfiguration: @Sendable (Request) -> ClientConfiguration
    /// The largest seed or snapshot accepted.
    let maxBodyBytes: Int

    func add(to router: Router<ServerRequestContext>) {
        let admin = router.group("admin").add(middleware: AdminKeyMiddleware(key: adminKey))
        admin.get("status") { _, _ in try await status() }
        admin.post("reset") { request, _ in try await reset(request) }
        admin.post("seed") { request, _ in
            let counts = try await fixture.seed(try await text(request))
            return Self.json(["seeded": .object(counts.mapValues(JSONValue.int))])
        }
        admin.get("snapshot") { request, _ in
            guard request.headers[.accept]?.contains(Self.databaseType) == true else { return Self.json(try await fixture.snapshot().json) }
            let bytes = try await fixture.snapshotDatabase()
            return Response(status: .ok, headers: [.contentType: Self.databaseType], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }
        admin.put("snapshot") { request, _ in
            if request.headers[.contentType]?.hasPrefix(Self.databaseType) == true {
                let buffer = try await request.body.collect(upTo: maxBodyBytes)
                try await fixture.restore(database: Data(buffer: buffer))
                return Self.json(["imported": .object(try await Self.counts(fixture))])
            }
            let counts = try await fixture.restore(try await text(request))
            return Self.json(["imported": .object(counts.mapValues(JSONValue.int))])
        }
        admin.get("snapshots") { _, _ in Self.json(["snapshots": .array(fixture.snapshotNames.map(JSONValue.string))]) }
        admin.put("snapshots/:name") { _, context in
            let name = try Self.snapshotName(context)
            try await fixture.saveSnapshot(named: name)
            return Self.json(["saved": .string(name)])
        }
        admin.post("snapshots/:name/restore") { _, context in
            let name = try Self.snapshotName(context)
            try await fixture.restoreSnapshot(named: name)
            return Self.json(["restored": .string(name)])
        }
        admin.delete("snapshots/:name") { _, context in
            let name = try Self.snapshotName(context)
            guard fixture.deleteSnapshot(named: name) else {
                throw HTTPErrorResponse(status: .notFound, error: AppSyncError(.badRequest, "No snapshot is saved as '\(name)'."))
            }
            return Self.json(["deleted": .string(name)])
        }
        admin.get("models/:model/items") { request, context in try await items(request, context) }
        admin.get("models/:model/deltas") { request, context in try await deltas(request, context) }
        admin.get("conflicts") { request, _ in try await conflicts(request) }
        admin.post("changes") { request, _ in
            let body = try await object(request)
            guard let model = body["model"]?.stringValue, case .object(let item)? = body["item"] else {
                throw Self.badRequest("A change is {\"model\": \"Post\", \"item\": {\"id\": \"...\", ...}}.")
            }
            return Self.json(try await fixture.change(model: model, fields: item))
        }
        admin.get("clock") { _, _ in clock() }
        admin.post("clock/freeze") { _, _ in
            fixture.clock.freeze()
            return clock()
        }
        admin.post("clock/advance") { request, _ in
            let body = try await object(request)
            let duration: Duration?
            switch body["by"] {
            case .string(let text)?: duration = DurationText.parse(text, bareUnit: .milliseconds(1))
            case let value?: duration = value.intValue.flatMap { $0 >= 0 ? .milliseconds($0) : nil }
            case nil: duration = nil
            }
            guard let duration else {
                throw Self.badRequest("Advance takes {\"by\": \"30m\"}: a duration (500ms, 90s, 30m, 2h, 1d) or milliseconds, not negative.")
            }
            fixture.clock.advance(by: duration)
            return clock()
        }
        admin.post("clock/set") { request, _ in
            let body = try await object(request)
            guard let text = body["to"]?.stringValue, let date = Self.date(text) else {
                throw Self.badRequest("Set takes {\"to\": \"2026-01-01T00:00:00.000Z\"}: an ISO 8601 date and time.")
            }
            fixture.clock.set(to: date)
            return clock()
        }
        admin.post("clock/real") { _, _ in
            fixture.clock.useRealTime()
            return clock()
        }
        admin.post("purge") { _, _ in
            let purged = await fixture.purge()
            return Self.json(["deltas": .int(purged.deltas), "tombstones": .int(purged.tombstones)])
        }
        admin.get("faults") { _, _ in Self.json(["faults": .array(fixture.activeFaults.map(\.json))]) }
        admin.post("faults") { request, _ in
            let fault = try Fault(json: .object(try await object(request)), now: Date())
            return Self.json(fixture.addFault(fault).json, status: .created)
        }
        admin.delete("faults") { _, _ in Self.json(["cleared": .int(fixture.clearFaults())]) }
        admin.delete("faults/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            let cleared = fixture.clearFaults(id: id)
            guard cleared > 0 else { throw HTTPErrorResponse(status: .notFound, error: AppSyncError(.badRequest, "No active fault has id '\(id)'.")) }
            return Self.json(["cleared": .int(cleared)])
        }
        admin.get("connections") { _, _ in connections() }
        admin.post("connections/close") { request, _ in
            let body = try await object(request, allowEmpty: true)
            return Self.json(["closed": .int(fixture.closeConnections(drop: body["drop"]?.boolValue ?? false))])
        }
        admin.get("requests") { request, _ in
            let limit = try Self.limit(request)
            return Self.json(["requests": .array(fixture.requests.recent(limit: limit).map(\.json))])
        }
        admin.get("client-config") { request, _ in Self.json(clientConfiguration(request).json) }
    }

    // MARK: - Routes

    private func status() async throws -> Response {
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
        ])
    }

    private func reset(_ request: Request) async throws -> Response {
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

    private func items(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
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

    private func deltas(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        let model = try fixture.model(named: context.parameters.get("model") ?? "")
        let limit = try Self.limit(request)
        let newest = try await fixture.store.read { tx in try tx.latestDeltas(model, limit: limit) }
        return Self.json(["deltas": .array(newest.map { item in
            ["changedAt": .int(item["_lastChangedAt"]?.intValue ?? 0), "item": .object(item)]
        })])
    }

    private func conflicts(_ request: Request) async throws -> Response {
        let model = request.uri.queryParameters["model"].map(String.init)
        let limit = try Self.limit(request)
        let records = try await fixture.store.read { tx in try tx.conflicts(model: model, limit: limit) }
        return Self.json(["conflicts": .array(records.map(\.json))])
    }

    private func connections() -> Response {
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

    private var clockJSON: JSONValue {
        let clock = fixture.clock
        let now = Int((clock.now().timeIntervalSince1970 * 1000).rounded())
        return [
            "now": .string(AWSDateTimeFormat.string(fromMilliseconds: now)), "nowMilliseconds": .int(now),
            "mode": .string(clock.mode.rawValue), "offsetMilliseconds": .int(clock.offsetMilliseconds),
        ]
    }

    private func clock() -> Response { Self.json(clockJSON) }

    // MARK: - Bodies and answers

    private func text(_ request: Request) async throws -> String {
        let buffer = try await request.body.collect(upTo: maxBodyBytes)
        return String(buffer: buffer)
    }

    /// The body as a JSON object; an empty body is `{}` where `allowEmpty`.
    private func object(_ request: Request, allowEmpty: Bool = false) async throws -> [String: JSONValue] {
        let text = try await text(request)
        if allowEmpty, text.allSatisfy(\.isWhitespace) { return [:] }
        guard case .object(let object)? = try? JSONValue(parsing: text) else {
            throw Self.badRequest("The body must be a JSON object.")
        }
        return object
    }

    /// A snapshot as a SQLite database file (`GET` with `Accept`, `PUT` with `Content-Type`).
    static let databaseType = "application/vnd.sqlite3"

    /// How many items each model holds.
    private static func counts(_ fixture: Fixture) async throws -> [String: JSONValue] {
        let schema = fixture.schema
        return try await fixture.store.read { tx in
            var counts: [String: JSONValue] = [:]
            for model in schema.models { counts[model.name] = .int(try tx.count(model).items) }
            return counts
        }
    }

    private static func snapshotName(_ context: ServerRequestContext) throws -> String {
        let name = context.parameters.get("name") ?? ""
        guard !name.isEmpty, name.count <= 100 else { throw badRequest("A snapshot name is 1 to 100 characters.") }
        return name
    }

    private static func limit(_ request: Request) throws -> Int {
        let text = request.uri.queryParameters["limit"].map(String.init) ?? "100"
        guard let limit = Int(text), (1...10_000).contains(limit) else {
            throw HTTPErrorResponse(
                status: .badRequest, error: AppSyncError(.invalidArgument, "limit must be a whole number from 1 to 10000, got '\(text)'."))
        }
        return limit
    }

    private static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func badRequest(_ message: String) -> HTTPErrorResponse {
        HTTPErrorResponse(status: .badRequest, error: AppSyncError(.badRequest, message))
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=UTF-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: value.jsonText)))
    }
}

/// Refuses `/admin/` requests without the admin key (401), and answers what the fixture
/// throws in AppSync's error shape: bad input is 400, not 500.
struct AdminKeyMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let key: String

    /// Whether `given` is `key`, compared in full whatever matches first, so timing says
    /// nothing about the key.
    static func matches(_ given: String?, _ key: String) -> Bool {
        guard let given else { return false }
        return given.utf8.count == key.utf8.count && zip(given.utf8, key.utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let given = request.headers[AdminRoutes.keyHeader] else {
            throw HTTPErrorResponse.unauthorized("The fixture API needs the admin key in the x-deltasync-admin-key header.")
        }
        guard Self.matches(given, key) else {
            throw HTTPErrorResponse.unauthorized("The admin key is not this server's.")
        }
        do {
            return try await next(request, context)
        } catch let error as FixtureInputError {
            throw HTTPErrorResponse(status: .badRequest, error: error.appSyncError)
        } catch let error as AppSyncError {
            throw HTTPErrorResponse(status: .badRequest, error: error)
        }
    }
}

extension ConflictRecord {
    var json: JSONValue {
        [
            "model": .string(model), "key": .object(key), "mutation": .string(mutation),
            "incomingVersion": .int(incomingVersion), "storedVersion": .int(storedVersion),
            "handler": .string(handler), "outcome": .string(outcome),
            "resultVersion": resultVersion.map(JSONValue.int) ?? .null, "at": .int(at),
        ]
    }
}
