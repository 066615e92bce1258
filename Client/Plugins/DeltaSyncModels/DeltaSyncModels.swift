import Foundation
import PackagePlugin

/// Generates the Swift models of the `schema.graphql` in a target, at every build where the
/// schema changed.
///
/// Apply it to the target that holds the schema (in an Xcode project: the app target's Build
/// Phases, Run Build Tool Plug-ins, with `schema.graphql` among the target's files):
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
        return [try Self.command(schema: schema.url, for: target.name, tool: context.tool(named: "deltasync-codegen").url, output: context.pluginWorkDirectoryURL)]
    }

    /// The one command both kinds of project run: the schema in, `DeltaSyncModels.swift` out.
    static func command(schema: URL, for target: String, tool: URL, output: URL) -> Command {
        .buildCommand(
            displayName: "Generating DeltaSync models from \(schema.lastPathComponent) for \(target)",
            executable: tool,
            arguments: ["--single-file", schema.path(percentEncoded: false), output.path(percentEncoded: false)],
            inputFiles: [schema],
            outputFiles: [output.appendingPathComponent("DeltaSyncModels.swift")]
        )
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// The same plugin for an Xcode app target (Build Phases, Run Build Tool Plug-ins): the target's
/// `schema.graphql` (a file of the target) becomes its models at every build where it changed.
extension DeltaSyncModels: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
        guard let schema = target.inputFiles.first(where: { $0.url.lastPathComponent == "schema.graphql" }) else { return [] }
        return [try Self.command(schema: schema.url, for: target.displayName, tool: context.tool(named: "deltasync-codegen").url, output: context.pluginWorkDirectoryURL)]
    }
}
#endif
