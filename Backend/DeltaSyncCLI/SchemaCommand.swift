import ArgumentParser
import DeltaSyncSchema
import DeltaSyncServer

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Work with the AppSync schema generated from an Amplify schema.",
        subcommands: [PrintSchemaCommand.self]
    )
}

struct PrintSchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print the AppSync schema (SDL) Amplify generates, with conflict detection on."
    )

    @OptionGroup var input: SchemaInput

    @Option(name: .customLong("auth-mode"), help: "The API's default mode (as for serve); decides the mode directives printed.")
    var defaultMode: AuthModeArgument?

    @Option(name: .customLong("additional-auth-mode"), parsing: .upToNextOption, help: "Additional modes, comma-separated or repeated.")
    var additionalModes: [String] = []

    func run() throws {
        let project: AmplifyProject
        do {
            project = try input.load()
        } catch {
            throw SchemaFailure(error: error)
        }
        var auth = try AuthOptions.parse([])
        auth.defaultMode = defaultMode
        auth.additionalModes = additionalModes
        let modes = try auth.modes() ?? project.authModes
            ?? APIAuthModes(defaultMode: .apiKey, additionalModes: project.schema.authModesUsed)
        print(project.schema.appSyncSDL(authModes: modes), terminator: "")
    }
}

/// Prints a schema error as a compiler-style diagnostic and exits with status 65 (EX_DATAERR).
struct SchemaFailure: Error, CustomStringConvertible {
    let error: SchemaError
    var description: String { error.description }
}
