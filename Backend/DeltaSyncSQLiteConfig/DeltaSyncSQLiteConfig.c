#include "DeltaSyncSQLiteConfig.h"
#include <sqlite3.h>

int deltasync_sqlite_enable_defensive(void *db) {
#ifdef SQLITE_DBCONFIG_DEFENSIVE
    int state = 0;
    if (sqlite3_db_config((sqlite3 *)db, SQLITE_DBCONFIG_DEFENSIVE, 1, &state) != SQLITE_OK) return 0;
    return state == 1;
#else
    (void)db;
    return 0;
#endif
}
