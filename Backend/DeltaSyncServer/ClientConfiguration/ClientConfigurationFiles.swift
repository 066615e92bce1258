import Foundation

/// Writes a ``ClientConfiguration``'s files into a folder (created if missing), each
/// atomically, so an app build never reads half a file.
public enum ClientConfigurationFiles {
    /// - Returns: the paths written.
    @discardableResult
    public static func write(_ configuration: ClientConfiguration, to folder: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try configuration.files.keys.sorted().map { name in
            let path = (folder as NSString).appendingPathComponent(name)
            try configuration.files[name]!.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }
}
