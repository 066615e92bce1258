import DeltaSyncCore
import GraphQL

/// A GraphQL request as clients send it: `{"query", "variables", "operationName"}`.
public struct OperationRequest: Sendable, Equatable {
    public var query: String
    public var variables: [String: JSONValue]
    public var operationName: String?

    public init(query: String, variables: [String: JSONValue] = [:], operationName: String? = nil) {
        self.query = query
        self.variables = variables
        self.operationName = operationName
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
