/// `java.util.List`'s and `java.util.Map`'s methods, which change the shared list or map.
extension VTLMethods {
    static func list(_ list: VTLList, _ method: VTLMethodName, _ arguments: VTLArguments, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        switch (method.known, arguments.count) {
        case (.size?, 0): return .int(list.items.count)
        case (.isEmpty?, 0): return .bool(list.items.isEmpty)
        case (.get?, 1):
            let index = try int(arguments, 0, method, on: .list(list), e, at: position)
            guard list.items.indices.contains(index) else {
                throw e.failure("get(\(index)) is outside a list of \(list.items.count) items", at: position)
            }
            return list.items[index]
        case (.add?, 1):
            try grow(list.items.count + 1, &e, at: position)
            list.items.append(arguments[0])
            return .bool(true)
        case (.addAll?, 1):
            guard case .list(let more) = arguments[0] else { throw noMethod(method, on: .list(list), arguments, e, at: position) }
            try grow(list.items.count + more.items.count, &e, at: position)
            list.items.append(contentsOf: more.items)
            return .bool(true)
        case (.contains?, 1): return .bool(list.items.contains(arguments[0]))
        case (.indexOf?, 1): return .int(list.items.firstIndex(of: arguments[0]) ?? -1)
        case (.set?, 2):
            let index = try int(arguments, 0, method, on: .list(list), e, at: position)
            guard list.items.indices.contains(index) else { throw e.failure("set(\(index), ...) is outside the list", at: position) }
            let previous = list.items[index]
            list.items[index] = arguments[1]
            return previous
        case (.remove?, 1):
            if case .int(let index) = arguments[0] {
                guard list.items.indices.contains(index) else { throw e.failure("remove(\(index)) is outside the list", at: position) }
                return list.items.remove(at: index)
            }
            guard let found = list.items.firstIndex(of: arguments[0]) else { return .bool(false) }
            list.items.remove(at: found)
            return .bool(true)
        default:
            throw noMethod(method, on: .list(list), arguments, e, at: position)
        }
    }

    static func map(_ map: VTLMap, _ method: VTLMethodName, _ arguments: VTLArguments, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        switch (method.known, arguments.count) {
        // `$foreach` is Velocity's loop scope, whose getters templates also call as methods.
        case (.hasNext?, 0), (.count?, 0), (.index?, 0), (.first?, 0), (.last?, 0):
            guard let value = map.value(forKey: method.text) else { throw noMethod(method, on: .map(map), arguments, e, at: position) }
            return value
        case (.size?, 0): return .int(map.entries.count)
        case (.isEmpty?, 0): return .bool(map.entries.isEmpty)
        case (.get?, 1): return map.value(forKey: arguments[0].rendered) ?? .null
        case (.containsKey?, 1): return .bool(map.value(forKey: arguments[0].rendered) != nil)
        case (.containsValue?, 1): return .bool(map.entries.values.contains(arguments[0]))
        case (.put?, 2):
            try grow(map.entries.count + 1, &e, at: position)
            return map.entries.updateValue(arguments[1], forKey: arguments[0].rendered) ?? .null
        case (.putAll?, 1):
            guard case .map(let more) = arguments[0] else { throw noMethod(method, on: .map(map), arguments, e, at: position) }
            try grow(map.entries.count + more.entries.count, &e, at: position)
            for (key, entry) in more.entries { map.entries[key] = entry }
            return .null
        case (.remove?, 1): return map.entries.removeValue(forKey: arguments[0].rendered) ?? .null
        case (.keySet?, 0): return .list(VTLList(map.entries.keys.map(VTLValue.string)))
        case (.values?, 0): return .list(VTLList(Array(map.entries.values)))
        case (.entrySet?, 0): return .list(VTLList(map.entries.map { .map(VTLMap(.entry(key: $0.key, value: $0.value))) }))
        default:
            throw noMethod(method, on: .map(map), arguments, e, at: position)
        }
    }
}
