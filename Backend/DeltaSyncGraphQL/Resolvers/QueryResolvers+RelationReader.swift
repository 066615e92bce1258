import DeltaSyncCore
import DeltaSyncSchema

/// Projection reads relations as the executor's relation fields do (``RelationFields``): the
/// same key lookup or scan, the same access checks.
extension QueryResolvers: RelationReader {
    func relatedItem(of parent: Item, through relation: Relation, access: RelatedAccess, reads: RelatedReads?) async throws -> Item? {
        try await object(from: parent, relation: relation, access: access, reads: reads)?.item
    }
}
