/// GraphQL names as Swift identifiers.
///
/// GraphQL names are `[_A-Za-z][_0-9A-Za-z]*`, already valid Swift identifiers, unless they are
/// Swift keywords: those are written in backticks (`` `protocol` ``) wherever they are declared
/// or used without a qualifying dot.
enum SwiftIdentifier {
    /// Words Swift reserves in declarations, statements, expressions and types. Contextual
    /// keywords (`type`, `get`, `open`, `some`, ...) are valid identifiers and are left alone.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "throw", "switch", "where", "while",
        "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "Type", "Protocol", "_",
    ]

    /// `name`, in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    /// The case name of a GraphQL enum value: lowerCamelCase of its `_`-separated words, as
    /// Amplify's Swift codegen names them (`IN_REVIEW` → `inReview`, `DEFAULT` → `` `default` ``).
    static func enumCase(_ value: String) -> String {
        let leadingUnderscores = String(value.prefix { $0 == "_" })
        let words = value.split(separator: "_").map { word in
            // An all-caps word is an acronym-style constant; mixed case is kept as written.
            word.uppercased() == word ? word.lowercased() : String(word)
        }
        guard let first = words.first else { return escaped(value) }
        let head = first.prefix(1).lowercased() + first.dropFirst()
        let tail = words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }
        return escaped(leadingUnderscores + head + tail.joined())
    }
}
