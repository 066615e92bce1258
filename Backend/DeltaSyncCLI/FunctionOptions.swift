import ArgumentParser
import DeltaSyncFunctions
import DeltaSyncServer
import Foundation

/// Where `@function` fields find their functions: flags, `functions.json` next to the schema,
/// and the Amplify project the API belongs to.
struct FunctionOptions: ParsableArguments {
    @Option(
        name: .customLong("function"),
        help: ArgumentHelp(
            "A function at an HTTP endpoint, NAME=URL (repeatable): it receives AppSync's Lambda event as a JSON POST and answers the result.",
            valueName: "name=url"))
    var functions: [String] = []

    @Option(
        name: .customLong("functions"),
        help: "A functions.json naming endpoints, commands and Node or Python handlers; default: functions.json next to the schema, when there is one.")
    var functionsFile: String?

    @Option(
        name: .customLong("amplify-root"),
        help: "The Amplify project folder whose amplify/backend/function/*/src handlers run locally; default: found from --project or --schema.")
    var amplifyRoot: String?

    @Option(name: .customLong("amplify-env"), help: "${env} in function names and @http URLs; default: amplify/.config/local-env-info.json's, else NONE.")
    var amplifyEnvironment: String?

    @Option(name: .customLong("function-timeout"), help: "How long a function may run unless its own configuration says (e.g. 10s).")
    var timeout = DurationArgument(ServerConfiguration().functionTimeout)

    func validate() throws {
        if timeout.duration <= .zero { throw ValidationError("--function-timeout must be longer than zero.") }
        for flag in functions {
            do {
                _ = try FunctionCatalog.Entry(flag: flag)
            } catch {
                throw ValidationError(error.description)
            }
        }
        if let functionsFile, !FileManager.default.fileExists(atPath: functionsFile) {
            throw ValidationError("--functions \(functionsFile): no such file.")
        }
    }

    /// Sets the configuration's functions for the schema `input` names.
    func apply(to configuration: inout ServerConfiguration, input: SchemaInput) throws {
        configuration.functionTimeout = timeout.duration
        for flag in functions {
            let entry = try FunctionCatalog.Entry(flag: flag, timeout: timeout.duration)
            configuration.functions[entry.name] = entry.function
        }
        let schemaFolder = input.project ?? input.schema.map { ($0 as NSString).deletingLastPathComponent } ?? "."
        let besideSchema = ((schemaFolder.isEmpty ? "." : schemaFolder) as NSString).appendingPathComponent("functions.json")
        configuration.functionsFile = functionsFile ?? (FileManager.default.fileExists(atPath: besideSchema) ? besideSchema : nil)
        configuration.amplifyProjectRoot = amplifyRoot ?? Self.amplifyRoot(containing: schemaFolder)
        configuration.amplifyEnvironment = amplifyEnvironment
    }

    /// The folder holding `amplify/` above `folder` (an API folder is
    /// `<root>/amplify/backend/api/<name>`), or `folder` itself when it holds one.
    static func amplifyRoot(containing folder: String) -> String? {
        var url = URL(fileURLWithPath: folder.isEmpty ? "." : folder).standardizedFileURL
        for _ in 0..<6 {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("amplify/backend/function").path) { return url.path }
            if url.path == "/" { break }
            url.deleteLastPathComponent()
        }
        return nil
    }
}
