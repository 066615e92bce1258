import DeltaSyncClient
import DeltaSyncCore
import DeltaSyncSchema
import Foundation

// What the server gives this device, asked as the device (its credentials, its documents),
// straight to the server rather than through its link, which may be down.
extension SimulatedDevice {
    private func client(_ server: any SimulationServer) throws -> GraphQLClient {
        guard var endpoint = configuration.endpoint, let url = URL(string: server.graphQLURL) else {
            throw SimulationError("\(name) has no endpoint.")
        }
        endpoint.url = url
        return GraphQLClient(endpoint: endpoint, http: configuration.network.http)
    }

    /// The live items of `model` the server's sync query gives this device: what it holds once
    /// converged. A model the device may not sync at all gives none, as the device skips it.
    func itemsTheServerSyncs(_ model: ModelSchema, schema: AmplifySchema, server: any SimulationServer) async throws -> [Item] {
        guard let field = model.operations.sync, let document = SyncDocuments(model: model, schema: schema).syncQuery else { return [] }
        let client = try client(server)
        var items: [Item] = []
        var nextToken: JSONValue = .null
        repeat {
            let response = try await client.execute(document, variables: ["limit": 1000, "nextToken": nextToken])
            if let error = response.errors.first {
                if error["errorType"].stringValue?.contains("Unauthorized") == true { return [] }
                throw SimulationError("The server's sync of \(model.name) for \(name) failed: \(error.jsonText)")
            }
            let page = response.data[field]
            items += (page["items"].arrayValue ?? []).compactMap(\.objectValue)
            nextToken = page["nextToken"]
        } while !nextToken.isNull
        return items.filter { $0["_deleted"]?.boolValue != true }
    }

    /// Whether this device may read the item with `key` now: the server's `get` query, asked
    /// as the device, answers it rather than an authorization error or `null`.
    func mayRead(_ model: ModelSchema, key: Item, schema: AmplifySchema, server: any SimulationServer) async throws -> Bool {
        guard let (field, document) = SyncDocuments(model: model, schema: schema).getQuery else { return true }
        let response = try await client(server).execute(document, variables: key)
        if let error = response.errors.first, error["errorType"].stringValue?.contains("Unauthorized") != true {
            throw SimulationError("The server's \(field) for \(name) failed: \(error.jsonText)")
        }
        return response.errors.isEmpty && !response.data[field].isNull
    }

    /// Every item the device received from the server since it was opened, by key, with the
    /// `_version`s it received.
    func receivedVersions(of model: ModelSchema) -> [Item: Set<Int>] {
        var received: [Item: Set<Int>] = [:]
        for event in events {
            guard case .syncReceived(let change) = event, change.modelName == model.name, let version = change.version,
                let key = try? Self.key(change.item, of: model)
            else { continue }
            received[key, default: []].insert(version)
        }
        return received
    }
}
