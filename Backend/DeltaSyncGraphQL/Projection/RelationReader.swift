import DeltaSyncCore
import DeltaSyncSchema

/// The one read projection makes beyond the items it is given: the related item of a
/// `@belongsTo` or `@hasOne` field. ``QueryResolvers`` implement it; projection depends on this
/// read alone, not on the resolvers, which themselves write their pages through projection
/// (``ItemProjection/ItemArrayWriter``).
protocol RelationReader: Sendable {
    /// The item `relation` names from `parent`; `nil` when there is none (a foreign key that is
    /// null, or names no item).
    ///
    /// In a query, `reads` reads each key once for the whole request (``RelatedReads``).
    ///
    /// - Throws: `access`'s denial when the caller may not read the field or the item found, or
    ///   the store's failure.
    func relatedItem(of parent: Item, through relation: Relation, access: RelatedAccess, reads: RelatedReads?) async throws -> Item?
}
