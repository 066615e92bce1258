import DeltaSyncCore
import Foundation
import HTTPTypes
import Hummingbird

// Requests' bodies and parameters read, and answers written.
extension FixtureRoutes {
    func text(_ request: Request) async throws -> String {
        let buffer = try await request.body.collect(upTo: maxBodyBytes)
        return String(buffer: buffer)
    }

    /// The body as a JSON object; an empty body is `{}` where `allowEmpty`.
    func object(_ request: Request, allowEmpty: Bool = false) async throws -> [String: JSONValue] {
        let text = try await text(request)
        if allowEmpty, text.allSatisfy(\.isWhitespace) { return [:] }
        guard case .object(let object)? = try? JSONValue(parsing: text) else {
            throw Self.badRequest("The body must be a JSON object.")
        }
        return object
    }

    /// A snapshot as a SQLite database file (`GET` with `Accept`, `PUT` with `Content-Type`).
    static let databaseType = "application/vnd.sqlite3"

    /// How many items each model holds.
    static func counts(_ fixture: Fixture) async throws -> [String: JSONValue] {
        let schema = fixture.schema
        return try await fixture.store.read { tx in
            var counts: [String: JSONValue] = [:]
            for model in schema.models { counts[model.name] = .int(try tx.count(model).items) }
            return counts
        }
    }

    static func snapshotName(_ context: some RequestContext) throws -> String {
        let name = context.parameters.get("name") ?? ""
        guard !name.isEmpty, name.count <= 100 else { throw badRequest("A snapshot name is 1 to 100 characters.") }
        return name
    }

    static func limit(_ request: Request) throws -> Int {
        let text = request.uri.queryParameters["limit"].map(String.init) ?? "100"
        guard let limit = Int(text), (1...10_000).contains(limit) else {
            throw FixtureErrorResponse(
                status: .badRequest, error: AppSyncError(.invalidArgument, "limit must be a whole number from 1 to 10000, got '\(text)'."))
        }
        return limit
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    static func badRequest(_ message: String) -> FixtureErrorResponse {
        FixtureErrorResponse(status: .badRequest, error: AppSyncError(.badRequest, message))
    }

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=UTF-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: value.jsonText)))
    }
}
