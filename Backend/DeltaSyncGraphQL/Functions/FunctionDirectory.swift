import DeltaSyncFunctions

/// Where a `@function` field finds the function its directive names: the server's catalog
/// (`functions.json`, flags, the Amplify project, Swift closures).
package protocol FunctionDirectory: Sendable {
    /// The function the schema names `written` (as written: `echo-${env}`), or `nil` when
    /// nobody configured it.
    func function(named written: String) -> ConfiguredFunction?
}

/// A function ready to call, with the name it runs under and how long it may take.
package struct ConfiguredFunction: Sendable {
    /// `${env}` resolved: what the function sees as its name.
    package var name: String
    package var function: any LambdaFunction
    package var timeout: Duration

    package init(name: String, function: any LambdaFunction, timeout: Duration) {
        self.name = name
        self.function = function
        self.timeout = timeout
    }
}
