import DeltaSyncCore
import Observation

/// A query's results as an `@Observable` value, for SwiftUI: a view that reads ``items``
/// redraws when they change, and only then.
///
/// Made by ``DataStore/liveQuery(_:where:sort:)``. It follows the same snapshots as
/// ``DataStore/observeQuery(for:where:sort:)``: after every committed transaction that changed
/// `M` (a local save or delete, a sync page, a subscription event), after ``DataStore/clear()``,
/// and when `M` finishes syncing. `M` is `Equatable`, as every generated model is, so that an
/// update that changes nothing can be told apart and left out.
///
/// - **The first results are there at once.** ``items`` holds them when `liveQuery` returns:
///   they are read on the calling thread, the main actor, as GRDB's `ValueObservation` does with
///   immediate scheduling, so a view's first frame shows the data instead of an empty list that
///   fills in a frame later. That read takes as long as the same
///   ``DataStore/query(_:where:sort:paginate:)`` (docs/benchmarks.md, Client store): for a query
///   of tens of thousands of rows, iterate ``DataStore/observeQuery(for:where:sort:)`` off the
///   main actor instead.
/// - **Updates are read off the main actor**, decoding only the rows that changed, and compared
///   with the last results there; only a change that alters ``items`` or ``isSynced`` reaches the
///   main actor, and it sets only the property that changed, so views that read the other one
///   are not redrawn.
/// - **Its filter and order change in place** (``change(where:sort:)``), for a search field or
///   a sort picker: the view keeps the same object, which shows the new results at once.
/// - **Releasing it stops it.** Its task holds it weakly and is cancelled when it is released,
///   which unsubscribes from the store.
///
/// Hold it where the view's state lives, so that it is made once, not on every `init` of the
/// view (SwiftUI calls `init` far more often than it keeps the state it makes):
///
/// ```swift
/// @MainActor final class DraftsScreen {
///     let drafts: LiveQuery<Post>
///     init(dataStore: DataStore) {
///         drafts = dataStore.liveQuery(Post.self, where: Post.keys.status == PostStatus.draft, sort: [.ascending(Post.keys.title)])
///     }
///     var titles: [String] { drafts.items.map(\.title) }
/// }
/// ```
@MainActor
@Observable
public final class LiveQuery<M: Model & Equatable> {
    /// The models matching the query, in its sort order.
    ///
    /// ```swift
    /// @MainActor func count(_ posts: LiveQuery<Post>) -> Int { posts.items.count }
    /// ```
    public var items: [M] {
        access(keyPath: \.items)
        return shownItems
    }

    /// What ``items`` returns. Observed by hand: the macro's setter would compare a thousand
    /// models again, on the main actor, after the following task already told them apart.
    @ObservationIgnored private var shownItems: [M]

    /// Whether `M` finished syncing with the backend this session; always `false` for a
    /// local-only store.
    ///
    /// ```swift
    /// @MainActor func status(_ posts: LiveQuery<Post>) -> String { posts.isSynced ? "up to date" : "syncing" }
    /// ```
    public private(set) var isSynced: Bool

    /// The error that stopped the updates (a query that failed, a model that no longer decodes);
    /// ``items`` then keeps the last results. `nil` while the query follows the store.
    ///
    /// ```swift
    /// @MainActor func problem(_ posts: LiveQuery<Post>) -> String? { posts.error?.description }
    /// ```
    public private(set) var error: DataStoreError? = nil

    /// The query's filter, as made or last changed with ``change(where:sort:)``.
    ///
    /// ```swift
    /// @MainActor func filtered(_ posts: LiveQuery<Post>) -> Bool { posts.predicate != .all }
    /// ```
    public private(set) var predicate: QueryPredicate

    /// The query's order, as made or last changed with ``change(where:sort:)``.
    ///
    /// ```swift
    /// @MainActor func sorted(_ posts: LiveQuery<Post>) -> Bool { !posts.sort.isEmpty }
    /// ```
    public private(set) var sort: [QuerySortDescriptor]

    /// Starts following a query: its first snapshot, read now, and the ones after it.
    @ObservationIgnored private let start: @MainActor (QueryPredicate, [QuerySortDescriptor]) -> Started
    typealias Started = (first: Result<QuerySnapshot<M>, DataStoreError>, later: QuerySnapshots<M>)

    /// Follows the snapshots after the first one; cancelled when the query is released or changed.
    private let following = Locked<Task<Void, Never>?>(nil)
    /// Counts the queries followed: a snapshot of a query changed since is not shown.
    @ObservationIgnored private var generation = 0

    /// Shows the first snapshot of `start(predicate, sort)` at once, then follows the others.
    init(predicate: QueryPredicate, sort: [QuerySortDescriptor], start: @escaping @MainActor (QueryPredicate, [QuerySortDescriptor]) -> Started) {
        self.predicate = predicate
        self.sort = sort
        self.start = start
        shownItems = []
        isSynced = false
        follow(start(predicate, sort))
    }

    /// Queries with another filter or order (`nil` keeps the current one), as a search field
    /// or a sort picker does: ``items`` holds the new query's results when this returns, and
    /// follows the new query from then on. The same query again changes nothing.
    ///
    /// ```swift
    /// @MainActor func search(_ posts: LiveQuery<Post>, for text: String) {
    ///     posts.change(where: text.isEmpty ? .all : Post.keys.title.contains(text))
    /// }
    /// ```
    public func change(where predicate: QueryPredicate? = nil, sort: [QuerySortDescriptor]? = nil) {
        let (predicate, sort) = (predicate ?? self.predicate, sort ?? self.sort)
        guard predicate != self.predicate || sort != self.sort else { return }
        self.predicate = predicate
        self.sort = sort
        follow(start(predicate, sort))
    }

    /// Shows `started`'s first snapshot and follows the later ones, instead of the query before.
    private func follow(_ started: Started) {
        following.withLock { $0 }?.cancel()
        generation += 1
        let generation = self.generation
        let shown: QuerySnapshot<M>
        switch started.first {
        case .success(let snapshot):
            shown = snapshot
            if snapshot.items != shownItems { withMutation(keyPath: \.items) { shownItems = snapshot.items } }
            if snapshot.isSynced != isSynced { isSynced = snapshot.isSynced }
            if error != nil { error = nil }
        case .failure(let failure):
            error = failure
            return
        }
        let later = started.later
        let task = Task.detached { [weak self] in
            var last = shown
            do {
                for try await snapshot in later {
                    // Compared here, off the main actor: an update that changes nothing costs
                    // the main actor nothing.
                    let itemsChanged = !snapshot.hasSameItems(as: last), syncChanged = snapshot.isSynced != last.isSynced
                    guard itemsChanged || syncChanged else { continue }
                    guard let self else { return }
                    await self.show(snapshot, items: itemsChanged, isSynced: syncChanged, of: generation)
                    last = snapshot
                }
            } catch is CancellationError {
                return
            } catch {
                await self?.stop(with: error, of: generation)
            }
        }
        following.withLock { $0 = task }
    }

    deinit {
        following.withLock { $0 }?.cancel()
    }

    /// Sets what changed, so that observers of the other property are not told; nothing when
    /// the snapshot is of a query changed since.
    private func show(_ snapshot: QuerySnapshot<M>, items itemsChanged: Bool, isSynced syncChanged: Bool, of generation: Int) {
        guard generation == self.generation else { return }
        if itemsChanged { withMutation(keyPath: \.items) { shownItems = snapshot.items } }
        if syncChanged { isSynced = snapshot.isSynced }
    }

    private func stop(with failure: any Error, of generation: Int) {
        guard generation == self.generation else { return }
        error = failure as? DataStoreError ?? .storage("\(failure)")
    }
}
