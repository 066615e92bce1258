import DeltaSyncCore
import Foundation

/// The functions of a project as `functions.json` (next to the schema) configures them: which
/// `@function` name runs how.
///
/// ```json
/// {
///   "functions": {
///     "echo":   { "url": "http://127.0.0.1:9000/echo" },
///     "resize": { "command": ["python3", "resize.py"], "directory": "tools",
///                 "env": { "BUCKET": "local" }, "envFile": "tools/.env", "timeout": 10 },
///     "calc":   { "handler": "index.handler", "directory": "functions/calc/src", "runtime": "node" }
///   },
///   "region": "us-east-1",
///   "timeout": 30
/// }
/// ```
///
/// ```swift
/// let file = try FunctionsFile(contentsOf: "schema/functions.json")
/// for function in file.functions { print(function.name, function.kind) }
/// ```
///
/// Each function has exactly one of:
/// - `url`: an `http://` or `https://` endpoint the event is POSTed to (``HTTPFunction``);
/// - `command`: a list of words, run in `directory`, that speaks the local process protocol;
/// - `handler`: `file.export` of a Node or Python Lambda handler in `directory`. `runtime`
///   (`node` or `python`) may be left out when the handler's file tells
///   (`index.js`/`.mjs`/`.cjs` → node, `index.py` → python).
///
/// Optional per function: `directory` (default: the file's folder), `env` (string values),
/// `envFile` (dotenv syntax, overrides `env`), `timeout` in seconds and `maxProcesses`.
/// At the top: `region` and `timeout`, the default for every function (30 seconds, AppSync's
/// own limit). Relative paths are relative to the folder of `functions.json`.
///
/// A mistake is a ``FunctionsFileError`` naming the file, the line and the JSON path, and
/// saying what to write instead: a typo should not surface later as a field that fails.
public struct FunctionsFile: Sendable, Equatable {
    /// AppSync's limit for a whole request; longer makes no sense for a field.
    public static let defaultTimeout: Duration = .seconds(30)
    /// Lambda's own maximum.
    static let maximumTimeoutSeconds = 900.0

    /// The file as it was named.
    public var path: String
    /// The functions, by name.
    public var functions: [Function]
    /// `region`, when the file sets it.
    public var region: String?
    /// `timeout`: the default of the functions that do not set their own.
    public var timeout: Duration

    public init(path: String, functions: [Function], region: String? = nil, timeout: Duration = FunctionsFile.defaultTimeout) {
        self.path = path
        self.functions = functions
        self.region = region
        self.timeout = timeout
    }

    /// Reads and checks the file at `path`.
    ///
    /// - Throws: ``FunctionsFileError`` when it cannot be read or has a mistake.
    public init(contentsOf path: String) throws(FunctionsFileError) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw FunctionsFileError(file: path, line: nil, path: "", reason: "cannot read the file (\(error.localizedDescription)). Check that it exists and is UTF-8 text.")
        }
        try self.init(parsing: text, path: path)
    }

    /// Checks `text` as the contents of the file at `path`; relative paths in it are relative
    /// to the folder of `path`, and the folders it names must exist.
    ///
    /// ```swift
    /// let file = try FunctionsFile(parsing: #"{"functions": {"echo": {"url": "http://127.0.0.1:9000"}}}"#, path: "functions.json")
    /// ```
    public init(parsing text: String, path: String) throws(FunctionsFileError) {
        let base = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL.path
        self = try Reader(text: text, file: path, base: base).read()
    }
}

extension FunctionsFile {
    /// The runtime the handler module's file says: `<module>.js`/`.mjs`/`.cjs` → node,
    /// `<module>.py` → python; `nil` when there is none.
    static func inferRuntime(module: String, directory: String) -> HandlerRuntime? {
        let exists = { (suffix: String) in FileManager.default.fileExists(atPath: directory + "/" + module + suffix) }
        if exists(".js") || exists(".mjs") || exists(".cjs") { return .node }
        if exists(".py") { return .python }
        return nil
    }
}
