import DeltaSyncAuth
import DeltaSyncGraphQL
import DeltaSyncRealtime

// The public types of the server's API that its layers define, named from `DeltaSyncServer`
// so that `import DeltaSyncServer` is all an embedding app or test writes.

/// A GraphQL request as clients send it (``DeltaSyncServer/execute(_:explain:)``).
public typealias OperationRequest = DeltaSyncGraphQL.OperationRequest
/// Bounds on a GraphQL document (``ServerConfiguration/documentLimits``).
public typealias DocumentLimits = DeltaSyncGraphQL.DocumentLimits
/// Bounds on running a request (``ServerConfiguration/executionLimits``).
public typealias ExecutionLimits = DeltaSyncGraphQL.ExecutionLimits
/// A custom conflict handler (``ServerConfiguration/lambdaConflictHandler``).
public typealias LambdaConflictHandler = DeltaSyncGraphQL.LambdaConflictHandler
public typealias LambdaConflictHandlers = DeltaSyncGraphQL.LambdaConflictHandlers
public typealias LambdaConflictRequest = DeltaSyncGraphQL.LambdaConflictRequest
public typealias LambdaConflictResponse = DeltaSyncGraphQL.LambdaConflictResponse
/// The realtime endpoint's limits and timers (``ServerConfiguration/realtime``).
public typealias RealtimeConfiguration = DeltaSyncRealtime.RealtimeConfiguration

// Authentication (``ServerConfiguration/authModes`` and the settings beside it).
/// The API's default and additional authorization modes.
public typealias APIAuthModes = DeltaSyncAuth.APIAuthModes
/// An authorization mode (`API_KEY`, `AMAZON_COGNITO_USER_POOLS`, ...).
public typealias AuthMode = DeltaSyncAuth.AuthMode
/// An API key with its expiry (``ServerConfiguration/apiKeys``).
public typealias APIKey = DeltaSyncAuth.APIKey
/// A user pool or OIDC provider (``ServerConfiguration/tokenProviders``).
public typealias TokenProvider = DeltaSyncAuth.TokenProvider
public typealias TokenVerification = DeltaSyncAuth.TokenVerification
public typealias JWKSSource = DeltaSyncAuth.JWKSSource
/// One mode's check of a request's credentials (``ServerConfiguration/authenticators``).
public typealias Authenticator = DeltaSyncAuth.Authenticator
public typealias Identity = DeltaSyncAuth.Identity
public typealias Credentials = DeltaSyncAuth.Credentials
public typealias AuthenticationFailure = DeltaSyncAuth.AuthenticationFailure
/// The development issuer whose tokens a server accepts (`deltasync token`).
public typealias DevelopmentIssuer = DeltaSyncAuth.DevelopmentIssuer
/// A Lambda authorizer (``ServerConfiguration/authenticators``): an HTTP endpoint or a closure.
public typealias LambdaAuthorizer = DeltaSyncAuth.LambdaAuthorizer
public typealias LambdaAuthorizerRequest = DeltaSyncAuth.LambdaAuthorizerRequest
public typealias LambdaAuthorizerResponse = DeltaSyncAuth.LambdaAuthorizerResponse
/// An access key accepted for `AWS_IAM` (``ServerConfiguration/iamCredentials``).
public typealias IAMCredential = DeltaSyncAuth.IAMCredential
