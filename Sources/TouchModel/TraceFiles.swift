import Foundation
import SimKernel

/// Choosing the trace files of a directory: the one walk of a folder of
/// recorded traces.
public enum TraceFiles {
    /// The `.xml` and `.csv` files under `directory`, recursively, as paths
    /// relative to it, sorted. With a non-empty `include`, only the files
    /// that have a folder of one of those names on their relative path (the
    /// $1 dataset keeps `sNN/medium/` and `sNN/fast/` apart, for instance).
    public static func list(under directory: String, include: [String] = []) throws(LatsimError) -> [String] {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
              let walker = fm.enumerator(atPath: directory) else {
            throw LatsimError(file: directory, problem: "not a readable directory", expected: "a directory of .xml/.csv traces")
        }
        let wanted = Set(include)
        var all = 0
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let ext = (relative as NSString).pathExtension.lowercased()
            guard ext == "xml" || ext == "csv" else { continue }
            var sub: ObjCBool = false
            let full = (directory as NSString).appendingPathComponent(relative)
            guard fm.fileExists(atPath: full, isDirectory: &sub), !sub.boolValue else { continue }
            all += 1
            let folders = (relative as NSString).pathComponents.dropLast()
            if wanted.isEmpty || folders.contains(where: wanted.contains) { found.append(relative) }
        }
        if found.isEmpty {
            let what = wanted.isEmpty ? "no .xml/.csv trace file"
                : "none of its \(all) .xml/.csv trace files is in a folder named \(include.joined(separator: " or "))"
            throw LatsimError(file: directory, problem: what, expected: "at least one readable trace")
        }
        return found.sorted()
    }
}
