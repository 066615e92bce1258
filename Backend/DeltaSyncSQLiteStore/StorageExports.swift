// The store's API is the contract's (`ItemStore`, its transactions, `PurgeResult`,
// `StoreCheckpoint`): an app that imports DeltaSyncSQLiteStore to open a store reads and writes
// through it without a second import, as it did when both lived in DeltaSyncStorage.
@_exported import DeltaSyncStorage
