import DeltaSyncAuth
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

/// The authenticated caller of one request or one subscription, with the schema's policy:
/// what every resolver, projection and event delivery asks before touching a model.
///
/// It is the request's ``FieldAuthorization``: a field the caller may not read (its modes, its
/// own `@auth`, a Lambda authorizer's `deniedFields`) is `null` with AppSync's error.
package struct Caller: FieldAuthorization {
    package let identity: Identity
    let policy: AuthorizationPolicy

    package init(identity: Identity, policy: AuthorizationPolicy) {
        self.identity = identity
        self.policy = policy
    }

    /// What the caller may do through the root field `field` of `parentType` (`Query`,
    /// `Mutation`, `Subscription`), which performs `operation` on `model`.
    func access(_ model: ModelSchema, _ operation: ModelOperation, field: String, parentType: String) -> RootAccess {
        let denied = identity.deniedFields.contains("\(parentType).\(field)")
        var access = RootAccess(
            access: denied ? .denied : policy.access(model, operation, for: identity), field: field, parentType: parentType,
            owners: operation == .create ? policy.owners(of: model, for: identity) : [])
        access.caller = self
        if [.create, .update, .delete].contains(operation), model.fields.contains(where: { $0.authRules != nil }) {
            let policy = policy, identity = identity
            access.deniedWrites = { input, stored in
                policy.deniedWrites(of: model, operation, input: input, stored: stored, by: identity)
            }
        }
        return access
    }

    package func denial(of field: String, on typeName: String, in item: Item) -> AppSyncError? {
        policy.mayRead(field, on: typeName, in: item, by: identity) ? nil : .fieldUnauthorized(field, on: typeName)
    }

    package func mayDeny(on typeName: String) -> Bool {
        policy.mayDenyFields(on: typeName, to: identity)
    }
}

/// A caller's access through one root field, and the error AppSync gives when it is refused:
/// `Not Authorized to access getTodo on type Query`.
struct RootAccess: Sendable {
    var access: ModelAccess
    var field: String
    var parentType: String
    /// For creates: the owner fields the caller's owner rules fill when the input leaves them out.
    var owners: [ItemRestriction.Condition] = []
    /// Who is asking (for what a conflict's error data may show); `nil` without rules.
    var caller: Caller?
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

    /// No rules: what a request without a ``Caller`` gets (tests of the executor alone).
    static func open(field: String = "", parentType: String = "") -> RootAccess {
        RootAccess(access: .granted, field: field, parentType: parentType)
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

    /// A list, index or sync query's own filter narrowed to the caller's items.
    func narrowing(_ filter: QueryPredicate) -> QueryPredicate {
        guard let restriction else { return filter }
        return filter.conjoined(with: restriction.predicate)
    }

    /// How a read of the base table keeps to the caller's items: one owner field is a
    /// condition of the read itself (served by the field's index, not counted against the
    /// page's limit); anything else narrows the filter.
    func reading(_ filter: QueryPredicate) -> (filter: QueryPredicate, within: FieldValues?) {
        guard let restriction, restriction.conditions.count == 1, let only = restriction.conditions.first, !only.isList,
            only.ownerValue != nil
        else { return (narrowing(filter), nil) }
        return (filter, FieldValues(field: only.field, values: only.values.map(JSONValue.string)))
    }

    /// Throws the denial unless `item` is one the caller may touch.
    func require(_ item: Item) throws(AppSyncError) {
        try require()
        if let restriction, !restriction.admits(item) { throw denial }
    }

    /// A create's item with the owner fields the caller's rules fill when the input leaves them
    /// out, checked against those rules: the owner given must be the caller (any of their claim
    /// forms), and a dynamic groups field must hold one of the caller's groups.
    func creating(_ item: Item, owners: [ItemRestriction.Condition]) throws(AppSyncError) -> Item {
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
