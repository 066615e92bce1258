import DeltaSyncCore
import DeltaSyncPostgres
import DeltaSyncSchema
import DeltaSyncStorage
import Testing

/// `queryPlan` and `deltaPlan` report what the database did for a page, in DeltaSync's names.
///
/// PostgreSQL chooses by cost, from its statistics: a table of a page or two is read whole (`Seq
/// Scan`) even when an index matches, and the report must say so. So the index cases load enough
/// rows (2,000, 20 per blog) and refresh the statistics (`analyze()`, what autovacuum does some
/// time after a load) before asking; the scan cases use a table of a few rows. No test forces the
/// planner (`enable_seqscan`): a report under forced settings would not be what a request gets.
/// SQLite picks an index whenever one matches an equality, whatever the table's size, and does
/// not count rows (`rowsRead` nil).
@Suite("Query plans")
struct QueryPlanTests {
    /// One index, `byBlog` (blogId; createdAt), and a field no index holds (`kind`): a condition
    /// on `kind` can only be a filter on rows already read.
    static let note = Fixtures.model(
        "Note",
        [
            Field(name: "id", type: .scalar(.id), isRequired: true),
            Fixtures.field("blogId", .id), Fixtures.field("createdAt", .awsDateTime), Fixtures.field("kind", .string),
        ],
        indexes: [Index(name: "byBlog", partitionField: "blogId", sortKeyFields: ["createdAt"])])
    let note = Self.note

    /// `count` notes, `n0000`…: blog `b<i % 100>`, kind `keep` for one hundred-block in four
    /// (so 5 of blog b1's 20 notes with 2,000), and one delta each, changed at `i + 1`.
    func seed(_ store: any ItemStore, count: Int) async throws {
        try await store.write { [note] tx in
            for i in 0..<count {
                let item: Item = [
                    "id": .string(String(format: "n%04d", i)), "blogId": .string("b\(i % 100)"),
                    "createdAt": .string(String(format: "2024-01-01T00:00:%02d.%03dZ", i / 1000, i % 1000)),
                    "kind": (i / 100) % 4 == 0 ? "keep" : "drop",
                ]
                try tx.put(note, item)
                try tx.appendDelta(note, item: item, changedAt: i + 1)
            }
        }
        try await (store as? PostgresItemStore)?.analyze()
    }

    func plan(_ store: any ItemStore, _ query: ItemQuery) async throws -> (page: ItemPage, report: QueryPlanReport) {
        try await store.read { [note] tx in (try tx.query(note, query), try #require(try tx.queryPlan(note, query))) }
    }

    @Test("an index query reports the index it read, by its DeltaSync name", arguments: StoreKind.allCases)
    func index(kind: StoreKind) async throws {
        try await kind.withStore(note) { store in
            try await seed(store, count: 2000)
            let query = ItemQuery(access: .index("byBlog", partition: "b1", sortKey: .ge(["2024-01-01T00:00:01"])))
            let (page, report) = try await plan(store, query)
            #expect(page.items.count == 10)
            #expect(report.access == .index, "\(report.detail)")
            #expect(report.index == "byBlog", "\(report.detail)")
            #expect(report.detail.contains("Note.byBlog"), "the database's own name in the plan text")
            switch kind {
            case .sqlite:
                #expect(report.engine == "sqlite")
                #expect(report.rowsRead == nil)
                #expect(report.detail.hasPrefix("SEARCH Note USING INDEX Note.byBlog"), "\(report.detail)")
            case .postgres:
                #expect(report.engine == "postgresql")
                #expect(report.rowsRead == 10, "the index range holds exactly the page's rows: \(report.detail)")
            }

            let key = try await plan(store, ItemQuery(access: .index(nil, partition: "n0042", sortKey: nil)))
            #expect(key.page.items.count == 1)
            #expect(key.report.access == .index, "\(key.report.detail)")
            #expect(key.report.index == "primary", "\(key.report.detail)")
            if kind == .postgres { #expect(key.report.rowsRead == 1) }
        }
    }

    @Test("rows a condition removes after reading count as read", arguments: StoreKind.allCases)
    func rowsRemovedByAFilter(kind: StoreKind) async throws {
        try await kind.withStore(note) { store in
            try await seed(store, count: 2000)
            // `within` is a condition of the read, but no index holds `kind`: the database reads
            // blog b1's 20 notes through byBlog and drops the 15 that are not kept.
            let query = ItemQuery(
                access: .index("byBlog", partition: "b1", sortKey: nil), within: FieldValues(field: "kind", values: ["keep"]))
            let (page, report) = try await plan(store, query)
            #expect(page.items.count == 5)
            #expect(page.scanned == 5, "DeltaSync counts the rows the database returned")
            #expect(report.access == .index, "\(report.detail)")
            #expect(report.index == "byBlog", "\(report.detail)")
            if kind == .postgres {
                #expect(report.rowsRead == 20, "5 returned + 15 removed by the filter: \(report.detail)")
                #expect(report.detail.contains("Rows Removed by Filter: 15"), "\(report.detail)")
            }
        }
    }

    @Test("a scan reports a scan and, on PostgreSQL, every row it read", arguments: StoreKind.allCases)
    func scan(kind: StoreKind) async throws {
        try await kind.withStore(note) { store in
            try await seed(store, count: 5)
            let (page, report) = try await plan(store, ItemQuery(limit: 3))
            #expect(page.items.count == 3)
            #expect(report.access == .scan, "\(report.detail)")
            #expect(report.index == nil)
            switch kind {
            case .sqlite:
                #expect(report.detail.hasPrefix("SCAN Note"), "\(report.detail)")
            case .postgres:
                // Read whole and sorted: the page's limit stops the sort's output, not the read.
                #expect(report.rowsRead == 5, "\(report.detail)")
                #expect(report.detail.contains("Seq Scan on Note"), "\(report.detail)")
            }
        }
    }

    @Test("an index query on a tiny table: PostgreSQL reads the table, and the report says so", arguments: StoreKind.allCases)
    func truthOverIntent(kind: StoreKind) async throws {
        try await kind.withStore(note) { store in
            try await seed(store, count: 5)
            let (page, report) = try await plan(store, ItemQuery(access: .index("byBlog", partition: "b1", sortKey: nil)))
            #expect(page.items.map { $0["id"] } == ["n0001"])
            switch kind {
            case .sqlite:
                #expect(report.access == .index)
                #expect(report.index == "byBlog")
            case .postgres:
                // One page of rows costs less to read whole than through the index.
                #expect(report.access == .scan, "\(report.detail)")
                #expect(report.index == nil)
                #expect(report.rowsRead == 5, "1 kept + 4 removed by the partition condition: \(report.detail)")
            }
        }
    }

    @Test("a delta query reports the delta log's changedAt index", arguments: StoreKind.allCases)
    func delta(kind: StoreKind) async throws {
        try await kind.withStore(note) { store in
            try await seed(store, count: 2000)
            let query = DeltaQuery(since: 1995)
            let (page, report) = try await store.read { [note] tx in
                (try tx.deltas(note, query), try #require(try tx.deltaPlan(note, query)))
            }
            #expect(page.items.count == 5)
            #expect(report.access == .index, "\(report.detail)")
            #expect(report.index == "changedAt", "\(report.detail)")
            if kind == .postgres { #expect(report.rowsRead == 5, "\(report.detail)") }

            // Resuming after a cursor explains the resuming statement.
            let resumed = DeltaQuery(since: 1995, limit: 2, after: [1997, 1997])
            let next = try await store.read { [note] tx in try #require(try tx.deltaPlan(note, resumed)) }
            #expect(next.index == "changedAt", "\(next.detail)")
        }
    }

    @Test("PostgreSQL's JSON plan: rows per loop, filters and recheck counted on the table's nodes only")
    func postgresJSON() throws {
        let plan = try #require(try JSONValue(parsing: """
            {"Node Type": "Limit", "Actual Rows": 3, "Actual Loops": 1, "Plans": [
              {"Node Type": "Sort", "Actual Rows": 3, "Actual Loops": 1, "Sort Key": ["a"], "Plans": [
                {"Node Type": "Bitmap Heap Scan", "Relation Name": "Note", "Actual Rows": 2.5, "Actual Loops": 2,
                 "Rows Removed by Filter": 1, "Rows Removed by Index Recheck": 0.5, "Plans": [
                  {"Node Type": "Bitmap Index Scan", "Index Name": "Note.byBlog", "Actual Rows": 9, "Actual Loops": 1}]},
                {"Node Type": "Seq Scan", "Relation Name": "Other", "Actual Rows": 100, "Actual Loops": 1}]}]}
            """).objectValue)
        let report = PostgresQueryPlan.report(plan, relation: "Note") { $0 == "Note.byBlog" ? "byBlog" : $0 }
        #expect(report.access == .index)
        #expect(report.index == "byBlog")
        #expect(report.rowsRead == 8, "(2.5 + 1 + 0.5) rows per loop, 2 loops")
        #expect(report.detail.split(separator: "\n").count == 5, "one line per node")
        #expect(report.detail.contains("  Sort (actual rows=3 loops=1) Sort Key: a"))
    }
}
