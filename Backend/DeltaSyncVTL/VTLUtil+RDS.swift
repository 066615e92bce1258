import DeltaSyncCore
import OrderedCollections

/// `$util.rds`: an RDS Data API result (`ExecuteStatement`'s or a batch's JSON, as the data
/// source gives it in `$ctx.result`) as one list per statement of its records, each record a
/// map of column names to values. A statement that returned no records (an `INSERT`, `UPDATE`
/// or `DELETE`) is an empty list, a result without `sqlStatementResults` an empty list of
/// statements.
///
/// ```
/// {"sqlStatementResults": [{"records": [[{"stringValue": "Mark Twain"}]],
///   "columnMetadata": [{"name": "author", ...}]}]}   ->   [[{"author": "Mark Twain"}]]
/// ```
extension VTLUtil {
    static let rdsFunctions: [String: VTLUtilFunction] = [
        "rds.toJsonObject": { _, call in try rdsRecords(call) },
        "rds.toJsonString": { _, call in .string(try rdsRecords(call).jsonText) },
    ]

    private static func rdsRecords(_ call: VTLUtilCall) throws -> VTLValue {
        try call.expect(1...1)
        let result: JSONValue
        switch call[0] {
        case .string(let text):
            guard let parsed = try? JSONValue(parsing: text) else { throw call.failure("argument 1 must be the Data API's result as JSON") }
            result = parsed
        case .map(let map):
            result = map.json
        default:
            throw call.failure("argument 1 must be the Data API's result, as JSON text or a map")
        }
        guard case .array(let statements) = result["sqlStatementResults"] else { return .list(VTLList()) }
        return .list(VTLList(statements.map { statement in
            let columns = statement["columnMetadata"].arrayValue ?? []
            let names = columns.map { $0["name"].stringValue ?? $0["label"].stringValue ?? "" }
            let records = statement["records"].arrayValue ?? []
            return .list(VTLList(records.map { record in
                var row = OrderedDictionary<String, VTLValue>()
                for (offset, field) in (record.arrayValue ?? []).enumerated() {
                    row[offset < names.count ? names[offset] : String(offset)] = VTLValue(json: fieldValue(field))
                }
                return .map(VTLMap(row))
            }))
        }))
    }

    /// A Data API `Field`'s value: the one value it holds (`stringValue`, `longValue`,
    /// `doubleValue`, `booleanValue`, `blobValue` as base64), null for `isNull`, and an
    /// `arrayValue` as the list of its values.
    private static func fieldValue(_ field: JSONValue) -> JSONValue {
        guard case .object(let members) = field else { return field }
        if members["isNull"]?.boolValue == true { return .null }
        for key in ["stringValue", "longValue", "doubleValue", "booleanValue", "blobValue"] {
            if let value = members[key] { return value }
        }
        if let array = members["arrayValue"] { return arrayValue(array) }
        return members.values.first ?? .null
    }

    private static func arrayValue(_ array: JSONValue) -> JSONValue {
        guard case .object(let members) = array else { return array }
        if case .array(let nested)? = members["arrayValues"] { return .array(nested.map(arrayValue)) }
        for key in ["stringValues", "longValues", "doubleValues", "booleanValues"] {
            if let values = members[key] { return values }
        }
        return .array([])
    }
}
