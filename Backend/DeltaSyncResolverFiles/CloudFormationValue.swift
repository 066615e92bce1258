import DeltaSyncCore

/// A CloudFormation property's value as a string: literals, `Ref`, `Fn::Sub`, `Fn::GetAtt`,
/// `Fn::Join` and the `Fn::ImportValue` of a model table's name that Amplify's custom stacks
/// use, resolved against the stack's parameters and resources.
struct CloudFormationValue {
    let parameters: StackParameters
    /// The stack's resources by logical id.
    let resources: [String: JSONValue]
    /// Overrides of parameters for this reading (a Lambda ARN keeps `${env}` for the function
    /// catalog to resolve as `@function` names are).
    var keeping: [String: String] = [:]

    struct Unresolvable: Error { let reason: String }

    func string(_ value: JSONValue) throws(Unresolvable) -> String {
        switch value {
        case .string(let text): return text
        case .int(let number): return String(number)
        case .object(let fields) where fields.count == 1:
            let (function, argument) = fields.first!
            switch function {
            case "Ref": return try reference(try string(argument))
            case "Fn::Sub": return try substitute(argument)
            case "Fn::GetAtt": return try attribute(argument)
            case "Fn::Join":
                guard case .array(let parts) = argument, parts.count == 2, case .array(let items) = parts[1] else {
                    throw Unresolvable(reason: "Fn::Join takes [separator, [values]]")
                }
                var strings: [String] = []
                for item in items { strings.append(try string(item)) }
                return strings.joined(separator: try string(parts[0]))
            case "Fn::ImportValue":
                let name = try string(argument)
                // Amplify's stacks import a model table's name as `<apiId>:GetAtt:<Model>Table:Name`.
                let parts = name.split(separator: ":")
                if parts.count == 4, parts[1] == "GetAtt", parts[3] == "Name", parts[2].hasSuffix("Table") {
                    return String(parts[2].dropLast("Table".count))
                }
                throw Unresolvable(reason: "Fn::ImportValue of \(name): only a model table's name (<apiId>:GetAtt:<Model>Table:Name) is known here")
            default:
                throw Unresolvable(reason: "\(function) is not a function DeltaSync resolves (Ref, Fn::Sub, Fn::GetAtt, Fn::Join, Fn::ImportValue)")
            }
        default:
            throw Unresolvable(reason: "\(value) is not a string or an intrinsic function")
        }
    }

    private func reference(_ name: String) throws(Unresolvable) -> String {
        if let kept = keeping[name] { return kept }
        if let value = parameters.values[name] { return value }
        if resources[name] != nil { return name }
        throw Unresolvable(reason: "Ref \(name) names no parameter or resource of the stack")
    }

    private func attribute(_ argument: JSONValue) throws(Unresolvable) -> String {
        let parts: [String]
        switch argument {
        case .string(let dotted): parts = dotted.split(separator: ".", maxSplits: 1).map(String.init)
        case .array(let values): parts = values.compactMap(\.stringValue)
        default: parts = []
        }
        guard parts.count == 2 else { throw Unresolvable(reason: "Fn::GetAtt takes [resource, attribute]") }
        guard let resource = resources[parts[0]] else {
            throw Unresolvable(reason: "Fn::GetAtt names \(parts[0]), which is not a resource of the stack")
        }
        switch parts[1] {
        case "Name":
            let name = resource["Properties"]["Name"]
            return name.isNull ? parts[0] : try string(name)
        default:
            // FunctionId, DataSourceArn, FunctionArn, ...: the logical id stands for them here.
            return parts[0]
        }
    }

    private func substitute(_ argument: JSONValue) throws(Unresolvable) -> String {
        var text: String
        var variables: [String: String] = [:]
        switch argument {
        case .string(let template): text = template
        case .array(let parts) where parts.count == 2:
            guard let template = parts[0].stringValue, case .object(let given) = parts[1] else {
                throw Unresolvable(reason: "Fn::Sub takes a string or [string, {variables}]")
            }
            text = template
            for (name, value) in given { variables[name] = try string(value) }
        default:
            throw Unresolvable(reason: "Fn::Sub takes a string or [string, {variables}]")
        }
        var result = ""
        while let start = text.range(of: "${") {
            result += text[..<start.lowerBound]
            guard let end = text[start.upperBound...].firstIndex(of: "}") else {
                throw Unresolvable(reason: "Fn::Sub's ${ in \(text) is not closed")
            }
            let name = String(text[start.upperBound..<end])
            if name.hasPrefix("!") {
                result += "${" + name.dropFirst() + "}"
            } else if let value = variables[name] {
                result += value
            } else if name.contains("."), !name.hasPrefix("AWS::") {
                result += try attribute(.string(name))
            } else {
                result += try reference(name)
            }
            text = String(text[text.index(after: end)...])
        }
        return result + text
    }
}
