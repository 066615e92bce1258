/// The PL/pgSQL functions the migration creates in each schema: a write's steps that would each be
/// a round trip, done in one call. Each is `VOLATILE`, so each of its statements takes a snapshot of
/// its own when it runs: a read after a lock the call waited for sees the previous holder's
/// commit, as a later statement of a transaction would (one SQL statement would read the snapshot
/// it started with). PL/pgSQL keeps each statement's plan for the connection, so a call costs no
/// planning after the first.
///
/// Each model's statements are written out (one `WHEN` per model, static SQL whose plan is kept);
/// a model a function does not name (a newer schema's, while an older instance's migration wrote
/// the functions last) goes through `EXECUTE`.
///
/// - `deltasync_insert_rows`: creates (``PostgresItemStore/insert(_:key:now:_:)``), several
///   requests' at once. (Earlier versions' one-row `deltasync_insert` may remain, unused.)
/// - `deltasync_lock_read`: a write transaction's first touch of an item: the store's lock
///   shared (when the transaction does not hold it yet), the item's lock, the item, the floor.
/// - `deltasync_put_logged`: an item's upsert and its delta row.
enum PostgresFunctions {
    static let insert = "deltasync_insert_rows"
    static let lockRead = "deltasync_lock_read"
    static let putLogged = "deltasync_put_logged"

    /// `CREATE OR REPLACE FUNCTION` of each, run by the migration under its lock.
    static func createSQL(_ catalog: PostgresCatalog) -> [String] {
        [insertSQL(catalog), lockReadSQL(catalog), putLoggedSQL(catalog)]
    }

    private static let columns = PostgresModelTable.rowColumns

    /// `statement(table)` for the table `p_model` names; for any other, `dynamic` (SQL text with
    /// `%I.%I` for schema and model) run by `EXECUTE … <tail>` (its `INTO` and `USING`).
    private static func perModel(
        _ catalog: PostgresCatalog, _ statement: (PostgresModelTable) -> String, dynamic: String, tail: String
    ) -> String {
        let dynamic = "EXECUTE format(\(PostgresSQL.literal(dynamic)), \(PostgresSQL.literal(catalog.schema)), p_model) \(tail);"
        guard !catalog.sortedTables.isEmpty else { return dynamic }
        let whens = catalog.sortedTables.map { "WHEN \(PostgresSQL.literal($0.name)) THEN \(statement($0))" }
        return "CASE p_model\n" + whens.joined(separator: "\n") + "\nELSE \(dynamic)\nEND CASE;"
    }

    /// The store's lock shared and the floor, then for each row whose change time is above the
    /// floor, the item (`ON CONFLICT (key) DO NOTHING`: the primary key's unique index decides
    /// whether the key is free, whoever inserts at the same time, another row of the same call
    /// too) and then, only when it went in, its delta row. Returns the floor and, for each row,
    /// whether it was written. The rows are creates of several requests (``PostgresInsertGroup``);
    /// each is decided on its own, and all commit together.
    static func insertSQL(_ catalog: PostgresCatalog) -> String {
        let insert = perModel(
            catalog, { "INSERT INTO \($0.qualifiedName) \(columns) VALUES (p_key, p_item, p_changed_at, p_deleted, p_ttl) ON CONFLICT (key) DO NOTHING;" },
            dynamic: "INSERT INTO %I.%I \(columns) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING",
            tail: "USING p_key, p_item, p_changed_at, p_deleted, p_ttl")
        return """
            CREATE OR REPLACE FUNCTION \(catalog.qualified(Self.insert))(
                p_lock_key bigint, p_models text[], p_keys text[], p_items text[], p_changed_ats bigint[],
                p_delta_keys text[], p_versions bigint[], p_delta_items text[],
                OUT clock_floor bigint, OUT written boolean[])
            LANGUAGE plpgsql VOLATILE AS $deltasync$
            DECLARE
                inserted bigint;
                p_model text;
                p_key text;
                p_item jsonb;
                p_changed_at bigint;
                p_deleted boolean;
                p_ttl bigint;
            BEGIN
                PERFORM pg_advisory_xact_lock_shared(p_lock_key);
                SELECT last INTO clock_floor FROM \(catalog.qualified(PostgresSyncLog.clock)) WHERE id = 0;
                written := array_fill(false, ARRAY[cardinality(p_keys)]);
                IF clock_floor IS NULL THEN
                    RETURN;
                END IF;
                FOR i IN 1 .. cardinality(p_keys) LOOP
                    p_changed_at := p_changed_ats[i];
                    CONTINUE WHEN p_changed_at <= clock_floor;
                    p_model := p_models[i];
                    p_key := p_keys[i];
                    p_item := p_items[i]::jsonb;
                    -- The metadata columns from the item itself, as the bulk load reads them.
                    p_deleted := (p_item->>'_deleted')::boolean;
                    p_ttl := (p_item->>'_ttl')::bigint;
                    \(insert)
                    GET DIAGNOSTICS inserted = ROW_COUNT;
                    CONTINUE WHEN inserted = 0;
                    INSERT INTO \(catalog.qualified(PostgresSyncLog.delta)) (model, changed_at, key, version, item)
                    VALUES (p_model, p_changed_at, p_delta_keys[i], p_versions[i], coalesce(nullif(p_delta_items[i], '')::jsonb, p_item));
                    written[i] := true;
                END LOOP;
            END
            $deltasync$
            """
    }

    /// The store's lock shared when `p_store_lock` is not null (the transaction's first lock),
    /// then the item's lock, then the item (`NULL` when there is none) and the floor, both read
    /// after the locks.
    static func lockReadSQL(_ catalog: PostgresCatalog) -> String {
        let read = perModel(
            catalog, { "SELECT t.item::text INTO found_item FROM \($0.qualifiedName) t WHERE t.key = p_key;" },
            dynamic: "SELECT item::text FROM %I.%I WHERE key = $1", tail: "INTO found_item USING p_key")
        return """
            CREATE OR REPLACE FUNCTION \(catalog.qualified(lockRead))(
                p_store_lock bigint, p_item_lock bigint, p_model text, p_key text, OUT found_item text, OUT clock_floor bigint)
            LANGUAGE plpgsql VOLATILE AS $deltasync$
            BEGIN
                IF p_store_lock IS NOT NULL THEN
                    PERFORM pg_advisory_xact_lock_shared(p_store_lock);
                END IF;
                PERFORM pg_advisory_xact_lock(p_item_lock);
                \(read)
                SELECT last INTO clock_floor FROM \(catalog.qualified(PostgresSyncLog.clock)) WHERE id = 0;
            END
            $deltasync$
            """
    }

    /// `INSERT … ON CONFLICT (key) DO UPDATE` of the item, then its delta row.
    static func putLoggedSQL(_ catalog: PostgresCatalog) -> String {
        let update = PostgresModelTable.replaceOnConflict
        let put = perModel(
            catalog, { "INSERT INTO \($0.qualifiedName) \(columns) VALUES (p_key, p_item, p_changed_at, p_deleted, p_ttl) \(update);" },
            dynamic: "INSERT INTO %I.%I \(columns) VALUES ($1, $2, $3, $4, $5) \(update)",
            tail: "USING p_key, p_item, p_changed_at, p_deleted, p_ttl")
        return """
            CREATE OR REPLACE FUNCTION \(catalog.qualified(putLogged))(
                p_model text, p_key text, p_item jsonb, p_changed_at bigint, p_deleted boolean, p_ttl bigint,
                p_delta_key text, p_version bigint, p_delta_item jsonb) RETURNS void
            LANGUAGE plpgsql VOLATILE AS $deltasync$
            BEGIN
                \(put)
                INSERT INTO \(catalog.qualified(PostgresSyncLog.delta)) (model, changed_at, key, version, item)
                VALUES (p_model, p_changed_at, p_delta_key, p_version, coalesce(p_delta_item, p_item));
            END
            $deltasync$
            """
    }
}
