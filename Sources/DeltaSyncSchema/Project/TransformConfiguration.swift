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
/// ignored. Conflict detection must be `VERSION` where given: DataStore cannot sync without it.
enum TransformConfiguration {
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - file: The file's path, for errors.
    ///   - models: The schema's model names, to reject settings for a model that does not exist.
    static func syncConfiguration(from data: Data, file: String, models: Set<String>) throws(SchemaError) -> SyncConfiguration {
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
        return configuration
    }

    private static func handler(_ settings: JSONValue, path: String, file: String) throws(SchemaError) -> ConflictHandlerKind? {
        if settings.isNull { return nil }
        guard settings.objectValue != nil else {
            throw SchemaError(file: file, line: 0, column: 0, message: "\(path) must be an object")
        }
        let detection = settings["ConflictDetection"]
        if !detection.isNull, detection.stringValue != "VERSION" {
            throw SchemaError(
                file: file, line: 0, column: 0,
                message: "\(path).ConflictDetection must be \"VERSION\"; DataStore needs versioned conflict detection"
            )
        }
        let value = settings["ConflictHandler"]
        if value.isNull { return nil }
        guard let name = value.stringValue, let handler = ConflictHandlerKind(rawValue: name) else {
            throw SchemaError(
                file: file, line: 0, column: 0,
                message: "unknown \(path).ConflictHandler \(value.jsonText); expected AUTOMERGE, OPTIMISTIC_CONCURRENCY or LAMBDA"
            )
        }
        return handler
    }
}
