import ArgumentParser
import FramePipeline
import LatencyReport
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
        var t = TextTable(header: ["device", "platform", "display Hz", "scan Hz", "touch-down", "panel", "sources", "description"],
                          rightAligned: [2, 3])
        for p in presets {
            func value(_ path: String, _ fallback: String) -> String { p.parameter(path)?.value ?? fallback }
            var scan = value("device.scanHz", "60")
            if let pencil = p.parameter("device.pencilScanHz") { scan += " (Pencil \(pencil.value))" }
            let kinds = Array(Set(p.parameters.map { $0.className.map { "class " + $0 } ?? $0.from })).sorted()
            t.rows.append([p.name, p.platform.rawValue, value("device.displayHz", "60"), scan, value("device.touchDownDelay", "auto"),
                           p.classes.first { $0 == "lcd" || $0 == "oled" }?.uppercased() ?? "-", kinds.joined(separator: ", "),
                           p.description])
        }
        return t.render()
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
        if !p.notes.isEmpty {
            lines.append("")
            lines.append("Notes:")
            for n in p.notes { lines.append("- " + n) }
        }
        return lines.joined(separator: "\n")
    }
}
