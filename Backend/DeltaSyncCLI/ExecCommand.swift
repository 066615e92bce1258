import ArgumentParser
import DeltaSyncServer
import Foundation

/// `deltasync exec [serve options] -- COMMAND...`: a server for the length of one command, as CI
/// test steps need it: started, ready, described to the command through its environment, and
/// stopped when the command ends, whose exit status becomes `exec`'s.
struct ExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a command against a server started for it, then stop the server.",
        discussion: """
            The command gets DELTASYNC_URL, DELTASYNC_REALTIME_URL, DELTASYNC_API_KEY and \
            DELTASYNC_ADMIN_KEY (unless --no-admin) in its environment. `exec` exits with the command's status. Example:
              deltasync exec --schema schema.graphql --in-memory --port 0 -- npm test
            """
    )

    @OptionGroup var options: ServeOptions

    @Argument(parsing: .postTerminator, help: "The command to run, after --.")
    var command: [String] = []

    func validate() throws {
        if command.isEmpty { throw ValidationError("Give the command to run after --, e.g. deltasync exec --schema s.graphql -- npm test.") }
    }

    func run() async throws {
        let (_, server, closeStore) = try await options.server()
        do {
            try await run(server)
        } catch {
            await closeStore()
            throw error
        }
        await closeStore()
    }

    private func run(_ server: DeltaSyncServer) async throws {
        try await options.seed(server)
        // `start` returns once the socket is bound: the server is ready.
        let running = try await server.start()
        let status: Int32
        do {
            try options.writeClientConfiguration(server, url: running.graphQLURL)
            var environment = [
                "DELTASYNC_URL": running.graphQLURL,
                "DELTASYNC_REALTIME_URL": running.realtimeURL,
                "DELTASYNC_API_KEY": running.apiKey,
            ]
            environment["DELTASYNC_ADMIN_KEY"] = server.adminKey
            status = try await Self.run(command, environment: environment)
        } catch {
            await running.stop()
            throw error
        }
        await running.stop()
        throw ExitCode(status)
    }

    /// Runs `command` (found on `PATH`) with `environment` added to this process's, and returns
    /// its exit status (128 + the signal when a signal ended it, as shells report it).
    static func run(_ command: [String], environment: [String: String]) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        let ended = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in ended.continuation.finish() }
        do {
            try process.run()
        } catch {
            throw ValidationError("cannot run \(command[0]): \(error.localizedDescription)")
        }
        for await _ in ended.stream {}
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }
}
