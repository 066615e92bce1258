import DeltaSyncResolverFiles
import DeltaSyncSchema
import DeltaSyncServer
import Foundation

extension ServeOptions {
    /// With `--project`, the API folder's resolver files (`resolvers/`, `stacks/`) into the
    /// configuration; what the folder holds that does not run is said on standard error, file
    /// by file.
    ///
    /// - Throws: ``ResolverFileError`` for a stack that does not parse or a resource that names
    ///   what does not exist; a template that does not parse stops the start when the server
    ///   is made, with its file, line and column.
    func applyResolverFiles(to configuration: inout ServerConfiguration, project: AmplifyProject) throws {
        guard let folder = input.project else { return }
        let files = try ProjectResolvers.load(
            apiDirectory: folder, schema: project.schema, environmentName: configuration.amplifyEnvironment ?? "NONE")
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
