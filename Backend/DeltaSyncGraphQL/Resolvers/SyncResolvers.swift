import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage
import GraphQL

/// `syncXs(filter, limit, nextToken, lastSync)` as AppSync's Sync operation on a versioned data
/// source: a base read (tombstones included) when `lastSync` is absent, 0 or older than the
/// delta TTL, otherwise the changes after `lastSync` from the delta log; `startedAt` fixed for
/// the whole pagination.
struct SyncResolvers: Sendable {
    let environment: ResolverEnvironment

    /// AppSync's Sync operation: 100 items by default, at most 1,000 per page.
    static let defaultLimit = 100
    static let maxLimit = 1000

    /// - Parameters:
    ///   - writer: writes a base page's items as JSON while they are read (see
    ///     ``ResolvedPage``); `nil` to hand them to the executor.
    ///   - deltaTTLMilliseconds: the delta window of this query (a slot's `deltaSyncTableTtl`);
    ///     `nil` for the server's.
    func sync(
        _ model: ModelSchema, args: Map, info: GraphQLResolveInfo, plans: QueryPlanLog?, access callerAccess: RootAccess,
        writer: ItemProjection.ItemArrayWriter?, deltaTTLMilliseconds: Int? = nil
    ) async throws -> PageObject {
        try callerAccess.require()
        let queryName = info.fieldName
        let limit = try QueryResolvers.limit(args, default: Self.defaultLimit, max: min(Self.maxLimit, environment.maxPageSize))
        let token = try args.argument("nextToken")?.stringValue.map {
            try environment.tokens.decode($0, for: queryName)
        }
        let filterInput = args.argument("filter") ?? .null
        // The caller's items only: owner rules narrow base and delta pages alike (tombstones
        // keep their owner, so an owner's deletes still reach their devices).
        let ownFilter = try environment.predicate(filterInput)
        let filter = try callerAccess.narrowing(ownFilter, of: model)
        let lastSync = args.argument("lastSync")?.intValue
        let now = environment.nowMilliseconds
        let useDelta = token.map { $0.source == "delta" } ?? isInDeltaWindow(lastSync, now: now, ttl: deltaTTLMilliseconds ?? environment.sync.deltaTTLMilliseconds)

        // Stamped on the change clock, serialised with writes: every change that commits after
        // this point gets a later `_lastChangedAt`, so `startedAt` is safe as the next `lastSync`.
        let startedAt: Int
        if let fixed = token?.startedAt {
            startedAt = fixed
        } else {
            startedAt = try await environment.store.stampSync(now: now)
        }

        // What the database did, asked only when explaining: PostgreSQL runs the query again.
        let explain = plans?.explain == true
        let (page, read): (ResolvedPage, [String: JSONValue])
        if useDelta {
            let query = DeltaQuery(since: token?.since ?? lastSync ?? 0, filter: filter, limit: limit, after: token?.cursor)
            (page, read) = try await deltaPage(model, query, explain: explain)
        } else {
            let (baseFilter, within) = try callerAccess.reading(ownFilter, of: model)
            let access = SelectiveSyncPlan.access(for: model, filter: filterInput)
            let query = ItemQuery(access: access, filter: baseFilter, limit: limit, after: token?.cursor, within: within)
            (page, read) = try await basePage(model, query, writer: writer, explain: explain)
        }
        var plan = read
        plan["path"] = .array(info.path.elements.map(Self.pathElement))
        plan["scanned"] = .int(page.end.scanned)
        plans?.record(.object(plan))
        environment.logger.debug(
            "sync plan",
            metadata: [
                "field": "\(queryName)", "source": "\(plan["source"]?.stringValue ?? "")",
                "access": "\(plan["access"]?.stringValue ?? "")", "index": "\(plan["index"]?.stringValue ?? "-")",
                "scanned": "\(page.end.scanned)",
            ])

        if let metrics = environment.metrics {
            let count: Int
            switch page.items {
            case .objects(let objects): count = objects.count
            case .projected(let array): count = array.count
            }
            metrics.syncPage(source: useDelta ? "delta" : "base", items: count)
        }
        var connection = PageObject(items: page.items, startedAt: startedAt)
        if let last = page.end.lastEvaluated {
            connection.nextToken = environment.tokens.encode(
                .init(
                    query: queryName, cursor: last, startedAt: startedAt,
                    source: useDelta ? "delta" : "base", since: useDelta ? (token?.since ?? lastSync ?? 0) : nil))
        }
        return connection
    }

    /// A delta page: the changes after the query's `since` from the delta log, and what the
    /// explain plan records of the read.
    private func deltaPage(_ model: ModelSchema, _ query: DeltaQuery, explain: Bool) async throws -> (ResolvedPage, [String: JSONValue]) {
        var plan: [String: JSONValue] = ["source": "delta", "access": "query", "index": "changedAt"]
        if explain {
            let (deltas, report) = try await environment.store.read { tx in
                (try tx.deltas(model, query), Result { try tx.deltaPlan(model, query) })
            }
            plan["database"] = Self.database(report)
            return (ResolvedPage(deltas), plan)
        }
        return (ResolvedPage(try await environment.store.read { tx in try tx.deltas(model, query) }), plan)
    }

    /// A base page: the model's items (tombstones included) through the query's access, and
    /// what the explain plan records of the read.
    private func basePage(
        _ model: ModelSchema, _ query: ItemQuery, writer: ItemProjection.ItemArrayWriter?, explain: Bool
    ) async throws -> (ResolvedPage, [String: JSONValue]) {
        let page = try await ResolvedPage.read(model, query, from: environment.store, writer: writer)
        var plan: [String: JSONValue] = ["source": "base"]
        if explain {
            // A read of its own: the page's read stays the one every request makes.
            do {
                plan["database"] = Self.database(.success(try await environment.store.read { tx in try tx.queryPlan(model, query) }))
            } catch {
                plan["database"] = Self.database(.failure(error))
            }
        }
        switch query.access {
        case .scan where query.within != nil:
            plan["access"] = "query"
            plan["index"] = .string("owner:\(query.within?.field ?? "")")
        case .scan:
            plan["access"] = "scan"
        case .index(let name, _, _):
            plan["access"] = "query"
            plan["index"] = .string(name ?? "primary")
        }
        return (page, plan)
    }

    /// Amplify's rule: `lastSync` present, non-zero, and no older than now minus the delta TTL.
    func isInDeltaWindow(_ lastSync: Int?, now: Int, ttl: Int) -> Bool {
        guard let lastSync, lastSync != 0 else { return false }
        return now - ttl <= lastSync
    }

    /// A plan's `database` object: `{"engine", "access", "index", "rowsRead", "plan"}`, or
    /// `{"error"}` when the database could not explain the query (the page itself was read);
    /// `nil` for a store that cannot tell.
    private static func database(_ report: Result<QueryPlanReport?, any Error>) -> JSONValue? {
        switch report {
        case .success(nil): return nil
        case .success(let report?):
            return [
                "engine": .string(report.engine), "access": .string(report.access.rawValue), "index": report.index.map(JSONValue.string) ?? .null,
                "rowsRead": report.rowsRead.map(JSONValue.int) ?? .null, "plan": .string(report.detail),
            ]
        case .failure(let error):
            return ["error": .string((error as? AppSyncError)?.message ?? "\(error)")]
        }
    }

    private static func pathElement(_ element: IndexPathValue) -> JSONValue {
        switch element {
        case .index(let i): return .int(i)
        case .key(let k): return .string(k)
        }
    }
}
