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
///
/// APPSYNC_JS code (an ES module exporting `request(ctx)` and `response(ctx)`) resolves a field
/// over a data source, or wraps a pipeline whose functions may be JavaScript or templates. Its
/// `TemplateText` name is the file errors name; the code is checked when the server starts:
///
/// ```swift
/// let code = TemplateText(name: "resolvers/getPost.js", text: """
///     import * as ddb from '@aws-appsync/utils/dynamodb';
///     export function request(ctx) { return ddb.get({ key: { id: ctx.args.id } }); }
///     export function response(ctx) { return ctx.result; }
///     """)
/// let getPost = ResolverDefinition(type: "Query", field: "getPost", kind: .jsUnit(dataSource: "PostTable", code: code))
/// let audit = FunctionDefinition(name: "audit", dataSource: "NONE", code: TemplateText(name: "audit.js", text: auditCode))
/// let listPosts = ResolverDefinition(type: "Query", field: "listPosts", kind: .jsPipeline(code: wrapper, functions: [audit, scan]))
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
        /// APPSYNC_JS code over a data source: its `request(ctx)` returns the data source's
        /// request, its `response(ctx)` the field's value.
        case jsUnit(dataSource: String, code: TemplateText)
        /// APPSYNC_JS code around functions run in order: its `request(ctx)` runs before them
        /// (its value is the first `ctx.prev.result`), its `response(ctx)` after them.
        case jsPipeline(code: TemplateText, functions: [FunctionDefinition])
    }

    public init(type: String, field: String, kind: Kind) {
        self.type = type
        self.field = field
        self.kind = kind
    }
}

/// A pipeline function (`AWS::AppSync::FunctionConfiguration`): templates over a data source,
/// always of version 2018-05-29, or APPSYNC_JS ``code``.
public struct FunctionDefinition: Sendable {
    public var name: String
    public var dataSource: String
    public var request: String
    public var response: String?
    /// APPSYNC_JS code (`request(ctx)` and `response(ctx)` around the data source); when set,
    /// ``request`` and ``response`` are not read.
    public var code: TemplateText?

    public init(name: String, dataSource: String, request: String, response: String?) {
        self.name = name
        self.dataSource = dataSource
        self.request = request
        self.response = response
    }

    /// An APPSYNC_JS function.
    public init(name: String, dataSource: String, code: TemplateText) {
        self.init(name: name, dataSource: dataSource, request: "", response: nil)
        self.code = code
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
