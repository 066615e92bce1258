import DeltaSyncAuth
import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncSQLiteStore
import DeltaSyncStorage
import Foundation
import NIOConcurrencyHelpers

/// Many offline-first devices against one server of a project's own schema, handlers and rules:
/// each a real ``DataStore`` on a file of its own, behind a network link of its own.
///
/// A test takes devices offline, makes conflicting edits, brings them back, and checks that
/// every device ends up holding what the server holds:
///
/// ```swift
/// // try await Simulation.run(project: project, devices: ["phone", "tablet"]) { simulation in
/// //     let (phone, tablet) = (try simulation.device("phone"), try simulation.device("tablet"))
/// //     try await phone.save("Todo", ["id": "t1", "name": "milk"])
/// //     try await simulation.converge()
/// //     phone.link.goOffline(); tablet.link.goOffline()
/// //     try await phone.save("Todo", ["id": "t1", "name": "oat milk"])
/// //     try await tablet.save("Todo", ["id": "t1", "done": true])
/// //     try await simulation.converge()   // online again, outboxes sent, every device equal to the server
/// // }
/// ```
public final class Simulation: Sendable {
    /// The server every device syncs with: the one the simulation started (another after
    /// ``restartServer()``, on the same store), or the running one it connected to.
    public var server: any SimulationServer { current.withLockedValue { $0 } }
    /// The server the simulation started; `nil` when it connected to a running one.
    public var localServer: DeltaSyncTestServer? { server as? DeltaSyncTestServer }
    /// The devices, in the order they were named.
    public let devices: [SimulatedDevice]
    /// The schema the server serves and the devices store.
    public let schema: AmplifySchema
    /// Every step and every device's sync events and errors, as they happened.
    public let timeline: SimulationTimeline
    private let current: NIOLockedValueBox<any SimulationServer>
    /// What a restarted server is made from: the project, and a configuration whose store
    /// outlives each server (`nil` for a server the simulation connected to).
    private let project: AmplifyProject
    private let configuration: ServerConfiguration?

    private init(
        server: any SimulationServer, devices: [SimulatedDevice], project: AmplifyProject, configuration: ServerConfiguration?,
        timeline: SimulationTimeline
    ) {
        current = NIOLockedValueBox(server)
        self.devices = devices
        self.project = project
        self.configuration = configuration
        schema = project.schema
        self.timeline = timeline
    }

    /// Starts a server for `project` (the defaults of ``DeltaSyncTestServer/withServer(project:configure:_:)``)
    /// and a device for each name, each with its database file in `directory` (by default a
    /// fresh temporary folder, removed afterwards), runs `body`, and stops them all.
    ///
    /// Devices sync as `identities` says (the server's API key for a device it does not name),
    /// and what `syncExpressions` says (by device, then model: a filter as the sync query takes
    /// it; everything for what it does not name); sync retries after 20 ms, doubling up to
    /// 500 ms, so that a device back online catches up within a simulation's patience.
    public static func run<T: Sendable>(
        project: AmplifyProject, devices names: [String], identities: [String: DeviceIdentity] = [:],
        syncExpressions: [String: [String: JSONValue]] = [:], directory: URL? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (Simulation) async throws -> T
    ) async throws -> T {
        let configuration = try serverConfiguration(project: project, devices: names, identities: identities, configure: configure)
        let server = try await DeltaSyncTestServer.start(project: project, configuration: configuration)
        return try await run(
            on: server, configuration: configuration, project: project, devices: names, identities: identities, syncExpressions: syncExpressions,
            directory: directory, body)
    }

    /// ``run(project:devices:identities:syncExpressions:directory:configure:_:)`` against a
    /// server already running, which the simulation leaves running. `project` is the schema it
    /// serves, which the devices store; its handlers and rules are the server's own.
    ///
    /// - Throws: ``SimulationError`` for an IAM device (a running server cannot be given an
    ///   access key for it).
    public static func run<T: Sendable>(
        connectingTo server: RemoteSimulationServer, project: AmplifyProject, devices names: [String], identities: [String: DeviceIdentity] = [:],
        syncExpressions: [String: [String: JSONValue]] = [:], directory: URL? = nil, _ body: (Simulation) async throws -> T
    ) async throws -> T {
        for (name, identity) in identities {
            guard case .iam = identity else { continue }
            throw SimulationError("\(name) signs with IAM, which needs a server the simulation starts (it gives each IAM device an access key).")
        }
        return try await run(
            on: server, configuration: nil, project: project, devices: names, identities: identities, syncExpressions: syncExpressions,
            directory: directory, body)
    }

    private static func run<T: Sendable>(
        on server: any SimulationServer, configuration: ServerConfiguration?, project: AmplifyProject, devices names: [String],
        identities: [String: DeviceIdentity], syncExpressions: [String: [String: JSONValue]], directory: URL?, _ body: (Simulation) async throws -> T
    ) async throws -> T {
        let temporary = directory == nil
        let directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-simulation-\(UUID().uuidString)")
        // A folder of its own making goes with the run; one the caller named stays.
        defer { if temporary { try? FileManager.default.removeItem(at: directory) } }
        let timeline = SimulationTimeline()
        var devices: [SimulatedDevice] = []
        do {
            guard Set(names).count == names.count, !names.isEmpty else {
                throw SimulationError("Name each device once; got \(names).")
            }
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let scopes = try names.map { try SyncScope(syncExpressions[$0] ?? [:], schema: project.schema) }
            let models = StoreModels(schema: project.schema, version: "simulation")
            for (index, name) in names.enumerated() {
                devices.append(try await device(
                    name, index: index, identity: identities[name] ?? .apiKey, scope: scopes[index], server: server, directory: directory,
                    models: models, timeline: timeline))
            }
        } catch {
            for device in devices { await device.close() }
            await (server as? DeltaSyncTestServer)?.running.stop()
            throw error
        }
        let simulation = Simulation(server: server, devices: devices, project: project, configuration: configuration, timeline: timeline)
        do {
            for device in devices { try await device.start() }
            let result = try await body(simulation)
            await simulation.stop()
            return result
        } catch {
            await simulation.stop()
            throw error
        }
    }

    /// One device: its link to `server`, its credentials, its store's configuration.
    private static func device(
        _ name: String, index: Int, identity: DeviceIdentity, scope: SyncScope, server: any SimulationServer, directory: URL, models: StoreModels,
        timeline: SimulationTimeline
    ) async throws -> SimulatedDevice {
        let link = try await NetworkLink(to: server.port, host: server.host)
        let authorization = try await identity.authorization(server: server, index: index)
        // The server's path, through the link's port on loopback.
        var components = URLComponents(string: server.graphQLURL) ?? URLComponents()
        (components.scheme, components.host, components.port) = ("http", "127.0.0.1", link.port)
        guard let url = components.url else {
            await link.close()
            throw SimulationError("\(server.graphQLURL) gives no URL through a device's link; give the server's GraphQL endpoint, http://host:port/graphql.")
        }
        var device = DataStoreConfiguration(endpoint: SyncEndpoint(url: url, authorization: authorization))
        device.syncExpressions = scope.expressions
        device.retryBackoff = RetryBackoff(base: .milliseconds(20), maximum: .milliseconds(500))
        device.networkMonitor = nil
        device.errorHandler = { error in timeline.record(name, .error, "\(error)") }
        return try SimulatedDevice(
            name: name, identity: identity, scope: scope, link: link, file: directory.appendingPathComponent("\(name).sqlite"), models: models,
            configuration: device, timeline: timeline)
    }

    /// The test server's defaults, `configure`'s changes, an access key for each IAM device,
    /// and a store that outlives each server (so that ``restartServer()`` finds its items).
    private static func serverConfiguration(
        project: AmplifyProject, devices names: [String], identities: [String: DeviceIdentity], configure: (inout ServerConfiguration) -> Void
    ) throws -> ServerConfiguration {
        var configuration = DeltaSyncTestServer.testConfiguration
        configure(&configuration)
        for (index, name) in names.enumerated() {
            guard case .iam(let authenticated) = identities[name] else { continue }
            let key = DeviceIdentity.accessKey(index)
            configuration.iamCredentials.append(
                IAMCredential(accessKeyID: key.id, secretAccessKey: key.secret, role: authenticated ? .authenticated : .unauthenticated))
        }
        switch configuration.storage {
        case .inMemory: configuration.storage = .store(try SQLiteItemStore(location: .inMemory, schema: project.schema))
        case .file(let path): configuration.storage = .store(try SQLiteItemStore(location: .file(path), schema: project.schema))
        case .store: break
        }
        return configuration
    }

    /// Stops the server as a deploy or a crash does (every connection drops), and starts it
    /// again on the same store and clock; the devices reconnect on their own. It comes back on
    /// another port (the old one may be taken meanwhile), which every device's link follows;
    /// while it is away, the links refuse connections.
    ///
    /// - Throws: ``SimulationError`` for a server the simulation connected to.
    public func restartServer() async throws {
        guard let old = localServer, var configuration else {
            throw SimulationError("restartServer needs a server the simulation starts: this one was running before it, and stays so.")
        }
        for device in devices { device.link.retarget(to: nil) }
        await old.running.stop()
        timeline.record("steps", .step, "the server stopped")
        configuration.port = 0
        let clock = old.fixture.clock
        configuration.clock = { clock.now() }
        let restarted = try await DeltaSyncTestServer.start(project: project, configuration: configuration)
        current.withLockedValue { $0 = restarted }
        for device in devices { device.link.retarget(to: restarted.port) }
        timeline.record("steps", .step, "the server started again")
    }

    /// Stops every device, then the server it started (one it connected to keeps running).
    private func stop() async {
        for device in devices { await device.close() }
        await localServer?.running.stop()
    }

    /// The device named `name`.
    public func device(_ name: String) throws -> SimulatedDevice {
        guard let device = devices.first(where: { $0.name == name }) else {
            throw SimulationError("No device is named \(name). Devices: \(devices.map(\.name).joined(separator: ", ")).")
        }
        return device
    }

    /// The live items of `modelName` on the server, read from its store.
    public func serverItems(_ modelName: String) async throws -> [Item] {
        Self.liveItems(of: modelName, in: try await server.snapshot())
    }

    /// The items of `modelName` in `snapshot` that are not tombstones.
    static func liveItems(of modelName: String, in snapshot: StoreSnapshot) -> [Item] {
        (snapshot.models[modelName]?.items ?? []).filter { $0["_deleted"]?.boolValue != true }
    }

    /// The server's conflict log, oldest first: each conflict a mutation met and how its handler
    /// decided it.
    public func conflicts() async throws -> [ConflictRecord] {
        try await server.snapshot().conflicts
    }
}
