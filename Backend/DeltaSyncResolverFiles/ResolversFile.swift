import DeltaSyncCore
import DeltaSyncGraphQL
import DeltaSyncSchema
import Foundation

/// `resolvers.json` beside a schema file: the APPSYNC_JS handlers of fields, as a Gen 2 project
/// declares them in `defineData` (`a.handler.custom({ entry: './echo.js', dataSource: 'NONE' })`)
/// and DeltaSync cannot read from TypeScript. Keys are fields (`Type.field`); each names its
/// code (`entry`, relative to the file) and data source, or a pipeline of such handlers. The
/// optional `dataSources` key defines data sources beyond `NONE` and the models' tables:
///
/// ```json
/// {
///   "dataSources": {
///     "WeatherApi": { "http": "https://api.weather.example" },
///     "Summarize": { "lambda": "summarize" }
///   },
///   "Query.echo": { "entry": "resolvers/echo.js", "dataSource": "NONE" },
///   "Query.getPost": { "entry": "resolvers/getPost.js", "dataSource": "Post" },
///   "Query.postSummary": {
///     "pipeline": [
///       { "entry": "resolvers/scanPosts.js", "dataSource": "Post" },
///       { "entry": "resolvers/summarize.js", "dataSource": "Summarize" }
///     ]
///   }
/// }
/// ```
///
/// A data source is `NONE`, a model's name or its table's (`Post`, `PostTable`, as Gen 2's
/// `a.ref('Post')` names it), or a name of `dataSources` (`http`, `lambda` for a function of the
/// server's catalog, or `dynamoDB` for a model's table). A pipeline without an `entry` of its
/// own passes its last function's value on, as Gen 2's generated pipeline does; a pipeline
/// function is named after its file (`scanPosts`).
///
/// ```swift
/// if let files = try ResolversFile.load(schemaFile: "amplify/data/schema.graphql", schema: project.schema) {
///     configuration.resolvers += files.resolvers
///     configuration.dataSources += files.dataSources
/// }
/// ```
public enum ResolversFile {
    /// The file's name, beside the schema.
    public static let fileName = "resolvers.json"

    /// The code of a pipeline without an `entry`: its last function's value is the field's.
    static let passThrough = """
        export function request(ctx) { return {}; }
        export function response(ctx) { return ctx.prev.result; }
        """

    /// The resolvers `resolvers.json` beside `schemaFile` defines; `nil` when there is none.
    ///
    /// - Throws: ``ResolverFileError`` for a file that is not JSON, a key that is not a field,
    ///   an entry that does not exist, or a data source no model or `dataSources` defines.
    public static func load(schemaFile: String, schema: AmplifySchema) throws(ResolverFileError) -> ProjectResolvers? {
        let folder = URL(fileURLWithPath: schemaFile).deletingLastPathComponent()
        let path = folder.appendingPathComponent(fileName).path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: try String(contentsOfFile: path, encoding: .utf8))
        } catch {
            throw ResolverFileError(file: fileName, message: "the file is not JSON: \(error)")
        }
        guard case .object(let entries) = document else {
            throw ResolverFileError(file: fileName, message: "the file holds an object of fields (\"Query.echo\": {\"entry\": \"echo.js\", \"dataSource\": \"NONE\"})")
        }
        var project = ProjectResolvers()
        var names: [String: String] = ["NONE": "NONE"]
        for model in schema.models {
            project.dataSources.append(DataSourceDefinition(name: "\(model.name)Table", kind: .dynamoDB(table: model.name)))
            names[model.name] = "\(model.name)Table"
            names["\(model.name)Table"] = "\(model.name)Table"
        }
        for (name, value) in (entries["dataSources"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            project.dataSources.append(DataSourceDefinition(name: name, kind: try dataSourceKind(name, value)))
            names[name] = name
        }
        let reader = Reader(folder: folder, dataSources: names)
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) where key != "dataSources" {
            project.resolvers.append(try reader.resolver(key, value))
        }
        return project
    }

    private static func dataSourceKind(_ name: String, _ value: JSONValue) throws(ResolverFileError) -> DataSourceDefinition.Kind {
        if let endpoint = value["http"].stringValue { return .http(endpoint: endpoint) }
        if let function = value["lambda"].stringValue { return .lambda(function: function) }
        if let table = value["dynamoDB"].stringValue { return .dynamoDB(table: table) }
        throw ResolverFileError(file: fileName, message: "the data source \(name) is {\"http\": URL}, {\"lambda\": function name} or {\"dynamoDB\": model name}")
    }

    /// Reads the fields' entries.
    private struct Reader {
        let folder: URL
        /// Every name a handler may give its data source, to the data source's own name.
        let dataSources: [String: String]

        func resolver(_ key: String, _ value: JSONValue) throws(ResolverFileError) -> ResolverDefinition {
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw ResolverFileError(file: fileName, message: "\(key) is not a field: write Type.field (Query.echo)")
            }
            let (type, field) = (String(parts[0]), String(parts[1]))
            if case .array(let steps) = value["pipeline"] {
                var functions: [FunctionDefinition] = []
                for step in steps {
                    let code = try self.code(step, key)
                    let name = URL(fileURLWithPath: code.name).deletingPathExtension().lastPathComponent
                    functions.append(FunctionDefinition(name: name, dataSource: try dataSource(step, key), code: code))
                }
                let code = value["entry"].isNull ? TemplateText(name: "\(fileName)#\(key)", text: passThrough) : try self.code(value, key)
                return ResolverDefinition(type: type, field: field, kind: .jsPipeline(code: code, functions: functions))
            }
            return ResolverDefinition(type: type, field: field, kind: .jsUnit(dataSource: try dataSource(value, key), code: try code(value, key)))
        }

        private func code(_ handler: JSONValue, _ key: String) throws(ResolverFileError) -> TemplateText {
            guard let entry = handler["entry"].stringValue else {
                throw ResolverFileError(file: fileName, message: "\(key): a handler names its code: {\"entry\": \"echo.js\", \"dataSource\": \"NONE\"}, or a pipeline: {\"pipeline\": [...]}")
            }
            let relative = entry.hasPrefix("./") ? String(entry.dropFirst(2)) : entry
            guard let text = try? String(contentsOf: folder.appendingPathComponent(relative), encoding: .utf8) else {
                throw ResolverFileError(file: fileName, message: "\(key): the entry \(entry) does not exist beside \(fileName)")
            }
            return TemplateText(name: relative, text: text)
        }

        private func dataSource(_ handler: JSONValue, _ key: String) throws(ResolverFileError) -> String {
            guard let written = handler["dataSource"].stringValue else {
                throw ResolverFileError(file: fileName, message: "\(key): a handler names its dataSource: NONE, a model's name, or one of dataSources")
            }
            guard let name = dataSources[written] else {
                let known = dataSources.keys.sorted().joined(separator: ", ")
                throw ResolverFileError(file: fileName, message: "\(key): the data source \(written) is neither NONE, a model, nor one of dataSources (known: \(known))")
            }
            return name
        }
    }
}
