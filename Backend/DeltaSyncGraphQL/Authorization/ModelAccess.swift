import DeltaSyncCore

/// What a caller may do with one operation on a model, as Amplify's generated resolvers decide
/// it: everything (a static grant: `public`, `private`, a static group, `custom`), only items a
/// dynamic rule admits (owner and dynamic group rules), or nothing.
enum ModelAccess: Sendable {
    case granted
    case restricted(ItemRestriction)
    case denied
}

/// The items dynamic rules admit a caller to: those whose owner field holds one of the
/// caller's owner values, or whose groups field holds one of the caller's groups.
package struct ItemRestriction: Sendable {
    /// One owner or dynamic group rule that applies to the caller.
    struct Condition: Sendable {
        var field: String
        /// The caller's values: owner claims (composite, `sub`, `username`) or groups.
        var values: [String]
        /// Whether the field holds a list (owner lists, group lists).
        var isList: Bool
        /// The value a create stores when the input leaves the field out; `nil` for groups.
        var ownerValue: String?
    }

    var conditions: [Condition]

    /// Whether `item` is the caller's by any condition.
    package func admits(_ item: Item) -> Bool {
        conditions.contains { condition in
            switch item[condition.field] {
            case .string(let stored)?: return condition.values.contains(stored)
            case .array(let stored)?: return stored.contains { $0.stringValue.map(condition.values.contains) == true }
            default: return false
            }
        }
    }

    /// Whether every item this admits, `other` admits too: each of these conditions is one of
    /// `other`'s (same field, and values `other` also names).
    func isNarrower(than other: ItemRestriction) -> Bool {
        conditions.allSatisfy { condition in
            other.conditions.contains { $0.field == condition.field && Set(condition.values).isSubset(of: $0.values) }
        }
    }

    /// The same test as a filter, AND-ed with a list, index or sync query's own.
    var predicate: QueryPredicate {
        .or(conditions.flatMap { condition -> [QueryPredicate] in
            if condition.isList {
                return condition.values.map { .field(condition.field, .contains(.string($0))) }
            }
            return [.field(condition.field, .in(condition.values.map(JSONValue.string)))]
        })
    }
}
