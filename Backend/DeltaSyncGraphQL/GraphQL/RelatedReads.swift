import DeltaSyncCore
import DeltaSyncSchema
import NIOConcurrencyHelpers

/// The related items one query's relation fields read by key, each read once: a thousand posts
/// of one blog ask for the same blog a thousand times, and each read is a hop to the store's
/// reader. Kept for queries only (``RequestScope/relatedReads``): a mutation's later field may
/// read what an earlier one wrote.
///
/// What is kept is the stored item before any rule: every field still asks its caller's rules
/// about what it is handed.
///
/// ```swift
/// let blog = try await reads.item(blogModel, key: ["id": .string("b1")]) {
///     try await store.get(blogModel, key: ["id": .string("b1")])
/// }
/// ```
final class RelatedReads: Sendable {
    private struct Key: Hashable {
        let model: String
        let key: Item
    }

    /// Reads under way or done. Fields that ask at once share the first one's read.
    private let reads = NIOLockedValueBox<[Key: Task<Item?, any Error>]>([:])

    /// The item of `model` at `key`: what `read` returned the first time it was asked for
    /// in this request. A read that threw is not kept; the next field reads again.
    func item(_ model: ModelSchema, key: Item, read: @escaping @Sendable () async throws -> Item?) async throws -> Item? {
        let key = Key(model: model.name, key: key)
        let task = reads.withLockedValue { reads in
            if let task = reads[key] { return task }
            let task = Task { try await read() }
            reads[key] = task
            return task
        }
        do {
            return try await task.value
        } catch {
            reads.withLockedValue { reads in
                if reads[key] == task { reads[key] = nil }
            }
            throw error
        }
    }
}
