import ArgumentParser
import DeltaSyncSchema

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

    func run() throws {
        do {
            print(try input.load().schema.appSyncSDL(), terminator: "")
        } catch {
            throw SchemaFailure(error: error)
        }
    }
}

/// Prints a schema error as a compiler-style diagnostic and exits with status 65 (EX_DATAERR).
struct SchemaFailure: Error, CustomStringConvertible {
    let error: SchemaError
    var description: String { error.description }
}
