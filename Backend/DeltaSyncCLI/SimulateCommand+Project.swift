import DeltaSyncSchema
import DeltaSyncServer

extension SimulateCommand {
    /// What the user's project brings to the run's server besides its schema: its functions
    /// (`functions.json`, `--function`, the Amplify project's handlers), its resolver files and
    /// `--conflict-handler-function`, as `deltasync serve` would run them.
    ///
    /// The files are read once, here, so one that does not parse stops the run before any
    /// device starts; the closure sets them on each server the run starts (a `restartServer`
    /// step starts another).
    func projectConfiguration(_ project: AmplifyProject) throws -> (inout ServerConfiguration) -> Void {
        var prepared = ServerConfiguration()
        try functions.apply(to: &prepared, input: input)
        try input.applyResolverFiles(to: &prepared, project: project)
        let ready = prepared
        let handlerFunction = conflictHandlerFunction
        return { configuration in
            configuration.functionTimeout = ready.functionTimeout
            configuration.functions.merge(ready.functions) { _, flagged in flagged }
            configuration.functionsFile = ready.functionsFile
            configuration.amplifyProjectRoot = ready.amplifyProjectRoot
            configuration.amplifyEnvironment = ready.amplifyEnvironment
            configuration.resolvers += ready.resolvers
            configuration.dataSources += ready.dataSources
            configuration.slots += ready.slots
            configuration.overrides += ready.overrides
            if let handlerFunction {
                // The flag names the handler: over the scenario's lambdaHandler.
                configuration.lambdaConflictHandler = nil
                configuration.conflictHandlerFunction = handlerFunction
            }
        }
    }
}
