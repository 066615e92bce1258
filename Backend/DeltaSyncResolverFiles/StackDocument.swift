import DeltaSyncCore
import Yams

/// A stack file's text as one JSON value: JSON as it is, YAML with CloudFormation's short
/// forms (`!Ref x`, `!Sub ...`, `!GetAtt a.b`, `!Join [...]`) written out as their long forms
/// (`{"Ref": "x"}`, `{"Fn::Sub": ...}`).
enum StackDocument {
    static func json(_ text: String, file: String) throws(ResolverFileError) -> JSONValue {
        do {
            return try JSONValue(parsing: text)
        } catch let failure as JSONParser.Failure {
            throw ResolverFileError(file: file, line: JSONTextLocation.line(ofByte: failure.offset, in: text), message: "not valid JSON: \(failure.reason)")
        } catch {
            throw ResolverFileError(file: file, message: "not valid JSON: \(error)")
        }
    }

    static func yaml(_ text: String, file: String) throws(ResolverFileError) -> JSONValue {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw ResolverFileError(file: file, line: Self.line(of: error), message: "not valid YAML: \(Self.reason(error))")
        } catch {
            throw ResolverFileError(file: file, message: "not valid YAML: \(error)")
        }
        guard let node else { throw ResolverFileError(file: file, message: "the file is empty.") }
        return value(node)
    }

    private static func value(_ node: Node) -> JSONValue {
        let tag = node.tag.rawValue
        if tag.hasPrefix("!"), !tag.hasPrefix("!!") {
            let name = String(tag.dropFirst())
            let function = name == "Ref" || name == "Condition" ? name : "Fn::\(name)"
            var argument = plain(node)
            // `!GetAtt Resource.Attribute` is the dotted form of ["Resource", "Attribute"].
            if name == "GetAtt", case .string(let dotted) = argument {
                argument = .array(dotted.split(separator: ".", maxSplits: 1).map { .string(String($0)) })
            }
            return [function: argument]
        }
        return plain(node)
    }

    private static func plain(_ node: Node) -> JSONValue {
        switch node {
        case .scalar(let scalar):
            // Quoted scalars are strings whatever they hold.
            if scalar.style == .plain {
                if node.null != nil { return .null }
                if let bool = node.bool { return .bool(bool) }
                if let int = node.int { return .int(int) }
                if let double = node.float { return .double(double) }
            }
            return .string(scalar.string)
        case .sequence(let sequence):
            return .array(sequence.map(value))
        case .mapping(let mapping):
            var object: [String: JSONValue] = [:]
            for (key, element) in mapping { object[key.string ?? "\(key)"] = value(element) }
            return .object(object)
        case .alias:
            return .null
        }
    }

    private static func line(of error: YamlError) -> Int {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): return mark.line
        default: return 0
        }
    }

    private static func reason(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, _, _), .parser(_, let problem, _, _), .composer(_, let problem, _, _): return problem
        default: return "\(error)"
        }
    }
}
