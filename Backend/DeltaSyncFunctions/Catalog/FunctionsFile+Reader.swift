import DeltaSyncCore
import Foundation

extension FunctionsFile {
    /// Walks the parsed JSON, failing at the first mistake with its line.
    struct Reader {
        typealias Step = JSONTextLocation.Step

        let text: String
        let file: String
        let base: String

        static let topKeys = ["functions", "region", "timeout"]
        static let functionKeys = ["url", "command", "handler", "runtime", "directory", "env", "envFile", "timeout", "maxProcesses"]
        /// The keys that only mean something for a process.
        static let processKeys = ["directory", "env", "envFile", "maxProcesses"]

        func fail(_ path: [Step], _ reason: String) -> FunctionsFileError {
            FunctionsFileError(file: file, line: JSONTextLocation.line(of: path, in: text), path: JSONTextLocation.describe(path), reason: reason)
        }

        func read() throws(FunctionsFileError) -> FunctionsFile {
            let root: JSONValue
            do {
                root = try JSONValue(parsing: text)
            } catch let failure as JSONParser.Failure {
                throw FunctionsFileError(
                    file: file, line: JSONTextLocation.line(ofByte: failure.offset, in: text), path: "",
                    reason: "not valid JSON (\(failure.reason)). Look for a missing comma or quote, or a trailing comma, on this line or the one before.")
            } catch {
                throw FunctionsFileError(file: file, line: nil, path: "", reason: "not valid JSON (\(error)).")
            }
            guard let top = root.objectValue else {
                throw fail([], "expected an object such as {\"functions\": {\"echo\": {\"url\": \"http://127.0.0.1:9000/echo\"}}}, got \(Self.describe(root)).")
            }
            try checkKeys(top, allowed: Self.topKeys, at: [], what: "the file")

            let region = try top["region"].map { value throws(FunctionsFileError) in
                guard let region = value.stringValue, !region.isEmpty else {
                    throw fail([.key("region")], "expected a region name such as \"us-east-1\", got \(Self.describe(value)).")
                }
                return region
            }
            let timeout = try top["timeout"].map { value throws(FunctionsFileError) in try seconds(value, at: [.key("timeout")]) } ?? FunctionsFile.defaultTimeout

            guard let functionsValue = top["functions"] else {
                throw fail([], "no \"functions\". Add the functions by name: {\"functions\": {\"echo\": {\"url\": \"http://127.0.0.1:9000/echo\"}}}.")
            }
            guard let entries = functionsValue.objectValue else {
                throw fail([.key("functions")], "expected an object of functions by name, such as {\"echo\": {\"url\": \"http://127.0.0.1:9000/echo\"}}, got \(Self.describe(functionsValue)).")
            }
            var functions: [Function] = []
            for name in entries.keys.sorted() {
                functions.append(try function(name, entries[name]!, defaultTimeout: timeout))
            }
            return FunctionsFile(path: file, functions: functions, region: region, timeout: timeout)
        }

        func function(_ name: String, _ value: JSONValue, defaultTimeout: Duration) throws(FunctionsFileError) -> Function {
            let at: [Step] = [.key("functions"), .key(name)]
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw fail(at, "a function needs a name: the key is the name @function(name:) uses.")
            }
            guard let entry = value.objectValue else {
                throw fail(at, "expected an object such as {\"url\": \"http://127.0.0.1:9000/\(name)\"} or {\"command\": [\"node\", \"\(name).js\"]}, got \(Self.describe(value)).")
            }
            try checkKeys(entry, allowed: Self.functionKeys, at: at, what: "a function")

            let kinds = ["url", "command", "handler"].filter { entry[$0] != nil }
            guard let kindKey = kinds.first else {
                throw fail(at, "says neither \"url\", \"command\" nor \"handler\". Add one: \"url\": \"http://127.0.0.1:9000/\(name)\", \"command\": [\"node\", \"\(name).js\"], or \"handler\": \"index.handler\" with its \"directory\".")
            }
            if kinds.count > 1 {
                throw fail(at + [.key(kinds[1])], "has both \"\(kinds[0])\" and \"\(kinds[1])\"; a function is one of url, command or handler. Keep one.")
            }
            if kindKey != "handler", entry["runtime"] != nil {
                throw fail(at + [.key("runtime")], "\"runtime\" goes with \"handler\" only; a \(kindKey) runs as it is. Remove it.")
            }
            if kindKey == "url", let key = Self.processKeys.first(where: { entry[$0] != nil }) {
                throw fail(at + [.key(key)], "\"\(key)\" configures a local process, but this function is a URL that DeltaSync does not start. Remove it, or set it where the endpoint runs.")
            }

            var function = Function(name: name, kind: .url(""), timeout: defaultTimeout)
            if let value = entry["timeout"] { function.timeout = try seconds(value, at: at + [.key("timeout")]) }
            if let value = entry["maxProcesses"] {
                guard let count = value.intValue, count >= 1 else {
                    throw fail(at + [.key("maxProcesses")], "expected a whole number of processes, 1 or more (such as 4), got \(Self.describe(value)).")
                }
                function.maxProcesses = count
            }
            if let value = entry["env"] { function.environment = try environment(value, at: at + [.key("env")]) }
            if let value = entry["envFile"] { function.envFile = try existingPath(value, at: at + [.key("envFile")], directory: false) }
            if kindKey != "url" {
                function.directory = try entry["directory"].map { value throws(FunctionsFileError) in
                    try existingPath(value, at: at + [.key("directory")], directory: true)
                } ?? base
            }

            switch kindKey {
            case "url":
                let value = entry["url"]!
                guard let url = value.stringValue, url.hasPrefix("http://") || url.hasPrefix("https://"), URL(string: url)?.host != nil else {
                    throw fail(at + [.key("url")], "expected a URL such as \"http://127.0.0.1:9000/\(name)\", got \(Self.describe(value)).")
                }
                function.kind = .url(url)
            case "command":
                function.kind = .command(try command(entry["command"]!, at: at + [.key("command")]))
            default:
                let handler = try handler(entry["handler"]!, at: at + [.key("handler")])
                let runtime = try runtime(entry["runtime"], handler: handler, directory: function.directory ?? base, at: at)
                function.kind = .handler(handler, runtime: runtime)
            }
            return function
        }

        func checkKeys(_ object: [String: JSONValue], allowed: [String], at path: [Step], what: String) throws(FunctionsFileError) {
            for key in object.keys.sorted() where !allowed.contains(key) {
                var reason = "unknown key \"\(key)\""
                if let near = allowed.min(by: { Self.distance($0, key) < Self.distance($1, key) }), Self.distance(near, key) <= 2 {
                    reason += "; did you mean \"\(near)\"?"
                } else {
                    reason += ". The keys of \(what) are " + allowed.map { "\"\($0)\"" }.joined(separator: ", ") + "."
                }
                throw fail(path + [.key(key)], reason)
            }
        }

        func seconds(_ value: JSONValue, at path: [Step]) throws(FunctionsFileError) -> Duration {
            guard let seconds = value.doubleValue, value.boolValue == nil, seconds > 0, seconds <= FunctionsFile.maximumTimeoutSeconds else {
                throw fail(path, "expected a number of seconds from 1 to 900 (such as 30), got \(Self.describe(value)).")
            }
            return .milliseconds(Int64((seconds * 1000).rounded()))
        }

        func environment(_ value: JSONValue, at path: [Step]) throws(FunctionsFileError) -> [String: String] {
            guard let object = value.objectValue else {
                throw fail(path, "expected an object of variables, such as {\"TABLE\": \"orders\"}, got \(Self.describe(value)).")
            }
            var environment: [String: String] = [:]
            for key in object.keys.sorted() {
                guard DotEnvFile.isValidKey(key) else {
                    throw fail(path + [.key(key)], "\"\(key)\" is not a variable name. Use letters, digits and _ only, not starting with a digit.")
                }
                guard let string = object[key]!.stringValue else {
                    let written = object[key]!.jsonText
                    throw fail(path + [.key(key)], "expected a string, got \(Self.describe(object[key]!)). Environment variables are text: write \"\(key)\": \"\(written.replacingOccurrences(of: "\"", with: "\\\""))\".")
                }
                environment[key] = string
            }
            return environment
        }

        func existingPath(_ value: JSONValue, at path: [Step], directory: Bool) throws(FunctionsFileError) -> String {
            guard let written = value.stringValue, !written.isEmpty else {
                throw fail(path, "expected a path relative to this file's folder, such as \(directory ? "\"functions/calc\"" : "\"functions/calc/.env\""), got \(Self.describe(value)).")
            }
            let resolved = URL(fileURLWithPath: written, relativeTo: URL(fileURLWithPath: base, isDirectory: true)).standardizedFileURL.path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory) else {
                throw fail(path, "\(resolved) does not exist. Fix the path (relative paths start at \(base)) or create the \(directory ? "folder" : "file").")
            }
            if isDirectory.boolValue != directory {
                throw fail(path, "\(resolved) is a \(directory ? "file" : "folder"); expected a \(directory ? "folder" : "file").")
            }
            return resolved
        }

        func command(_ value: JSONValue, at path: [Step]) throws(FunctionsFileError) -> [String] {
            if let string = value.stringValue {
                let words = string.split(separator: " ").map { "\"\($0)\"" }.joined(separator: ", ")
                throw fail(path, "expected the command as a list of words, so no shell is needed to split it: write [\(words)].")
            }
            guard let list = value.arrayValue, !list.isEmpty else {
                throw fail(path, "expected the command as a non-empty list of words, such as [\"python3\", \"resize.py\"], got \(Self.describe(value)).")
            }
            var words: [String] = []
            for (index, word) in list.enumerated() {
                guard let string = word.stringValue, index > 0 || !string.isEmpty else {
                    throw fail(path + [.index(index)], "expected a string, got \(Self.describe(word)). Write each word of the command as a string.")
                }
                words.append(string)
            }
            return words
        }

        func handler(_ value: JSONValue, at path: [Step]) throws(FunctionsFileError) -> String {
            guard let handler = value.stringValue, let dot = handler.lastIndex(of: "."),
                dot != handler.startIndex, handler.index(after: dot) != handler.endIndex
            else {
                throw fail(path, "expected the handler as file.export, such as \"index.handler\" for the export handler of index.js or index.py, got \(Self.describe(value)).")
            }
            return handler
        }

        func runtime(_ value: JSONValue?, handler: String, directory: String, at path: [Step]) throws(FunctionsFileError) -> HandlerRuntime {
            if let value {
                guard let name = value.stringValue, let runtime = HandlerRuntime(rawValue: name) else {
                    throw fail(path + [.key("runtime")], "expected \"node\" or \"python\", got \(Self.describe(value)).")
                }
                return runtime
            }
            let module = String(handler[..<handler.lastIndex(of: ".")!])
            if let runtime = FunctionsFile.inferRuntime(module: module, directory: directory) { return runtime }
            throw fail(path + [.key("handler")], "cannot tell the runtime: \(directory) has no \(module).js, \(module).mjs, \(module).cjs or \(module).py. Add \"runtime\": \"node\" or \"runtime\": \"python\", or fix \"directory\".")
        }

        /// `42`, `"text"`, `a list`: the value as the reader wrote it, for "got …".
        static func describe(_ value: JSONValue) -> String {
            switch value {
            case .object: return "an object"
            case .array: return "a list"
            case .null: return "null"
            default:
                let text = value.jsonText
                return text.count > 60 ? String(text.prefix(60)) + "…" : text
            }
        }

        /// Edit distance, for "did you mean".
        static func distance(_ a: String, _ b: String) -> Int {
            let a = Array(a.lowercased()), b = Array(b.lowercased())
            var previous = Array(0...b.count)
            for i in 1...max(a.count, 1) where !a.isEmpty {
                var current = [i] + Array(repeating: 0, count: b.count)
                for j in 1...max(b.count, 1) where !b.isEmpty {
                    current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                }
                previous = current
            }
            return a.isEmpty ? b.count : previous[b.count]
        }
    }
}
