import ArgumentParser
import DeltaSyncCore
import Foundation

/// `deltasync import FILE`: replaces everything a running server holds with a snapshot from
/// `deltasync export`, or (`--seed`) adds the items of a seed file.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Restore a snapshot into a running server (replacing its data), or add a seed file's items.")

    @OptionGroup var server: FixtureConnection

    @Argument(help: "A snapshot from `deltasync export`, or with --seed a seed file ({\"Post\": [...]}).")
    var file: String

    @Flag(help: "The file is a seed: add its items instead of replacing everything.")
    var seed = false

    func run() async throws {
        let contents: [UInt8]
        do {
            contents = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch {
            throw FixtureFileFailure(message: "\(file): cannot read it (\(error.localizedDescription)).")
        }
        // `deltasync export --format sqlite` writes a database file: SQLite's header says so.
        let isDatabase = contents.starts(with: Array("SQLite format 3\0".utf8))
        let answer: String
        do {
            let bytes = try await server.send(
                seed ? .POST : .PUT, seed ? "seed" : "snapshot", bytes: contents,
                contentType: isDatabase ? "application/vnd.sqlite3" : "application/json")
            answer = String(decoding: bytes, as: UTF8.self)
        } catch let failure as FixtureFileFailure {
            throw FixtureFileFailure(message: "\(file): \(failure.message)")
        }
        let counts = (try? JSONValue(parsing: answer))?[seed ? "seeded" : "imported"].objectValue ?? [:]
        let summary = counts.keys.sorted().map { "\($0): \(counts[$0]?.intValue ?? 0)" }.joined(separator: ", ")
        print("\(seed ? "Seeded" : "Imported") \(summary.isEmpty ? "nothing" : summary)")
    }
}
