import DeltaSyncCore
import DeltaSyncSchema
import DeltaSyncStorage

/// "Query instead of Scan" for selective sync (spec §3.3): a base sync whose filter is
/// `{and: [{<partition>: {eq: v}}, <optional sort key condition>, ...]}`, with `<partition>`
/// the primary key's or an index's partition field, reads that key range instead of the whole
/// table. Anything else scans. The whole filter is still applied to what is read, so the plan
/// changes cost, never results.
enum SelectiveSyncPlan {
    static func access(for model: ModelSchema, filter: JSONValue) -> ItemQuery.Access {
        guard let conjuncts = filter["and"].arrayValue, let first = conjuncts.first?.objectValue, first.count == 1,
            let (field, condition) = first.first, let ops = condition.objectValue, ops.count == 1,
            let partition = ops["eq"], !partition.isNull
        else { return .scan }
        let candidates: [(name: String?, sortKeyFields: [String])] =
            (model.primaryKey.partitionField == field ? [(nil, model.primaryKey.sortKeyFields)] : [])
            + model.indexes.filter { $0.partitionField == field }.map { ($0.name, $0.sortKeyFields) }
        guard let index = candidates.first else { return .scan }
        var sortKey: SortKeyCondition?
        if index.sortKeyFields.count == 1, conjuncts.count > 1, let second = conjuncts[1].objectValue,
            second.count == 1, let condition = second[index.sortKeyFields[0]]
        {
            sortKey = keyCondition(condition)
        }
        return .index(index.name, partition: partition, sortKey: sortKey)
    }

    /// A single-operator condition that DynamoDB accepts as a key condition.
    private static func keyCondition(_ condition: JSONValue) -> SortKeyCondition? {
        guard let ops = condition.objectValue, ops.count == 1, let (op, value) = ops.first, !value.isNull else {
            return nil
        }
        switch op {
        case "eq": return .eq([value])
        case "le": return .le([value])
        case "lt": return .lt([value])
        case "ge": return .ge([value])
        case "gt": return .gt([value])
        case "beginsWith": return .beginsWith([value])
        case "between":
            guard let pair = value.arrayValue, pair.count == 2 else { return nil }
            return .between([pair[0]], [pair[1]])
        default: return nil
        }
    }
}
