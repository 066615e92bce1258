import ArgumentParser
import DeltaSyncCore
import DeltaSyncServer
import Foundation

/// `deltasync token --username alice [--groups Admin,Editors]`: a Cognito-shaped ID token
/// signed by the development issuer of a data folder, which a server using that folder accepts
/// for user pools and OIDC.
struct TokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token",
        abstract: "Print a development token (a Cognito-shaped JWT) that deltasync serve accepts.",
        discussion: """
            The token is signed with the key in the data folder (created if missing), the one \
            `deltasync serve` with the same --data-dir uses. Send it as the Authorization header.
            """
    )

    @Option(help: "The user's cognito:username.")
    var username: String

    @Option(help: "The user's sub. Default: derived from the username, the same every time.")
    var sub: String?

    @Option(help: "The user's groups (cognito:groups), comma-separated.")
    var groups: String?

    @Option(help: "More claims as a JSON object; they override the others (e.g. '{\"email\":\"a@example.com\"}').")
    var claims: String?

    @Option(help: "How long the token is valid (e.g. 1h, 30m, 7d).")
    var expires = DurationArgument(.seconds(3600))

    @Option(name: .customLong("data-dir"), help: "The server's data folder.")
    var dataDirectory: String = ServerConfiguration().dataDirectory

    func validate() throws {
        if username.isEmpty { throw ValidationError("--username must not be empty.") }
        if let claims, (try? JSONValue(parsing: claims))?.objectValue == nil {
            throw ValidationError("--claims must be a JSON object, such as '{\"email\":\"a@example.com\"}'.")
        }
        if expires.duration <= .zero { throw ValidationError("--expires must be longer than zero.") }
    }

    func run() async throws {
        let issuer = try await DevelopmentIssuer.load(directory: dataDirectory)
        let extra = try claims.map { try JSONValue(parsing: $0).objectValue ?? [:] } ?? [:]
        let groupList = groups?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } ?? []
        let token = try await issuer.token(
            username: username, sub: sub, groups: groupList, claims: extra,
            lifetime: TimeInterval(expires.duration.components.seconds))
        print(token)
    }
}
