import ArgumentParser
import DeltaSyncCodegen
import DeltaSyncSchema
import Foundation

struct CodegenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "codegen",
        abstract: "Generate client code from an Amplify schema.",
        subcommands: [SwiftCodegenCommand.self]
    )
}

struct SwiftCodegenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift",
        abstract: "Generate Swift models for DeltaSyncClient: one file per model, enum and non-model type, and DeltaSyncModels.swift.",
        discussion: """
            Files already holding the generated text are left alone. Swift files in the output folder \
            that carry the generated header but are no longer generated are removed; other files are never touched.
            """
    )

    @OptionGroup var input: SchemaInput

    @Option(name: .long, help: "The folder to write the models to; created when missing.", completion: .directory)
    var out: String

    func run() throws {
        let project: AmplifyProject
        do {
            project = try input.load()
        } catch {
            throw SchemaFailure(error: error)
        }
        if project.conflictDetection == .none {
            // The generated registry carries the API's shape: models without a sync query stay on the device.
            let note = "deltasync: note: conflict detection is NONE (\(project.conflictDetectionSource)): DeltaSyncClient keeps these "
                + "models on the device and does not sync them; syncing needs an API with conflict detection VERSION.\n"
            FileHandle.standardError.write(Data(note.utf8))
        }
        let generator = SwiftModelGenerator(schema: project.schema, schemaText: try schemaText(of: project))
        let changes = try GeneratedDirectory(path: out).write(generator.files())
        let folder = out.hasSuffix("/") ? out : out + "/"
        for name in changes.written { print("wrote     \(folder)\(name)") }
        for name in changes.unchanged { print("unchanged \(folder)\(name)") }
        for name in changes.removed { print("removed   \(folder)\(name)") }
    }

    /// The schema as the generated registry embeds it: the files the project was read from, in
    /// the order they were parsed, which parse back to the same schema as one text.
    private func schemaText(of project: AmplifyProject) throws -> String {
        var texts: [String] = []
        for file in project.schemaFiles {
            do {
                texts.append(try String(contentsOfFile: file, encoding: .utf8))
            } catch {
                throw SchemaFailure(error: SchemaError(file: file, line: 0, column: 0, message: "cannot read the schema file"))
            }
        }
        return texts.joined(separator: "\n")
    }
}
