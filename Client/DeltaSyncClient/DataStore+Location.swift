import DeltaSyncLocalStore
import Foundation

extension DataStore.Location {
    /// A SQLite file in the app's Application Support folder (`~/.local/share` on Linux), where
    /// a syncing app keeps its store: it survives quits and updates, is backed up with the
    /// app's data, and is not shown to the user as a document.
    ///
    /// ```swift
    /// let configuration = DataStoreConfiguration(endpoint: SyncEndpoint(url: URL(string: "http://127.0.0.1:20002/graphql")!, apiKey: "da2-fakeApiId123456"))
    /// let dataStore = try DataStore(models: DeltaSyncModels.self, location: .applicationSupport(), configuration: configuration)
    /// ```
    ///
    /// - Parameter name: the file's path under Application Support; one per store (an app
    ///   with two backends, or one store per signed-in user, names each).
    public static func applicationSupport(_ name: String = "DeltaSync/datastore.sqlite") -> Self {
        let folder = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
        return .file(folder.appendingPathComponent(name))
    }
}
