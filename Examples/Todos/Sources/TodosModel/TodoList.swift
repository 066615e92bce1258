import DeltaSyncClient
import Foundation
import Observation

/// The Todos app's state and actions, apart from its views: what `TodoListView` shows on Apple
/// platforms and what `TodosHeadless` drives on Linux in CI. One synced store, and a live query
/// the views read.
///
/// ```swift
/// let list = try TodoList(endpoint: SyncEndpoint(url: URL(string: "http://127.0.0.1:20002/graphql")!, apiKey: "da2-..."), location: .applicationSupport("Todos/todos.sqlite"))
/// try await list.add("Buy milk")
/// ```
@MainActor
public final class TodoList {
    public let dataStore: DataStore
    /// Every todo, open ones first, then by title: what the list shows, updated on every change.
    public let todos: LiveQuery<Todo>

    /// A list synced with `endpoint`, its store at `location` (Application Support in the app).
    public init(endpoint: SyncEndpoint, location: DataStore.Location) throws {
        dataStore = try DataStore(models: DeltaSyncModels.self, location: location, configuration: DataStoreConfiguration(endpoint: endpoint))
        todos = dataStore.liveQuery(Todo.self, sort: [.ascending(Todo.keys.done), .ascending(Todo.keys.title)])
    }

    /// Syncs, and returns once the device is up to date.
    public func start() async throws {
        try await dataStore.start()
    }

    public func add(_ title: String) async throws {
        try await dataStore.save(Todo(title: title, done: false))
    }

    public func toggle(_ todo: Todo) async throws {
        var changed = todo
        changed.done.toggle()
        try await dataStore.save(changed)
    }

    public func delete(_ todo: Todo) async throws {
        try await dataStore.delete(todo)
    }

    /// The app came back to the foreground: reconnect at once.
    public func resume() {
        dataStore.resume()
    }

    /// The open todos' titles, in order.
    public var openTitles: [String] { todos.items.filter { !$0.done }.map(\.title) }
}
