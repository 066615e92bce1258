/// Accumulates SDL text: one declaration per block, members indented by two spaces, a blank
/// line between blocks, so the output diffs well and reads like Amplify's.
struct SDLWriter {
    private var buffer = ""

    /// The SDL written so far, ending in a single newline.
    var text: String {
        buffer.hasSuffix("\n\n") ? String(buffer.dropLast()) : buffer
    }

    /// `header { members }`, e.g. `block("input CreatePostInput", [...])`.
    mutating func block(_ header: String, _ members: [String]) {
        buffer += "\(header) {\n"
        for member in members {
            buffer += "  \(member)\n"
        }
        buffer += "}\n\n"
    }

    /// Single-line declarations (`scalar AWSDate`) followed by one blank line.
    mutating func lines(_ lines: [String]) {
        for line in lines {
            buffer += "\(line)\n"
        }
        buffer += "\n"
    }
}

/// A field of an object or input type as SDL: `name(arg: T, ...): Type @directive`.
struct SDLField {
    var name: String
    var arguments: [(name: String, type: String)] = []
    var type: String
    var directive: String?

    var text: String {
        var text = name
        if !arguments.isEmpty {
            text += "(" + arguments.map { "\($0.name): \($0.type)" }.joined(separator: ", ") + ")"
        }
        text += ": \(type)"
        if let directive {
            text += " \(directive)"
        }
        return text
    }
}

/// A GraphQL type reference: `String`, `String!`, `[String]`, `[String!]!`.
func typeReference(_ name: String, isList: Bool = false, isRequired: Bool = false, isElementRequired: Bool = false) -> String {
    let element = isList ? "[\(name)\(isElementRequired ? "!" : "")]" : name
    return isRequired ? element + "!" : element
}

extension Field {
    /// The field's own type reference with `name` as the named type (the stored type, or the
    /// matching input type for non-model values).
    func typeReference(named name: String, isRequired: Bool) -> String {
        DeltaSyncSchema.typeReference(
            name, isList: isList, isRequired: isRequired, isElementRequired: isListElementRequired
        )
    }
}
