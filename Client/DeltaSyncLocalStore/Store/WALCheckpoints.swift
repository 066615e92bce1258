import GRDB

#if canImport(GRDBSQLite)
import GRDBSQLite
#else
import SQLite3
#endif

/// Checkpoints the write-ahead log of a file store on GRDB's writer queue, never inside a
/// commit (see ``DatabaseAccess``).
///
/// SQLite's automatic checkpoint is a commit hook; installing this one replaces it. After each
/// commit SQLite reports how many frames the log holds; at ``LocalDatabase/checkpointFrames``
/// one passive checkpoint is queued (a second waits until it ran).
package final class WALCheckpoints: Sendable {
    private struct State {
        var access: DatabaseAccess?
        var scheduled = false
        var completed = 0
    }

    private let state = Locked(State())
    private let threshold: Int

    /// Checkpoints run so far.
    package var completed: Int { state.withLock { $0.completed } }

    package init(threshold: Int) {
        self.threshold = threshold
    }

    /// Where checkpoints run; set once the pool exists.
    package func attach(_ access: DatabaseAccess) {
        state.withLock { $0.access = access }
    }

    /// Installs the hook on the writer connection. The hook holds this object unretained: the
    /// store keeps it for as long as its connections live.
    package func install(on db: Database) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(db.sqliteConnection, { context, _, _, frames in
            guard let context else { return SQLITE_OK }
            Unmanaged<WALCheckpoints>.fromOpaque(context).takeUnretainedValue().committed(frames: Int(frames))
            return SQLITE_OK
        }, context)
    }

    /// Called by SQLite on the writer right after a commit.
    private func committed(frames: Int) {
        guard frames >= threshold else { return }
        let access: DatabaseAccess? = state.withLock { state in
            guard !state.scheduled, let access = state.access else { return nil }
            state.scheduled = true
            return access
        }
        access?.writeInBackground { db in
            // PASSIVE: copies what no reader still needs, and never waits for one.
            _ = try? db.checkpoint(.passive)
            self.state.withLock { state in
                state.scheduled = false
                state.completed += 1
            }
        }
    }
}
