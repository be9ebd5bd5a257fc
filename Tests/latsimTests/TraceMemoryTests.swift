import Foundation
import Testing

/// A run writing a trace or `--frames` keeps no more of its frame log than
/// a few seconds': its memory does not grow with its duration.
@Suite struct TraceMemoryTests {
    /// True when the command runs within `kb` of data segment (the shell's
    /// `ulimit -d`: setrlimit RLIMIT_DATA in the child, which bounds its
    /// heap and private mappings). A run that does not fit stops when an
    /// allocation fails; Swift's crash reporter is turned off for it, since
    /// the reporter, under the same limit, could hang holding the child
    /// (seen once: the test then waited for good).
    static func fits(_ args: [String], dataKB kb: Int) throws -> Bool {
        let quoted = ([Latsim.binary.path] + args).map { "'" + $0 + "'" }.joined(separator: " ")
        return try ImportHostileTests.shell("export SWIFT_BACKTRACE=enable=no && ulimit -d \(kb) && exec \(quoted) >/dev/null", []).status == 0
    }

    /// The smallest data segment, in KB to 8 MB, that the command runs in.
    static func smallestFit(_ args: [String]) throws -> Int {
        var kb = 24 * 1024
        while try !fits(args, dataKB: kb) {
            kb += 8 * 1024
            try #require(kb < 2 * 1024 * 1024, "\(args) does not fit in 2 GB")
        }
        return kb
    }

    /// A trace is made as its run goes: an android-default trace of 600 s
    /// (JSON) or 900 s (Perfetto) fits in the data segment one of 60 s or
    /// 300 s needs plus 8 MB, where the frame log the run once kept to the
    /// end grew about 90 bytes an estimated event (26 MB and 29 MB more).
    /// The shorter runs already spill (the JSON's events past 4 MiB, the
    /// Perfetto sort's packets past 16 MiB), which takes buffers of its own.
    @Test(arguments: [("t.json", "60s", "600s"), ("t.perfetto-trace", "300s", "900s")])
    func aTraceTakesTheSameMemoryAtAnyDuration(file: String, short: String, long: String) throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func command(_ duration: String) -> [String] {
            ["run", "android-default", "--duration", duration, "--trace", dir.appendingPathComponent(file).path]
        }
        let base = try Self.smallestFit(command(short))
        #expect(try Self.fits(command(long), dataKB: base + 8 * 1024), "a \(long) trace does not fit in \(base + 8 * 1024) KB")
        #expect(try Data(contentsOf: dir.appendingPathComponent(file)).count > 50_000_000)
    }

    /// Under a data limit too small for the trace writer's thread (its
    /// stack refused), a traced run waited for good for a thread that never
    /// ran (found when this suite hung a CI run). It now writes on its own
    /// thread, or stops when an allocation fails: it ends either way, well
    /// before `timeout` (whose status, 124, is the hang).
    @Test func aRefusedWriterThreadEndsTheRun() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let o = try ImportHostileTests.shell(
            "export SWIFT_BACKTRACE=enable=no && ulimit -d 24576 && exec timeout 120 \"$0\" run android-default --duration 60s --trace \"$1\"",
            [Latsim.binary.path, dir.appendingPathComponent("t.json").path])
        #expect(o.status != 124, "the run did not end in 120 s")
    }

    /// `--trace` with `--frames`: the rows go out as they come and the
    /// trace reads the log, so the pair also keeps nothing that grows: a
    /// 600 s run fits in what a 60 s one needs plus 8 MB (the whole log
    /// the pair once kept grew about 90 bytes an estimated event, 26 MB
    /// more for these 540 s).
    @Test func aTraceWithFramesTakesTheSameMemoryAtAnyDuration() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func command(_ duration: String) -> [String] {
            ["run", "android-default", "--duration", duration, "--trace", dir.appendingPathComponent("t.json").path,
             "--frames", dir.appendingPathComponent("f.csv").path]
        }
        let base = try Self.smallestFit(command("60s"))
        #expect(try Self.fits(command("600s"), dataKB: base + 8 * 1024), "600 s with --frames does not fit in \(base + 8 * 1024) KB")
        let rows = try String(contentsOf: dir.appendingPathComponent("f.csv"), encoding: .utf8).split(separator: "\n").count
        #expect(rows == 600 * 60 - 4 + 1, "\(rows)")
    }

    /// `--frames` alone is written as the run goes and keeps nothing: a
    /// 300 s run fits in the data segment a 1 s run needs (to 8 MB), where
    /// the frame log it once kept grew 101 bytes an estimated event (16 MB
    /// for these 300 s).
    @Test func framesAloneTakeTheSameMemoryAtAnyDuration() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func command(_ duration: String) -> [String] {
            ["run", "android-default", "--duration", duration, "--frames", dir.appendingPathComponent("f.csv").path]
        }
        let base = try Self.smallestFit(command("1s"))
        #expect(try Self.fits(command("300s"), dataKB: base + 8 * 1024), "a 300 s --frames does not fit in \(base + 8 * 1024) KB")
        let rows = try String(contentsOf: dir.appendingPathComponent("f.csv"), encoding: .utf8).split(separator: "\n").count
        // a row per vsync from the first frame's (the fifth vsync, at 66.7 ms)
        // to the last of 300 s at 60 Hz, and the header
        #expect(rows == 300 * 60 - 4 + 1, "\(rows)")
    }
}
