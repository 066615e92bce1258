import DeltaSyncCore
import DeltaSyncSchema

/// A simulation scenario read from a file: the devices and the steps they take.
///
/// ```yaml
/// devices: [phone, tablet]
/// steps:
///   - save: {device: phone, model: Todo, item: {id: t1, name: milk}}
///   - converge
///   - offline: [phone, tablet]
///   - save: {device: phone, model: Todo, item: {id: t1, name: oat milk}}
///   - save: {device: tablet, model: Todo, item: {id: t1, done: true}}
///   - converge
///   - expect: {model: Todo, key: {id: t1}, on: [phone, tablet, server], fields: {done: true}}
///   - expectConflict: {model: Todo, outcome: merged}
/// ```
public struct Scenario: Sendable, Equatable {
    public init(
        devices: [String], identities: [String: DeviceIdentity] = [:], syncExpressions: [String: [String: JSONValue]] = [:],
        conflictHandler: ConflictHandlerKind? = nil, lambdaHandler: String? = nil,
        steps: [ScenarioStep]
    ) {
        self.devices = devices
        self.identities = identities
        self.syncExpressions = syncExpressions
        self.conflictHandler = conflictHandler
        self.lambdaHandler = lambdaHandler
        self.steps = steps
    }

    /// The devices, by name.
    public var devices: [String]
    /// Who each device syncs as; one not named here uses the API key.
    public var identities: [String: DeviceIdentity]
    /// What each device syncs, by model (`sync: {Todo: {list: {eq: kitchen}}}`), as an app's
    /// sync expressions say; a device or model not named here syncs everything.
    public var syncExpressions: [String: [String: JSONValue]]
    /// Every model's conflict handler (`conflictHandler: automerge | optimistic | lambda`);
    /// `nil` keeps the project's.
    public var conflictHandler: ConflictHandlerKind?
    /// The team's Lambda conflict handler, a Node (`.js`, `.cjs`, `.mjs`) or Python (`.py`)
    /// file exporting `handler`, relative to the scenario's folder (`lambdaHandler:
    /// conflict-handler.js`): models with `LAMBDA` call it as AppSync calls the Lambda.
    public var lambdaHandler: String?
    /// What happens, in order, each with the line it was written on.
    public var steps: [ScenarioStep]
}

/// One step of a ``Scenario``, and the line of the file it came from (errors name it).
public struct ScenarioStep: Sendable, Equatable {
    public var line: Int
    public var action: Action

    public enum Action: Sendable, Equatable {
        /// Creates the item, or sets these fields of the device's copy; fails the step unless
        /// `condition` holds (or when `expectFailure` is set, unless it does not).
        case save(device: String, model: String, item: Item, condition: JSONValue?)
        case delete(device: String, model: String, key: Item)
        /// Cuts the devices off the server.
        case offline([String])
        case online([String])
        /// Closes the device's store and opens its file again, as an app's next launch does.
        case restart(String)
        /// Stops the server and starts it again on the same port, store and clock.
        case restartServer
        /// Delays everything on the device's link, both ways, by this many milliseconds (0:
        /// back to full speed).
        case slow(device: String, milliseconds: Int)
        /// Cuts the device's open connections (it reconnects at once; the link stays up).
        case dropConnections(String)
        /// A server fault, as the fixture API's `POST /admin/faults` takes it
        /// (`{type: mutationError, field: updateTodo, errorType: ..., message: ..., count: 1}`,
        /// `conflict`, `delay`, `refuseConnections`).
        case fault(JSONValue)
        /// Clears every server fault.
        case clearFaults
        /// Moves the server's clock forward by this many seconds.
        case advanceClock(seconds: Int)
        /// Every device online, every outbox sent, every device equal to the server.
        case converge
        /// A quiet point's checks: ``converge``, then no conflict handler failed (the conflict
        /// log holds no `error: …` outcome) and no device holds or received an item it may not
        /// read. What the random mode checks.
        case check
        /// The item on each of `on` (device names, `server`) has these fields; `nil` fields:
        /// it does not exist there.
        case expect(model: String, key: Item, on: [String], fields: Item?)
        /// The server's conflict log holds a conflict of `model` with this outcome.
        case expectConflict(model: String, outcome: String)
        /// The device's sync expressions change as an app changes them: sync stops, the store
        /// is cleared when `clear` says so (else what it holds stays, in scope or not), and sync
        /// starts again with `sync`, a full sync.
        case changeSyncExpressions(device: String, sync: [String: JSONValue], clear: Bool)
        /// The device has nothing left to send.
        case expectEmptyOutbox(String)
        /// Waits until the device sent everything it held (it must be online to get there).
        case waitForEmptyOutbox(String)
    }
}
