import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DevelopmentCertificate {
    static func path(_ directory: String, _ file: String) -> String {
        (directory as NSString).appendingPathComponent(file)
    }

    /// Writes `text` aside, created with `mode` (a key is never readable by others, not even
    /// for a moment), then renames it into place (a reader never sees half a file).
    static func save(_ text: String, to path: String, mode: mode_t) throws {
        let aside = path + ".\(UUID().uuidString)"
        func failure(_ step: String) -> DevelopmentCertificateError {
            DevelopmentCertificateError("cannot write \(path) (\(step): \(String(cString: strerror(errno)))); check that its folder is writable")
        }
        let descriptor = open(aside, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard descriptor >= 0 else { throw failure("open") }
        let bytes = Array(text.utf8)
        // The umask may have taken bits away from `mode`; a certificate must stay readable.
        let written = fchmod(descriptor, mode) == 0 && bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == bytes.count
        let error = written ? nil : failure("write")
        close(descriptor)
        if let error {
            unlink(aside)
            throw error
        }
        guard rename(aside, path) == 0 else {
            let error = failure("rename")
            unlink(aside)
            throw error
        }
    }
}
