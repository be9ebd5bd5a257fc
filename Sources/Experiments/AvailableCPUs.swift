import Foundation
import SimKernel

extension Parallel {
    /// The threads a command runs on by default: the CPUs this process
    /// may use, which is the fewest of the online processors, the CPU
    /// affinity mask (`taskset`, a Slurm task's binding) and the cgroup's
    /// CPU quota rounded up (a container's or a Slurm job's `--cpus`):
    /// `ProcessInfo.activeProcessorCount` counts only the first. At least 1.
    public static var availableCPUs: Int {
        var n = ProcessInfo.processInfo.activeProcessorCount
        if let mask = affinityCount() { n = min(n, mask) }
        if let quota = cgroupQuota() { n = min(n, quota) }
        return max(1, n)
    }

    /// The CPUs of the calling thread's affinity mask (Linux: the
    /// `Cpus_allowed_list` of /proc/thread-self/status), nil where it
    /// cannot be read.
    static func affinityCount() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else { return nil }
        return cpuCount(list: String(line.dropFirst("Cpus_allowed_list:".count)))
    }

    /// The CPUs of a Linux CPU list ("0-3,8,10-11": 7), nil when malformed.
    static func cpuCount(list: String) -> Int? {
        var n = 0
        for item in list.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",") {
            let ends = item.split(separator: "-")
            guard let first = ends.first.flatMap({ Int($0) }), ends.count <= 2 else { return nil }
            let last = ends.count == 2 ? Int(ends[1]) : first
            guard let last, last >= first else { return nil }
            n += last - first + 1
        }
        return n > 0 ? n : nil
    }

    /// The cgroup CPU quota of this process in whole CPUs (rounded up),
    /// nil when there is none: cgroup v2's `cpu.max` of the process's own
    /// cgroup, else v1's `cpu.cfs_quota_us` / `cpu.cfs_period_us`.
    static func cgroupQuota() -> Int? {
        let read = { (path: String) -> String? in try? String(contentsOfFile: path, encoding: .utf8) }
        var v2 = "/sys/fs/cgroup/cpu.max"
        if let own = read("/proc/self/cgroup")?.split(separator: "\n").first(where: { $0.hasPrefix("0::") }) {
            let path = own.dropFirst(3)
            if path != "/", read("/sys/fs/cgroup\(path)/cpu.max") != nil { v2 = "/sys/fs/cgroup\(path)/cpu.max" }
        }
        if let text = read(v2) { return quota(cpuMax: text) }
        // v1: the cpu controller's own cgroup, else its root
        var folders = ["/sys/fs/cgroup/cpu"]
        if let line = read("/proc/self/cgroup")?.split(separator: "\n").first(where: { l in
            l.split(separator: ":", maxSplits: 2).dropFirst().first?.split(separator: ",").contains("cpu") == true
        }), let path = line.split(separator: ":", maxSplits: 2).last, path != "/" {
            folders.insert("/sys/fs/cgroup/cpu\(path)", at: 0)
        }
        for f in folders {
            if let q = read(f + "/cpu.cfs_quota_us"), let p = read(f + "/cpu.cfs_period_us") { return quota(cfsQuota: q, period: p) }
        }
        return nil
    }

    /// Whole CPUs of a cgroup v2 `cpu.max` ("QUOTA PERIOD" or "max PERIOD").
    static func quota(cpuMax text: String) -> Int? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard parts.count >= 2, let q = Int(parts[0]), let p = Int(parts[1]), q > 0, p > 0 else { return nil }
        return (q + p - 1) / p
    }

    /// Whole CPUs of cgroup v1's quota and period (-1: no quota).
    static func quota(cfsQuota: String, period: String) -> Int? {
        guard let q = Int(cfsQuota.trimmingCharacters(in: .whitespacesAndNewlines)),
              let p = Int(period.trimmingCharacters(in: .whitespacesAndNewlines)), q > 0, p > 0 else { return nil }
        return (q + p - 1) / p
    }
}
