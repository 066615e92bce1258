import Foundation
import PackagePlugin

/// Generates the Swift models of the `schema.graphql` in a target, at every build where the
/// schema changed.
///
/// Apply it to the target that holds the schema:
///
/// ```swift
/// .target(name: "App", dependencies: ["DeltaSyncClient"], plugins: [.plugin(name: "DeltaSyncModels", package: "DeltaSync")])
/// ```
///
/// A build command must name its outputs before the schema is read, and the schema decides
/// which types exist (`@manyToMany` adds join models), so every declaration goes into one
/// `DeltaSyncModels.swift`.
@main
struct DeltaSyncModels: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let schema = target.sourceModule?.sourceFiles.first(where: { $0.url.lastPathComponent == "schema.graphql" })
        else { return [] }
        let outputDirectory = context.pluginWorkDirectoryURL
        return [
            .buildCommand(
                displayName: "Generating DeltaSync models from \(schema.url.lastPathComponent) for \(target.name)",
                executable: try context.tool(named: "deltasync-codegen").url,
                arguments: ["--single-file", schema.url.path(percentEncoded: false), outputDirectory.path(percentEncoded: false)],
                inputFiles: [schema.url],
                outputFiles: [outputDirectory.appendingPathComponent("DeltaSyncModels.swift")]
            )
        ]
    }
}
