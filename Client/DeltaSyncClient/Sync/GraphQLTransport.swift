import DeltaSyncCore

/// Sends one GraphQL operation to the backend: what sync needs of the network for queries and
/// mutations. ``GraphQLClient`` sends them over HTTP with an API key, as AppSync takes them.
package protocol GraphQLTransport: Sendable {
    /// Sends `document` with `variables` and returns the answer.
    ///
    /// - Throws: ``DataStoreError/network(_:)`` when the backend cannot be reached or does not
    ///   answer with GraphQL JSON. GraphQL errors are part of the response, not thrown.
    func execute(_ document: String, variables: Item, authorization: SyncAuthorization?) async throws(DataStoreError)
        -> GraphQLResponse

    /// ``execute(_:variables:authorization:)`` answering with the JSON text the backend sent,
    /// not parsed yet: a sync page is stored from its text (``SyncPage``).
    func executeText(_ document: String, variables: Item, authorization: SyncAuthorization?) async throws(DataStoreError) -> String
}

extension GraphQLTransport {
    /// The answer written back as JSON text, for a transport that has none of its own.
    package func executeText(_ document: String, variables: Item, authorization: SyncAuthorization?) async throws(DataStoreError)
        -> String
    {
        let response = try await execute(document, variables: variables, authorization: authorization)
        return (["data": response.data, "errors": .array(response.errors)] as JSONValue).jsonText
    }

    /// ``execute(_:variables:authorization:)`` with the endpoint's own credentials.
    package func execute(_ document: String, variables: Item) async throws(DataStoreError) -> GraphQLResponse {
        try await execute(document, variables: variables, authorization: nil)
    }
}

/// A GraphQL answer: its `data` and AppSync's error objects (`errorType`, `message`, `data`, ...).
package struct GraphQLResponse: Sendable {
    package let data: JSONValue
    package let errors: [JSONValue]

    package init(data: JSONValue, errors: [JSONValue]) {
        self.data = data
        self.errors = errors
    }
}
