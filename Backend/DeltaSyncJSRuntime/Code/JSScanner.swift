/// JavaScript split into tokens, enough to check resolver code the way AppSync checks it when it
/// is saved (``JSCodeCheck``): comments and whitespace dropped, strings, template literals
/// (with the expressions inside `${...}` scanned as code) and regular expression literals kept
/// whole, each token with its line and column. Not a parser: the checks read token sequences.
struct JSScanner {
    struct Token: Equatable {
        enum Kind: Equatable {
            case identifier
            case punctuator
            case string
            /// A template literal's text between its delimiters and `${`/`}`.
            case template
            case number
            case regularExpression
        }

        var kind: Kind
        var text: String
        /// 1-based.
        var line: Int
        var column: Int
    }

    /// Why the text cannot be scanned: an unterminated string, comment or template.
    struct Failure: Error {
        var message: String
        var line: Int
        var column: Int
    }

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    private var column = 1
    private(set) var tokens: [Token] = []
    /// Brace depths at which a template literal's `${` expression ends.
    private var templateDepths: [Int] = []
    private var braceDepth = 0

    /// Punctuators longest first, so `===` is read before `==`.
    private static let punctuators: [String] = [
        ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
        "=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
        "&=", "|=", "^=", "**", "<<", ">>",
        "{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~",
        "?", ":", "=", ".", "@", "#",
    ].sorted { $0.count > $1.count }

    /// Words after which `/` starts a regular expression rather than a division.
    private static let expressionKeywords: Set<String> = [
        "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "instanceof", "yield", "await",
    ]

    /// - Throws: ``Failure`` for text that ends inside a string, comment or template literal.
    init(_ text: String) throws(Failure) {
        scalars = Array(text.unicodeScalars)
        try scan()
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private mutating func advance() {
        if scalars[index] == "\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
        index += 1
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "$" || scalar == "_" || (scalar.isASCII ? scalar.properties.isAlphabetic : !scalar.properties.isWhitespace)
    }

    private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || ("0"..."9").contains(scalar)
    }

    private mutating func scan() throws(Failure) {
        while let scalar = peek() {
            let startLine = line, startColumn = column
            if scalar.properties.isWhitespace || scalar == "\u{FEFF}" {
                advance()
            } else if scalar == "/", peek(1) == "/" {
                while let next = peek(), next != "\n" { advance() }
            } else if scalar == "/", peek(1) == "*" {
                advance(); advance()
                while !(peek() == "*" && peek(1) == "/") {
                    guard peek() != nil else { throw Failure(message: "a comment is never closed (*/)", line: startLine, column: startColumn) }
                    advance()
                }
                advance(); advance()
            } else if scalar == "\"" || scalar == "'" {
                try string(quote: scalar)
            } else if scalar == "`" {
                advance()
                try template(line: startLine, column: startColumn)
            } else if scalar == "}", templateDepths.last == braceDepth {
                templateDepths.removeLast()
                braceDepth -= 1
                advance()
                try template(line: startLine, column: startColumn)
            } else if ("0"..."9").contains(scalar) || (scalar == "." && peek(1).map { ("0"..."9").contains($0) } == true) {
                var text = ""
                while let next = peek(), Self.isIdentifierPart(next) || next == "." {
                    text.unicodeScalars.append(next)
                    advance()
                }
                tokens.append(Token(kind: .number, text: text, line: startLine, column: startColumn))
            } else if Self.isIdentifierStart(scalar) || scalar == "\\" {
                var text = ""
                while let next = peek(), Self.isIdentifierPart(next) || next == "\\" {
                    text.unicodeScalars.append(next)
                    advance()
                }
                tokens.append(Token(kind: .identifier, text: text, line: startLine, column: startColumn))
            } else if scalar == "/", regularExpressionAllowed {
                try regularExpression(line: startLine, column: startColumn)
            } else {
                try punctuator(line: startLine, column: startColumn)
            }
        }
        if !templateDepths.isEmpty {
            throw Failure(message: "a template literal's ${ is never closed", line: line, column: column)
        }
    }

    /// Whether a `/` here starts a regular expression: at the start, after an operator or an
    /// opening bracket, or after a keyword that expects an expression.
    private var regularExpressionAllowed: Bool {
        guard let previous = tokens.last else { return true }
        switch previous.kind {
        case .number, .string, .template, .regularExpression: return false
        case .identifier: return Self.expressionKeywords.contains(previous.text)
        case .punctuator: return ![")", "]", "}"].contains(previous.text)
        }
    }

    private mutating func string(quote: Unicode.Scalar) throws(Failure) {
        let startLine = line, startColumn = column
        advance()
        var text = ""
        while true {
            guard let next = peek(), next != "\n" else {
                throw Failure(message: "a string is never closed (\(quote))", line: startLine, column: startColumn)
            }
            advance()
            if next == quote { break }
            if next == "\\", let escaped = peek() {
                text.unicodeScalars.append(escaped)
                advance()
                continue
            }
            text.unicodeScalars.append(next)
        }
        tokens.append(Token(kind: .string, text: text, line: startLine, column: startColumn))
    }

    /// From after a backquote or a `${...}`'s closing brace to the closing backquote or the next `${`.
    private mutating func template(line startLine: Int, column startColumn: Int) throws(Failure) {
        var text = ""
        while true {
            guard let next = peek() else { throw Failure(message: "a template literal is never closed (`)", line: startLine, column: startColumn) }
            if next == "`" {
                advance()
                break
            }
            if next == "$", peek(1) == "{" {
                advance(); advance()
                braceDepth += 1
                templateDepths.append(braceDepth)
                break
            }
            if next == "\\" {
                advance()
                if peek() != nil { advance() }
                continue
            }
            text.unicodeScalars.append(next)
            advance()
        }
        tokens.append(Token(kind: .template, text: text, line: startLine, column: startColumn))
    }

    private mutating func regularExpression(line startLine: Int, column startColumn: Int) throws(Failure) {
        var text = "/"
        advance()
        var inClass = false
        while true {
            guard let next = peek(), next != "\n" else {
                throw Failure(message: "a regular expression is never closed (/)", line: startLine, column: startColumn)
            }
            text.unicodeScalars.append(next)
            advance()
            if next == "\\", let escaped = peek() {
                text.unicodeScalars.append(escaped)
                advance()
            } else if next == "[" {
                inClass = true
            } else if next == "]" {
                inClass = false
            } else if next == "/", !inClass {
                break
            }
        }
        while let flag = peek(), Self.isIdentifierPart(flag) {
            text.unicodeScalars.append(flag)
            advance()
        }
        tokens.append(Token(kind: .regularExpression, text: text, line: startLine, column: startColumn))
    }

    private mutating func punctuator(line startLine: Int, column startColumn: Int) throws(Failure) {
        for candidate in Self.punctuators {
            let candidateScalars = Array(candidate.unicodeScalars)
            guard index + candidateScalars.count <= scalars.count, Array(scalars[index..<index + candidateScalars.count]) == candidateScalars else { continue }
            // `a?.5:b` is a conditional, not optional chaining.
            if candidate == "?.", let after = peek(2), ("0"..."9").contains(after) { continue }
            for _ in candidateScalars { advance() }
            if candidate == "{" { braceDepth += 1 }
            if candidate == "}" { braceDepth -= 1 }
            tokens.append(Token(kind: .punctuator, text: candidate, line: startLine, column: startColumn))
            return
        }
        throw Failure(message: "'\(peek().map { String($0) } ?? "")' is not JavaScript", line: startLine, column: startColumn)
    }
}
