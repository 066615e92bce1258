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
    /// The server every device syncs with (another after ``restartServer()``, on the same port
    /// and store).
    public var server: DeltaSyncTestServer { current.withLockedValue { $0 } }
    /// The devices, in the order they were named.
    public let devices: [SimulatedDevice]
    /// The schema the server serves and the devices store.
    public let schema: AmplifySchema
    /// Every step and every device's sync events and errors, as they happened.
    public let timeline: SimulationTimeline
    private let current: NIOLockedValueBox<DeltaSyncTestServer>
    /// What a restarted server is made from: the project, and a configuration whose store
    /// outlives each server.
    private let project: AmplifyProject
    private let configuration: ServerConfiguration

    private init(
        server: DeltaSyncTestServer, devices: [SimulatedDevice], project: AmplifyProject, configuration: ServerConfiguration,
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
    /// it; everything for what it does not name); sync retries after 20 ms, doubling up to 500 ms, so that a device back online catches up
    /// within a simulation's patience.
    public static func run<T: Sendable>(
        project: AmplifyProject, devices names: [String], identities: [String: DeviceIdentity] = [:],
        syncExpressions: [String: [String: JSONValue]] = [:], directory: URL? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (Simulation) async throws -> T
    ) async throws -> T {
        guard Set(names).count == names.count, !names.isEmpty else {
            throw SimulationError("Name each device once; got \(names).")
        }
        let scopes = try names.map { try SyncScope(syncExpressions[$0] ?? [:], schema: project.schema) }
        let temporary = directory == nil
        let directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-simulation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // A folder of its own making goes with the run; one the caller named stays.
        defer { if temporary { try? FileManager.default.removeItem(at: directory) } }
        let configuration = try serverConfiguration(project: project, devices: names, identities: identities, configure: configure)
        let server = try await DeltaSyncTestServer.start(project: project, configuration: configuration)
        let timeline = SimulationTimeline()
        let models = StoreModels(schema: project.schema, version: "simulation")
        var devices: [SimulatedDevice] = []
        do {
            for (index, name) in names.enumerated() {
                let link = try await NetworkLink(to: server.port)
                let identity = identities[name] ?? .apiKey
                let authorization = try await identity.authorization(server: server, index: index, region: configuration.region)
                var device = DataStoreConfiguration(
                    endpoint: SyncEndpoint(url: URL(string: "http://127.0.0.1:\(link.port)/graphql")!, authorization: authorization))
                device.syncExpressions = scopes[index].expressions
                device.retryBackoff = RetryBackoff(base: .milliseconds(20), maximum: .milliseconds(500))
                device.networkMonitor = nil
                device.errorHandler = { [name] error in timeline.record(name, .error, "\(error)") }
                devices.append(try SimulatedDevice(
                    name: name, identity: identity, scope: scopes[index], link: link, file: directory.appendingPathComponent("\(name).sqlite"), models: models,
                    configuration: device, timeline: timeline))
            }
        } catch {
            for device in devices { await device.close() }
            await server.running.stop()
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
    public func restartServer() async throws {
        let old = server
        for device in devices { device.link.retarget(to: nil) }
        await old.running.stop()
        timeline.record("steps", .step, "the server stopped")
        var configuration = configuration
        configuration.port = 0
        let clock = old.fixture.clock
        configuration.clock = { clock.now() }
        let restarted = try await DeltaSyncTestServer.start(project: project, configuration: configuration)
        current.withLockedValue { $0 = restarted }
        for device in devices { device.link.retarget(to: restarted.port) }
        timeline.record("steps", .step, "the server started again")
    }

    /// Stops every device, then the server.
    private func stop() async {
        for device in devices { await device.close() }
        await server.running.stop()
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
        Self.liveItems(of: modelName, in: try await server.fixture.snapshot())
    }

    /// The items of `modelName` in `snapshot` that are not tombstones.
    static func liveItems(of modelName: String, in snapshot: StoreSnapshot) -> [Item] {
        (snapshot.models[modelName]?.items ?? []).filter { $0["_deleted"]?.boolValue != true }
    }

    /// The server's conflict log, oldest first: each conflict a mutation met and how its handler
    /// decided it.
    public func conflicts() async throws -> [ConflictRecord] {
        try await server.fixture.snapshot().conflicts
    }
}
