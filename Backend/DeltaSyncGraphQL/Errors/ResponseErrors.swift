import DeltaSyncCore
import GraphQL

/// Errors already in AppSync's shape, for a response's `errors` (or a realtime `error` or
/// `connection_error`). The realtime layer writes them as they are, without reading their form.
package struct ResponseErrors: Error, Sendable {
    package let errors: [Map]

    package init(errors: [Map]) {
        self.errors = errors
    }

    /// One error with its message and type (``ErrorShape/plain(_:)``).
    package init(_ error: AppSyncError) {
        errors = [ErrorShape.plain(error)]
    }

    /// A refused realtime connection's error, with the code clients read
    /// (``ErrorShape/connection(_:code:)``).
    package static func connection(_ error: AppSyncError, code: Int) -> ResponseErrors {
        ResponseErrors(errors: [ErrorShape.connection(error, code: code)])
    }

    /// The `errorType` of each error that has one, in order.
    package var errorTypes: [String] {
        errors.compactMap { error in
            guard case .dictionary(let fields) = error, case .string(let type)? = fields["errorType"] else { return nil }
            return type
        }
    }

    /// Appends the errors as a JSON array.
    package func write(to out: inout [UInt8]) {
        ResponseJSON.write(.array(errors), to: &out)
    }
}
