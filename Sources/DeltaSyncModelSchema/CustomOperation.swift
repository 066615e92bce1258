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

    public init(parent: Parent, name: String, arguments: [TypedName], returnType: String, functions: [FunctionCall]) {
        self.parent = parent
        self.name = name
        self.arguments = arguments
        self.returnType = returnType
        self.functions = functions
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
