import ArgumentParser
import Foundation

/// `deltasync simulate --server URL`: the devices sync with a server already running (a
/// container in CI, a staging server) rather than one the run starts.
struct SimulationServerOptions: ParsableArguments {
    @Option(
        name: .customLong("server"),
        help: ArgumentHelp(
            "A running DeltaSync server's GraphQL URL (http://): the devices sync with it instead of a server the run starts.",
            discussion: "Its fixture API reads its store and moves its clock and faults; its conflict handlers and rules are its own."))
    var url: String?

    @Option(name: .customLong("admin-key"), help: "With --server: its admin key. Default: $DELTASYNC_ADMIN_KEY.")
    var adminKey: String?

    @Flag(name: .long, help: "With --server: remove every item, delta and conflict it holds first, so the scenario starts from an empty store.")
    var reset = false

    @Option(
        name: .customLong("data-dir"),
        help: "With --server: its data folder, whose development issuer signs the tokens of devices signed in as users.",
        completion: .directory)
    var dataDirectory: String?

    /// The admin key from the flag or the environment.
    var key: String? { adminKey ?? ProcessInfo.processInfo.environment["DELTASYNC_ADMIN_KEY"] }

    func validate(random: Bool, console: Bool, handlerFlags: Bool) throws {
        guard url != nil else {
            if reset || adminKey != nil || dataDirectory != nil {
                throw ValidationError("--reset, --admin-key and --data-dir go with --server URL, a running server.")
            }
            return
        }
        if random { throw ValidationError("--random starts its own servers (it replays runs to shrink a failure): drop --server.") }
        if console { throw ValidationError("--console shows a server the run starts: a running server has its own console.") }
        if handlerFlags {
            throw ValidationError("A running server keeps its own conflict handlers: --conflict-handler, --lambda-handler and --conflict-handler-function go with a server the run starts.")
        }
        if key == nil { throw ValidationError("--server needs the server's admin key: --admin-key, or DELTASYNC_ADMIN_KEY.") }
    }
}
