import DeltaSyncStorage

/// What ``PostgresItemStore/checkpoint()`` returns: every table's rows as one jsonb array
/// text each (`jsonb_agg` of the rows), which `jsonb_populate_recordset` puts back whole. The
/// change clock is not in it: it never goes back.
struct PostgresCheckpoint: StoreCheckpoint {
    struct Table: Sendable {
        /// The schema-qualified table name.
        let name: String
        let rows: String
    }

    /// The PostgreSQL schema it was made from (a checkpoint restores into its own store only).
    let schema: String
    let tables: [Table]
}
