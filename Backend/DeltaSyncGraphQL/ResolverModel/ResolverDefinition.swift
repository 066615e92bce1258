import DeltaSyncCore

/// A resolver of the project's, as AppSync's API describes one (`AWS::AppSync::Resolver`):
/// the field it resolves, and either templates over one data source (a unit resolver) or a
/// before template, functions and an after template (a pipeline resolver). Templates are
/// parsed when the server starts, so a broken one stops the start with its name, line and
/// column instead of failing requests.
///
/// ```swift
/// let getPost = ResolverDefinition(
///     type: "Query", field: "getPost",
///     kind: .unit(dataSource: "PostTable",
///                 request: #"{"version": "2018-05-29", "operation": "GetItem", "key": {"id": $util.dynamodb.toDynamoDBJson($ctx.args.id)}}"#,
///                 response: "$util.toJson($ctx.result)"))
/// configuration.resolvers = [getPost]
/// configuration.dataSources = [DataSourceDefinition(name: "PostTable", kind: .dynamoDB(table: "Post"))]
/// ```
public struct ResolverDefinition: Sendable {
    public var type: String
    public var field: String
    public var kind: Kind

    public enum Kind: Sendable {
        /// Request and response templates over a data source; a `nil` response template passes
        /// the data source's result on.
        case unit(dataSource: String, request: String, response: String?)
        /// Before and after templates around functions, run in order.
        case pipeline(before: String?, functions: [FunctionDefinition], after: String?)
    }

    public init(type: String, field: String, kind: Kind) {
        self.type = type
        self.field = field
        self.kind = kind
    }
}

/// A pipeline function (`AWS::AppSync::FunctionConfiguration`): templates over a data source,
/// always of version 2018-05-29.
public struct FunctionDefinition: Sendable {
    public var name: String
    public var dataSource: String
    public var request: String
    public var response: String?

    public init(name: String, dataSource: String, request: String, response: String?) {
        self.name = name
        self.dataSource = dataSource
        self.request = request
        self.response = response
    }
}

/// A data source resolvers name (`AWS::AppSync::DataSource`).
public struct DataSourceDefinition: Sendable {
    public var name: String
    public var kind: Kind

    public enum Kind: Sendable {
        /// `NONE`: the request's `payload` is the result.
        case none
        /// A function of the server's catalog (`functions.json`, `--function`, the project's).
        case lambda(function: String)
        /// A model's table in the server's store, reached with DynamoDB's requests.
        case dynamoDB(table: String)
        /// An HTTP endpoint (`https://api.example.com`); requests name a path under it.
        case http(endpoint: String)
        /// A data source DeltaSync does not run (an OpenSearch domain, a relational database),
        /// with why: every call answers `UnsupportedOperation` with that reason, so a field
        /// that uses it fails visibly instead of being dropped.
        case unsupported(String)
    }

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// The data source every API has: `NONE`.
    public static let none = DataSourceDefinition(name: "NONE", kind: .none)
}
