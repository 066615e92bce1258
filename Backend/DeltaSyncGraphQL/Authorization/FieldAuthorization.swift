import DeltaSyncCore

/// Decides whether a model field may be read in a response. A request's ``Caller`` is one (the
/// schema's rules), and an embedder may add a rule of its own on top
/// (``AuthorizationPolicy/init(schema:modes:fieldRule:)``), which the caller asks after the
/// schema's.
///
/// Every path that writes a model's fields asks the caller, so a rule holds on all of them:
/// - ``ItemProjection``: projected pages, `get` and mutation results (the mutation shortcut
///   included), realtime events (``EventPlan``) and a failed mutation's `errors[].data`;
/// - the executor: every field of a model type has a resolver that asks it before reading the
///   item (``ExecutableSchema``), which covers nested connections, directives and whatever
///   projection leaves to the executor.
///
/// A denied field is `null` with the returned error at its path; a denied non-null field nulls
/// its parent, as GraphQL execution does. In error data it is `null` without an error.
///
/// ```swift
/// struct HideDrafts: FieldAuthorization {
///     func denial(of field: String, on typeName: String, in item: Item) -> AppSyncError? {
///         guard typeName == "Post", field == "content", item["status"] == "DRAFT" else { return nil }
///         return .fieldUnauthorized(field, on: typeName)
///     }
/// }
/// ```
package protocol FieldAuthorization: Sendable {
    /// `nil` when `field` of `item` (of the model `typeName`) may be read; otherwise the error
    /// the response reports for it.
    ///
    /// - Parameter item: the stored item, or for a realtime event the mutation's result (the
    ///   fields the mutation selected, by field name).
    func denial(of field: String, on typeName: String, in item: Item) -> AppSyncError?

    /// `false` when no field of `typeName` can be denied, so writers need not ask per field.
    func mayDeny(on typeName: String) -> Bool
}

extension FieldAuthorization {
    package func mayDeny(on typeName: String) -> Bool { true }
}

extension AppSyncError {
    /// AppSync's error for a field the caller may not read:
    /// `Not Authorized to access content on type Post`, errorType `Unauthorized`.
    package static func fieldUnauthorized(_ field: String, on typeName: String) -> AppSyncError {
        AppSyncError(.notAuthorized, "Not Authorized to access \(field) on type \(typeName)")
    }
}
