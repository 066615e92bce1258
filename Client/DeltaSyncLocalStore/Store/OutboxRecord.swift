import DeltaSyncCore
import GRDB

/// A row of the outbox table as stored. Reading it checks what the sender relies on: a row
/// that was changed outside DeltaSync, or damaged, is an error, never a guess (an unreadable
/// item sent as `{}`, or an unknown type sent as an update, would be a wrong mutation).
struct OutboxRecord: FetchableRecord, TableRecord, Sendable {
    static let databaseTableName = ClientTables.outbox
    static var databaseSelection: [any SQLSelectable] {
        [Column("sequence"), Column("model"), Column("modelID"), Column("mutationType"), Column("item"), Column("condition")]
    }

    let sequence: Int64
    let model: String
    let modelID: String
    let mutationType: String
    let item: String
    let condition: String?

    init(row: Row) throws {
        sequence = row["sequence"]
        model = row["model"]
        modelID = row["modelID"]
        mutationType = row["mutationType"]
        item = row["item"]
        condition = row["condition"]
    }

    /// The pending mutation, or ``DataStoreError/unreadableOutboxMutation(sequence:model:reason:)``.
    func mutation() throws(DataStoreError) -> OutboxMutation {
        func unreadable(_ reason: String) -> DataStoreError {
            .unreadableOutboxMutation(sequence: sequence, model: model, reason: reason)
        }
        guard let type = MutationType(rawValue: mutationType) else {
            throw unreadable("unknown mutation type '\(mutationType)'")
        }
        guard case .object(let fields)? = try? JSONValue(parsing: item) else {
            throw unreadable("its item is not a JSON object")
        }
        var parsedCondition: JSONValue?
        if let condition {
            guard let parsed = try? JSONValue(parsing: condition) else { throw unreadable("its condition is not JSON") }
            parsedCondition = parsed
        }
        return OutboxMutation(
            sequence: sequence, modelName: model, modelID: modelID, mutationType: type, item: fields, condition: parsedCondition)
    }
}
