import DeltaSyncSchema

/// How generated code names the library types it uses. A schema may declare a type with one of
/// their names (a model called `Item`, `Date` or `Model`); generated code then names the library's
/// type with its module, and keeps the short name everywhere else.
struct SwiftNames {
    /// Every library type generated code names, with its module. `String` and `Int` are missing:
    /// GraphQL reserves them for its own scalars.
    static let libraryTypes: [String: String] = [
        "Bool": "Swift", "Double": "Swift", "Equatable": "Swift", "Identifiable": "Swift", "Sendable": "Swift", "Decoder": "Swift",
        "Encoder": "Swift",
        "Date": "Foundation", "UUID": "Foundation",
        "AmplifySchema": "DeltaSyncLocalStore", "ModelSchema": "DeltaSyncLocalStore", "DataStoreError": "DeltaSyncLocalStore", "Item": "DeltaSyncLocalStore",
        "JSONValue": "DeltaSyncLocalStore", "LazyList": "DeltaSyncLocalStore", "LazyReference": "DeltaSyncLocalStore", "Model": "DeltaSyncLocalStore",
        "ModelEnum": "DeltaSyncLocalStore", "ModelRegistry": "DeltaSyncLocalStore", "ModelRow": "DeltaSyncLocalStore",
        "NonModel": "DeltaSyncLocalStore", "QueryField": "DeltaSyncLocalStore", "Temporal": "DeltaSyncLocalStore",
        "TypedModelIdentifier": "DeltaSyncLocalStore",
    ]

    private let shadowed: Set<String>
    /// Each enum's case names, by GraphQL value.
    private let cases: [String: [String: String]]

    init(schema: AmplifySchema) {
        let declared = schema.models.map(\.name) + schema.enums.map(\.name) + schema.nonModels.map(\.name)
        shadowed = Set(declared).intersection(Self.libraryTypes.keys)
        var cases: [String: [String: String]] = [:]
        for enumType in schema.enums {
            cases[enumType.name] = Dictionary(
                zip(enumType.values, SwiftIdentifier.enumCases(enumType.values)).map { ($0, $1) }, uniquingKeysWith: { a, _ in a })
        }
        self.cases = cases
    }

    /// The case name of `value` in the generated enum `enumName`.
    func enumCase(_ value: String, of enumName: String) -> String {
        cases[enumName]?[value] ?? SwiftIdentifier.enumCase(value)
    }

    /// The library type `name` as generated code must write it.
    func library(_ name: String) -> String {
        guard shadowed.contains(name), let module = Self.libraryTypes[name] else { return name }
        return "\(module).\(name)"
    }
}
