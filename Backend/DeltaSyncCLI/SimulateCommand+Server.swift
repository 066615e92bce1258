import DeltaSyncSchema
import DeltaSyncTesting
import Foundation

extension SimulateCommand {
    /// `--server URL`: the scenario's devices against a server already running, which keeps
    /// its own conflict handlers (the scenario's are noted, not applied) and keeps running.
    func runConnected(
        to url: String, scenario parsed: Scenario, project: AmplifyProject, directory: URL,
        _ body: (Simulation) async throws -> ScenarioReport
    ) async throws -> ScenarioReport {
        if parsed.conflictHandler != nil || parsed.lambdaHandler != nil {
            FileHandle.standardError.write(Data(
                "deltasync: note: the scenario's conflictHandler and lambdaHandler are not applied: the server at \(url) keeps its own handlers\n".utf8))
        }
        let remote = try await RemoteSimulationServer.connect(
            url: url, adminKey: server.key ?? "", schema: project.schema, dataDirectory: server.dataDirectory, reset: server.reset)
        return try await Simulation.run(
            connectingTo: remote, project: project, devices: parsed.devices, identities: parsed.identities, syncExpressions: parsed.syncExpressions,
            directory: directory, body)
    }
}
