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
