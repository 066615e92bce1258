extension LambdaEnvironment {
    /// The local GraphQL API as a function sees it in its environment, so it can call the API
    /// back the way a deployed Amplify function does.
    ///
    /// ```swift
    /// environment.api = .init(apiName: "blog", endpoint: "http://localhost:4000/graphql", apiID: "local", apiKey: "da2-local")
    /// // API_BLOG_GRAPHQLAPIENDPOINTOUTPUT=http://localhost:4000/graphql …
    /// ```
    public struct API: Sendable, Equatable {
        /// The Amplify API resource's name (`amplify/backend/api/<name>`).
        public var apiName: String
        /// The GraphQL endpoint URL (`http://…/graphql`).
        public var endpoint: String
        public var apiID: String
        /// The API key, when the API has one.
        public var apiKey: String?

        public init(apiName: String, endpoint: String, apiID: String, apiKey: String? = nil) {
            self.apiName = apiName
            self.endpoint = endpoint
            self.apiID = apiID
            self.apiKey = apiKey
        }

        /// `API_<NAME>_`: Amplify upper-cases the resource name; anything that cannot be in a
        /// variable name becomes `_`.
        var variablePrefix: String {
            let name = apiName.uppercased().unicodeScalars.map { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? Character(scalar) : "_"
            }
            return "API_" + String(name) + "_"
        }
    }
}
