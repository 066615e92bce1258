import DeltaSyncCore
import DeltaSyncSchema

/// The schema's description (what the parser produced) as a Swift expression, so a generated
/// registry hands the local store its models without parsing anything at launch.
///
/// Only `AmplifySchema` and `ModelSchema` are named; every other value is an `.init(...)` or a
/// case whose type the context gives, so the generated file needs nothing but the local store's
/// narrow exports. The project's tests compare the compiled value with the parser's output.
struct SchemaDescriptionWriter {
    let schema: AmplifySchema
    let names: SwiftNames

    /// Appends `AmplifySchema(models: [...], enums: [...], nonModels: [...], customSubscriptions: [...])`.
    func write(into source: inout SwiftSource, assignedTo declaration: String) {
        source.line("\(declaration) \(names.library("AmplifySchema"))(")
        source.line("    models: [")
        for model in schema.models { self.model(model, into: &source) }
        source.line("    ],")
        source.line("    enums: [")
        for enumType in schema.enums {
            source.line("        .init(name: \(Self.string(enumType.name)), values: \(Self.strings(enumType.values))),")
        }
        source.line("    ],")
        source.line("    nonModels: [")
        for type in schema.nonModels {
            source.line("        .init(name: \(Self.string(type.name)), fields: [")
            for field in type.fields { source.line("            \(Self.field(field)),") }
            source.line("        ]),")
        }
        source.line("    ],")
        source.line("    customSubscriptions: [")
        for subscription in schema.customSubscriptions {
            let arguments = subscription.arguments.map { ".init(name: \(Self.string($0.name)), type: \(Self.string($0.type)))" }
            source.line(
                "        .init(name: \(Self.string(subscription.name)), arguments: [\(arguments.joined(separator: ", "))], "
                    + "returnType: \(Self.string(subscription.returnType)), mutations: \(Self.strings(subscription.mutations))),")
        }
        source.line("    ]")
        source.line(")")
    }

    private func model(_ model: ModelSchema, into source: inout SwiftSource) {
        source.line("        \(names.library("ModelSchema"))(")
        source.line("            name: \(Self.string(model.name)),")
        source.line("            fields: [")
        for field in model.fields { source.line("                \(Self.field(field)),") }
        source.line("            ],")
        source.line("            primaryKey: \(Self.key(model.primaryKey)),")
        let indexes = model.indexes.map { index in
            ".init(name: \(Self.string(index.name)), partitionField: \(Self.string(index.partitionField)), "
                + "sortKeyFields: \(Self.strings(index.sortKeyFields)), queryField: \(Self.optional(index.queryField)))"
        }
        source.line("            indexes: [\(indexes.joined(separator: ", "))],")
        let operations = model.operations
        let operationArguments = [
            ("get", operations.get), ("list", operations.list), ("sync", operations.sync),
            ("create", operations.create), ("update", operations.update), ("delete", operations.delete),
            ("onCreate", operations.onCreate), ("onUpdate", operations.onUpdate), ("onDelete", operations.onDelete),
        ].map { "\($0.0): \(Self.optional($0.1))" }
        source.line("            operations: .init(\(operationArguments.joined(separator: ", "))),")
        source.line(
            "            timestamps: .init(createdAt: \(Self.optional(model.timestamps.createdAt)), "
                + "updatedAt: \(Self.optional(model.timestamps.updatedAt))),")
        source.line("            isJoinModel: \(model.isJoinModel),")
        source.line("            authRules: \(Self.authRules(model.authRules)),")
        source.line("            modeDirectives: \(Self.modes(model.modeDirectives))")
        source.line("        ),")
    }

    private static func key(_ key: PrimaryKey) -> String {
        ".init(partitionField: \(string(key.partitionField)), sortKeyFields: \(strings(key.sortKeyFields)))"
    }

    /// Every argument spelled out, defaults included: the value must not depend on the
    /// initializer's defaults matching the parser's.
    private static func field(_ field: Field) -> String {
        let relation = field.relation.map { relation in
            ".init(kind: .\(relation.kind.rawValue), relatedModel: \(string(relation.relatedModel)), "
                + "localFields: \(strings(relation.localFields)), relatedFields: \(strings(relation.relatedFields)), "
                + "indexName: \(optional(relation.indexName)))"
        } ?? "nil"
        return ".init(name: \(string(field.name)), type: \(fieldType(field.type)), isList: \(field.isList), "
            + "isRequired: \(field.isRequired), isListElementRequired: \(field.isListElementRequired), "
            + "defaultValue: \(field.defaultValue.map(json) ?? "nil"), relation: \(relation), isGenerated: \(field.isGenerated), "
            + "authRules: \(authRules(field.authRules)), modeDirectives: \(modes(field.modeDirectives)))"
    }

    private static func modes(_ modes: [AuthMode]?) -> String {
        guard let modes else { return "nil" }
        return "[\(modes.map { ".\($0.caseName)" }.joined(separator: ", "))]"
    }

    private static func authRules(_ rules: [AuthRule]?) -> String {
        guard let rules else { return "nil" }
        let written = rules.map { rule in
            let operations = ModelOperation.allCases.filter(rule.operations.contains).map { ".\($0.rawValue)" }
            return ".init(strategy: .\(rule.strategy.rawValue), provider: .\(rule.provider.rawValue), "
                + "operations: [\(operations.joined(separator: ", "))], ownerField: \(string(rule.ownerField)), "
                + "identityClaim: \(string(rule.identityClaim)), groupClaim: \(string(rule.groupClaim)), "
                + "groups: \(strings(rule.groups)), groupsField: \(optional(rule.groupsField)))"
        }
        return "[\(written.joined(separator: ", "))]"
    }

    private static func fieldType(_ type: FieldType) -> String {
        switch type {
        case .scalar(let scalar): return ".scalar(.\(scalarCase(scalar)))"
        case .enumType(let name): return ".enumType(\(string(name)))"
        case .nonModel(let name): return ".nonModel(\(string(name)))"
        case .model(let name): return ".model(\(string(name)))"
        }
    }

    private static func scalarCase(_ scalar: ScalarType) -> String {
        switch scalar {
        case .id: return "id"
        case .string: return "string"
        case .int: return "int"
        case .float: return "float"
        case .boolean: return "boolean"
        case .awsDate: return "awsDate"
        case .awsTime: return "awsTime"
        case .awsDateTime: return "awsDateTime"
        case .awsTimestamp: return "awsTimestamp"
        case .awsEmail: return "awsEmail"
        case .awsJSON: return "awsJSON"
        case .awsPhone: return "awsPhone"
        case .awsURL: return "awsURL"
        case .awsIPAddress: return "awsIPAddress"
        }
    }

    /// A default value as a `JSONValue` expression.
    private static func json(_ value: JSONValue) -> String {
        switch value {
        case .null: return ".null"
        case .bool(let flag): return ".bool(\(flag))"
        case .int(let number): return ".int(\(number))"
        case .double(let number): return number.isFinite ? ".double(\(number))" : ".null"
        case .string(let text): return ".string(\(string(text)))"
        case .array(let values): return ".array([\(values.map(json).joined(separator: ", "))])"
        case .object(let object):
            guard !object.isEmpty else { return ".object([:])" }
            let members = object.keys.sorted().map { "\(string($0)): \(json(object[$0]!))" }
            return ".object([\(members.joined(separator: ", "))])"
        }
    }

    private static func string(_ text: String) -> String { SwiftLiteral.string(text) }

    private static func strings(_ values: [String]) -> String { "[\(values.map(string).joined(separator: ", "))]" }

    private static func optional(_ text: String?) -> String { text.map(string) ?? "nil" }
}
