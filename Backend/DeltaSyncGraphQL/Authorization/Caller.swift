import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

/// Who a request or a subscription runs for, with the schema's policy: what every resolver,
/// projection and event delivery asks before touching a model. Every request has one (a
/// ``Principal`` is required to make it); there is no open default.
///
/// It is the request's ``FieldAuthorization``: a field the caller may not read (its modes, its
/// own `@auth`, a Lambda authorizer's `deniedFields`, the embedder's field rule) is `null` with
/// AppSync's error.
///
/// ```swift
/// let caller = Caller(.identity(alice), policy: policy)
/// try caller.access(post, .get, field: "getPost", parentType: "Query").require(item)
/// ```
package struct Caller: FieldAuthorization {
    package let principal: Principal
    let policy: AuthorizationPolicy

    package init(_ principal: Principal, policy: AuthorizationPolicy) {
        self.principal = principal
        self.policy = policy
    }

    /// The authenticated caller; `nil` for ``Principal/trusted``.
    package var identity: Identity? { principal.identity }

    /// What the caller may do through the root field `field` of `parentType` (`Query`,
    /// `Mutation`, `Subscription`), which performs `operation` on `model`.
    func access(_ model: ModelSchema, _ operation: ModelOperation, field: String, parentType: String) -> RootAccess {
        guard let identity else { return RootAccess(access: .granted, field: field, parentType: parentType, caller: self) }
        let denied = identity.deniedFields.contains("\(parentType).\(field)")
        var access = RootAccess(
            access: denied ? .denied : policy.access(model, operation, for: identity), field: field, parentType: parentType,
            caller: self, owners: operation == .create ? policy.owners(of: model, for: identity) : [])
        if [.create, .update, .delete].contains(operation), model.fields.contains(where: { $0.authRules != nil }) {
            let policy = policy
            access.deniedWrites = { input, stored in
                policy.deniedWrites(of: model, operation, input: input, stored: stored, by: identity)
            }
        }
        return access
    }

    /// What the caller may read of `model` through a relation field (``RelatedAccess``).
    func related(_ model: ModelSchema, field: String, parentType: String) -> RelatedAccess {
        guard let identity else { return RelatedAccess(access: .granted, field: field, parentType: parentType) }
        return RelatedAccess(access: policy.relatedAccess(model, for: identity), field: field, parentType: parentType)
    }

    /// Whether the caller may read `item` of `model` at all (its `get` rules): what a failed
    /// mutation's error data and an update's or delete's result may show.
    func mayRead(_ item: Item, of model: ModelSchema) -> Bool {
        guard let identity else { return true }
        switch policy.access(model, .get, for: identity) {
        case .granted: return true
        case .restricted(let restriction): return restriction.admits(item)
        case .denied: return false
        }
    }

    /// Whether the caller may see the item a `create`, `update` or `delete` of theirs left:
    /// what they created, yes (it is what they sent); a stored item changed by an update or a
    /// delete, only if they may read it. Otherwise their result is withheld (`null`), and
    /// subscribers receive the event as ``server`` completes it.
    func mayReadResult(of operation: ModelOperation, _ item: Item, model: ModelSchema) -> Bool {
        operation == .create || mayRead(item, of: model)
    }

    /// The server itself under the same policy: what writes an event whose writer may not read
    /// it. Each subscriber's own projection then decides what of it they see.
    var server: Caller { Caller(.trusted, policy: policy) }

    /// Whether the caller may call the custom query or mutation `operation` (its modes).
    func admits(_ operation: CustomOperation) -> Bool {
        guard let identity else { return true }
        return policy.admits(operation, for: identity)
    }

    /// Throws AppSync's `Unauthorized` when `predicate` (a filter, a condition, a sort key
    /// condition) reads a field of `model` the caller may not read on every item `within`
    /// admits: comparing a hidden value page by page would reveal it.
    func requireReadable(_ predicate: QueryPredicate, of model: ModelSchema, within: ItemRestriction?) throws(AppSyncError) {
        guard let identity, predicate != .all else { return }
        if let field = policy.unreadableField(predicate.fieldNames, of: model, for: identity, within: within) {
            throw .fieldUnauthorized(field, on: model.name)
        }
    }

    /// ``requireReadable(_:of:within:)`` for a key condition on `keyFields` (a partition key
    /// argument, a sort key condition).
    func requireReadable(keyFields: [String], of model: ModelSchema, within: ItemRestriction?) throws(AppSyncError) {
        guard let identity else { return }
        if let field = policy.unreadableField(Set(keyFields), of: model, for: identity, within: within) {
            throw .fieldUnauthorized(field, on: model.name)
        }
    }

    package func denial(of field: String, on typeName: String, in item: Item) -> AppSyncError? {
        guard let identity else { return nil }
        guard policy.mayRead(field, on: typeName, in: item, by: identity) else { return .fieldUnauthorized(field, on: typeName) }
        return policy.fieldRule?.denial(of: field, on: typeName, in: item)
    }

    package func mayDeny(on typeName: String) -> Bool {
        guard let identity else { return false }
        return policy.mayDenyFields(on: typeName, to: identity) || policy.fieldRule?.mayDeny(on: typeName) == true
    }
}

/// A caller's access through one root field, and the error AppSync gives when it is refused:
/// `Not Authorized to access getTodo on type Query`.
struct RootAccess: Sendable {
    var access: ModelAccess
    var field: String
    var parentType: String
    /// Who is asking (for what a result or a conflict's error data may show).
    var caller: Caller
    /// For creates: the owner fields the caller's owner rules fill when the input leaves them out.
    var owners: [ItemRestriction.Condition] = []
    /// For writes to a model with field-level rules: the input's fields the caller may not
    /// write (given the input and, for updates and deletes, the stored item).
    var deniedWrites: (@Sendable (_ input: Item, _ stored: Item?) -> [String])?

    /// Throws AppSync's `Unauthorized on [title, owner]` when the input writes fields whose own
    /// rules do not let the caller.
    func requireFieldWrites(_ input: Item, stored: Item?) throws(AppSyncError) {
        guard let deniedWrites else { return }
        let denied = deniedWrites(input, stored)
        guard denied.isEmpty else {
            throw AppSyncError(.notAuthorized, "Unauthorized on [\(denied.joined(separator: ", "))]")
        }
    }

    /// Throws AppSyncError's `Unauthorized` for the first field of an update's or delete's
    /// `condition` the caller may not read on `stored`: whether the condition held would tell
    /// them its value. A caller who may not read the item at all may not condition on it.
    func requireReadable(_ condition: QueryPredicate, of stored: Item, model: ModelSchema) throws(AppSyncError) {
        guard condition != .all, caller.identity != nil else { return }
        guard caller.mayRead(stored, of: model) else { throw .fieldUnauthorized(field, on: parentType) }
        for name in condition.fieldNames.sorted() {
            if let denial = caller.denial(of: name, on: model.name, in: stored) { throw denial }
        }
    }

    var denial: AppSyncError { .fieldUnauthorized(field, on: parentType) }

    /// Throws the denial when nothing is allowed.
    func require() throws(AppSyncError) {
        if case .denied = access { throw denial }
    }

    /// The items dynamic rules limit the caller to; `nil` when every item is allowed.
    var restriction: ItemRestriction? {
        if case .restricted(let restriction) = access { return restriction }
        return nil
    }

    /// A list, index or sync query's own filter, checked to read only fields the caller may
    /// read, narrowed to the caller's items.
    func narrowing(_ filter: QueryPredicate, of model: ModelSchema) throws(AppSyncError) -> QueryPredicate {
        try caller.requireReadable(filter, of: model, within: restriction)
        guard let restriction else { return filter }
        return filter.conjoined(with: restriction.predicate)
    }

    /// How a read of the base table keeps to the caller's items: one owner field is a
    /// condition of the read itself (served by the field's index, not counted against the
    /// page's limit); anything else narrows the filter. The filter may read only fields the
    /// caller may read.
    func reading(_ filter: QueryPredicate, of model: ModelSchema) throws(AppSyncError) -> (filter: QueryPredicate, within: FieldValues?) {
        try ItemRestriction.reading(filter, of: model, restriction: restriction, caller: caller)
    }

    /// Throws the denial unless `item` is one the caller may touch.
    func require(_ item: Item) throws(AppSyncError) {
        try require()
        if let restriction, !restriction.admits(item) { throw denial }
    }

    /// A create's item with the owner fields the caller's rules fill when the input leaves them
    /// out, checked against those rules: the owner given must be the caller (any of their claim
    /// forms), and a dynamic groups field must hold one of the caller's groups.
    func creating(_ item: Item) throws(AppSyncError) -> Item {
        try require()
        var item = item
        for condition in owners where item[condition.field] == nil || item[condition.field]?.isNull == true {
            guard let owner = condition.ownerValue else { continue }
            item[condition.field] = condition.isList ? .array([.string(owner)]) : .string(owner)
        }
        if let restriction, !restriction.admits(item) { throw denial }
        return item
    }
}

/// What a caller may read through a relation field (`Board.cards`, `Entry.diary`): the related
/// model's read rules (``AuthorizationPolicy/relatedAccess(_:for:)``). Refused, the field is
/// `null` with `Not Authorized to access cards on type Board`.
struct RelatedAccess: Sendable {
    var access: ModelAccess
    /// The relation field and the type that holds it, for the error.
    var field: String
    var parentType: String

    var denial: AppSyncError { .fieldUnauthorized(field, on: parentType) }

    var restriction: ItemRestriction? {
        if case .restricted(let restriction) = access { return restriction }
        return nil
    }

    /// Throws the denial when the caller may read no related item.
    func require() throws(AppSyncError) {
        if case .denied = access { throw denial }
    }

    /// Throws the denial unless the caller may read `item`: a related object they may not
    /// read is `null` with the error, as Amplify's resolver answers an item its filter drops.
    func require(_ item: Item) throws(AppSyncError) {
        try require()
        if let restriction, !restriction.admits(item) { throw denial }
    }

    /// Whether the caller may read `item`, for related objects an event carries.
    func admits(_ item: Item) -> Bool {
        switch access {
        case .granted: return true
        case .restricted(let restriction): return restriction.admits(item)
        case .denied: return false
        }
    }
}

extension ItemRestriction {
    /// A read of `model`'s items narrowed to those `restriction` admits: one owner field is a
    /// condition of the read itself (``FieldValues``), anything else joins the filter. The
    /// filter may read only fields `caller` may read on those items.
    static func reading(
        _ filter: QueryPredicate, of model: ModelSchema, restriction: ItemRestriction?, caller: Caller
    ) throws(AppSyncError) -> (filter: QueryPredicate, within: FieldValues?) {
        try caller.requireReadable(filter, of: model, within: restriction)
        guard let restriction else { return (filter, nil) }
        guard restriction.conditions.count == 1, let only = restriction.conditions.first, !only.isList, only.ownerValue != nil else {
            return (filter.conjoined(with: restriction.predicate), nil)
        }
        return (filter, FieldValues(field: only.field, values: only.values.map(JSONValue.string)))
    }
}
