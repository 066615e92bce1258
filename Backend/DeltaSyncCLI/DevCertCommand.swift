import ArgumentParser
import DeltaSyncServer
import Foundation

/// `deltasync dev-cert [--name staging.local]`: a local certificate authority (made once, kept
/// in the data folder) and a server certificate it signs for this machine's names, then the
/// steps to make simulators, emulators and machines trust the authority.
struct DevCertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dev-cert",
        abstract: "Make a development certificate for https/wss, signed by a local CA, and print how to trust the CA.",
        discussion: """
            The CA (dev-ca.pem, its key dev-ca-key.pem) is made once and reused, so devices trust \
            it once. The certificate (dev-cert.pem, dev-cert-key.pem) is made anew each time, for \
            localhost, 127.0.0.1, ::1, this machine's hostname and every --name. Serve with \
            `deltasync serve --tls-cert <data-dir>/dev-cert.pem --tls-key <data-dir>/dev-cert-key.pem`.
            """
    )

    @Option(name: .customLong("data-dir"), help: "The server's data folder: the CA and the certificate are kept here.")
    var dataDirectory: String = ServerConfiguration().dataDirectory

    @Option(
        name: .customLong("name"),
        help: "Another DNS name or IP address clients reach the server by (a LAN address, staging.local); repeat for several.")
    var names: [String] = []

    func validate() throws {
        for name in names {
            do {
                try DevelopmentCertificate.validate(name: name)
            } catch {
                throw ValidationError("--name: \(error)")
            }
        }
    }

    func run() throws {
        let made = try DevelopmentCertificate.make(directory: dataDirectory, names: names)
        let authority: String
        switch made.authorityOrigin {
        case .created: authority = "new: trust it as below"
        case .reused: authority = "reused: devices that trust it need nothing new"
        case .replaced(let reason): authority = "new, replacing the previous one (\(reason)): trust it as below"
        }
        let until = made.certificate.notValidAfter.formatted(.iso8601.year().month().day())
        let ca = made.authorityPath
        print("""
            Development certificate for \(made.names.joined(separator: ", ")) (valid until \(until))
              Certificate:  \(made.certificatePath)
              Key:          \(made.keyPath)
              CA:           \(ca) (\(authority))
              CA key:       \(made.authorityKeyPath) (keep it private: it signs certificates for any name)

            Serve with it:
              deltasync serve --schema schema.graphql --tls-cert \(made.certificatePath) --tls-key \(made.keyPath)

            Trust the CA, once per device:
              iOS simulator     xcrun simctl keychain booted add-root-cert \(ca)
              iOS device        send \(ca) to the device, install the profile (Settings > General > VPN & Device
                                Management), then turn on full trust (Settings > General > About > Certificate Trust Settings)
              Android emulator  copy \(ca) to the app's res/raw/dev_ca.pem and trust it in debug builds with
                                res/xml/network_security_config.xml:
                                  <network-security-config><debug-overrides><trust-anchors>
                                    <certificates src="@raw/dev_ca"/>
                                  </trust-anchors></debug-overrides></network-security-config>
                                and android:networkSecurityConfig="@xml/network_security_config" on <application>;
                                the emulator reaches this machine as 10.0.2.2 (make the certificate with --name 10.0.2.2)
              macOS keychain    sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain \(ca)
              Linux             sudo cp \(ca) /usr/local/share/ca-certificates/deltasync-dev-ca.crt && sudo update-ca-certificates
              one tool only     curl --cacert \(ca), NODE_EXTRA_CA_CERTS=\(ca), SSL_CERT_FILE=\(ca) (Python)
            """)
    }
}
