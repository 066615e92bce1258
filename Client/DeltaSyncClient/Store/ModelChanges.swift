import DeltaSyncCore

/// The changes of one model type (or one model), as ``DataStore/observe(_:)`` returns them.
/// Iterating ends when the store is released; stopping the iteration unsubscribes.
public struct ModelChanges<M: Model>: AsyncSequence, Sendable {
    public typealias Element = ModelChange<M>

    let changes: AsyncStream<StoredChange>
    let identifier: ModelIdentifier?
    let onError: @Sendable (DataStoreError) -> Void

    public struct AsyncIterator: AsyncIteratorProtocol {
        var changes: AsyncStream<StoredChange>.Iterator
        let identifier: ModelIdentifier?
        let onError: @Sendable (DataStoreError) -> Void

        public mutating func next() async -> ModelChange<M>? {
            while let change = await changes.next() {
                guard change.modelName == M.modelName else { continue }
                if let identifier, !identifier.fields.allSatisfy({ change.item[$0.name] == $0.value }) { continue }
                do {
                    return ModelChange(mutationType: change.mutationType, model: try M(item: change.item), isRemote: change.isRemote)
                } catch {
                    // One unreadable item must not end everyone's observation.
                    onError(error)
                }
            }
            return nil
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(changes: changes.makeAsyncIterator(), identifier: identifier, onError: onError)
    }
}
