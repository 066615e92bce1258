import DeltaSyncCore
import DeltaSyncSchema

extension ModelSchema {
    /// The item's primary key values by field name: what every store keys a delta log entry by.
    ///
    /// - Throws: ``AppSyncError`` (`ValidationException`) naming the first key field without a
    ///   value.
    package func keyValues(of item: Item) throws(AppSyncError) -> Item {
        var key: Item = [:]
        for name in primaryKey.fields {
            guard let value = item[name], !value.isNull else {
                throw AppSyncError(
                    .validation,
                    "The key of \(self.name) needs a value for '\(name)'. Give every primary key field (\(primaryKey.fields.joined(separator: ", "))).")
            }
            key[name] = value
        }
        return key
    }
}
