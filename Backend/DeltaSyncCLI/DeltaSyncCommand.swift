import ArgumentParser

/// `deltasync`: a local AppSync-compatible backend for Amplify schemas.
@main
struct DeltaSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deltasync",
        abstract: "A local AppSync-compatible backend with DataStore sync, for Amplify GraphQL schemas.",
        version: BuildStamp.versionLine,
        subcommands: [ServeCommand.self, ExecCommand.self, ConfigCommand.self, ExportCommand.self, ImportCommand.self, DevCertCommand.self, TokenCommand.self, SchemaCommand.self, CodegenCommand.self, SimulateCommand.self]
    )
}
