import Foundation

/// The Node and Python runtimes for Amplify-style handlers (`"index.handler"` in a function's
/// `src` folder), run as a ``LocalProcessFunction`` through a small bootstrap program of
/// DeltaSync's that speaks the line protocol.
///
/// ```swift
/// let command = try HandlerRuntime.python.command(
///     handler: "index.handler",
///     sourceDirectory: "amplify/backend/function/report/src",
///     bootstrapDirectory: ".deltasync/bootstrap"
/// )
/// // ["python3", "-u", ".../.deltasync/bootstrap/bootstrap.py", ".../src", "index.handler"]
/// ```
///
/// The bootstraps follow Lambda's runtimes: the same `context` fields, and the same error
/// types for a thrown error (`TypeError`, `ValueError`), a module that cannot be loaded
/// (`Runtime.ImportModuleError`, `Runtime.UserCodeSyntaxError`), a missing export
/// (`Runtime.HandlerNotFound`) or a result that is not JSON (`Runtime.MarshalError`). The
/// executables `node` and `python3` are looked up in the function's `PATH`.
public enum HandlerRuntime: String, Sendable {
    case node
    case python

    /// The command that runs `handler` (`"index.handler"`, or `"lib/app.main"` for export
    /// `main` of `lib/app`) found in `sourceDirectory`, through DeltaSync's bootstrap for
    /// this runtime, which it writes into `bootstrapDirectory` if missing or out of date.
    ///
    /// - Throws: `Runtime.MalformedHandlerName` for a handler without `.`, and
    ///   `Runtime.StartError` when the bootstrap cannot be written.
    public func command(handler: String, sourceDirectory: String, bootstrapDirectory: String) throws(FunctionFailure) -> [String] {
        let fileName = handler.split(separator: "/").last.map(String.init) ?? handler
        guard let dot = fileName.firstIndex(of: "."), dot != fileName.startIndex, fileName.index(after: dot) != fileName.endIndex else {
            throw FunctionFailure(errorType: "Runtime.MalformedHandlerName", errorMessage: "Bad handler '\(handler)': it must be <file>.<function>, such as index.handler")
        }
        let directory = URL(fileURLWithPath: bootstrapDirectory).standardizedFileURL
        let source = URL(fileURLWithPath: sourceDirectory).standardizedFileURL.path
        let bootstrap = directory.appendingPathComponent(bootstrapFileName).path
        try writeBootstrap(to: bootstrap, in: directory.path)
        switch self {
        case .node:
            return ["node", bootstrap, source, handler]
        case .python:
            // -u: unbuffered, so that log lines reach DeltaSync as they are printed.
            return ["python3", "-u", bootstrap, source, handler]
        }
    }

    private var bootstrapFileName: String {
        switch self {
        case .node: "bootstrap.cjs"
        case .python: "bootstrap.py"
        }
    }

    private var bootstrapSource: String {
        switch self {
        case .node: NodeBootstrap.source
        case .python: PythonBootstrap.source
        }
    }

    /// Writes the bootstrap unless the file already holds this version of it; atomically, so
    /// a process starting meanwhile never reads half a file.
    private func writeBootstrap(to path: String, in directory: String) throws(FunctionFailure) {
        let contents = Data(bootstrapSource.utf8)
        if FileManager.default.contents(atPath: path) == contents { return }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try contents.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw FunctionFailure(
                errorType: "Runtime.StartError",
                errorMessage: "Cannot write DeltaSync's \(rawValue) bootstrap to \(path): \(error.localizedDescription). Check that the directory is writable."
            )
        }
    }
}
