import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import DeltaSyncStorage
import Foundation

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
    /// The server every device syncs with.
    public let server: DeltaSyncTestServer
    /// The devices, in the order they were named.
    public let devices: [SimulatedDevice]
    /// The schema the server serves and the devices store.
    public let schema: AmplifySchema
    /// Every step and every device's sync events and errors, as they happened.
    public let timeline: SimulationTimeline

    init(server: DeltaSyncTestServer, devices: [SimulatedDevice], schema: AmplifySchema, timeline: SimulationTimeline) {
        self.server = server
        self.devices = devices
        self.schema = schema
        self.timeline = timeline
    }

    /// Starts a server for `project` (see ``DeltaSyncTestServer/withServer(project:configure:_:)``)
    /// and a device for each name, each with its database file in `directory` (by default a
    /// fresh temporary folder, removed afterwards), runs `body`, and stops them all.
    ///
    /// Devices sync with the server's API key; sync retries after 20 ms, doubling up to 500 ms,
    /// so that a device back online catches up within a simulation's patience.
    public static func run<T: Sendable>(
        project: AmplifyProject, devices names: [String], directory: URL? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }, _ body: (Simulation) async throws -> T
    ) async throws -> T {
        guard Set(names).count == names.count, !names.isEmpty else {
            throw SimulationError("Name each device once; got \(names).")
        }
        let temporary = directory == nil
        let directory = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-simulation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // A folder of its own making goes with the run; one the caller named stays.
        defer { if temporary { try? FileManager.default.removeItem(at: directory) } }
        let models = StoreModels(schema: project.schema, version: "simulation")
        let timeline = SimulationTimeline()
        return try await DeltaSyncTestServer.withServer(project: project, configure: configure) { server in
            var devices: [SimulatedDevice] = []
            for name in names {
                let link = try await NetworkLink(to: server.port)
                var configuration = DataStoreConfiguration(
                    endpoint: SyncEndpoint(url: URL(string: "http://127.0.0.1:\(link.port)/graphql")!, apiKey: server.apiKey))
                configuration.retryBackoff = RetryBackoff(base: .milliseconds(20), maximum: .milliseconds(500))
                configuration.networkMonitor = nil
                configuration.errorHandler = { [name] error in timeline.record(name, .error, "\(error)") }
                devices.append(try SimulatedDevice(
                    name: name, link: link, file: directory.appendingPathComponent("\(name).sqlite"), models: models,
                    configuration: configuration, timeline: timeline))
            }
            let simulation = Simulation(server: server, devices: devices, schema: project.schema, timeline: timeline)
            do {
                for device in devices { try await device.start() }
                let result = try await body(simulation)
                for device in devices { await device.close() }
                return result
            } catch {
                for device in devices { await device.close() }
                throw error
            }
        }
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
