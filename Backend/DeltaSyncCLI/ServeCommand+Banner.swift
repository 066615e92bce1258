import DeltaSyncSchema
import DeltaSyncServer
import Foundation

extension ServeCommand {
    /// `  Functions: name → what runs it`, one line per function, for the banner.
    static func functionLines(_ server: DeltaSyncServer) -> String {
        let lines = server.functionDescriptions
        guard !lines.isEmpty else { return "" }
        return lines.enumerated().map { ($0 == 0 ? "  Functions: " : "             ") + $1 + "\n" }.joined()
    }

    /// How each runtime trusts the development authority, for a port answering TLS beside
    /// plain HTTP: Amplify JS v6 subscribes at `wss://` whatever its endpoint's scheme.
    static func trustLines(authority: String) -> String {
        """
          TLS:      development certificate signed by \(authority); trust it once for wss:// (Amplify JS v6 subscribes over it):
                    Node NODE_EXTRA_CA_CERTS=\(authority) · iOS simulator xcrun simctl keychain booted add-root-cert \(authority)
                    browsers: import it as a certificate authority · every platform: deltasync dev-cert

        """
    }

    /// What the API's shape means for its clients, after the banner's conflict detection line.
    static func shapeNote(_ project: AmplifyProject) -> String {
        switch project.conflictDetection {
        case .version: return "; DataStore clients sync"
        case .none: return "; no _version or syncX: for the API category, Gen 2 and Apollo, not DataStore"
        }
    }

    /// A key as a value in the console URL's fragment: `&`, `+`, `%` and `#` in a chosen key
    /// would otherwise be read as separators.
    static func fragmentValue(_ key: String) -> String {
        key.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) ?? key
    }
}
