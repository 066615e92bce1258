import DeltaSyncCore
import GraphQL

/// A GraphQL request as clients send it: `{"query", "variables", "operationName"}`.
public struct OperationRequest: Sendable, Equatable {
    public var query: String
    public var variables: [String: JSONValue]
    public var operationName: String?
    /// The HTTP request's headers, names lower-cased (for a realtime `start`, the connection's):
    /// what resolvers see as `$ctx.request.headers`, and `@http` fields copy.
    public var headers: [String: String]
    /// The caller's address, for `$ctx.identity.sourceIp`; `nil` when unknown.
    public var sourceIP: String?

    public init(
        query: String, variables: [String: JSONValue] = [:], operationName: String? = nil, headers: [String: String] = [:],
        sourceIP: String? = nil
    ) {
        self.query = query
        self.variables = variables
        self.operationName = operationName
        self.headers = headers
        self.sourceIP = sourceIP
    }

    /// Reads a request body. AppSync answers 400 for a body that is empty, not JSON, or has no
    /// `query` string, so those are distinguished here.
    public init(body: JSONValue) throws(AppSyncError) {
        guard let query = body["query"].stringValue else {
            throw AppSyncError(.malformedHttpRequest, "Unable to parse GraphQL query.")
        }
        let variables: [String: JSONValue]
        switch body["variables"] {
        case .null: variables = [:]
        case .object(let object): variables = object
        // Some clients send variables as JSON text.
        case .string(let text):
            guard let object = (try? JSONValue(parsing: text))?.objectValue else {
                throw AppSyncError(.malformedHttpRequest, "Unable to parse GraphQL query.")
            }
            variables = object
        default:
            throw AppSyncError(.malformedHttpRequest, "Unable to parse GraphQL query.")
        }
        self.init(query: query, variables: variables, operationName: body["operationName"].stringValue)
    }
}
