import DeltaSyncCodegen
import DeltaSyncSchema
import Foundation

// `deltasync-codegen [--single-file] <schema.graphql> <output-dir>`: the model generator without
// the server's dependencies, run by the DeltaSyncModels build tool plugin. Exit codes follow
// sysexits: 64 usage, 65 schema error, 73 output not writable.

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
let singleFile = arguments.first == "--single-file"
if singleFile { arguments.removeFirst() }
guard arguments.count == 2 else {
    fail("usage: deltasync-codegen [--single-file] <schema.graphql> <output-dir>", status: 64)
}
let (schemaFile, outputDirectory) = (arguments[0], arguments[1])

guard let data = FileManager.default.contents(atPath: schemaFile) else {
    fail("\(schemaFile):0:0: error: cannot read the schema file", status: 65)
}
guard let text = String(data: data, encoding: .utf8) else {
    fail("\(schemaFile):0:0: error: the schema file is not UTF-8 text", status: 65)
}
let schema: AmplifySchema
do {
    schema = try AmplifySchema.parse(source: text, file: schemaFile)
} catch {
    fail(error.description, status: 65)
}

let generator = SwiftModelGenerator(schema: schema, schemaText: text)
do {
    _ = try GeneratedDirectory(path: outputDirectory).write(singleFile ? [generator.singleFile()] : generator.files())
} catch {
    fail("error: \(error.description)", status: 73)
}
