import ArgumentParser
import FramePipeline
import LatsimOutput
import Scenarios
import SimKernel

/// `latsim devices`: the device presets and where each of their values
/// comes from (Docs/Devices.md).
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the device presets, or show one with the source of each of its values.",
        discussion: """
        A preset holds only facts of its device (a manufacturer's table, its device \
        tree's BoardConfig.mk or device.mk, a Google WALT stage measurement, the WWDC \
        2015 talk) or a class default documented once (an LCD's response, an \
        unpublished scan rate). Run a scenario on one with `--device NAME` or \
        `device: NAME` in a scenario file; the scenario's own keys and --set still \
        override it. A preset YAML file works wherever a name does.

        Examples:
          latsim devices
          latsim devices --show ipad-air-2
          latsim run walt-screen --device nexus-9
        """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("Show one preset: every value, where it comes from, and the notes.", valueName: "NAME"))
    var show: String?

    func run() throws {
        if let show {
            let preset: DevicePreset
            do { preset = try DevicePreset.named(show) } catch {
                var e = error
                if e.file == nil { e.file = "--show" }
                throw e
            }
            CLI.say(DeviceText.show(preset))
            return
        }
        CLI.say(DeviceText.list(try DevicePreset.all()))
    }
}

/// The readable forms of `latsim devices`.
enum DeviceText {
    /// One line per preset: its rates, panel, touch-down and the kinds of source.
    static func list(_ presets: [DevicePreset]) -> String {
        var t = TextTable(header: ["device", "platform", "Android", "display Hz", "scan Hz", "touch-down", "panel", "sources", "description"],
                          rightAligned: [3, 4])
        for p in presets {
            func value(_ path: String, _ fallback: String) -> String { p.parameter(path)?.value ?? fallback }
            var scan = value("device.scanHz", "60")
            if let pencil = p.parameter("device.pencilScanHz") { scan += " (Pencil \(pencil.value))" }
            let kinds = Array(Set(p.parameters.map { $0.className.map { "class " + $0 } ?? $0.from })).sorted()
            let android = p.platform == .android ? value("os.androidVersion", ConfigurationKey.byPath["os.androidVersion"]?.defaultValue ?? "-") : "-"
            t.rows.append([p.name, p.platform.rawValue, android, value("device.displayHz", "60"), scan, value("device.touchDownDelay", "auto"),
                           p.classes.first { $0 == "lcd" || $0 == "oled" }?.uppercased() ?? "-", kinds.joined(separator: ", "),
                           p.description])
        }
        var lines = [t.render()]
        let same = indistinguishable(presets)
        if !same.isEmpty {
            lines.append("")
            for group in same {
                lines.append("Indistinguishable: " + listed(group.map(\.name), conjunction: "and")
                             + " set the same keys to the same values; no sourced fact tells them apart, so every run gives the same figures on each.")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The groups (of two or more) of presets of one platform whose
    /// settings are the same key for key: nothing sourced tells them apart.
    static func indistinguishable(_ presets: [DevicePreset]) -> [[DevicePreset]] {
        var groups: [[DevicePreset]] = []
        var seen: [String: Int] = [:]
        for p in presets {
            let facts = p.parameters.map { "\($0.path)=\($0.value)" }.sorted()
            let key = p.platform.rawValue + "|" + facts.joined(separator: "|")
            if let i = seen[key] { groups[i].append(p) } else { seen[key] = groups.count; groups.append([p]) }
        }
        return groups.filter { $0.count > 1 }
    }

    /// Every value of a preset with its source, the keys left at the generic
    /// defaults, and the notes.
    static func show(_ p: DevicePreset) -> String {
        var lines = ["\(p.name): \(p.description)", "platform \(p.platform.rawValue); file \(p.file)", ""]
        var t = TextTable(header: ["key", "value", "from", "source"])
        t.rows.append(["os.platform", p.platform.rawValue, "preset", "the device's platform"])
        for x in p.parameters {
            t.rows.append([x.path, x.value, x.className.map { "class \($0)" } ?? x.from, x.source])
        }
        lines.append(t.render())
        let generic = ConfigurationKey.all.filter { k in
            k.path.hasPrefix("device.") && k.applies(to: p.platform) && p.parameter(k.path) == nil
                && !["device.noise", "device.quantization", "device.pointsPerMM", "device.widthPoints", "device.heightPoints"].contains(k.path)
        }
        if !generic.isEmpty {
            lines.append("")
            lines.append("Left at the generic device's value (nothing published for this device): "
                         + generic.map { "\($0.path) \($0.defaultValue(for: p.platform))" }.joined(separator: ", ") + ".")
        }
        if let all = try? DevicePreset.all(),
           let group = indistinguishable(all).first(where: { $0.contains { $0.name == p.name } }) {
            lines.append("")
            lines.append("Indistinguishable from " + listed(group.filter { $0.name != p.name }.map(\.name), conjunction: "and")
                         + ": the same keys with the same values; no sourced fact tells them apart.")
        }
        if !p.notes.isEmpty {
            lines.append("")
            lines.append("Notes:")
            for n in p.notes { lines.append("- " + n) }
        }
        return lines.joined(separator: "\n")
    }
}
