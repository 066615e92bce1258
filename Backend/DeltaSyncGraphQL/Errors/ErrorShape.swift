import DeltaSyncCore
import GraphQL
import Logging
import OrderedCollections

/// AppSync's `errors[]` entries, for HTTP responses and realtime `error` and `data` messages
/// alike: the one place that decides which fields an error carries and how they are spelled.
///
/// AppSync puts `errorType`, `errorInfo` and `data` at the top level of each error, not under
/// `extensions`, and clients key on those spellings (`ConflictUnhandled`, the `Cannot return
/// null ...` text), so every error a client sees is built here.
package enum ErrorShape {
    /// An error with a message and, where AppSync sends one, an `errorType`; no path.
    static func plain(_ message: String, errorType: AppSyncErrorType? = nil) -> Map {
        var error = OrderedDictionary<String, Map>()
        if let errorType { error["errorType"] = .string(errorType.rawValue) }
        error["message"] = .string(message)
        return .dictionary(error)
    }

    /// ``plain(_:errorType:)`` of an ``AppSyncError``.
    package static func plain(_ error: AppSyncError) -> Map {
        plain(error.message, errorType: error.errorType)
    }

    /// An error of a realtime `connection_error`, with the HTTP-like `errorCode` clients read
    /// (Amplify does not retry 401).
    package static func connection(_ error: AppSyncError, code: Int) -> Map {
        .dictionary([
            "errorType": .string(error.errorType.rawValue), "message": .string(error.message), "errorCode": .int(code),
        ])
    }

    /// A document that does not parse: `Invalid Syntax : ...`, as AppSync words it.
    static func syntax(_ error: GraphQLError) -> Map {
        .dictionary([
            "path": .null,
            "locations": locations(error),
            "message": .string("Invalid Syntax : \(error.message)"),
        ])
    }

    /// Validation errors carry no `errorType` on AppSync; the message names the kind of error.
    static func validation(_ error: GraphQLError) -> Map {
        if let field = ValidationMessage.serverOwnedField(in: error.message) {
            // Setting sync metadata is AppSync's `BadRequest`, whichever layer notices it first.
            return .dictionary([
                "path": .null,
                "data": .null,
                "errorType": .string(AppSyncErrorType.badRequest.rawValue),
                "errorInfo": .null,
                "locations": locations(error),
                "message": .string("The field '\(field)' is managed by the server and cannot be set."),
            ])
        }
        return .dictionary([
            "path": .null,
            "locations": locations(error),
            "message": .string(ValidationMessage.appSyncStyle(error.message)),
        ])
    }

    /// A field's error from the executor: an ``AppSyncError`` a resolver threw with its type,
    /// message and data; the library's own errors (a null in a non-null field) as the library
    /// words them; any other error a resolver or the store threw as
    /// ``AppSyncErrorType/internalFailure``, its text only in the log
    /// (``AppSyncError/redacting(_:at:logger:)``).
    static func execution(_ error: GraphQLError, logger: Logger) -> Map {
        let path = ResponsePath(error.path.elements)
        guard let original = error.originalError else {
            if path.elements.isEmpty {
                // Variable coercion and other pre-execution failures are validation errors.
                return validation(error)
            }
            return .dictionary([
                "path": path.map,
                "data": .null,
                "errorType": .null,
                "errorInfo": .null,
                "locations": locations(error),
                "message": .string(error.message),
            ])
        }
        if let located = original as? LocatedFieldError {
            return field(located.error, path: path, locations: located.locations)
        }
        // The library describes a thrown error with `String(describing:)`: a GRDB error's
        // description holds the SQL, its arguments and the SQLite message.
        let shown = AppSyncError.redacting(original, at: path.dotted, logger: logger)
        return field(shown, path: path, locations: locations(error))
    }

    /// A field that failed with `error` (already redacted): null in `data`, this in `errors`.
    static func field(_ error: AppSyncError, path: ResponsePath, locations: Map = .null) -> Map {
        .dictionary([
            "path": path.elements.isEmpty ? .null : path.map,
            "data": error.data.map,
            "errorType": .string(error.errorType.rawValue),
            "errorInfo": error.errorInfo.map,
            "locations": locations,
            "message": .string(error.message),
        ])
    }

    /// AppSync's error for a non-null field without a value; its parent object is null.
    ///
    /// - Parameters:
    ///   - type: the field's GraphQL type as AppSync names it: `String`, `[String]`.
    ///   - parent: the name of the object type the field belongs to.
    package static func nullInNonNull(type: String, parent: String, path: ResponsePath) -> Map {
        .dictionary([
            "path": path.map,
            "locations": .null,
            "message": .string("Cannot return null for non-nullable type: '\(type)' within parent '\(parent)' (\(path.slashed))"),
        ])
    }

    /// A stored value that does not fit its field's GraphQL type (written under an older
    /// schema, or by hand): the field is null.
    static func unserializable(_ value: JSONValue, as type: String, path: ResponsePath) -> Map {
        .dictionary([
            "path": path.map,
            "locations": .null,
            "message": .string("Can't serialize value (\(path.slashed)) : Unable to serialize `\(value.jsonText)` as a valid \(type)."),
        ])
    }

    static func locations(_ error: GraphQLError) -> Map {
        .array(
            error.locations.map {
                .dictionary(["line": .int($0.line), "column": .int($0.column), "sourceName": .null])
            })
    }
}
