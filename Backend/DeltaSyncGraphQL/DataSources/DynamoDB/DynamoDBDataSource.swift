import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

/// AppSync's DynamoDB data source over DeltaSync's own store (SQLite or PostgreSQL): the
/// request objects DynamoDB resolvers send (`GetItem`, `PutItem`, `UpdateItem`, `DeleteItem`,
/// `Query`, `Scan`, `Sync`, the batch and transaction operations), each on a model's table.
///
/// Writes go through the same versioned commit as the generated resolvers: every write bumps
/// `_version`, stamps `_lastChangedAt` and appends to the delta log in one transaction, and a
/// delete leaves a tombstone, so a DataStore client cannot tell a template's write from a
/// generated one. On a versioned API a write that names a stale `_version` meets the model's
/// conflict handler; on an API without conflict detection tombstones stay hidden.
///
/// ```swift
/// let posts = try DynamoDBDataSource(name: "PostTable", table: "Post", environment: environment)
/// let item = try await posts.invoke(
///     ["version": "2018-05-29", "operation": "GetItem", "key": ["id": ["S": "p1"]]], context: context)
/// ```
struct DynamoDBDataSource: DataSource {
    let name: String
    /// The table a request without a table of its own reads and writes.
    let table: DynamoDBTable
    let environment: ResolverEnvironment

    /// - Parameter table: a model's name (`Post`), or Amplify's table name for it
    ///   (`Post-<apiId>-<env>`).
    /// - Throws: ``AppSyncError`` (`BadRequest`) for a table no model of the schema stores.
    init(name: String, table: String, environment: ResolverEnvironment) throws(AppSyncError) {
        guard let bound = DynamoDBTable(named: table, schema: environment.schema) else {
            let models = environment.schema.models.map(\.name).joined(separator: ", ")
            throw AppSyncError(.badRequest, "The data source \(name) names the table \(table), which no model stores (models: \(models)).")
        }
        self.name = name
        self.table = bound
        self.environment = environment
    }

    func invoke(_ request: JSONValue, context: ResolverContext) async throws(DataSourceFailure) -> JSONValue {
        let operation = request["operation"].stringValue ?? ""
        do {
            switch operation {
            case "GetItem": return try await getItem(request)
            case "PutItem", "UpdateItem", "DeleteItem": return try await write(operation, request, context: context)
            case "Query": return try await query(request)
            case "Scan": return try await scan(request)
            case "Sync": return try await sync(request)
            case "BatchGetItem": return try await batchGet(request)
            case "BatchPutItem", "BatchDeleteItem": return try await batchWrite(operation, request)
            case "TransactGetItems": return try await transactGet(request)
            case "TransactWriteItems": return try await transactWrite(request)
            default:
                throw DataSourceFailure.validation(
                    "Unsupported operation '\(operation)': a DynamoDB request's operation is GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan, Sync, BatchGetItem, BatchPutItem, BatchDeleteItem, TransactGetItems or TransactWriteItems.")
            }
        } catch let failure as DataSourceFailure {
            throw failure
        } catch let error as AppSyncError {
            throw DataSourceFailure(type: error.errorType.rawValue, message: error.message, data: error.data)
        } catch {
            throw DataSourceFailure(type: "DynamoDB:InternalServerError", message: "The store failed: \(error)")
        }
    }

    /// The table a batch or transaction entry names.
    func table(named name: String) throws(DataSourceFailure) -> DynamoDBTable {
        guard let found = DynamoDBTable(named: name, schema: environment.schema) else {
            throw DataSourceFailure(type: "DynamoDB:ResourceNotFoundException", message: "Requested resource not found: Table: \(name) not found")
        }
        return found
    }
}
