import DeltaSyncCore
import Foundation

/// Reads the `ResolverConfig` of an Amplify Gen 1 `transform.conf.json`:
///
/// ```json
/// { "ResolverConfig": {
///     "project": { "ConflictHandler": "AUTOMERGE", "ConflictDetection": "VERSION" },
///     "models": { "Reaction": { "ConflictHandler": "OPTIMISTIC_CONCURRENCY", "ConflictDetection": "VERSION" } } } }
/// ```
///
/// Other keys (`Version`, `ElasticsearchWarning`, `LambdaConflictHandler`, ...) are accepted and
/// ignored. As in Amplify's transformer, the API is versioned exactly when `ResolverConfig` has a
/// `project` or a `models` entry; without one (or without the file) it is the plain shape. An
/// entry whose `ConflictDetection` is `NONE` keeps the versioned shape and writes without
/// checking versions (``ConflictHandlerKind/lastWriterWins``).
enum TransformConfiguration {
    /// What the file decides: the API's shape and, when versioned, its conflict handlers.
    struct Decision: Equatable {
        var conflictDetection: ConflictDetection
        var handlers: SyncConfiguration
    }

    /// - Parameters:
    ///   - data: The file's contents.
    ///   - file: The file's path, for errors.
    ///   - models: The schema's model names, to reject settings for a model that does not exist.
    static func decision(from data: Data, file: String, models: Set<String>) throws(SchemaError) -> Decision {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw SchemaError(file: file, line: 0, column: 0, message: "transform.conf.json is not valid JSON")
        }
        guard root.objectValue != nil else {
            throw SchemaError(file: file, line: 0, column: 0, message: "transform.conf.json must hold a JSON object")
        }
        var configuration = SyncConfiguration()
        let resolverConfig = root["ResolverConfig"]
        if !resolverConfig.isNull, resolverConfig.objectValue == nil {
            throw SchemaError(file: file, line: 0, column: 0, message: "ResolverConfig must be an object")
        }
        let versioned = !resolverConfig["project"].isNull || !resolverConfig["models"].isNull
        if let handler = try handler(resolverConfig["project"], path: "ResolverConfig.project", file: file) {
            configuration.projectHandler = handler
        }
        for (model, settings) in resolverConfig["models"].objectValue ?? [:] {
            let path = "ResolverConfig.models.\(model)"
            guard models.contains(model) else {
                throw SchemaError(file: file, line: 0, column: 0, message: "\(path) names a model that is not in the schema")
            }
            if let handler = try handler(settings, path: path, file: file) {
                configuration.modelHandlers[model] = handler
            }
        }
        return Decision(conflictDetection: versioned ? .version : .none, handlers: configuration)
    }

    private static func handler(_ settings: JSONValue, path: String, file: String) throws(SchemaError) -> ConflictHandlerKind? {
        if settings.isNull { return nil }
        guard settings.objectValue != nil else {
            throw SchemaError(file: file, line: 0, column: 0, message: "\(path) must be an object")
        }
        let detection = settings["ConflictDetection"]
        switch detection.stringValue {
        case "NONE": return .lastWriterWins
        case "VERSION": break
        case nil where detection.isNull: break
        default:
            throw SchemaError(
                file: file, line: 0, column: 0,
                message: "unknown \(path).ConflictDetection \(detection.jsonText); expected VERSION or NONE")
        }
        let value = settings["ConflictHandler"]
        if value.isNull { return nil }
        guard let name = value.stringValue, let handler = ConflictHandlerKind(rawValue: name), handler != .lastWriterWins else {
            throw SchemaError(
                file: file, line: 0, column: 0,
                message: "unknown \(path).ConflictHandler \(value.jsonText); expected AUTOMERGE, OPTIMISTIC_CONCURRENCY or LAMBDA"
            )
        }
        return handler
    }
}
