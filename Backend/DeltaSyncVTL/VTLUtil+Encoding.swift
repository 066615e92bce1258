import Foundation

/// `$util`'s encodings: URL (as Java's `URLEncoder`), base64, and JavaScript string escapes.
extension VTLUtil {
    static let encodingFunctions: [String: VTLUtilFunction] = [
        "urlEncode": { _, call in .string(urlEncoded(call.text(0))) },
        "urlDecode": { _, call in .string(call.text(0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? call.text(0)) },
        "base64Encode": { _, call in .string(Data(call.text(0).utf8).base64EncodedString()) },
        "base64Decode": { _, call in
            guard let data = Data(base64Encoded: call.text(0)) else { throw call.failure("'\(call.text(0))' is not base64") }
            return .string(String(decoding: data, as: UTF8.self))
        },
        "escapeJavaScript": { _, call in .string(javaScriptEscaped(call.text(0))) },
    ]

    /// Java's `URLEncoder`: ASCII letters, digits and `-_.*` stay, a space is `+`, the rest
    /// is percent-encoded UTF-8.
    private static func urlEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-_.*")
        let encoded = text.addingPercentEncoding(withAllowedCharacters: allowed.union(CharacterSet(charactersIn: " "))) ?? ""
        return encoded.replacingOccurrences(of: " ", with: "+")
    }

    /// Commons Lang's `escapeEcmaScript`: quotes, backslash, slash and control characters
    /// escaped, everything outside printable ASCII as `\uXXXX`.
    private static func javaScriptEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            case "/": out += "\\/"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value > 0x7e {
                    out += String(format: "\\u%04X", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
