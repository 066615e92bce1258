/// A field the schema declares itself on `type Query` or `type Mutation`, next to the ones
/// `@model` generates, with the Lambda functions that resolve it:
///
/// ```graphql
/// type Query {
///   echo(msg: String!): EchoResult @function(name: "echo-${env}")
/// }
/// ```
///
/// Several `@function`s on one field make a pipeline: each gets the previous one's result, the
/// last one's is the field's value.
public struct CustomOperation: Sendable, Equatable {
    public enum Parent: String, Sendable, Equatable {
        case query = "Query"
        case mutation = "Mutation"
    }

    /// One `@function(name:invocationType:)`.
    public struct FunctionCall: Sendable, Equatable {
        /// As written, `${env}` included.
        public var name: String
        /// `invocationType: Event`: called without waiting; the field answers `{success: true}`.
        public var isEvent: Bool

        public init(name: String, isEvent: Bool = false) {
            self.name = name
            self.isEvent = isEvent
        }
    }

    public var parent: Parent
    public var name: String
    public var arguments: [TypedName]
    /// The GraphQL type as written (`EchoResult`, `[String]!`).
    public var returnType: String
    /// In the order written; empty when nothing resolves the field.
    public var functions: [FunctionCall]
    /// `@http(url:method:headers:)`: the field calls a REST endpoint. ``arguments`` are then
    /// the ones Amplify generates (`params`, `query`, `body`), not the ones written.
    public var http: HTTPCall?
    /// The modes the schema's `@aws_api_key`, `@aws_cognito_user_pools`, ... directives admit on
    /// the field (else on its `Query`/`Mutation` type), in the order written; `nil` when none,
    /// and then only the API's default mode may call it, as on AppSync.
    public var modeDirectives: [AuthMode]?

    public init(
        parent: Parent, name: String, arguments: [TypedName], returnType: String, functions: [FunctionCall], http: HTTPCall? = nil,
        modeDirectives: [AuthMode]? = nil
    ) {
        self.modeDirectives = modeDirectives
        self.parent = parent
        self.name = name
        self.arguments = arguments
        self.returnType = returnType
        self.functions = functions
        self.http = http
    }
}

/// A field of a model or non-model type resolved by Lambda functions rather than read from
/// the stored item:
///
/// ```graphql
/// type Post @model {
///   id: ID!
///   wordCount: Int @function(name: "countWords-${env}")
/// }
/// ```
///
/// The function gets the parent item as `source`.
public struct FunctionField: Sendable, Equatable {
    /// The type declaring the field (`Post`).
    public var typeName: String
    public var fieldName: String
    /// In the order written: a pipeline, as on ``CustomOperation``.
    public var functions: [CustomOperation.FunctionCall]

    public init(typeName: String, fieldName: String, functions: [CustomOperation.FunctionCall]) {
        self.typeName = typeName
        self.fieldName = fieldName
        self.functions = functions
    }
}

/// `@http(method:url:headers:)` on a custom field: AppSync's HTTP data source.
///
/// ```graphql
/// type Query {
///   user(id: ID!, verbose: Boolean): User @http(url: "https://api.example.com/users/:id")
/// }
/// ```
///
/// Amplify replaces the written arguments: `:id` path segments become
/// `params: QueryUserParamsInput!`, the other scalar arguments `query: QueryUserQueryInput`,
/// and for POST, PUT and PATCH also `body: QueryUserBodyInput`.
public struct HTTPCall: Sendable, Equatable {
    public enum Method: String, Sendable, Equatable, CaseIterable {
        case GET, POST, PUT, DELETE, PATCH

        /// POST, PUT and PATCH send a JSON body.
        public var hasBody: Bool { self == .POST || self == .PUT || self == .PATCH }
    }

    public var method: Method
    /// As written, `${env}`, `${aws_region}` and `:param` segments included.
    public var url: String
    /// The directive's static headers, in order; they override the copied client headers.
    public var headers: [Header]
    /// The `:name` path segments, in order.
    public var pathParameters: [String]
    /// The arguments written as non-null that went into `query`/`body`: for body methods, one
    /// present in neither is an error.
    public var requiredArguments: [String]

    public struct Header: Sendable, Equatable {
        public var key: String
        public var value: String

        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }

    public init(method: Method, url: String, headers: [Header], pathParameters: [String], requiredArguments: [String]) {
        self.method = method
        self.url = url
        self.headers = headers
        self.pathParameters = pathParameters
        self.requiredArguments = requiredArguments
    }
}

/// A name with a GraphQL type as written: an argument, or a field of an input type.
public struct TypedName: Sendable, Equatable {
    public var name: String
    /// `ID`, `[String]`, `PostStatus!`; with ` = default` when one is declared.
    public var type: String

    public init(name: String, type: String) {
        self.name = name
        self.type = type
    }
}

/// An `input` type the schema declares for its custom operations' arguments.
public struct InputType: Sendable, Equatable {
    public var name: String
    public var fields: [TypedName]

    public init(name: String, fields: [TypedName]) {
        self.name = name
        self.fields = fields
    }
}
