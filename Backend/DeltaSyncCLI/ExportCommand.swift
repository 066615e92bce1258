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

    @Option(help: "json (readable, any server of the schema checks it item by item) or sqlite (a database file, restored in a fraction of a second).")
    var format: SnapshotFormat = .json

    enum SnapshotFormat: String, ExpressibleByArgument, CaseIterable {
        case json, sqlite
    }

    func run() async throws {
        let accept = format == .sqlite ? "application/vnd.sqlite3" : "application/json"
        let snapshot = Data(try await server.send(.GET, "snapshot", bytes: nil, accept: accept))
        if let out {
            try snapshot.write(to: URL(fileURLWithPath: out), options: .atomic)
        } else {
            FileHandle.standardOutput.write(snapshot)
        }
    }
}
