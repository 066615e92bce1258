import ArgumentParser
import DeltaSyncPostgres
import DeltaSyncSchema
import DeltaSyncServer
import Foundation
import Logging

extension ServeOptions {
    /// The project and a server configured by the options (not yet listening), and what closes
    /// the store once the server has stopped.
    func server() async throws -> (AmplifyProject, DeltaSyncServer, closeStore: @Sendable () async -> Void) {
        // Before the server sizes its connection slots from the limit.
        OpenFileLimit.raise()
        let project: AmplifyProject
        do {
            project = try input.load()
        } catch {
            throw SchemaFailure(error: error)
        }
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        try auth.apply(to: &configuration)
        try functions.apply(to: &configuration, input: input)
        try input.applyResolverFiles(to: &configuration, project: project)
        configuration.storage = inMemory ? .inMemory : .file(database)
        configuration.deltaTTL = deltaTTL.duration
        configuration.tombstoneTTL = tombstoneTTL.duration
        configuration.conflictHandler = conflictHandler?.kind
        configuration.fixtureAPI = !noAdmin
        configuration.metrics = !noMetrics
        if keepFreedMemory { configuration.freedMemoryReturn = nil }
        configuration.metricsToken = metricsToken
        configuration.corsOrigins = corsOrigins.isEmpty ? nil : corsOrigins
        configuration.allowedHosts = allowedHosts
        configuration.adminKey = adminKey
        configuration.lambdaConflictHandler = lambdaURL.map { LambdaConflictHandlers.http(url: $0) }
        configuration.conflictHandlerFunction = conflictHandlerFunction
        if let tlsCertificate, let tlsKey {
            configuration.tls = TLSSettings(certificateChainPath: tlsCertificate, privateKeyPath: tlsKey)
        } else if !noTLS {
            // TLS beside plain HTTP on the one port, with the data folder's development certificate.
            do {
                configuration.tls = try DevelopmentCertificate.existingOrNew(directory: auth.dataDirectory).certificate.tlsSettings
                configuration.plainBesideTLS = true
            } catch {
                FileHandle.standardError.write(Data("deltasync: warning: serving plain http only: cannot make a development certificate (\(error))\n".utf8))
            }
        }
        // Once per process, before the first logger: swift-log's default handler writes text.
        if logFormat == .json {
            LoggingSystem.bootstrap { label in JSONLogHandler(label: label) }
        }
        var logger = Logger(label: "deltasync")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var closeStore: @Sendable () async -> Void = {}
        if let databaseURL {
            let store: PostgresItemStore
            do {
                store = try await PostgresItemStore.connect(
                    settings: try PostgresStoreSettings(url: databaseURL), schema: project.schema, logger: logger)
            } catch let error as PostgresStoreSettingsError {
                throw ValidationError("--database: \(error)")
            } catch {
                throw StoreFailure(message: "cannot open the PostgreSQL store: \(error)")
            }
            configuration.storage = .store(store)
            closeStore = { await store.shutdown() }
        }
        do {
            return (project, try DeltaSyncServer(project: project, configuration: configuration, logger: logger), closeStore)
        } catch {
            await closeStore()
            throw error
        }
    }
}
