/// `$extensions`: AppSync's calls that act beyond the template (subscription filters,
/// invalidations, the API cache). Each is recorded in ``VTLRendering/extensions`` with copies of
/// its values and prints nothing; the resolver layer applies them and enforces where each may
/// be called (subscription or mutation response templates) and AppSync's per-request limits.
enum VTLExtensions {
    static func call(_ name: String, _ arguments: VTLArguments, _ e: inout VTLEvaluation, at position: VTLPosition) throws -> VTLValue {
        let template = e.template
        func fail(_ message: String) -> VTLError {
            VTLError(template: template, position: position, message: "$extensions.\(name): \(message)")
        }
        func map(_ offset: Int) throws -> VTLMap {
            guard arguments.indices.contains(offset), case .map(let map) = arguments[offset] else {
                throw fail("argument \(offset + 1) must be a map")
            }
            return map
        }
        func string(_ offset: Int) throws -> String {
            guard arguments.indices.contains(offset), case .string(let text) = arguments[offset] else {
                throw fail("argument \(offset + 1) must be a string")
            }
            return text
        }
        let call: VTLExtensionCall
        switch (name, arguments.count) {
        case ("setSubscriptionFilter", 1):
            call = .setSubscriptionFilter(.map(try map(0)).copied)
        case ("setSubscriptionInvalidationFilter", 1):
            call = .setSubscriptionInvalidationFilter(.map(try map(0)).copied)
        case ("invalidateSubscriptions", 1):
            let request = try map(0)
            guard case .string(let field)? = request.entries["subscriptionField"] else {
                throw fail("the map needs \"subscriptionField\", the subscription's name")
            }
            call = .invalidateSubscriptions(subscriptionField: field, payload: (request.entries["payload"] ?? .null).copied)
        case ("evictFromApiCache", 3):
            call = .evictFromApiCache(typeName: try string(0), fieldName: try string(1), keys: .map(try map(2)).copied)
        default:
            throw fail("$extensions has setSubscriptionFilter(filter), setSubscriptionInvalidationFilter(filter), invalidateSubscriptions({subscriptionField, payload}) and evictFromApiCache(typeName, fieldName, keys)")
        }
        e.extensionCalls.append(call)
        // Empty, not null: a null would print the reference's own text.
        return .string("")
    }
}
