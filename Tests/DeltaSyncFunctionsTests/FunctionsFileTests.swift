import DeltaSyncCore
import DeltaSyncFunctions
import Foundation
import Testing

/// A temporary folder holding `files` (path → contents; a path ending in `/` is a folder).
func functionsTestFolder(_ files: [String: String]) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("functions-\(UUID().uuidString)").standardizedFileURL.path
    for (path, contents) in files {
        let full = folder + "/" + path
        if path.hasSuffix("/") {
            try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        } else {
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try contents.write(toFile: full, atomically: true, encoding: .utf8)
        }
    }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

/// `functions.json`: the format of the doc comment, and a message for every mistake.
@Suite struct FunctionsFileTests {
    static let example = """
        {
          "functions": {
            "echo":   { "url": "http://127.0.0.1:9000/echo" },
            "resize": { "command": ["python3", "resize.py"], "directory": "tools", "env": {"BUCKET": "local"}, "envFile": "tools/.env", "timeout": 10 },
            "calc":   { "handler": "index.handler", "directory": "functions/calc/src", "runtime": "node" },
            "report": { "handler": "app.main", "directory": "functions/report", "maxProcesses": 2 },
            "hello":  { "handler": "index.handler", "directory": "functions/hello" }
          },
          "region": "eu-west-1",
          "timeout": 20
        }
        """

    @Test func parsesTheDocumentedFormat() throws {
        let folder = try functionsTestFolder([
            "functions.json": Self.example, "tools/resize.py": "", "tools/.env": "A=1", "functions/calc/src/": "",
            "functions/report/app.py": "", "functions/hello/index.mjs": "",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try FunctionsFile(contentsOf: folder + "/functions.json")
        #expect(file.region == "eu-west-1")
        #expect(file.timeout == .seconds(20))
        #expect(file.functions.map(\.name) == ["calc", "echo", "hello", "report", "resize"])
        let byName = Dictionary(uniqueKeysWithValues: file.functions.map { ($0.name, $0) })

        #expect(byName["echo"] == FunctionsFile.Function(name: "echo", kind: .url("http://127.0.0.1:9000/echo"), timeout: .seconds(20)))
        #expect(byName["resize"] == FunctionsFile.Function(
            name: "resize", kind: .command(["python3", "resize.py"]), directory: folder + "/tools", environment: ["BUCKET": "local"],
            envFile: folder + "/tools/.env", timeout: .seconds(10)))
        #expect(byName["calc"] == FunctionsFile.Function(
            name: "calc", kind: .handler("index.handler", runtime: .node), directory: folder + "/functions/calc/src", timeout: .seconds(20)))
        #expect(byName["report"]?.kind == .handler("app.main", runtime: .python))
        #expect(byName["report"]?.maxProcesses == 2)
        #expect(byName["hello"]?.kind == .handler("index.handler", runtime: .node))
    }

    @Test func defaultsWhenOmitted() throws {
        let file = try FunctionsFile(parsing: #"{"functions": {"run": {"command": ["./run.sh"]}}}"#, path: "/tmp/project/functions.json")
        #expect(file.region == nil)
        #expect(file.timeout == .seconds(30))
        #expect(file.functions == [FunctionsFile.Function(name: "run", kind: .command(["./run.sh"]), directory: "/tmp/project", timeout: .seconds(30))])
    }

    /// Each mistake and its whole message.
    @Test(arguments: [
        (
            "{\n  \"functions\": {\n    \"echo\": { \"url\": \"http://127.0.0.1:9000\" },\n  }\n}",
            "line 4: not valid JSON"
        ),
        (
            "{\n  \"functions\": {\n    \"resize\": {\n      \"comand\": [\"python3\"]\n    }\n  }\n}",
            "line 4, functions.resize.comand: unknown key \"comand\"; did you mean \"command\"?"
        ),
        (
            "{\n  \"functions\": {\n    \"echo\": { \"url\": \"http://127.0.0.1:9000\",\n      \"timeout\": \"10\" }\n  }\n}",
            "line 4, functions.echo.timeout: expected a number of seconds from 1 to 900 (such as 30), got \"10\"."
        ),
        (
            "{\n  \"functions\": {\n    \"echo\": {\n      \"url\": \"http://127.0.0.1:9000\",\n      \"command\": [\"node\", \"echo.js\"]\n    }\n  }\n}",
            "line 5, functions.echo.command: has both \"url\" and \"command\"; a function is one of url, command or handler. Keep one."
        ),
        (
            "{\n  \"functions\": {\n    \"resize\": {\n      \"command\": \"python3 resize.py\"\n    }\n  }\n}",
            "line 4, functions.resize.command: expected the command as a list of words, so no shell is needed to split it: write [\"python3\", \"resize.py\"]."
        ),
        (
            "{\"functions\": {\n  \"resize\": {\"command\": [\"python3\"],\n    \"env\": {\"RETRIES\": 3}}}}",
            "line 3, functions.resize.env.RETRIES: expected a string, got 3. Environment variables are text: write \"RETRIES\": \"3\"."
        ),
        (
            "{\"functions\": {\n  \"calc\": {}\n}}",
            "line 2, functions.calc: says neither \"url\", \"command\" nor \"handler\". Add one: \"url\": \"http://127.0.0.1:9000/calc\", \"command\": [\"node\", \"calc.js\"], or \"handler\": \"index.handler\" with its \"directory\"."
        ),
        (
            "{\"functions\": {\"echo\": {\"url\": \"localhost:9000\"}}}",
            "line 1, functions.echo.url: expected a URL such as \"http://127.0.0.1:9000/echo\", got \"localhost:9000\"."
        ),
        (
            "{\"functions\": {\"echo\": {\"url\": \"http://h/\", \"directory\": \"x\"}}}",
            "line 1, functions.echo.directory: \"directory\" configures a local process, but this function is a URL that DeltaSync does not start. Remove it, or set it where the endpoint runs."
        ),
        (
            "{\"functions\": {\"calc\": {\"handler\": \"index\"}}}",
            "line 1, functions.calc.handler: expected the handler as file.export, such as \"index.handler\" for the export handler of index.js or index.py, got \"index\"."
        ),
        (
            "{\"functions\": {\"calc\": {\"handler\": \"index.handler\", \"runtime\": \"nodejs20.x\"}}}",
            "line 1, functions.calc.runtime: expected \"node\" or \"python\", got \"nodejs20.x\"."
        ),
        (
            "[]",
            "line 1: expected an object such as {\"functions\": {\"echo\": {\"url\": \"http://127.0.0.1:9000/echo\"}}}, got a list."
        ),
        (
            "{\"region\": \"us-east-1\"}",
            "line 1: no \"functions\". Add the functions by name: {\"functions\": {\"echo\": {\"url\": \"http://127.0.0.1:9000/echo\"}}}."
        ),
        (
            "{\"functions\": {}, \"regoin\": \"x\", \"verbose\": true}",
            "line 1, regoin: unknown key \"regoin\"; did you mean \"region\"?"
        ),
        (
            "{\"functions\": {}, \"verbose\": true}",
            "line 1, verbose: unknown key \"verbose\". The keys of the file are \"functions\", \"region\", \"timeout\"."
        ),
    ])
    func mistakes(text: String, message: String) throws {
        let path = "/tmp/nowhere/functions.json"
        do {
            _ = try FunctionsFile(parsing: text, path: path)
            Issue.record("expected an error for \(text)")
        } catch {
            if message.contains("not valid JSON") {
                #expect(error.description.hasPrefix(path + " " + message))
                #expect(error.description.hasSuffix("Look for a missing comma or quote, or a trailing comma, on this line or the one before."))
            } else {
                #expect(error.description == path + " " + message)
            }
        }
    }

    @Test func missingPathsAndUninferableRuntime() throws {
        let folder = try functionsTestFolder(["functions/calc/": "", "notes.txt": "x"])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/functions.json"
        func message(_ text: String) -> String? {
            do {
                _ = try FunctionsFile(parsing: text, path: path)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(message("{\"functions\": {\n\"resize\": {\"command\": [\"x\"],\n \"directory\": \"tools\"}}}")
            == "\(path) line 3, functions.resize.directory: \(folder)/tools does not exist. Fix the path (relative paths start at \(folder)) or create the folder.")
        #expect(message("{\"functions\": {\"resize\": {\"command\": [\"x\"], \"directory\": \"notes.txt\"}}}")
            == "\(path) line 1, functions.resize.directory: \(folder)/notes.txt is a file; expected a folder.")
        #expect(message("{\"functions\": {\"resize\": {\"command\": [\"x\"], \"envFile\": \".env\"}}}")
            == "\(path) line 1, functions.resize.envFile: \(folder)/.env does not exist. Fix the path (relative paths start at \(folder)) or create the file.")
        #expect(message("{\"functions\": {\"calc\": {\"handler\": \"index.handler\", \"directory\": \"functions/calc\"}}}")
            == "\(path) line 1, functions.calc.handler: cannot tell the runtime: \(folder)/functions/calc has no index.js, index.mjs, index.cjs or index.py. Add \"runtime\": \"node\" or \"runtime\": \"python\", or fix \"directory\".")
    }

    @Test func unreadableFile() {
        do {
            _ = try FunctionsFile(contentsOf: "/nonexistent/functions.json")
            Issue.record("expected an error")
        } catch {
            #expect(error.line == nil)
            #expect(error.description.hasPrefix("/nonexistent/functions.json: cannot read the file"))
        }
    }
}
