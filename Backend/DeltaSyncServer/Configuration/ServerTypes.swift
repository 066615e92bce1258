import DeltaSyncAuth
import DeltaSyncFunctions
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

// Functions for `@function` fields (``ServerConfiguration/functions``).
/// What runs a function: given AppSync's event, a JSON result or a ``FunctionFailure``.
public typealias LambdaFunction = DeltaSyncFunctions.LambdaFunction
/// One call of a function: its event, name, request id and timeout.
public typealias LambdaInvocation = DeltaSyncFunctions.LambdaInvocation
/// Why a function gave no result (its error's type and message).
public typealias FunctionFailure = DeltaSyncFunctions.FunctionFailure
/// A function written in Swift.
public typealias ClosureFunction = DeltaSyncFunctions.ClosureFunction
/// A function behind an HTTP endpoint that receives the event as a JSON POST.
public typealias HTTPFunction = DeltaSyncFunctions.HTTPFunction
/// A function run by a warm local process (a Node or Python handler, or any command).
public typealias LocalProcessFunction = DeltaSyncFunctions.LocalProcessFunction
public typealias LocalProcessConfiguration = DeltaSyncFunctions.LocalProcessConfiguration
/// The Node and Python runtimes for Amplify-style handlers.
public typealias HandlerRuntime = DeltaSyncFunctions.HandlerRuntime

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
