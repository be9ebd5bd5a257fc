import Foundation
import Testing

/// What a newcomer reads: a command group's help shows the options its
/// default subcommand takes, help text is plain (no stray backslashes),
/// `latsim keys` fits a 100-column terminal, a mistyped name gets the
/// names it may have meant and a list is never cut inside a word.
@Suite struct HelpTests {
    /// `latsim sweep --help` (and `latsim help sweep`) shows what
    /// `latsim sweep SCENARIO --vary ...` takes, below the subcommands.
    @Test(arguments: [("sweep", ["--vary", "--plot", "--csv", "merge"]),
                      ("predict", ["--predictor", "--horizon", "merge"]),
                      ("regress", ["--baseline", "--junit", "--spec", "init"])])
    func aGroupsHelpShowsItsDefaultSubcommandsOptions(group: String, options: [String]) throws {
        for args in [[group, "--help"], [group, "-h"], ["help", group]] {
            let r = try Latsim.run(args)
            #expect(r.status == 0, "\(args)")
            for o in options { #expect(r.stdout.contains(o), "latsim \(args.joined(separator: " ")) does not show \(o)") }
            #expect(r.stdout.contains("SUBCOMMANDS:"))
        }
        // a subcommand's own help is its own
        let sub = try Latsim.run([group, group == "regress" ? "init" : "merge", "--help"])
        #expect(sub.status == 0 && !sub.stdout.contains("without a subcommand"))
    }

    /// No line of any command's help ends in a backslash unless it is a
    /// shell example continued on the next line.
    @Test(arguments: ["run", "compare", "sweep", "predict", "regress", "import", "devices", "validate", "table", "list", "keys",
                      "report", "figures", "diagram", "scenario"])
    func helpHasNoStrayBackslashes(command: String) throws {
        let r = try Latsim.run([command, "--help"])
        #expect(r.status == 0)
        for line in r.stdout.split(separator: "\n", omittingEmptySubsequences: false) where line.hasSuffix("\\") {
            #expect(line.trimmingCharacters(in: .whitespaces).hasPrefix("latsim ") || line.hasPrefix("      "),
                    "latsim \(command) --help: '\(line)'")
            #expect(line.trimmingCharacters(in: .whitespaces) != "\\", "latsim \(command) --help has a lone backslash")
        }
    }

    @Test func sweepJSONHelpSaysItWritesAnObject() throws {
        let r = try Latsim.run(["sweep", "run", "--help"])
        #expect(!r.stdout.contains("JSON array"))
        #expect(r.stdout.contains("one object"))
    }

    /// Every line of `latsim keys` fits in 100 columns (a URL or a single
    /// word longer than a line is the only exception, and there is none).
    @Test func keysFitAHundredColumns() throws {
        let r = try Latsim.run(["keys"])
        #expect(r.status == 0)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count > 60)
        for line in lines { #expect(line.count <= 100, "\(line.count) columns: \(line)") }
        // every key is there, at the start of its line
        #expect(lines.contains { $0.hasPrefix("device.scanHz = 60") })
        #expect(lines.contains { $0.hasPrefix("android.resampling = ") })
    }

    /// `ios9` is the start of several names: they are what the user meant,
    /// not `ios8` (one edit away); the message names no scenario cut short.
    @Test func aPrefixSuggestsTheNamesItStarts() throws {
        let r = try Latsim.run(["run", "ios9"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("did you mean one of 'ios9-low-latency'"), "\(r.stderr)")
        #expect(!r.stderr.contains("'ios8'"))
        // a near miss still gets the nearest name
        let typo = try Latsim.run(["run", "ios9-low-latncy"])
        #expect(typo.stderr.contains("did you mean 'ios9-low-latency'?"), "\(typo.stderr)")
        let device = try Latsim.run(["run", "ios8", "--device", "ipad"])
        #expect(device.status == 2 && device.stderr.contains("did you mean one of 'ipad-"), "\(device.stderr)")
    }

    /// `2ms..20ms` (two dots) gets the range's form, not "not a duration".
    @Test(arguments: ["gpu.render=2ms..20ms", "gpu.render=2ms…20ms", "device.scanHz=60..240"])
    func aTwoDotRangeIsExplained(vary: String) throws {
        let r = try Latsim.run(["sweep", "ios8", "--vary", vary])
        #expect(r.status == 2)
        #expect(r.stderr.contains("three dots") && r.stderr.contains("FROM...TO[:STEP]"), "\(r.stderr)")
    }
}
