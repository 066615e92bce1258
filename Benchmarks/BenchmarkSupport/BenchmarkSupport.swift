import Foundation

/// What every benchmark executable needs: the example schema and a stopwatch.
public enum BenchmarkSupport {
    /// `Examples/blog/schema.graphql` of this repository.
    public static var exampleSchemaFile: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/blog/schema.graphql").path
    }

    /// The command line's whole-number arguments in order, leaving out `--name VALUE` options.
    public static var numberArguments: [Int] {
        var numbers: [Int] = []
        var arguments = CommandLine.arguments.dropFirst()
        while let argument = arguments.popFirst() {
            if argument.hasPrefix("--") {
                _ = arguments.popFirst()
            } else if let number = Int(argument) {
                numbers.append(number)
            }
        }
        return numbers
    }

    /// The value after `--name` on the command line, if given.
    public static func option(_ name: String) -> String? {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let flag = arguments.firstIndex(of: "--" + name) else { return nil }
        guard flag + 1 < arguments.count else {
            fatalError("--\(name) needs a value")
        }
        return arguments[flag + 1]
    }

    /// The PostgreSQL server to measure against: `--postgres URL`, else `DELTASYNC_POSTGRES_URL`;
    /// `nil` measures SQLite. (A throw-away server: `scripts/postgres-cluster.sh start DIR`.)
    public static var postgresURL: String? {
        option("postgres") ?? ProcessInfo.processInfo.environment["DELTASYNC_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// A fresh scratch folder under the temporary directory.
    public static func scratchFolder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("deltasync-\(name)-\(UUID().uuidString)")
    }

    /// Wall-clock seconds `body` took.
    public static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
