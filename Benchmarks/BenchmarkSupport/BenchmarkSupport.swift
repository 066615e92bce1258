import Foundation

/// What every benchmark executable needs: the example schema and a stopwatch.
public enum BenchmarkSupport {
    /// `Examples/blog/schema.graphql` of this repository.
    public static var exampleSchemaFile: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Examples/blog/schema.graphql").path
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
