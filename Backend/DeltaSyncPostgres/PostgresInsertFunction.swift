import PostgresNIO

/// `deltasync_insert`, the function a create runs as one prepared call
/// (``PostgresItemStore/insert(_:key:now:_:)``), created by the migration in each schema:
///
/// 1. it takes the store's lock shared (as every write transaction does);
/// 2. it reads the floor from the clock row;
/// 3. only when the caller's change time is above the floor, it inserts the item
///    (`ON CONFLICT (key) DO NOTHING`: the primary key's unique index decides whether the key
///    is free, whoever inserts at the same time);
/// 4. only when the item went in, it appends its delta row.
///
/// It returns the floor it read and whether the item was written. Each statement of a
/// `VOLATILE` PL/pgSQL function takes a snapshot of its own when it runs, so the floor is read
/// after the lock was granted and sees a sync's stamp the call waited for; a single SQL
/// statement would read the snapshot it started with. PL/pgSQL also keeps each statement's
/// plan for the connection, so a call costs no planning after the first.
///
/// Each model's insert is written out (one `WHEN` per model, static SQL whose plan is kept); a
/// model the function does not know yet (a newer schema's, while an older instance's migration
/// wrote the function last) is inserted through `EXECUTE`.
enum PostgresInsertFunction {
    static let name = "deltasync_insert"

    static func createSQL(_ catalog: PostgresCatalog) -> String {
        let columns = #"(key, item, "_lastChangedAt", "_deleted", "_ttl")"#
        let values = "VALUES (p_key, p_item, p_changed_at, p_deleted, p_ttl) ON CONFLICT (key) DO NOTHING"
        let dynamic = """
            EXECUTE format('INSERT INTO %I.%I \(columns) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING', \
            \(PostgresSQL.literal(catalog.schema)), p_model) USING p_key, p_item, p_changed_at, p_deleted, p_ttl;
            """
        let insert: String
        if catalog.sortedTables.isEmpty {
            insert = dynamic
        } else {
            let whens = catalog.sortedTables.map { table in
                "WHEN \(PostgresSQL.literal(table.name)) THEN INSERT INTO \(table.qualifiedName) \(columns) \(values);"
            }
            insert = "CASE p_model\n" + whens.joined(separator: "\n") + "\nELSE \(dynamic)\nEND CASE;"
        }
        return """
            CREATE OR REPLACE FUNCTION \(catalog.qualified(name))(
                p_lock_key bigint, p_model text, p_key text, p_item jsonb, p_changed_at bigint, p_deleted boolean, p_ttl bigint,
                p_delta_key text, p_version bigint, p_delta_item jsonb, OUT clock_floor bigint, OUT written boolean)
            LANGUAGE plpgsql VOLATILE AS $deltasync$
            DECLARE
                inserted bigint;
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_lock_key);
                SELECT last INTO clock_floor FROM \(catalog.qualified(PostgresSyncLog.clock)) WHERE id = 0;
                written := false;
                IF clock_floor IS NULL OR clock_floor >= p_changed_at THEN
                    RETURN;
                END IF;
                \(insert)
                GET DIAGNOSTICS inserted = ROW_COUNT;
                IF inserted = 0 THEN
                    RETURN;
                END IF;
                INSERT INTO \(catalog.qualified(PostgresSyncLog.delta)) (model, changed_at, key, version, item)
                VALUES (p_model, p_changed_at, p_delta_key, p_version, coalesce(p_delta_item, p_item));
                written := true;
            END
            $deltasync$
            """
    }
}

/// The call of ``PostgresInsertFunction``, prepared once per connection (postgres-nio keeps it
/// by this type's name). The function is found through the connection's `search_path`, which
/// the store sets to its schema: a prepared statement's SQL is one text for every store.
struct PostgresInsertStatement: PostgresPreparedStatement {
    static let sql = "SELECT clock_floor, written FROM \(PostgresInsertFunction.name)($1, $2, $3, $4::jsonb, $5, $6, $7, $8, $9, $10::jsonb)"
    static let bindingDataTypes: [PostgresDataType] = [.int8, .text, .text, .text, .int8, .bool, .int8, .text, .int8, .text]
    typealias Row = (Int?, Bool?)

    var lockKey: Int64
    var model: String
    var key: String
    var item: String
    var changedAt: Int
    var deleted: Bool?
    var ttl: Int?
    var deltaKey: String
    var version: Int
    /// The delta row's item when it is not `item`'s text.
    var deltaItem: String?

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 10)
        bindings.append(Int(lockKey))
        bindings.append(model)
        bindings.append(key)
        bindings.append(item)
        bindings.append(changedAt)
        bindings.append(deleted)
        bindings.append(ttl)
        bindings.append(deltaKey)
        bindings.append(version)
        bindings.append(deltaItem)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {
        try row.decode((Int?, Bool?).self)
    }
}
