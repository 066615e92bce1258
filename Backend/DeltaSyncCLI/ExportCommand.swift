import ArgumentParser
import Foundation

/// `deltasync export [--out FILE]`: a running server's snapshot (items, delta log, conflicts),
/// which `deltasync import` restores exactly.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a running server's snapshot: items with their metadata, the delta log, conflicts.")

    @OptionGroup var server: FixtureConnection

    @Option(name: .shortAndLong, help: "The snapshot file to write; standard output when not given.")
    var out: String?

    func run() async throws {
        let snapshot = try await server.send(.GET, "snapshot")
        if let out {
            try snapshot.write(toFile: out, atomically: true, encoding: .utf8)
        } else {
            FileHandle.standardOutput.write(Data(snapshot.utf8))
        }
    }
}
