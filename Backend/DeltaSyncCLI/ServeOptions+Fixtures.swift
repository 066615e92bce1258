import DeltaSyncServer
import Foundation

extension ServeOptions {
    /// Writes `--seed`'s items before the server serves; a bad file stops the start with the
    /// line at fault, and writes nothing.
    func seed(_ server: DeltaSyncServer) async throws {
        guard let seed else { return }
        let text: String
        do {
            text = try String(contentsOfFile: seed, encoding: .utf8)
        } catch {
            throw FixtureFileFailure(message: "\(seed): cannot read the seed file (\(error.localizedDescription)).")
        }
        do {
            try await server.fixture.seed(text)
        } catch let error as FixtureInputError {
            throw FixtureFileFailure(message: "\(seed): \(error)")
        }
    }

    /// `--write-config`'s files, for the URL the server is reachable at.
    func writeClientConfiguration(_ server: DeltaSyncServer, url: String) throws {
        guard let folder = writeConfig else { return }
        let configuration = ClientConfiguration(
            url: url, authModes: server.authModes, apiKey: server.apiKey, modelIntrospection: server.project.schema.modelIntrospection)
        try ClientConfigurationFiles.write(configuration, to: folder)
    }
}
