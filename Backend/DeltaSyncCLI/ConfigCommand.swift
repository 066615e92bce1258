import ArgumentParser
import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncServer
import Foundation

/// `deltasync config`: the Amplify configuration files of a running server, for apps to
/// point at it. (`serve --write-config DIR` writes the same files at start.)
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Write amplifyconfiguration.json, aws-exports.js and amplify_outputs.json for a running server.",
        discussion: """
            Asks the server's fixture API for its endpoint, auth modes and API key. Use --host to \
            write another host name into the URLs: 10.0.2.2 for the Android emulator, or the \
            machine's LAN address for a phone.
            """)

    @OptionGroup var server: FixtureConnection

    @Option(name: .shortAndLong, help: "The folder to write the files into.")
    var out: String = "."

    @Option(help: "The host (and port, host:port) apps reach the server at, when not the URL's.")
    var host: String?

    @Option(help: "The region written into the files; IAM clients sign for it, so it must be the --region deltasync serve was given.")
    var region: String = "us-east-1"

    func run() async throws {
        let answer = try JSONValue(parsing: try await server.send(.GET, "client-config"))
        guard var url = answer["url"].stringValue,
            let defaultMode = answer["defaultAuthMode"].stringValue.flatMap(AuthMode.init(rawValue:))
        else {
            throw FixtureFileFailure(message: "The server's client-config answer is not what this deltasync expects: \(answer.jsonText)")
        }
        // The server sees the host it was asked at; the URL given here is the better guess.
        if let given = URLComponents(string: server.graphQLURL), let scheme = given.scheme, let authority = given.host {
            url = "\(scheme)://\(authority)\(given.port.map { ":\($0)" } ?? "")/graphql"
        }
        if let host, var components = URLComponents(string: url) {
            let parts = host.split(separator: ":", maxSplits: 1)
            components.host = String(parts[0])
            if parts.count == 2 { components.port = Int(parts[1]) }
            url = components.string ?? url
        }
        let additional = answer["additionalAuthModes"].arrayValue?.compactMap { $0.stringValue.flatMap(AuthMode.init(rawValue:)) } ?? []
        let configuration = ClientConfiguration(
            url: url, region: region, authModes: APIAuthModes(defaultMode: defaultMode, additionalModes: additional),
            apiKey: answer["apiKey"].stringValue,
            modelIntrospection: answer["modelIntrospection"].isNull ? nil : answer["modelIntrospection"])
        for path in try ClientConfigurationFiles.write(configuration, to: out) { print("Wrote \(path)") }
    }
}
