import DeltaSyncCore
import Foundation
import HTTPTypes
import Hummingbird

/// The fixture API under `/admin/` (the README's "Fixture API" lists every route): data,
/// snapshots, the clock, faults, connections and the request log of a ``Fixture``, for test
/// suites and the console, on any Hummingbird router. Every request needs the admin key in
/// `x-deltasync-admin-key` (``AdminKey/header``); the API key is never enough. Bad input is
/// answered 400 in AppSync's error shape.
///
/// ```swift
/// let router = Router()
/// FixtureRoutes(fixture: server.fixture, adminKey: "dsa-local").add(to: router)   // /admin/...
/// ```
public struct FixtureRoutes: Sendable {
    let fixture: Fixture
    let adminKey: String
    /// What `GET /admin/client-config` answers for a request.
    let clientConfiguration: @Sendable (Request) -> JSONValue
    /// The largest seed or snapshot accepted.
    let maxBodyBytes: Int

    /// - Parameters:
    ///   - fixture: what the routes control.
    ///   - adminKey: the key every request must send in `x-deltasync-admin-key`.
    ///   - maxBodyBytes: the largest seed or snapshot accepted.
    ///   - clientConfiguration: what `GET /admin/client-config` answers for a request (the
    ///     client configuration files' values); `{}` when not given.
    public init(
        fixture: Fixture, adminKey: String, maxBodyBytes: Int = 512 * 1024 * 1024,
        clientConfiguration: @escaping @Sendable (Request) -> JSONValue = { _ in [:] }
    ) {
        self.fixture = fixture
        self.adminKey = adminKey
        self.maxBodyBytes = maxBodyBytes
        self.clientConfiguration = clientConfiguration
    }

    /// Adds every `/admin/` route to `router`, behind the admin key.
    public func add<Context: RequestContext>(to router: Router<Context>) {
        let admin = router.group("admin").add(middleware: AdminKeyMiddleware<Context>(key: adminKey))
        addStoreRoutes(to: admin)
        addSnapshotRoutes(to: admin)
        addDataRoutes(to: admin)
        addClockRoutes(to: admin)
        addFaultRoutes(to: admin)
        addConnectionRoutes(to: admin)
    }

    /// `status`, `reset` and `seed`: the store as a whole.
    private func addStoreRoutes<Context: RequestContext>(to admin: RouterGroup<Context>) {
        admin.get("status") { _, _ in try await status() }
        admin.post("reset") { request, _ in try await reset(request) }
        admin.post("seed") { request, _ in
            let counts = try await fixture.seed(try await text(request))
            return Self.json(["seeded": .object(counts.mapValues(JSONValue.int))])
        }
    }

    /// `snapshot` (the whole store, as JSON or a database file) and named `snapshots`.
    private func addSnapshotRoutes<Context: RequestContext>(to admin: RouterGroup<Context>) {
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
                throw FixtureErrorResponse(status: .notFound, error: AppSyncError(.badRequest, "No snapshot is saved as '\(name)'."))
            }
            return Self.json(["deleted": .string(name)])
        }
    }

    /// A model's items and deltas, the conflict log, and changes made out of band.
    private func addDataRoutes<Context: RequestContext>(to admin: RouterGroup<Context>) {
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
    }

    /// The fixture clock, and `purge`, which expires by it.
    private func addClockRoutes<Context: RequestContext>(to admin: RouterGroup<Context>) {
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
    }

    /// Injected faults.
    private func addFaultRoutes<Context: RequestContext>(to admin: RouterGroup<Context>) {
        admin.get("faults") { _, _ in Self.json(["faults": .array(fixture.activeFaults.map(\.json))]) }
        admin.get("simulation") { _, _ in Self.json(["timeline": fixture.simulationTimeline.map(JSONValue.string) ?? .null]) }
        admin.post("faults") { request, _ in
            let fault = try Fault(json: .object(try await object(request)), now: Date())
            return Self.json(fixture.addFault(fault).json, status: .created)
        }
        admin.delete("faults") { _, _ in Self.json(["cleared": .int(fixture.clearFaults())]) }
        admin.delete("faults/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            let cleared = fixture.clearFaults(id: id)
            guard cleared > 0 else { throw FixtureErrorResponse(status: .notFound, error: AppSyncError(.badRequest, "No active fault has id '\(id)'.")) }
            return Self.json(["cleared": .int(cleared)])
        }
    }

    /// Realtime connections, the request log and the client configuration.
    private func addConnectionRoutes<Context: RequestContext>(to admin: RouterGroup<Context>) {
        admin.get("connections") { _, _ in connections() }
        admin.post("connections/close") { request, _ in
            let body = try await object(request, allowEmpty: true)
            return Self.json(["closed": .int(fixture.closeConnections(drop: body["drop"]?.boolValue ?? false))])
        }
        admin.get("requests") { request, _ in
            let limit = try Self.limit(request)
            return Self.json(["requests": .array(fixture.requests.recent(limit: limit).map(\.json))])
        }
        admin.get("client-config") { request, _ in Self.json(clientConfiguration(request)) }
    }
}
