import OrderedCollections

/// `$util.http`: request headers copied for an HTTP data source without the hop-by-hop ones,
/// and custom response headers recorded in ``VTLRendering/responseHeaders`` for the host.
///
/// A response header AppSync refuses (no name, a restricted name or prefix, a null value, past
/// 4 KB of headers in all) is not added; a `ResponseHeaderError` is appended to the errors
/// instead, and the template goes on, as AppSync documents.
extension VTLUtil {
    static let httpFunctions: [String: VTLUtilFunction] = [
        "http.copyHeaders": { _, call in
            try call.expect(1...1)
            guard case .map(let headers) = call[0] else { throw call.failure("argument 1 must be a map of headers") }
            let kept = headers.entries.filter { !restrictedRequestHeaders.contains($0.key.lowercased()) }
            return .map(VTLMap(kept.mapValues(\.copied)))
        },
        "http.addResponseHeader": { e, call in
            try call.expect(2...2)
            addResponseHeader(call[0].isNull ? "" : call.text(0), call[1], &e)
            return .string("")
        },
        "http.addResponseHeaders": { e, call in
            try call.expect(1...1)
            guard case .map(let headers) = call[0] else { throw call.failure("argument 1 must be a map of header names to values") }
            for (name, value) in headers.entries { addResponseHeader(name, value, &e) }
            return .string("")
        },
    ]

    /// Headers `copyHeaders` leaves out, lowercased.
    static let restrictedRequestHeaders: Set<String> = [
        "transfer-encoding", "connection", "host", "expect", "keep-alive", "upgrade", "proxy-authenticate",
        "proxy-authorization", "te", "content-length",
    ]

    /// Headers a template may not set on the response, beside ``restrictedRequestHeaders``, lowercased.
    static let restrictedResponseHeaders: Set<String> = [
        "access-control-allow-credentials", "access-control-allow-origin", "access-control-expose-headers",
        "access-control-max-age", "access-control-allow-methods", "access-control-allow-headers", "vary", "content-type",
    ]

    /// Response headers in all, names and values, may take this many bytes.
    static let responseHeaderLimit = 4096

    private static func addResponseHeader(_ name: String, _ value: VTLValue, _ e: inout VTLEvaluation) {
        let lowercased = name.lowercased()
        let text: String
        switch value {
        case .list, .map: text = value.jsonText
        default: text = value.rendered
        }
        let refusal: String?
        if name.isEmpty {
            refusal = "A response header needs a name"
        } else if restrictedRequestHeaders.contains(lowercased) || restrictedResponseHeaders.contains(lowercased) {
            refusal = "The response header '\(name)' is restricted"
        } else if lowercased.hasPrefix("x-amzn-") || lowercased.hasPrefix("x-amz-") {
            refusal = "The response header '\(name)' starts with a restricted prefix (x-amzn-, x-amz-)"
        } else if value.isNull {
            refusal = "The response header '\(name)' has a null value"
        } else if e.responseHeaderBytes + name.utf8.count + text.utf8.count > responseHeaderLimit {
            refusal = "Response headers may take \(responseHeaderLimit) bytes in all, names and values; '\(name)' was not added"
        } else {
            refusal = nil
        }
        if let refusal {
            e.appendedErrors.append(VTLRaisedError(message: refusal, errorType: "ResponseHeaderError", data: .null, errorInfo: .null))
            return
        }
        e.responseHeaderBytes += name.utf8.count + text.utf8.count
        // A name given again takes its latest value; header names ignore case.
        if let offset = e.responseHeaders.firstIndex(where: { $0.name.lowercased() == lowercased }) {
            e.responseHeaders[offset].value = text
        } else {
            e.responseHeaders.append(VTLResponseHeader(name: name, value: text))
        }
    }
}
