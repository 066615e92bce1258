import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import GraphQL

/// `get`, `list`, index queries and nested connections: reads, page by page.
struct QueryResolvers: Sendable {
    let environment: ResolverEnvironment

    /// AppSync's generated resolvers evaluate 100 items when no `limit` is given.
    static let defaultLimit = 100

    func get(_ model: ModelSchema, args: Map) async throws -> ModelObject? {
        var fields: Item = [:]
        for field in model.primaryKey.fields {
            guard let value = args.argument(field), !value.isNull else {
                throw AppSyncError(.invalidArgument, "Missing key field '\(field)' for \(model.name).")
            }
            fields[field] = value
        }
        let key = fields
        let found = try await environment.store.get(model, key: key)
        return found.flatMap(visible).map { ModelObject(item: $0) }
    }

    /// `item`, or `nil` for a tombstone an API without conflict detection does not show.
    func visible(_ item: Item) -> Item? {
        environment.schema.isVersioned || item["_deleted"] != true ? item : nil
    }

    /// Keeps tombstones out of an API without conflict detection's pages (a versioned API's
    /// list shows them, as AppSync's does).
    private var liveItems: QueryPredicate {
        environment.schema.isVersioned ? .all : .field("_deleted", .ne(true))
    }

    /// `listXs`: a scan, or a primary-key query when the partition key argument is given.
    func list(
        _ model: ModelSchema, args: Map, queryName: String, access callerAccess: RootAccess,
        writer: ItemProjection.ItemArrayWriter? = nil
    ) async throws -> PageObject {
        try callerAccess.require()
        let key = model.primaryKey
        let access: ItemQuery.Access
        if let partition = args.argument(key.partitionField), !partition.isNull {
            let sortKey = try sortKeyCondition(key.sortKeyFields, args: args)
            try callerAccess.caller.requireReadable(keyFields: key.fields, of: model, within: callerAccess.restriction)
            access = .index(nil, partition: partition, sortKey: sortKey)
        } else {
            if try sortKeyCondition(key.sortKeyFields, args: args) != nil {
                throw AppSyncError(.invalidArgument, "A sort key condition needs '\(key.partitionField)' as well.")
            }
            access = .scan
        }
        return try await page(
            model, access: access, args: args, queryName: queryName, restriction: callerAccess.restriction, caller: callerAccess.caller,
            writer: writer)
    }

    /// A `queryField` of an `@index`.
    func indexQuery(
        _ model: ModelSchema, index: Index, args: Map, queryName: String, access callerAccess: RootAccess,
        writer: ItemProjection.ItemArrayWriter? = nil
    ) async throws -> PageObject {
        try callerAccess.require()
        guard let partition = args.argument(index.partitionField), !partition.isNull else {
            throw AppSyncError(.invalidArgument, "Missing '\(index.partitionField)' for \(queryName).")
        }
        let sortKey = try sortKeyCondition(index.sortKeyFields, args: args)
        // The key condition compares the fields as a filter does.
        try callerAccess.caller.requireReadable(
            keyFields: [index.partitionField] + index.sortKeyFields, of: model, within: callerAccess.restriction)
        let access = ItemQuery.Access.index(index.name, partition: partition, sortKey: sortKey)
        return try await page(
            model, access: access, args: args, queryName: queryName, restriction: callerAccess.restriction, caller: callerAccess.caller,
            writer: writer)
    }

    /// A `@hasMany` / `@manyToMany` field: children whose foreign key equals the parent's key,
    /// those the caller may read (``RelatedAccess``).
    func connection(
        from parent: Item, relation: Relation, args: Map, queryName: String, access relatedAccess: RelatedAccess, caller: Caller
    ) async throws -> PageObject {
        try relatedAccess.require()
        let related = environment.model(relation.relatedModel)
        let values = relation.localFields.map { parent[$0] ?? .null }
        guard let partition = values.first, !partition.isNull, !values.contains(where: \.isNull) else {
            return PageObject(items: .objects([]))
        }
        let access: ItemQuery.Access
        var filter = try environment.predicate(args.argument("filter"))
        if let indexName = relation.indexName ?? indexServing(relation.relatedFields, in: related) {
            let index = indexName == "" ? nil : indexName
            let sortFields = index.flatMap(related.index(named:))?.sortKeyFields ?? related.primaryKey.sortKeyFields
            let fixed = Array(values.dropFirst())
            let sortKey: SortKeyCondition?
            if fixed.isEmpty {
                // The parent fills only the partition: the field takes the sort key condition.
                sortKey = try sortKeyCondition(sortFields, args: args)
                if sortKey != nil {
                    try caller.requireReadable(keyFields: sortFields, of: related, within: relatedAccess.restriction)
                }
            } else {
                sortKey = .eq(fixed)
            }
            access = .index(index, partition: partition, sortKey: sortKey)
        } else {
            for (field, value) in zip(relation.relatedFields, values) { filter = filter.conjoined(with: .field(field, .eq(value))) }
            access = .scan
        }
        return try await page(
            related, access: access, args: args, queryName: queryName, filter: filter, restriction: relatedAccess.restriction,
            caller: caller)
    }

    /// A `@belongsTo` / `@hasOne` field: the one item whose key equals this item's foreign key,
    /// `nil` when there is none. One the caller may not read throws the field's denial.
    /// In a query, `reads` reads each key once for all its fields (``RelatedReads``).
    func object(from item: Item, relation: Relation, access: RelatedAccess, reads: RelatedReads?) async throws -> ModelObject? {
        try access.require()
        let related = environment.model(relation.relatedModel)
        let values = relation.localFields.map { item[$0] ?? .null }
        guard !values.contains(where: \.isNull) else { return nil }
        let found: Item?
        if relation.relatedFields == related.primaryKey.fields {
            let key = Item(uniqueKeysWithValues: zip(relation.relatedFields, values))
            let store = environment.store
            let read: @Sendable () async throws -> Item? = { try await store.get(related, key: key) }
            let stored = if let reads { try await reads.item(related, key: key, read: read) } else { try await read() }
            found = stored.flatMap(visible)
        } else {
            var filter = liveItems
            for (field, value) in zip(relation.relatedFields, values) { filter = filter.conjoined(with: .field(field, .eq(value))) }
            let query = ItemQuery(access: .scan, filter: filter, limit: Int.max)
            found = try await environment.store.read { tx in try tx.query(related, query) }.items.first
        }
        guard let found else { return nil }
        try access.require(found)
        return ModelObject(item: found)
    }

    // MARK: - Paging

    /// One page of `model`'s items by `access`, narrowed to those `restriction` admits; the
    /// filter may read only fields `caller` may read on them.
    func page(
        _ model: ModelSchema, access: ItemQuery.Access, args: Map, queryName: String, filter: QueryPredicate? = nil,
        restriction: ItemRestriction?, caller: Caller, writer: ItemProjection.ItemArrayWriter? = nil
    ) async throws -> PageObject {
        let limit = try Self.limit(args, default: Self.defaultLimit, max: environment.maxPageSize)
        let after = try args.argument("nextToken")?.stringValue.map {
            try environment.tokens.decode($0, for: queryName).cursor
        }
        let descending = args.argument("sortDirection")?.stringValue == "DESC"
        let (narrowed, within) = try ItemRestriction.reading(
            try filter ?? environment.predicate(args.argument("filter")), of: model, restriction: restriction, caller: caller)
        let query = ItemQuery(
            access: access, filter: narrowed.conjoined(with: liveItems), limit: limit, after: after, descending: descending,
            within: within)
        let result = try await ResolvedPage.read(model, query, from: environment.store, writer: writer)
        return PageObject(
            items: result.items,
            nextToken: result.end.lastEvaluated.map { environment.tokens.encode(.init(query: queryName, cursor: $0)) })
    }

    /// Reads `limit`, refusing what DynamoDB would refuse.
    static func limit(_ args: Map, default defaultLimit: Int, max: Int?) throws(AppSyncError) -> Int {
        guard let value = args.argument("limit"), !value.isNull else { return defaultLimit }
        guard let limit = value.intValue, limit >= 1 else {
            throw AppSyncError(.invalidArgument, "limit must be a positive integer, got \(value.jsonText).")
        }
        return max.map { Swift.min(limit, $0) } ?? limit
    }

    /// Reads the sort key argument of a query: the single sort field's name, or the composite
    /// argument named after all sort fields (`statusRating`), as Amplify names it.
    func sortKeyCondition(_ sortFields: [String], args: Map) throws -> SortKeyCondition? {
        guard let first = sortFields.first else { return nil }
        let composite = sortFields.count > 1
        let argName = composite ? SortKeyArgument.name(for: sortFields) : first
        guard let condition = args.argument(argName)?.objectValue else { return nil }
        let present = condition.filter { !$0.value.isNull }
        guard present.count == 1, let (op, value) = present.first else {
            throw AppSyncError(.invalidArgument, "'\(argName)' takes exactly one key condition operator.")
        }
        func tuple(_ v: JSONValue) throws -> [JSONValue] {
            guard composite else { return [v] }
            guard let object = v.objectValue else {
                throw AppSyncError(.invalidArgument, "'\(argName).\(op)' expects an object of sort key fields.")
            }
            var values: [JSONValue] = []
            for field in sortFields {
                guard let fieldValue = object[field], !fieldValue.isNull else { break }
                values.append(fieldValue)
            }
            return values
        }
        switch op {
        case "eq": return .eq(try tuple(value))
        case "le": return .le(try tuple(value))
        case "lt": return .lt(try tuple(value))
        case "ge": return .ge(try tuple(value))
        case "gt": return .gt(try tuple(value))
        case "beginsWith": return .beginsWith(try tuple(value))
        case "between":
            guard let pair = value.arrayValue, pair.count == 2 else {
                throw AppSyncError(.invalidArgument, "'\(argName).between' expects two values.")
            }
            return .between(try tuple(pair[0]), try tuple(pair[1]))
        default:
            throw AppSyncError(.invalidArgument, "Unknown key condition '\(op)' on '\(argName)'.")
        }
    }

    /// The index of `model` whose leading fields are `fields`: `""` for the primary key.
    private func indexServing(_ fields: [String], in model: ModelSchema) -> String? {
        if Array(model.primaryKey.fields.prefix(fields.count)) == fields { return "" }
        return model.indexes.first { Array(([$0.partitionField] + $0.sortKeyFields).prefix(fields.count)) == fields }?.name
    }
}

/// Amplify's name for a composite sort key argument: the sort fields joined in camel case.
enum SortKeyArgument {
    static func name(for fields: [String]) -> String {
        guard let first = fields.first else { return "" }
        return first + fields.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
