import DeltaSyncCore

/// The changes of one model type (or one model), as ``DataStore/observe(_:)`` returns them.
/// Iterating ends when the store is released; stopping the iteration unsubscribes.
public struct ModelChanges<M: Model>: AsyncSequence, Sendable {
    /// One change of a model.
    public typealias Element = ModelChange<M>

    let updates: AsyncStream<StoreUpdate>
    let identifier: ModelIdentifier?
    let onError: @Sendable (DataStoreError) -> Void

    /// Iterates changes in commit order.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var updates: AsyncStream<StoreUpdate>.Iterator
        let identifier: ModelIdentifier?
        let onError: @Sendable (DataStoreError) -> Void
        /// The rest of the last committed transaction's changes.
        var pending: ArraySlice<StoredChange> = []

        /// The next change; `nil` when the store is released or the iteration is cancelled. An item that does not decode is given to the error handler and skipped.
        public mutating func next() async -> ModelChange<M>? {
            while true {
                while let change = pending.popFirst() {
                    guard change.modelName == M.modelName else { continue }
                    if let identifier, !identifier.fields.allSatisfy({ change.item[$0.name] == $0.value }) { continue }
                    do {
                        return ModelChange(mutationType: change.mutationType, model: try M(item: change.item), isRemote: change.isRemote)
                    } catch {
                        // One unreadable item must not end everyone's observation.
                        onError(error)
                    }
                }
                guard let update = await updates.next() else { return nil }
                if case .committed(let changes) = update { pending = changes[...] }
            }
        }
    }

    /// An iterator over the changes from now on.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(updates: updates.makeAsyncIterator(), identifier: identifier, onError: onError)
    }
}
