import Foundation
import Testing

/// The scroll scenarios from the command line (Docs/Model.md, "Scrolling"):
/// their figures in the table, the JSON, `--seeds` and `compare`; bad
/// scroll settings refused with one paragraph and status 2.
@Suite struct ScrollCommandTests {
    static let scrollFigures = ["scrollStartP50", "scrollStartMean", "scrollToPhotonP50", "scrollToPhotonP99", "scrollTrailMean"]

    @Test func theScrollFiguresReachTheTableAndTheJSON() throws {
        let table = try Latsim.run(["run", "android-scroll", "--device", "nexus-5", "--duration", "3s"])
        #expect(table.status == 0, "\(table.stderr)")
        let first = table.stdout.split(separator: "\n").dropFirst(2).first.map(String.init) ?? ""
        #expect(first.hasPrefix("scroll start p50 ms"), "the headline first: \(first)")
        for column in ["s2p p50 ms", "s2p p99 ms", "scroll start mean ms", "scroll trail pt"] {
            #expect(table.stdout.contains(column))
        }
        for (name, scrolls) in [("ios-scroll", true), ("android-default", false)] {
            let o = try Latsim.run(["run", name, "--duration", "3s", "--json", "-", "--stable"])
            #expect(o.status == 0, "\(o.stderr)")
            let figures = try #require((try Latsim.onlyRun(o.stdout))["figures"] as? [String: Any])
            for f in Self.scrollFigures {
                #expect((figures[f] as? Double != nil) == scrolls, "\(name) \(f)")
            }
        }
        let seeds = try Latsim.run(["run", "ios-scroll", "--seeds", "3", "--duration", "2s"])
        #expect(seeds.status == 0 && seeds.stdout.contains("scroll start p50 ms") && seeds.stdout.contains("±"), "\(seeds.stderr)")
        let compare = try Latsim.run(["compare", "android-scroll", "--b-set", "app.touchSlop=16", "--duration", "3s",
                                      "--fail-if-worse", "scrollToPhotonP50"])
        #expect(compare.status == 0, "\(compare.stdout)\(compare.stderr)")
        #expect(compare.stdout.contains("app.touchSlop") && compare.stdout.contains("scroll start p50 ms"))
        let worse = try Latsim.run(["compare", "android-scroll", "--b-set", "app.touchSlop=16", "--duration", "3s",
                                    "--fail-if-worse", "scrollStartP50"])
        #expect(worse.status == 1, "a larger slop starts scrolling later: \(worse.stdout)")
        // a sweep's CSV has a column per scroll figure, under its name
        let dir = try Latsim.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("slop.csv")
        let sweep = try Latsim.run(["sweep", "ios-scroll", "--vary", "app.touchSlop=0,16", "--duration", "2s", "--csv", csv.path])
        #expect(sweep.status == 0, "\(sweep.stderr)")
        let header = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").first.map(String.init) ?? ""
        for key in ["scrollStartP50", "scrollStartMean", "scrollToPhotonP50", "scrollToPhotonP99", "scrollTrailMean"] {
            #expect(header.split(separator: ",").contains { $0 == key }, "\(key) in \(header)")
        }
    }

    @Test(arguments: [
        (["--set", "app.touchSlop=-1"], "app.touchSlop = '-1'"),
        (["--set", "app.touchSlop=101"], "app.touchSlop = '101'"),
        (["--set", "app.touchSlop=eight"], "app.touchSlop = 'eight'"),
        (["--set", "app.scrolls=sometimes"], "app.scrolls = 'sometimes'"),
        (["--set", "input.trajectory=taps"], "app.scrolls = 'true'"),
        (["--set", "input.tapHold=950ms"], "a drag held 950ms"),
    ])
    func badScrollSettingsAreRefused(args: [String], says: String) throws {
        let o = try Latsim.run(["run", "android-scroll"] + args)
        #expect(o.status == 2 && o.stdout.isEmpty, "\(o.stdout)")
        #expect(o.stderr.contains(says) && o.stderr.split(separator: "\n").count == 1, "\(o.stderr)")
    }
}
