import Foundation

/// AppSync words validation errors as `Validation error of type <Kind>: ...`; clients and
/// users grep for those prefixes, so the common graphql-js style messages are rephrased.
enum ValidationMessage {
    static func appSyncStyle(_ message: String) -> String {
        if let m = match(#"^Cannot query field "([^"]+)" on type "([^"]+)"\."#, message) {
            return "Validation error of type FieldUndefined: Field '\(m[0])' in type '\(m[1])' is undefined @ '\(m[0])'"
        }
        if let m = match(#"^Unknown argument "([^"]+)" on field "([^"]+)"\."#, message) {
            return "Validation error of type UnknownArgument: Unknown field argument \(m[0]) @ '\(m[1])'"
        }
        if let m = match(#"^Field "([^"]+)" argument "([^"]+)" of type "([^"]+)" is required"#, message) {
            return "Validation error of type MissingFieldArgument: Missing field argument \(m[1]) @ '\(m[0])'"
        }
        if message.hasPrefix("Variable ") {
            return "Validation error of type WrongType: \(message)"
        }
        if let m = match(#"^Unknown type "([^"]+)""#, message) {
            return "Validation error of type UnknownType: Unknown type \(m[0])"
        }
        return "Validation error: \(message)"
    }

    /// The sync metadata field (`_lastChangedAt`, `_deleted`, `_ttl`) an input tried to set, if
    /// that is what the validation error is about.
    static func serverOwnedField(in message: String) -> String? {
        guard let m = match(#"Field "(_lastChangedAt|_deleted|_ttl)" is not defined by type "[A-Za-z0-9_]+Input""#, message)
        else { return nil }
        return m.first
    }

    private static func match(_ pattern: String, _ text: String) -> [String]? {
        guard let regex = try? NSRegularExpression(pattern: pattern),
            let result = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
        else { return nil }
        return (1..<result.numberOfRanges).compactMap { i in
            Range(result.range(at: i), in: text).map { String(text[$0]) }
        }
    }
}
