import GraphQL

/// The arguments of `@model`: which root fields to generate, under which names, and the
/// timestamp fields.
///
/// A group set to `null` (`mutations: null`) turns the whole group off. An object overrides
/// Amplify's defaults key by key, as Amplify merges it: `queries: {get: "post"}` renames `get`
/// and keeps `list`; `{list: null}` drops `list`. The sync query follows the queries group
/// (DataStore needs it whenever queries exist) and keeps Amplify's name, `sync` + plural.
/// A subscription whose mutation is off is dropped: it would never fire.
struct ModelDirective {
    var operations: Operations
    var timestamps: Timestamps

    init(_ directive: Directive, typeName: String) throws(SchemaError) {
        let arguments = try DirectiveArguments(
            directive, accepting: ["queries", "mutations", "subscriptions", "timestamps"]
        )
        var operations = Operations.defaults(typeName: typeName, plural: Naming.plural(typeName))
        if arguments.isNull("queries") {
            operations.get = nil
            operations.list = nil
            operations.sync = nil
        } else if let queries = try arguments.object("queries") {
            try queries.checkKeys(["get", "list"])
            try Self.override(&operations.get, key: "get", in: queries)
            try Self.override(&operations.list, key: "list", in: queries)
        }
        if arguments.isNull("mutations") {
            operations.create = nil
            operations.update = nil
            operations.delete = nil
        } else if let mutations = try arguments.object("mutations") {
            try mutations.checkKeys(["create", "update", "delete"])
            try Self.override(&operations.create, key: "create", in: mutations)
            try Self.override(&operations.update, key: "update", in: mutations)
            try Self.override(&operations.delete, key: "delete", in: mutations)
        }
        try Self.applySubscriptions(arguments, to: &operations)
        if operations.create == nil { operations.onCreate = nil }
        if operations.update == nil { operations.onUpdate = nil }
        if operations.delete == nil { operations.onDelete = nil }
        self.operations = operations
        self.timestamps = try Self.timestamps(arguments)
    }

    private static func override(_ name: inout String?, key: String, in object: ObjectArgument) throws(SchemaError) {
        if object.isNull(key) {
            name = nil
        } else if let custom = try object.string(key) {
            name = custom.value
        }
    }

    /// Subscription names are lists in Amplify (one mutation may feed several subscriptions);
    /// the first name is the one served.
    private static func applySubscriptions(_ arguments: DirectiveArguments, to operations: inout Operations) throws(SchemaError) {
        var off = arguments.isNull("subscriptions")
        if let subscriptions = try arguments.object("subscriptions") {
            try subscriptions.checkKeys(["onCreate", "onUpdate", "onDelete", "level"])
            if let level = try subscriptions.string("level") {
                switch level.value {
                case "off": off = true
                case "public", "on": break
                default:
                    throw SchemaError(at: level.location, "subscription level must be off, public or on, not '\(level.value)'")
                }
            }
            let names: [(String, WritableKeyPath<Operations, String?>)] = [
                ("onCreate", \.onCreate), ("onUpdate", \.onUpdate), ("onDelete", \.onDelete),
            ]
            for (key, path) in names {
                if subscriptions.isNull(key) {
                    operations[keyPath: path] = nil
                } else if let custom = try subscriptions.stringList(key) {
                    operations[keyPath: path] = custom.first?.value
                }
            }
        }
        if off {
            operations.onCreate = nil
            operations.onUpdate = nil
            operations.onDelete = nil
        }
    }

    private static func timestamps(_ arguments: DirectiveArguments) throws(SchemaError) -> Timestamps {
        if arguments.isNull("timestamps") {
            return Timestamps(createdAt: nil, updatedAt: nil)
        }
        var timestamps = Timestamps()
        if let object = try arguments.object("timestamps") {
            try object.checkKeys(["createdAt", "updatedAt"])
            if object.isNull("createdAt") {
                timestamps.createdAt = nil
            } else if let name = try object.string("createdAt") {
                timestamps.createdAt = name.value
            }
            if object.isNull("updatedAt") {
                timestamps.updatedAt = nil
            } else if let name = try object.string("updatedAt") {
                timestamps.updatedAt = name.value
            }
        }
        return timestamps
    }
}
