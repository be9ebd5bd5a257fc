import FramePipeline
import SimKernel
/// Writes settings back as a scenario YAML document.
public enum ScenarioYAML {
    /// Every key of the run's platform with the value it resolves to,
    /// nested by path, with a comment marking keys left at their default.
    public static func resolved(name: String, description: String, settings: Settings) -> String {
        var lines = ["name: \(quote(name))", "description: \(quote(description))"]
        if let device = settings.devicePreset { lines.append("# on device \(device): its values are written out below") }
        var open: [Substring] = []
        for key in ConfigurationKey.all where key.applies(to: settings.platform) {
            let parts = key.path.split(separator: ".")
            let parents = Array(parts.dropLast())
            var common = 0
            while common < min(open.count, parents.count) && open[common] == parents[common] { common += 1 }
            open = Array(open.prefix(common))
            for p in parents.dropFirst(common) {
                lines.append(String(repeating: "  ", count: open.count) + "\(p):")
                open.append(p)
            }
            let isDefault = settings.entries[key.path] == nil
            let value = quote(settings.text(key.path))
            lines.append(String(repeating: "  ", count: open.count) + "\(parts.last!): \(value)" + (isDefault ? "  # default" : ""))
        }
        return lines.joined(separator: "\n")
    }

    static func quote(_ s: String) -> String {
        let plain = s.allSatisfy { $0.isLetter || $0.isNumber || ".-_/".contains($0) } && !s.isEmpty
        return plain ? s : "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

import Foundation
