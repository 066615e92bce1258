import DeltaSyncCore
import GraphQL

/// An ``AppSyncError`` a field's resolver threw, with the field's `locations` already written.
///
/// The GraphQL library places each error it is handed with a regular expression over the whole
/// document, once per error: a request stopped by its budget fails thousands of fields at the
/// same few places in its text. ``RequestScope/located(_:_:)`` finds each place once and hands
/// the library an error it keeps as it is; ``ErrorShape/execution(_:logger:)`` writes it as any
/// other ``AppSyncError``.
struct LocatedFieldError: Error {
    /// What the resolver threw.
    let error: AppSyncError
    /// The field's `locations` as ``ErrorShape/locations(_:)`` writes them.
    let locations: Map
}
