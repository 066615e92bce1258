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
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw FixtureFileFailure(message: "\(file): cannot read it (\(error.localizedDescription)).")
        }
        let answer: String
        do {
            answer = try await seed ? server.send(.POST, "seed", body: text) : server.send(.PUT, "snapshot", body: text)
        } catch let failure as FixtureFileFailure {
            throw FixtureFileFailure(message: "\(file): \(failure.message)")
        }
        let counts = (try? JSONValue(parsing: answer))?[seed ? "seeded" : "imported"].objectValue ?? [:]
        let summary = counts.keys.sorted().map { "\($0): \(counts[$0]?.intValue ?? 0)" }.joined(separator: ", ")
        print("\(seed ? "Seeded" : "Imported") \(summary.isEmpty ? "nothing" : summary)")
    }
}
