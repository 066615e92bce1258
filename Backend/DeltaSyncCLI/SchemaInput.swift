import ArgumentParser
import DeltaSyncSchema

/// `--schema FILE` or `--project DIR`, shared by every command that reads a schema.
struct SchemaInput: ParsableArguments {
    @Option(name: .long, help: "An Amplify GraphQL schema file.", completion: .file(extensions: ["graphql"]))
    var schema: String?

    @Option(
        name: .long,
        help: "An Amplify Gen 1 API folder (schema.graphql or schema/*.graphql, and transform.conf.json).",
        completion: .directory)
    var project: String?

    @Option(
        name: .customLong("conflict-detection"),
        help: ArgumentHelp(
            "The API's shape: version (DataStore's: _version, syncX, tombstones) or none (the API category's, Gen 2's).",
            discussion: "Default: --project follows transform.conf.json as Amplify does (a ResolverConfig means version, none otherwise); --schema serves version."))
    var conflictDetection: ConflictDetectionChoice?

    @Flag(
        name: .customLong("gen2"),
        help: "The schema is a Gen 2 data schema written in SDL (defineData): served as Gen 2 serves it, without conflict detection and with @index queries named automatically.")
    var gen2 = false

    func validate() throws {
        if gen2, conflictDetection == .version {
            throw ValidationError("--gen2 and --conflict-detection version contradict each other: Gen 2 APIs never have conflict detection.")
        }
        if (schema == nil) == (project == nil) {
            throw ValidationError("Pass exactly one of --schema FILE or --project DIR.")
        }
    }

    func load() throws(SchemaError) -> AmplifyProject {
        let loaded: AmplifyProject
        if let project {
            loaded = try AmplifyProject.load(projectDirectory: project)
        } else {
            loaded = try AmplifyProject.load(schemaFile: schema!)
        }
        if gen2 { return loaded.servingGen2Defaults() }
        guard let conflictDetection else { return loaded }
        return loaded.servingConflictDetection(conflictDetection.mode, because: "--conflict-detection \(conflictDetection.rawValue)")
    }
}

/// `--conflict-detection` values.
enum ConflictDetectionChoice: String, ExpressibleByArgument, CaseIterable {
    case version, none

    var mode: ConflictDetection {
        switch self {
        case .version: return .version
        case .none: return .none
        }
    }
}
