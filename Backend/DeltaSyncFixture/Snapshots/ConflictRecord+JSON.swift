import DeltaSyncCore
import DeltaSyncStorage

// A conflict record as snapshots and `GET /admin/conflicts` write it, and as a snapshot is read.
extension ConflictRecord {
    var json: JSONValue {
        [
            "model": .string(model), "key": .object(key), "mutation": .string(mutation),
            "incomingVersion": .int(incomingVersion), "storedVersion": .int(storedVersion),
            "handler": .string(handler), "outcome": .string(outcome),
            "resultVersion": resultVersion.map(JSONValue.int) ?? .null, "at": .int(at),
        ]
    }

    init(json: JSONValue, at path: [JSONTextLocation.Step]) throws(FixtureValueError) {
        guard case .object(let object) = json, case .object(let key)? = object["key"],
            let model = object["model"]?.stringValue, let mutation = object["mutation"]?.stringValue,
            let incoming = object["incomingVersion"]?.intValue, let stored = object["storedVersion"]?.intValue,
            let handler = object["handler"]?.stringValue, let outcome = object["outcome"]?.stringValue,
            let at = object["at"]?.intValue
        else {
            throw FixtureValueError(
                path: path,
                reason: "expected a conflict record: model, key, mutation, incomingVersion, storedVersion, handler, outcome, resultVersion, at.")
        }
        self.init(
            model: model, key: key, mutation: mutation, incomingVersion: incoming, storedVersion: stored, handler: handler,
            outcome: outcome, resultVersion: object["resultVersion"]?.intValue, at: at)
    }
}
