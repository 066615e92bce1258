import Foundation

/// A user's Amplify API: its schema and its conflict-handling settings, loaded from disk.
///
/// ```swift
/// let project = try AmplifyProject.load(projectDirectory: "amplify/backend/api/blog")
/// print(project.schema.models.map(\.name))          // ["Blog", "Post", ...]
/// print(project.sync.handler(for: "Reaction"))      // .optimisticConcurrency
/// print(project.conflictDetection)                  // .version: transform.conf.json has a ResolverConfig
/// ```
public struct AmplifyProject: Sendable {
    public var schema: AmplifySchema
    public var sync: SyncConfiguration
    /// The schema files read, in the order they were parsed.
    public var schemaFiles: [String]
    /// The API's authorization modes from the project's `cli-inputs.json` (or, in older
    /// projects, what `parameters.json` implies); `nil` when the project does not say.
    public var authModes: APIAuthModes?
    /// The API's shape, as the schema serves it (``AmplifySchema/conflictDetection``).
    public var conflictDetection: ConflictDetection { schema.conflictDetection }
    /// What decided ``conflictDetection``, for the server to say at start.
    public var conflictDetectionSource: String

    /// - Parameters:
    ///   - schema: The parsed schema.
    ///   - sync: The conflict handlers.
    ///   - schemaFiles: The schema files the schema came from.
    ///   - conflictDetectionSource: What decided the schema's ``ConflictDetection``.
    public init(
        schema: AmplifySchema, sync: SyncConfiguration = SyncConfiguration(), schemaFiles: [String],
        conflictDetectionSource: String = "the default for a schema file"
    ) {
        self.schema = schema
        self.sync = sync
        self.schemaFiles = schemaFiles
        self.conflictDetectionSource = conflictDetectionSource
    }

    /// The project served with `mode` whatever its files say (`--conflict-detection`).
    ///
    /// ```swift
    /// let plain = try AmplifyProject.load(schemaFile: "schema.graphql").servingConflictDetection(.none, because: "--conflict-detection")
    /// ```
    public func servingConflictDetection(_ mode: ConflictDetection, because source: String) -> AmplifyProject {
        var project = self
        project.schema = schema.servingConflictDetection(mode)
        project.conflictDetectionSource = source
        return project
    }

    /// The project served with Gen 2's defaults (``AmplifySchema/servingGen2Defaults()``): a
    /// `defineData` schema written in SDL (`--gen2`).
    public func servingGen2Defaults() -> AmplifyProject {
        var project = self
        project.schema = schema.servingGen2Defaults()
        project.conflictDetectionSource = "a Gen 2 data schema never has it"
        if project.authModes == nil { project.authModes = project.schema.gen2DefaultAuthModes }
        return project
    }

    /// Loads a single schema file, with Amplify's default conflict handling (Auto Merge):
    /// versioned, as DeltaSync has always served a bare schema (`--conflict-detection none` for
    /// the plain shape).
    ///
    /// - Throws: ``SchemaError`` when the file cannot be read or the schema is invalid.
    public static func load(schemaFile: String) throws(SchemaError) -> AmplifyProject {
        let source = try read(schemaFile)
        let schema = try AmplifySchema.parse([source])
        return AmplifyProject(schema: schema, schemaFiles: [schemaFile])
    }

    /// Loads an Amplify Gen 1 API folder (`amplify/backend/api/<name>`): `schema.graphql`, or
    /// every `schema/*.graphql` in name order, and the `ResolverConfig` of an optional
    /// `transform.conf.json`, which decides the API's shape as Amplify does: versioned with a
    /// `ResolverConfig`, plain without one or without the file.
    ///
    /// - Throws: ``SchemaError`` when no schema is found, a file cannot be read, the schema is
    ///   invalid, or `transform.conf.json` is not valid JSON or names an unknown handler or model.
    public static func load(projectDirectory: String) throws(SchemaError) -> AmplifyProject {
        let directory = URL(fileURLWithPath: projectDirectory, isDirectory: true)
        let files = try schemaFiles(in: directory, as: projectDirectory)
        var sources: [SchemaSource] = []
        for file in files {
            sources.append(try read(file))
        }
        let schema = try AmplifySchema.parse(sources)
        // Amplify's rule: versioned exactly when transform.conf.json has a ResolverConfig.
        var decision = TransformConfiguration.Decision(conflictDetection: .none, handlers: SyncConfiguration())
        var source = "no transform.conf.json in the project"
        let configuration = directory.appendingPathComponent("transform.conf.json")
        if FileManager.default.fileExists(atPath: configuration.path) {
            let path = join(projectDirectory, "transform.conf.json")
            guard let data = FileManager.default.contents(atPath: configuration.path) else {
                throw SchemaError(file: path, line: 0, column: 0, message: "cannot read transform.conf.json")
            }
            decision = try TransformConfiguration.decision(
                from: data, file: path, models: Set(schema.models.map(\.name))
            )
            source = decision.conflictDetection == .version
                ? "the ResolverConfig of \(path)" : "\(path) has no ResolverConfig"
        }
        var project = AmplifyProject(
            schema: schema.servingConflictDetection(decision.conflictDetection), sync: decision.handlers, schemaFiles: files,
            conflictDetectionSource: source)
        let inputs = directory.appendingPathComponent("cli-inputs.json")
        let parameters = directory.appendingPathComponent("parameters.json")
        if let data = FileManager.default.contents(atPath: inputs.path) {
            project.authModes = try ProjectAuthSettings.modes(from: data, file: join(projectDirectory, "cli-inputs.json"))
        } else if let data = FileManager.default.contents(atPath: parameters.path) {
            project.authModes = try ProjectAuthSettings.modes(fromParameters: data, file: join(projectDirectory, "parameters.json"))
        }
        return project
    }

    // MARK: - Files

    /// `schema.graphql`, else `schema/*.graphql` sorted by name; both at once is ambiguous.
    private static func schemaFiles(in directory: URL, as given: String) throws(SchemaError) -> [String] {
        let manager = FileManager.default
        let single = directory.appendingPathComponent("schema.graphql")
        let folder = directory.appendingPathComponent("schema", isDirectory: true)
        var isDirectory: ObjCBool = false
        let hasFolder = manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) && isDirectory.boolValue
        let hasSingle = manager.fileExists(atPath: single.path)
        if hasSingle, hasFolder {
            throw SchemaError(
                file: given, line: 0, column: 0,
                message: "both schema.graphql and schema/ exist; Amplify reads one or the other, remove one"
            )
        }
        if hasSingle {
            return [join(given, "schema.graphql")]
        }
        guard hasFolder else {
            throw SchemaError(file: given, line: 0, column: 0, message: "no schema.graphql or schema/ folder in the project")
        }
        let names: [String]
        do {
            names = try manager.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw SchemaError(file: join(given, "schema"), line: 0, column: 0, message: "cannot list the schema folder")
        }
        let files = names.filter { $0.hasSuffix(".graphql") }.sorted()
        guard !files.isEmpty else {
            throw SchemaError(file: join(given, "schema"), line: 0, column: 0, message: "the schema folder holds no .graphql file")
        }
        return files.map { join(join(given, "schema"), $0) }
    }

    private static func read(_ file: String) throws(SchemaError) -> SchemaSource {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw SchemaError(file: file, line: 0, column: 0, message: "cannot read the schema file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SchemaError(file: file, line: 0, column: 0, message: "the schema file is not UTF-8 text")
        }
        return SchemaSource(file: file, text: text)
    }

    /// Paths as the user gave them (`api/blog/schema.graphql`), so errors point where they look.
    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
