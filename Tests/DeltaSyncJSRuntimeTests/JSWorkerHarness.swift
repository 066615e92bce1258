import DeltaSyncCore
import DeltaSyncJSRuntime
import Foundation
import Logging

/// A runtime of the tests' own, in a folder of its own, shut down after the body.
enum JSWorkerHarness {
    struct Unexpected: Error, CustomStringConvertible {
        let evaluation: JSEvaluation
        init(_ evaluation: JSEvaluation) { self.evaluation = evaluation }
        var description: String { "unexpected outcome: \(evaluation.outcome)" }
    }

    static func with<T>(_ body: (AppSyncJSRuntime) async throws -> T) async throws -> T {
        var configuration = AppSyncJSRuntime.Configuration()
        configuration.parentFolder = FileManager.default.temporaryDirectory.appendingPathComponent("js-runtime-tests-\(UUID().uuidString)")
        let runtime = AppSyncJSRuntime(configuration: configuration, logger: Logger(label: "js-runtime-tests"))
        do {
            let value = try await body(runtime)
            await runtime.shutdown()
            try? FileManager.default.removeItem(at: configuration.parentFolder)
            return value
        } catch {
            await runtime.shutdown()
            try? FileManager.default.removeItem(at: configuration.parentFolder)
            throw error
        }
    }
}
