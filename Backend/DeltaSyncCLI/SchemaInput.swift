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

    func validate() throws {
        if (schema == nil) == (project == nil) {
            throw ValidationError("Pass exactly one of --schema FILE or --project DIR.")
        }
    }

    func load() throws(SchemaError) -> AmplifyProject {
        if let project { return try AmplifyProject.load(projectDirectory: project) }
        return try AmplifyProject.load(schemaFile: schema!)
    }
}
