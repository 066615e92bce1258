// The Todos example without its views, as CI runs it on Linux: two devices (a phone and a
// tablet) against an in-process DeltaSync server. What one adds and checks off, the other's
// live query shows; the process fails when it does not within ten seconds.
import DeltaSyncClient
import DeltaSyncTesting
import Foundation
import Observation
import TodosModel

/// Waits until `condition` holds, checking again whenever the observable state it reads
/// changes (Observation works headless too); fails after ten seconds.
@MainActor
func until(_ what: String, _ condition: @escaping @MainActor () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TodosFailure("timed out waiting until \(what)") }
        let (changes, changed) = AsyncStream.makeStream(of: Void.self)
        withObservationTracking { _ = condition() } onChange: { changed.yield() }
        // The deadline is checked at least every second, changes or not.
        let check = Task { try? await Task.sleep(for: .seconds(1)); changed.yield() }
        for await _ in changes { break }
        check.cancel()
    }
}

struct TodosFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("TodosModel/schema.graphql").path
try await DeltaSyncTestServer.withServer(schemaFile: schema) { server in
    let endpoint = SyncEndpoint(url: URL(string: server.graphQLURL)!, apiKey: server.apiKey)
    let (phone, tablet) = try await MainActor.run {
        (try TodoList(endpoint: endpoint, location: .inMemory), try TodoList(endpoint: endpoint, location: .inMemory))
    }
    try await phone.start()
    try await tablet.start()
    try await phone.add("Buy milk")
    try await phone.add("Call Ada")
    try await until("the tablet shows both todos") { tablet.openTitles == ["Buy milk", "Call Ada"] }
    print("tablet: \(await MainActor.run { tablet.openTitles })")
    let milk = try await MainActor.run { () throws -> Todo in
        guard let todo = tablet.todos.items.first(where: { $0.title == "Buy milk" }) else { throw TodosFailure("no milk") }
        return todo
    }
    try await tablet.toggle(milk)
    try await until("the phone shows milk bought") { phone.openTitles == ["Call Ada"] }
    print("phone: \(await MainActor.run { phone.openTitles }) open, milk bought")
}
