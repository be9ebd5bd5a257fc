import Measures
import Testing

/// Docs/Results.md, "The header": the command line a result records.
@Suite struct ResultHeaderTests {
    @Test func outputsAndSpeedAreLeftOutAndValuesQuoted() {
        let argv = ["/usr/local/bin/latsim", "sweep", "ios8", "--vary", "gpu.render=2ms...9ms:1ms", "--jobs", "2", "--json=out.json",
                    "--csv", "a b.csv", "--stable", "--set", "app.handler=lognormal(4ms,0.4)", "--shard", "1/4", "--part", "p.json",
                    "--seeds", "3"]
        #expect(ResultHeader.command(argv)
            == "latsim sweep ios8 --vary gpu.render=2ms...9ms:1ms --set 'app.handler=lognormal(4ms,0.4)' --seeds 3")
        // a quote inside a value survives a POSIX shell
        #expect(ResultHeader.command(["latsim", "run", "it's.yaml"]) == #"latsim run 'it'\''s.yaml'"#)
        // everything after -- is an argument, whatever it looks like
        #expect(ResultHeader.command(["latsim", "run", "--", "--json"]) == "latsim run -- --json")
        #expect(ResultHeader.command(["latsim", "run", "--json"]) == "latsim run")
    }
}
