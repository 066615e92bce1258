/// Runs `work` in a task of its own and waits for it; cancelling the caller cancels it.
///
/// Why: a connection's task lives as long as the connection, and a task keeps the stack memory
/// of its deepest wait (its allocator's slabs) until it ends. Authenticating a handshake, or
/// parsing, validating and authorizing a start, in the connection's own task would leave that
/// memory with every idle connection; in a task of their own it is freed when they finish.
func inOwnTask<Value: Sendable>(_ work: sending @escaping @Sendable () async -> Value) async -> Value {
    let task = Task(operation: work)
    return await withTaskCancellationHandler {
        await task.value
    } onCancel: {
        task.cancel()
    }
}
