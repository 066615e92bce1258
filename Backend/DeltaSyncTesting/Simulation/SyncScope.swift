import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncSchema
import NIOConcurrencyHelpers

/// What a simulated device syncs: a predicate per model, as an app's sync expressions (Amplify's
/// selective sync) say, changed while the app runs as apps change them.
///
/// The device's ``DataStoreConfiguration/syncExpressions`` read it each time sync starts, as
/// Amplify evaluates a sync expression's closure, so a change takes effect when sync starts again.
///
/// ```swift
/// // let scope = try SyncScope(["Todo": ["list": ["eq": "kitchen"]]], schema: schema)
/// // scope.predicate(for: "Todo").matches(["id": "t1", "list": "kitchen"])  // true
/// ```
public final class SyncScope: Sendable {
    private let schema: AmplifySchema
    private let current: NIOLockedValueBox<[String: QueryPredicate]>
    private let written: NIOLockedValueBox<[String: JSONValue]>

    /// `filters` by model name, each a filter as the sync query takes it.
    ///
    /// - Throws: ``SimulationError`` for a model the schema lacks or a filter that does not parse.
    public init(_ filters: [String: JSONValue], schema: AmplifySchema) throws {
        self.schema = schema
        current = NIOLockedValueBox(try Self.predicates(filters, schema: schema))
        written = NIOLockedValueBox(filters)
    }

    /// The sync expressions a device's configuration carries: one per model of the schema,
    /// reading the scope as it is when sync starts.
    var expressions: [SyncExpression] {
        schema.models.map { model in
            SyncExpression(modelName: model.name) { [current] in current.withLockedValue { $0[model.name] ?? .all } }
        }
    }

    /// Which items of `modelName` the device syncs now.
    public func predicate(for modelName: String) -> QueryPredicate {
        current.withLockedValue { $0[modelName] ?? .all }
    }

    /// The filters, as written: empty when the device syncs everything.
    public var filters: [String: JSONValue] { written.withLockedValue { $0 } }

    /// Replaces every model's filter (a model `filters` does not name syncs everything).
    public func change(to filters: [String: JSONValue]) throws {
        let predicates = try Self.predicates(filters, schema: schema)
        current.withLockedValue { $0 = predicates }
        written.withLockedValue { $0 = filters }
    }

    private static func predicates(_ filters: [String: JSONValue], schema: AmplifySchema) throws -> [String: QueryPredicate] {
        var predicates: [String: QueryPredicate] = [:]
        for (name, filter) in filters {
            guard schema.model(named: name) != nil else {
                throw SimulationError("A sync expression names \(name), which is not a model of the schema. Models: \(schema.models.map(\.name).joined(separator: ", ")).")
            }
            do {
                predicates[name] = try QueryPredicate(filter: filter)
            } catch {
                throw SimulationError("\(name)'s sync expression is not a filter: \(error)")
            }
        }
        return predicates
    }
}
