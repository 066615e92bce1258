import ArgumentParser
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import Foundation

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the AppSync API of a schema: GraphQL over HTTP, items in SQLite."
    )

    @OptionGroup var options: ServeOptions

    func run() async throws {
        let (project, server, closeStore) = try await options.server()
        for name in server.unconfiguredFunctions {
            FileHandle.standardError.write(Data("""
                deltasync: warning: function '\(name)' is not configured: the fields that call it answer Lambda:Unhandled. \
                Name it in functions.json next to the schema, pass --function NAME=URL, or add amplify/backend/function/<name>/src.

                """.utf8))
        }
        do {
            try await serve(project: project, server: server)
        } catch {
            await closeStore()
            throw error
        }
        await closeStore()
    }

    private func serve(project: AmplifyProject, server: DeltaSyncServer) async throws {
        if let change = try await server.recordServedShape() {
            FileHandle.standardError.write(Data("deltasync: \(change.message(deltaTTL: options.deltaTTL.duration))\n".utf8))
        }
        try await options.seed(server)
        let storage = options.storageDescription
        let (http, ws) = options.tlsCertificate == nil ? ("http", "ws") : ("https", "wss")
        try await server.run { channel in
            let boundPort = channel.localAddress?.port ?? options.port
            var fixture = ""
            if let adminKey = server.adminKey {
                fixture = """
                      Admin key: \(adminKey)   (x-deltasync-admin-key: the fixture API under /admin/)
                      Console:  \(http)://\(options.host):\(boundPort)/#apiKey=\(Self.fragmentValue(server.apiKey))&adminKey=\(Self.fragmentValue(adminKey))

                    """
            }
            do {
                try options.writeClientConfiguration(server, url: "\(http)://\(options.host):\(boundPort)/graphql")
            } catch {
                FileHandle.standardError.write(Data("deltasync: \(error)\n".utf8))
            }
            if options.logFormat == .json {
                // One JSON line for scripts and log collectors, with what the text banner says.
                let ready: JSONValue = [
                    "message": "ready", "graphqlUrl": .string("\(http)://\(options.host):\(boundPort)/graphql"),
                    // Log collectors keep what they read: keys appear as fingerprints only.
                    "realtimeUrl": .string("\(ws)://\(options.host):\(boundPort)/graphql"),
                    "apiKeyFingerprint": .string(KeyFingerprint.of(server.apiKey)),
                    "adminKeyFingerprint": server.adminKey.map { JSONValue.string(KeyFingerprint.of($0)) } ?? .null,
                    "authModes": .array(server.authModes.all.map { .string($0.rawValue) }), "storage": .string(storage),
                    "models": .array(project.schema.models.map { .string($0.name) }),
                    "maxConnections": .int(server.connectionCapacity),
                    "conflictDetection": .string(project.conflictDetection.rawValue),
                ]
                FileHandle.standardOutput.write(Data((ready.jsonText + "\n").utf8))
                return
            }
            let both = server.configuration.plainBesideTLS
            let banner = """
                DeltaSync is serving \(project.schemaFiles.joined(separator: ", ")) (\(project.schema.models.map(\.name).joined(separator: ", ")))
                  GraphQL:  \(http)://\(options.host):\(boundPort)/graphql\(both ? "   (https:// on the same port)" : "")
                  Realtime: \(ws)://\(options.host):\(boundPort)/graphql\(both ? "   (wss:// on the same port)" : "")
                \(both ? Self.trustLines(authority: options.developmentAuthorityPath) : "")
                  API key:  \(server.apiKey)
                  Auth:     \(server.authModes.all.map(\.rawValue).joined(separator: ", "))
                  Connections: up to \(server.connectionCapacity) at once, HTTP and realtime (the open-file limit, raised to its maximum)
                  Storage:  \(storage)
                  Conflict detection: \(project.conflictDetection.rawValue) (\(project.conflictDetectionSource))\(Self.shapeNote(project))
                \(Self.functionLines(server))\(fixture)
                """
            // Unbuffered, so scripts that wait for the URL on a pipe see it at once.
            FileHandle.standardOutput.write(Data(banner.utf8))
        }
    }
}
