import DeltaSyncCore
import DeltaSyncLocalStore
import GRDB

/// Where sync announces what it does: ``DataStore/events``, in the order things happen.
struct SyncEvents: Sendable {
    let bus: Broadcast<DataStoreEvent>
    let schema: AmplifySchema

    func publish(_ event: DataStoreEvent) {
        bus.publish(event)
    }

    /// Whether anyone is listening: building events nobody reads can be skipped.
    var hasSubscribers: Bool { bus.hasSubscribers }

    /// Announces whether the outbox is empty once the transaction commits: in commit order
    /// with the changes that fill it, so a status never describes an older state than the
    /// events before it.
    func publishOutboxStatus(after db: Database) throws {
        let isEmpty = try Outbox.isEmpty(db)
        let bus = bus
        db.afterNextTransaction { _ in bus.publish(.outboxStatus(isEmpty: isEmpty)) }
    }

    /// A transaction committed, on the writer: remote changes are `syncReceived`, local ones
    /// `outboxMutationEnqueued` followed by a non-empty outbox.
    ///
    /// - Returns: whether the transaction recorded local changes (the outbox has work).
    func committed(_ changes: [StoredChange]) -> Bool {
        var local = false
        for change in changes {
            if change.isRemote {
                if bus.hasSubscribers { bus.publish(.syncReceived(mutationEvent(change))) }
            } else {
                local = true
                if bus.hasSubscribers { bus.publish(.outboxMutationEnqueued(mutationEvent(change))) }
            }
        }
        if local { bus.publish(.outboxStatus(isEmpty: false)) }
        return local
    }

    private func mutationEvent(_ change: StoredChange) -> MutationEvent {
        let modelID = schema.model(named: change.modelName).map { ModelIdentifier(of: change.item, in: $0).description } ?? ""
        return MutationEvent(modelName: change.modelName, modelID: modelID, mutationType: change.mutationType, item: change.item)
    }
}
