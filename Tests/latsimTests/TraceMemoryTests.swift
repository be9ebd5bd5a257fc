import Foundation
import Testing

/// The limit on runs that keep their frame log (a trace, `--frames`) says
/// how much memory it protects; the memory taken must not be more.
@Suite struct TraceMemoryTests {
    /// The memory a command that keeps its frame log says it will take
    /// (the refusal's arithmetic, `--max-events 1`), in MB.
    static func claimedMB(_ args: [String]) throws -> Double {
        let o = try Latsim.run(args + ["--max-events", "1"])
        #expect(o.status == 2, "\(o.stderr)")
        let words = o.stderr.components(separatedBy: " of memory")[0].split(separator: " ")
        let number = try #require(Double(words[words.count - 2]), "\(o.stderr)")
        return words.last == "GB" ? number * 1000 : number
    }

    /// True when the command runs within `kb` of data segment (the shell's
    /// `ulimit -d`: setrlimit RLIMIT_DATA in the child, which bounds its
    /// heap and private mappings).
    static func fits(_ args: [String], dataKB kb: Int) throws -> Bool {
        let quoted = ([Latsim.binary.path] + args).map { "'" + $0 + "'" }.joined(separator: " ")
        return try ImportHostileTests.shell("ulimit -d \(kb) && exec \(quoted) >/dev/null", []).status == 0
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

    /// A 1-hour android-default trace took 4.8 GB where the refusal's
    /// arithmetic said about 2 GB: the limit on traces protected half the
    /// memory it claimed to. The claim for a long run, added to what a 1 s
    /// run of the same command needs, must be enough for the long run.
    @Test func aTraceTakesNoMoreMemoryThanItsLimitSays() throws {
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        func command(_ duration: String) -> [String] {
            ["run", "android-default", "--duration", duration, "--trace", dir.appendingPathComponent("t.perfetto-trace").path]
        }
        let base = try Self.smallestFit(command("1s") + ["--max-events", "1e7"])
        let long = try Self.claimedMB(command("120s")), short = try Self.claimedMB(command("1s"))
        let limit = base + Int((long - short + 8) * 1000)
        #expect(try Self.fits(command("120s") + ["--max-events", "1e7"], dataKB: limit),
                "a 120 s trace does not fit in \(limit) KB: \(base) KB for a 1 s run plus the \(long) MB claimed")
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
