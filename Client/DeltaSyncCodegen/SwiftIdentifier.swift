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

    /// The property for a field: `name` (in backticks when it is a keyword), or `name_` when the
    /// generated type already has a member of that name (`item` is every model's `Item`).
    static func property(_ name: String, reserved: Set<String>) -> String {
        reserved.contains(name) ? name + "_" : escaped(name)
    }

    /// The case names of an enum's values, in order: ``enumCase(_:)`` unless two values would
    /// share one (`IN_REVIEW` and `inReview`) or a value would take a member every enum has
    /// (`rawValue`, `allCases`, `json`); such a value keeps its GraphQL spelling, with a number
    /// after it if even that is taken.
    static func enumCases(_ values: [String]) -> [String] {
        var taken: Set<String> = ["rawValue", "allCases", "json", "hashValue"]
        return values.map { value in
            var name = enumCase(value)
            if taken.contains(name) { name = escaped(value) }
            var candidate = name
            var number = 2
            while taken.contains(candidate) {
                candidate = escaped(value + String(number))
                number += 1
            }
            taken.insert(candidate)
            return candidate
        }
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
