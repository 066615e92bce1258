/// What the database did to answer one page query: the plan it chose, in DeltaSync's names.
/// ``ItemReadTransaction/queryPlan(_:_:)`` and ``ItemReadTransaction/deltaPlan(_:_:)`` return
/// it; `x-deltasync-explain: 1` shows it as a sync plan's `database` object.
///
/// DeltaSync decides which index a query is *written* for; the database decides how to *run* it.
/// PostgreSQL chooses by cost: a table of a few pages is read whole (`Seq Scan`) even when an
/// index matches, and a scan in key order may walk the primary key's index. This is the
/// database's answer, not DeltaSync's intent.
///
/// ```swift
/// let report = try await store.read { tx in try tx.queryPlan(post, query) }
/// // report?.access == .index, report?.index == "byBlog", report?.rowsRead == 12 (PostgreSQL)
/// print(report?.detail ?? "")  // Limit (actual rows=12 loops=1)\n  Index Scan using Post.byBlog on Post ...
/// ```
public struct QueryPlanReport: Sendable, Equatable {
    /// How the database reached the rows.
    public enum Access: String, Sendable, Equatable {
        /// The table itself, row by row (PostgreSQL's `Seq Scan`, SQLite's `SCAN <table>`).
        case scan
        /// Through an index (an index, index-only or bitmap scan; SQLite's `USING INDEX` or
        /// `USING PRIMARY KEY`), named by ``QueryPlanReport/index``.
        case index
    }

    /// `"postgresql"` or `"sqlite"`.
    public var engine: String
    public var access: Access
    /// The index read, in DeltaSync's names: `"primary"` for the primary key, an `@index` name
    /// (`"byBlog"`), `"owner:<field>"` for an owner rule's index, `"changedAt"` for the delta
    /// log's; the database's own name for any other index. `nil` for a scan.
    public var index: String?
    /// How many rows the database read from the table, those its conditions then removed
    /// included. `nil` when the engine does not report it (SQLite).
    public var rowsRead: Int?
    /// The database's plan as text, one line per plan node (indented by depth).
    public var detail: String

    public init(engine: String, access: Access, index: String?, rowsRead: Int?, detail: String) {
        self.engine = engine
        self.access = access
        self.index = index
        self.rowsRead = rowsRead
        self.detail = detail
    }
}
