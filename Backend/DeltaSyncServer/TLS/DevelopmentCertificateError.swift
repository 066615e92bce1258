/// A development certificate that cannot be made: a bad name or a folder that cannot be written.
public struct DevelopmentCertificateError: Error, CustomStringConvertible, Sendable {
    /// What went wrong and how to fix it.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
