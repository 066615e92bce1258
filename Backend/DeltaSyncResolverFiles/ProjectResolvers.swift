import DeltaSyncCore
import DeltaSyncGraphQL
import DeltaSyncSchema
import Foundation

/// The resolvers an Amplify Gen 1 API folder (`amplify/backend/api/<name>/`) defines, as
/// DeltaSync's definitions: slot files and overrides of the generated fields
/// (`resolvers/Mutation.createTodo.preAuth.1.req.vtl`, `resolvers/Query.getTodo.req.vtl`),
/// and the custom stacks' resolvers, functions and data sources (`stacks/CustomResources.json`).
/// What the folder holds that DeltaSync does not run is in ``findings``, file by file.
///
/// ```swift
/// let project = try AmplifyProject.load(projectDirectory: "amplify/backend/api/blog")
/// let files = try ProjectResolvers.load(apiDirectory: "amplify/backend/api/blog", schema: project.schema)
/// configuration.resolvers = files.resolvers
/// configuration.dataSources = files.dataSources
/// configuration.slots = files.slots
/// configuration.overrides = files.overrides
/// for finding in files.findings { print(finding) }   // resolvers/...: not run: ...
/// ```
public struct ProjectResolvers: Sendable {
    public var resolvers: [ResolverDefinition] = []
    public var dataSources: [DataSourceDefinition] = []
    public var slots: [SlotFunctionDefinition] = []
    public var overrides: [DataStepOverride] = []
    /// What is not run, and why.
    public var findings: [ResolverFinding] = []

    public init() {}

    /// Whether the folder defines anything to run.
    public var isEmpty: Bool { resolvers.isEmpty && slots.isEmpty && overrides.isEmpty }

    /// Reads the API folder's resolver files.
    ///
    /// - Parameters:
    ///   - apiDirectory: the API folder (holds `schema.graphql` or `schema/`, `resolvers/`, `stacks/`).
    ///   - schema: the API's schema, whose generated fields slots and overrides attach to.
    ///   - environmentName: Amplify's environment, `${env}` in stacks.
    /// - Throws: ``ResolverFileError`` for a stack that does not parse, a resource missing a
    ///   property or naming what does not exist, or a template location with no file.
    public static func load(apiDirectory: String, schema: AmplifySchema, environmentName: String = "NONE") throws(ResolverFileError) -> ProjectResolvers {
        let folder = URL(fileURLWithPath: apiDirectory)
        func read(_ path: String) -> String? { try? String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8) }
        var project = ProjectResolvers()
        var used: Set<String> = []
        let parameters = StackParameters(apiName: folder.lastPathComponent, environmentName: environmentName)
        let generatedSources = Set(schema.models.map { "\($0.name)Table" } + ["NONE_DS"])
        for name in files(in: folder.appendingPathComponent("stacks")) {
            let path = "stacks/\(name)"
            guard name.hasSuffix(".json") || name.hasSuffix(".yaml") || name.hasSuffix(".yml") else {
                project.findings.append(ResolverFinding(file: path, reason: "a stack is a .json, .yaml or .yml file"))
                continue
            }
            guard let text = read(path) else { throw ResolverFileError(file: path, message: "the file cannot be read as UTF-8 text.") }
            let document = name.hasSuffix(".json") ? try StackDocument.json(text, file: path) : try StackDocument.yaml(text, file: path)
            let stack = try CustomStack(file: path, document: document, parameters: parameters)
            let definitions = try stack.definitions(generatedDataSources: generatedSources, read: read)
            project.resolvers += definitions.resolvers
            project.dataSources += definitions.dataSources
            project.findings += definitions.findings
            used.formUnion(definitions.templateFiles)
        }
        for model in schema.models {
            project.dataSources.append(DataSourceDefinition(name: "\(model.name)Table", kind: .dynamoDB(table: model.name)))
        }
        project.dataSources.append(DataSourceDefinition(name: "NONE_DS", kind: .none))
        try project.readResolverFolder(folder, schema: schema, used: used, read: read)
        return project
    }

    /// `resolvers/`: slot files and overrides of generated fields; files a stack reads are
    /// the stack's.
    private mutating func readResolverFolder(_ folder: URL, schema: AmplifySchema, used: Set<String>, read: (String) -> String?) throws(ResolverFileError) {
        let generated = Slot.FieldKind.generatedFields(of: schema)
        var slotTemplates: [String: SlotFunctionDefinition] = [:]
        var overrideTemplates: [String: DataStepOverride] = [:]
        for name in Self.files(in: folder.appendingPathComponent("resolvers")) {
            let path = "resolvers/\(name)"
            guard !used.contains(path) else { continue }
            guard let text = read(path) else { throw ResolverFileError(file: path, message: "the file cannot be read as UTF-8 text.") }
            let template = TemplateText(name: path, text: text)
            switch ResolverFileName(name) {
            case .slot(let type, let field, let slotName, let position, let half):
                guard let slot = Slot(rawValue: slotName) else {
                    findings.append(ResolverFinding(file: path, reason: "\(slotName) is not a slot of Amplify's pipelines (\(Slot.allCases.map(\.rawValue).joined(separator: ", ")))"))
                    continue
                }
                guard let kind = generated["\(type).\(field)"] else {
                    findings.append(ResolverFinding(file: path, reason: "\(type).\(field) is not a field DeltaSync generates for a model"))
                    continue
                }
                if slot == .validate {
                    findings.append(ResolverFinding(file: path, reason: "Amplify Gen 1 reads no validate slot files, so AppSync would not run it either"))
                    continue
                }
                let key = "\(type).\(field).\(slot.rawValue).\(position)"
                var definition = slotTemplates[key] ?? SlotFunctionDefinition(type: type, field: field, slot: slot, position: position, request: nil, response: nil)
                if half == .request { definition.request = template } else { definition.response = template }
                slotTemplates[key] = definition
            case .template(let type, let field, let half):
                guard let kind = generated["\(type).\(field)"] else {
                    findings.append(ResolverFinding(file: path, reason: "\(type).\(field) is not a generated field, and no custom stack uses this file"))
                    continue
                }
                guard kind != .subscription else {
                    findings.append(ResolverFinding(file: path, reason: "a subscription's generated step reads nothing to override (its slots run); \(type).\(field) subscribes as generated"))
                    continue
                }
                let key = "\(type).\(field)"
                var definition = overrideTemplates[key] ?? DataStepOverride(type: type, field: field, request: nil, response: nil)
                if half == .request { definition.request = template } else { definition.response = template }
                overrideTemplates[key] = definition
            case .other:
                let reason = name.hasSuffix(".js")
                    ? "no custom stack's resolver or function names this APPSYNC_JS file (CodeS3Location), so nothing runs it"
                    : "not named as a slot (Type.field.slot.N.req.vtl) or an override (Type.field.req.vtl), and no custom stack uses it"
                findings.append(ResolverFinding(file: path, reason: reason))
            }
        }
        slots = slotTemplates.keys.sorted().map { slotTemplates[$0]! }
        overrides = overrideTemplates.keys.sorted().map { overrideTemplates[$0]! }
    }

    /// The regular files of `folder`, sorted; none when it does not exist.
    private static func files(in folder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }.sorted()
    }
}
