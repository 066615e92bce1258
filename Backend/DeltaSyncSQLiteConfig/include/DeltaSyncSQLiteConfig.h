#ifndef DELTASYNC_SQLITE_CONFIG_H
#define DELTASYNC_SQLITE_CONFIG_H

/// Connection settings that only sqlite3_db_config() can change. That function is variadic,
/// which Swift cannot call, so the calls live here (GRDB wraps its own the same way).
///
/// `db` is a `sqlite3 *` (GRDB's `Database.sqliteConnection`); the header leaves sqlite3.h out
/// so that it does not compete with GRDB's module for its declarations.

/// Turns SQLITE_DBCONFIG_DEFENSIVE on: no writable_schema, no direct writes to shadow tables
/// or sqlite_dbpage, nothing that can corrupt the file from SQL. Returns 1 once SQLite reports
/// the setting on, 0 when this SQLite has no such setting or refused it.
int deltasync_sqlite_enable_defensive(void *db);

#endif
