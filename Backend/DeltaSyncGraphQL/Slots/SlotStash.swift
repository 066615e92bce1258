import DeltaSyncCore
import GraphQL

/// The `$ctx.stash` keys of Amplify's generated pipelines that DeltaSync's generated data steps
/// honour, so a slot that sets them changes the generated read or write as it would on AppSync:
///
/// | Key | Effect |
/// |---|---|
/// | `transformedArgs` (map) | replaces `$ctx.args` for the data step |
/// | `defaultValues` (map) | a create's or update's `input` overlays it: values the input leaves out |
/// | `conditions` (list of condition maps) | ANDed with a mutation's `condition` |
/// | `authFilter` (filter map) | ANDed with a list, index or sync query's `filter`; a `get` whose item does not match it is `Unauthorized` |
/// | `deltaSyncTableTtl` (minutes) | a sync query's delta window instead of the server's |
///
/// A slot's change of `$ctx.args` reaches the data step as it is. Keys that only steer
/// Amplify's own generated templates (`hasAuth`, `metadata`, `QueryRequest`, ...) have no effect:
/// the generated steps here are not templates. `authFilter` and `conditions` can only narrow:
/// the caller's `@auth` rules apply whatever a slot stashes.
struct SlotStash: Sendable {
    let values: Item

    init(_ values: Item) { self.values = values }

    /// What a data step reads.
    enum Read {
        /// A `get`: one item by key.
        case item
        /// A list, index or sync query.
        case page
        /// A create, update or delete.
        case write
    }

    /// The data step's arguments: `transformedArgs` if a slot set it, else the context's; a
    /// write's `input` over `defaultValues` and its `condition` ANDed with `conditions`; a
    /// page's `filter` ANDed with `authFilter`.
    func arguments(_ arguments: Item, for read: Read) -> Item {
        var arguments = values["transformedArgs"]?.objectValue ?? arguments
        switch read {
        case .write:
            if let defaults = values["defaultValues"]?.objectValue, let input = arguments["input"]?.objectValue {
                arguments["input"] = .object(defaults.merging(input) { _, given in given })
            }
            if case .array(let conditions)? = values["conditions"], !conditions.isEmpty {
                arguments["condition"] = Self.conjoined(arguments["condition"], conditions)
            }
        case .page:
            if let authFilter { arguments["filter"] = Self.conjoined(arguments["filter"], [authFilter]) }
        case .item:
            break
        }
        return arguments
    }

    /// ``arguments(_:for:)`` as the generated resolvers read them.
    func argumentMap(_ arguments: Item, for read: Read) -> Map {
        JSONValue.object(self.arguments(arguments, for: read)).map
    }

    /// `authFilter`, when a slot set one.
    var authFilter: JSONValue? {
        guard let filter = values["authFilter"], case .object(let fields) = filter, !fields.isEmpty else { return nil }
        return filter
    }

    /// `deltaSyncTableTtl`, in milliseconds.
    var deltaTTLMilliseconds: Int? {
        switch values["deltaSyncTableTtl"] {
        case .int(let minutes)?: return minutes * 60_000
        case .double(let minutes)?: return Int(minutes * 60_000)
        case .string(let text)?: return Int(text).map { $0 * 60_000 }
        default: return nil
        }
    }

    private static func conjoined(_ given: JSONValue?, _ more: [JSONValue]) -> JSONValue {
        var all: [JSONValue] = []
        if let given, !given.isNull { all.append(given) }
        all += more.filter { !$0.isNull }
        return all.count == 1 ? all[0] : ["and": .array(all)]
    }
}
