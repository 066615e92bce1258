import Foundation

/// The folder generated files are written to.
///
/// Files whose text is unchanged are left alone, so their modification dates stay and a build
/// does not recompile them. Swift files that carry ``SwiftModelGenerator/header`` but are no
/// longer generated (a type was removed from the schema) are deleted; any other file is never
/// touched.
///
/// ```swift
/// let result = try GeneratedDirectory(path: "Sources/App/Models").write(generator.files())
/// print(result.removed)            // ["Draft.swift"]
/// ```
public struct GeneratedDirectory: Sendable {
    /// What ``write(_:)`` did, by file name.
    public struct Changes: Equatable, Sendable {
        /// Files created or rewritten with new text.
        public var written: [String] = []
        /// Files that already held the generated text.
        public var unchanged: [String] = []
        /// Stale generated files deleted.
        public var removed: [String] = []
    }

    /// The folder.
    public let url: URL

    /// - Parameter path: The folder; created with its parents when missing.
    public init(path: String) {
        url = URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Writes `files` and removes stale generated files.
    ///
    /// - Throws: ``GeneratedDirectoryError`` naming the file that could not be written, read
    ///   or removed.
    public func write(_ files: [GeneratedFile]) throws(GeneratedDirectoryError) -> Changes {
        let manager = FileManager.default
        do {
            try manager.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw GeneratedDirectoryError(path: url.path, action: "create the folder", underlying: error)
        }
        var changes = Changes()
        for file in files {
            let target = url.appendingPathComponent(file.name)
            let data = Data(file.contents.utf8)
            if manager.contents(atPath: target.path) == data {
                changes.unchanged.append(file.name)
                continue
            }
            do {
                try data.write(to: target, options: .atomic)
            } catch {
                throw GeneratedDirectoryError(path: target.path, action: "write", underlying: error)
            }
            changes.written.append(file.name)
        }
        changes.removed = try removeStale(keeping: Set(files.map(\.name)))
        return changes
    }

    private func removeStale(keeping names: Set<String>) throws(GeneratedDirectoryError) -> [String] {
        let manager = FileManager.default
        let present: [String]
        do {
            present = try manager.contentsOfDirectory(atPath: url.path)
        } catch {
            throw GeneratedDirectoryError(path: url.path, action: "list", underlying: error)
        }
        var removed: [String] = []
        for name in present.sorted() where name.hasSuffix(".swift") && !names.contains(name) {
            let file = url.appendingPathComponent(name)
            guard let data = manager.contents(atPath: file.path),
                data.starts(with: Data(SwiftModelGenerator.header.utf8))
            else { continue }
            do {
                try manager.removeItem(at: file)
            } catch {
                throw GeneratedDirectoryError(path: file.path, action: "remove", underlying: error)
            }
            removed.append(name)
        }
        return removed
    }
}

/// A file or folder ``GeneratedDirectory`` could not write, read or remove.
public struct GeneratedDirectoryError: Error, CustomStringConvertible {
    /// The file or folder.
    public let path: String
    /// What was attempted: `write`, `remove`, ...
    public let action: String
    /// The file system's error.
    public let underlying: any Error

    public var description: String {
        "cannot \(action) \(path): \((underlying as NSError).localizedDescription)"
    }
}
