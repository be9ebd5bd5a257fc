import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The files the package ships beside the binary: the built-in scenarios
/// (`Builtin/`) and device presets (`Devices/`), in SwiftPM's resource
/// folder `latsim_Scenarios.resources`.
///
/// On Linux, where SwiftPM puts that folder beside the executable, a file is
/// read from there directly; anywhere else (another layout, a test bundle,
/// macOS) it is found through the package's resource bundle. Both read the
/// same file: finding the bundle through Foundation (`Bundle.module`, which
/// sets up Foundation's bundle and URL machinery) cost about 3 M
/// instructions, an eighth of what a short `latsim run` spends on itself.
enum BundledFile {
    /// The resource folder beside the running executable, when there is one.
    static let besideExecutable: String? = {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: 4097)
        let n = readlink("/proc/self/exe", &buffer, 4096)
        guard n > 0 else { return nil }
        let executable = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = executable.lastIndex(of: "/") else { return nil }
        let folder = String(executable[..<slash]) + "/latsim_Scenarios.resources"
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return folder
        #else
        return nil
        #endif
    }()

    /// The text of `subdirectory/name.yaml`, or nil when there is none.
    static func yaml(_ name: String, in subdirectory: String) -> String? {
        if let folder = besideExecutable,
           let data = FileManager.default.contents(atPath: folder + "/" + subdirectory + "/" + name + ".yaml") {
            return String(data: data, encoding: .utf8)
        }
        guard let url = Bundle.module.url(forResource: name, withExtension: "yaml", subdirectory: subdirectory),
              let data = try? Data(contentsOf: url) else { return nil }
        return String(data: data, encoding: .utf8)
    }
}
