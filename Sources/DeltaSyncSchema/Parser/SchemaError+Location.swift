import GraphQL

extension SchemaError {
    /// An error at a node of the parsed schema: the node's `Location` knows its file and offset.
    init(at location: GraphQL.Location?, _ message: String) {
        guard let location else {
            self.init(file: "<input>", line: 0, column: 0, message: message)
            return
        }
        let position = TextPosition(text: location.source.body, utf8Offset: location.start)
        self.init(file: location.source.name, line: position.line, column: position.column, message: message)
    }

    /// Converts the GraphQL parser's syntax error, whose message embeds the position and a source
    /// excerpt, into a one-line diagnostic.
    init(syntaxError error: GraphQLError, file: String, text: String) {
        var message = error.message
        if message.hasPrefix("Syntax Error"), let close = message.range(of: ") ") {
            message = String(message[close.upperBound...])
        }
        if let excerpt = message.range(of: "\n") {
            message = String(message[..<excerpt.lowerBound])
        }
        if let offset = error.positions.first {
            let position = TextPosition(text: text, utf8Offset: offset)
            self.init(file: file, line: position.line, column: position.column, message: "syntax error: \(message)")
        } else {
            let location = error.locations.first
            self.init(
                file: file, line: location?.line ?? 0, column: location?.column ?? 0,
                message: "syntax error: \(message)"
            )
        }
    }
}

/// A 1-based line and column computed from a UTF-8 offset, the unit the GraphQL lexer counts in.
/// Columns count characters so that non-ASCII text before the node does not shift them.
struct TextPosition: Equatable {
    var line: Int
    var column: Int

    init(text: String, utf8Offset: Int) {
        let bytes = Array(text.utf8.prefix(utf8Offset))
        var line = 1
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n") {
                if byte == UInt8(ascii: "\r"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") {
                    index += 1
                }
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        let lineText = String(decoding: bytes[lineStart...], as: UTF8.self)
        self.line = line
        self.column = lineText.count + 1
    }
}
