import DeltaSyncCore
import DeltaSyncVTL
import GraphQL

extension ResolverContext {
    /// The context of the field at `info` in a request: its arguments, parent, caller,
    /// headers and selection.
    init(arguments: Map, source: any Sendable, scope: RequestScope, info: GraphQLResolveInfo, environment: ResolverEnvironment) {
        self.init(field: FieldCoordinate(type: info.parentType.name, field: info.fieldName), arguments: JSONValue(arguments).objectValue ?? [:])
        self.source = Self.sourceValue(source)
        let request = scope.functionRequest
        origin = FieldOrigin(scope: scope, info: info)
        if scope.tracesSteps { trace = [] }
        identity = request.identity
        self.request = request.json
        self.environment = environment.resolverVariables
        let logger = environment.logger, field = "\(info.parentType.name).\(info.fieldName)"
        runtime = VTLRuntime(
            authType: Self.authType(request.caller?.mode),
            log: { line in logger.info("\(line.message)", metadata: ["field": "\(field)", "level": "\(line.level.rawValue)"]) },
            clock: environment.clock)
        var variables: Item = [:]
        for (name, value) in info.variableValues { if let map = value as? Map { variables[name] = JSONValue(map) } }
        self.info = ["fieldName": .string(info.fieldName), "parentTypeName": .string(info.parentType.name), "variables": .object(variables)]
        if let set = info.fieldASTs.first?.selectionSet {
            let fragments = info.fragments
            selection = { (.array(Self.selectionList(set, fragments: fragments, prefix: "")), .string(print(ast: set))) }
        }
    }

    /// A parent object as `$ctx.source`: a stored item, a value inside one, or an object a
    /// resolver returned.
    static func sourceValue(_ source: Any) -> JSONValue {
        switch source {
        case let object as ModelObject: return .object(object.item)
        case let object as EmbeddedObject: return .object(object.fields)
        case let object as ResolvedObject: return .object(object.fields)
        default: return .null
        }
    }

    /// `$ctx.info.selectionSetList`: every selected field's path (`posts/items/title`), aliased
    /// fields by their alias, fragments spread in place.
    private static func selectionList(_ set: SelectionSet, fragments: [String: FragmentDefinition], prefix: String, depth: Int = 0) -> [JSONValue] {
        guard depth < 32 else { return [] }
        var paths: [JSONValue] = []
        for selection in set.selections {
            switch selection {
            case let field as Field:
                let name = field.alias?.value ?? field.name.value
                if name.hasPrefix("__") { continue }
                paths.append(.string(prefix + name))
                if let nested = field.selectionSet {
                    paths += selectionList(nested, fragments: fragments, prefix: prefix + name + "/", depth: depth + 1)
                }
            case let inline as InlineFragment:
                paths += selectionList(inline.selectionSet, fragments: fragments, prefix: prefix, depth: depth + 1)
            case let spread as FragmentSpread:
                if let fragment = fragments[spread.name.value] {
                    paths += selectionList(fragment.selectionSet, fragments: fragments, prefix: prefix, depth: depth + 1)
                }
            default:
                continue
            }
        }
        return paths
    }
}
