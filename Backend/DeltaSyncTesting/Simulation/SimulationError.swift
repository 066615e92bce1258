/// A simulation that cannot go on (an unknown model or device, an item without its key), or a
/// check that failed (devices that did not converge), saying what and where.
public struct SimulationError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
