import Foundation
import Testing

/// The module layout of Docs/Architecture.md holds in the code: every
/// module imports only the targets Package.swift gives it, and the
/// dependencies point one way (the schema knows no output but its own;
/// Charts and Traces know neither each other nor the Report).
@Suite struct ArchitectureTests {
    /// Each target of Package.swift with the package's targets it depends on.
    static func targets() throws -> [String: Set<String>] {
        let text = try String(contentsOf: Latsim.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let block = try NSRegularExpression(pattern: #"\.(?:target|executableTarget|testTarget)\(\s*name:\s*"([^"]+)"(.*?)\)\s*,\s*\n"#,
                                            options: [.dotMatchesLineSeparators])
        let quoted = try NSRegularExpression(pattern: #""([^"]+)""#)
        var out: [String: Set<String>] = [:]
        let ns = text as NSString
        for m in block.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let name = ns.substring(with: m.range(at: 1)), rest = ns.substring(with: m.range(at: 2))
            // the dependencies' list only: up to `resources:` or `path:`, products' names dropped
            let deps = rest.components(separatedBy: "resources:")[0].components(separatedBy: "path:")[0]
                .replacingOccurrences(of: #"\.product\([^)]*\)"#, with: "", options: .regularExpression)
            out[name] = Set(quoted.matches(in: deps, range: NSRange(location: 0, length: (deps as NSString).length))
                .map { (deps as NSString).substring(with: $0.range(at: 1)) })
        }
        return out
    }

    /// The package's targets a source folder imports.
    static func imports(of folder: String, among targets: Set<String>) throws -> Set<String> {
        let dir = Latsim.packageRoot.appendingPathComponent(folder)
        guard let files = FileManager.default.enumerator(atPath: dir.path) else { return [] }
        var out: Set<String> = []
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let i = words.firstIndex(of: "import"), i + 1 < words.count, i == 0 || words[0] == "@testable" else { continue }
                let module = String(words[i + 1])
                if targets.contains(module) { out.insert(module) }
            }
        }
        return out
    }

    @Test func everyModuleImportsOnlyWhatItsTargetDeclares() throws {
        let targets = try Self.targets()
        #expect(targets["Measures"] != nil && targets["Charts"] != nil && targets["Traces"] != nil && targets["Report"] != nil)
        let names = Set(targets.keys)
        for (name, deps) in targets {
            let folder = FileManager.default.fileExists(atPath: Latsim.packageRoot.appendingPathComponent("Sources/\(name)").path)
                ? "Sources/\(name)" : "Tests/\(name)"
            let used = try Self.imports(of: folder, among: names).subtracting([name])
            #expect(used.isSubset(of: deps), "\(name) imports \(used.subtracting(deps).sorted()) beyond its target's dependencies")
        }
    }

    /// What each module may not depend on, directly or through another.
    @Test func dependenciesPointOneWay() throws {
        let targets = try Self.targets()
        func reach(_ name: String) -> Set<String> {
            var seen: Set<String> = [], todo = [name]
            while let n = todo.popLast() {
                for d in targets[n] ?? [] where !seen.contains(d) { seen.insert(d); todo.append(d) }
            }
            return seen
        }
        let forbidden: [String: Set<String>] = [
            "SimKernel": ["TouchModel", "FramePipeline", "Scenarios", "Measures", "Experiments", "Charts", "Traces", "Report"],
            "FramePipeline": ["Scenarios", "Measures", "Experiments", "Charts", "Traces", "Report"],
            "Measures": ["Experiments", "Charts", "Traces", "Report", "latsim"],
            "Experiments": ["Charts", "Traces", "Report", "latsim"],
            "Charts": ["Traces", "Experiments", "Report", "latsim"],
            "Traces": ["Charts", "Measures", "Experiments", "Report", "latsim"],
            "Report": ["latsim"],
        ]
        for (module, never) in forbidden {
            let reached = reach(module)
            #expect(reached.isDisjoint(with: never), "\(module) reaches \(reached.intersection(never).sorted())")
        }
        // nothing but the command line and its tests depends on the command line
        for (name, deps) in targets where deps.contains("latsim") { #expect(name == "latsimTests", "\(name)") }
    }
}
