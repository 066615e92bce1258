import DeltaSyncResolverFiles
import DeltaSyncSchema
import DeltaSyncServer
import Foundation

extension SchemaInput {
    /// With `--project`, the API folder's resolver files (`resolvers/`, `stacks/`) into the
    /// configuration; what the folder holds that does not run is said on standard error, file
    /// by file. With `--schema`, the APPSYNC_JS handlers of `resolvers.json` beside the schema
    /// (``ResolversFile``), as a Gen 2 project declares them.
    ///
    /// - Throws: ``ResolverFileError`` for a stack or `resolvers.json` that does not parse or
    ///   names what does not exist; a template or code that does not pass its checks stops the
    ///   start when the server is made, with its file, line and column.
    func applyResolverFiles(to configuration: inout ServerConfiguration, project amplifyProject: AmplifyProject) throws {
        if let schemaFile = schema, let files = try ResolversFile.load(schemaFile: schemaFile, schema: amplifyProject.schema) {
            configuration.resolvers += files.resolvers
            configuration.dataSources += files.dataSources
            let folder = (schemaFile as NSString).deletingLastPathComponent
            FileHandle.standardError.write(Data("deltasync: note: \(folder.isEmpty ? "." : folder)/\(ResolversFile.fileName): running \(files.resolvers.count) APPSYNC_JS resolvers\n".utf8))
        }
        guard let folder = project else { return }
        let files = try ProjectResolvers.load(
            apiDirectory: folder, schema: amplifyProject.schema, environmentName: configuration.amplifyEnvironment ?? "NONE")
        configuration.resolvers += files.resolvers
        configuration.dataSources += files.dataSources
        configuration.slots += files.slots
        configuration.overrides += files.overrides
        for finding in files.findings {
            FileHandle.standardError.write(Data("deltasync: note: \(folder)/\(finding)\n".utf8))
        }
        guard !files.isEmpty else { return }
        let summary = "\(files.overrides.count) overrides, \(files.slots.count) slot functions, \(files.resolvers.count) custom resolvers"
        FileHandle.standardError.write(Data("deltasync: note: \(folder): running its resolver files: \(summary)\n".utf8))
    }
}
