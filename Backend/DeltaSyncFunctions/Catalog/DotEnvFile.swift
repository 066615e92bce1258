import Foundation

/// Reads env files in dotenv syntax, the format of the `.env` that `amplify mock` lays over a
/// function's environment.
///
/// ```swift
/// let values = try DotEnvFile.parse("""
///     # local table
///     export TABLE=orders
///     GREETING="hello\\nworld"
///     RAW='$HOME stays as written'
///     """, file: ".env")
/// // [("TABLE", "orders"), ("GREETING", "hello\nworld"), ("RAW", "$HOME stays as written")]
/// ```
///
/// Supported: `KEY=VALUE`, `export KEY=VALUE`, `#` comment lines and ` #` comments after an
/// unquoted value, blank lines, single quotes (taken literally) and double quotes (with `\n`,
/// `\t`, `\r`, `\"` and `\\`). Variables are not expanded: the file says exactly what the
/// function gets. Anything else is an ``EnvFileError`` naming the line, rather than a value the
/// function silently never sees.
public enum DotEnvFile {
    /// The file's assignments in order (a later one of the same key wins when they are applied).
    public static func parse(_ text: String, file: String) throws(EnvFileError) -> [(key: String, value: String)] {
        var result: [(key: String, value: String)] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if let assignment = try parseLine(Substring(line), file: file, number: index + 1) {
                result.append(assignment)
            }
        }
        return result
    }

    /// Reads and parses the file at `path`.
    ///
    /// - Throws: ``EnvFileError`` when the file cannot be read or a line is malformed.
    public static func load(path: String) throws(EnvFileError) -> [(key: String, value: String)] {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw EnvFileError(file: path, line: nil, reason: "cannot read the env file (\(error.localizedDescription)). Check that it exists and is UTF-8 text.")
        }
        return try parse(text, file: path)
    }

    private static func parseLine(_ line: Substring, file: String, number: Int) throws(EnvFileError) -> (key: String, value: String)? {
        var rest = line.drop(while: { $0 == " " || $0 == "\t" })
        if rest.isEmpty || rest.hasPrefix("#") { return nil }
        if rest.hasPrefix("export ") || rest.hasPrefix("export\t") {
            rest = rest.dropFirst("export".count).drop(while: { $0 == " " || $0 == "\t" })
        }
        guard let equals = rest.firstIndex(of: "=") else {
            throw EnvFileError(file: file, line: number, reason: "expected KEY=VALUE, got \"\(line)\". Write the variable as NAME=value, or start the line with # to make it a comment.")
        }
        let key = String(rest[..<equals].trimmingCharacters(in: .whitespaces))
        guard isValidKey(key) else {
            throw EnvFileError(file: file, line: number, reason: "\"\(key)\" is not a variable name. Use letters, digits and _ only, not starting with a digit (such as TABLE_NAME).")
        }
        let valueText = rest[rest.index(after: equals)...].drop(while: { $0 == " " || $0 == "\t" })
        let value = try parseValue(valueText, key: key, file: file, number: number)
        return (key, value)
    }

    private static func parseValue(_ text: Substring, key: String, file: String, number: Int) throws(EnvFileError) -> String {
        guard let quote = text.first, quote == "\"" || quote == "'" else {
            // Unquoted: a comment starts at a # after whitespace (`URL=a#b` keeps its #).
            var value = text
            if let comment = value.firstRange(of: " #") ?? value.firstRange(of: "\t#") {
                value = value[..<comment.lowerBound]
            }
            return value.trimmingCharacters(in: .whitespaces)
        }
        var value = ""
        var index = text.index(after: text.startIndex)
        var closed = false
        while index < text.endIndex {
            let character = text[index]
            if character == quote {
                closed = true
                index = text.index(after: index)
                break
            }
            if quote == "\"", character == "\\", text.index(after: index) < text.endIndex {
                index = text.index(after: index)
                switch text[index] {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case "r": value.append("\r")
                case "\"": value.append("\"")
                case "\\": value.append("\\")
                case let other: value.append("\\"); value.append(other)
                }
            } else {
                value.append(character)
            }
            index = text.index(after: index)
        }
        guard closed else {
            throw EnvFileError(file: file, line: number, reason: "the value of \(key) opens a \(quote) quote that the line does not close. Close it on the same line (write a line break as \\n inside double quotes).")
        }
        let after = text[index...].trimmingCharacters(in: .whitespaces)
        guard after.isEmpty || after.hasPrefix("#") else {
            throw EnvFileError(file: file, line: number, reason: "unexpected \"\(after)\" after the quoted value of \(key). Put the whole value inside the quotes.")
        }
        return value
    }

    static func isValidKey(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else { return false }
        return key.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }
}
