import DeltaSyncCore
import HTTPTypes
import Hummingbird

/// The key of the fixture API: sent in `x-deltasync-admin-key`, compared in constant time.
public enum AdminKey {
    /// `x-deltasync-admin-key`: the header every `/admin/` request carries the key in.
    public static let header = HTTPField.Name("x-deltasync-admin-key")!

    /// Whether `given` is `key`, compared in full whatever matches first, so timing says
    /// nothing about the key.
    package static func matches(_ given: String?, _ key: String) -> Bool {
        guard let given else { return false }
        return given.utf8.count == key.utf8.count && zip(given.utf8, key.utf8).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0
    }
}

/// Refuses `/admin/` requests without the admin key (401), and answers what the fixture
/// throws in AppSync's error shape: bad input is 400, not 500.
struct AdminKeyMiddleware<Context: RequestContext>: RouterMiddleware {
    let key: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let given = request.headers[AdminKey.header] else {
            throw FixtureErrorResponse.unauthorized("The fixture API needs the admin key in the x-deltasync-admin-key header.")
        }
        guard AdminKey.matches(given, key) else {
            throw FixtureErrorResponse.unauthorized("The admin key is not this server's.")
        }
        do {
            return try await next(request, context)
        } catch let error as FixtureInputError {
            throw FixtureErrorResponse(status: .badRequest, error: error.appSyncError)
        } catch let error as AppSyncError {
            throw FixtureErrorResponse(status: .badRequest, error: error)
        }
    }
}
