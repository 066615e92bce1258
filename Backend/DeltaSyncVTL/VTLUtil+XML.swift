/// `$util.xml`: an XML document (an HTTP data source's body) as a map (``VTLXMLReader``) or as
/// JSON text.
extension VTLUtil {
    static let xmlFunctions: [String: VTLUtilFunction] = [
        "xml.toMap": { _, call in
            try call.expect(1...1)
            return try xml(call)
        },
        // With `true` as the second argument, the JSON text is itself written as a JSON string.
        "xml.toJsonString": { _, call in
            try call.expect(1...2)
            let json = try xml(call).jsonText
            return .string(call[1].isTrue ? VTLValue.string(json).jsonText : json)
        },
    ]

    private static func xml(_ call: VTLUtilCall) throws -> VTLValue {
        guard case .string(let text) = call[0] else { throw call.failure("argument 1 must be a string of XML") }
        do {
            return try VTLXMLReader.read(text)
        } catch {
            throw call.failure("the XML is malformed at line \(error.line), column \(error.column): \(error.message)")
        }
    }
}
