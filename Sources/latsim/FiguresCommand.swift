import ArgumentParser
import Experiments
import LatsimOutput
import Measures

/// `latsim figures`: the figure catalogue.
struct FiguresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "figures",
        abstract: "List every figure a run can produce: name, column, unit, better direction, what produces it.",
        discussion: "The names are what `compare --fail-if-worse` and the JSON's `figures` use (Docs/Figures.md)."
    )

    @Flag(help: "Print Docs/Figures.md (the catalogue with its explanation, in Markdown).")
    var markdown = false
    @Option(help: ArgumentHelp("Write the catalogue as JSON to PATH ('-' for stdout): one object per figure.", valueName: "PATH"))
    var json: String?

    func run() throws {
        try CLI.preflight(files: [json])
        if let json {
            let figures = JSONValue.array(Figure.allCases.map { f in
                let d = f.declaration
                return .object([
                    ("name", .string(f.rawValue)), ("column", .string(d.column)), ("sweepKey", .string(d.sweepKey)),
                    ("unit", .string(d.unit.rawValue)), ("better", .string(d.better.rawValue)),
                    ("platform", .string(d.platform.rawValue)), ("channel", .string(d.channel.rawValue)),
                    ("places", .int(d.places)), ("aggregation", .string(d.aggregation.rawValue)), ("inFrames", .bool(d.inFrames)),
                ])
            })
            try CLI.write(JSONValue.object([("figures", figures)]).text() + "\n", to: json)
            if json == "-" { return }
        }
        CLI.say(markdown ? String(FigureCatalogueText.markdown().dropLast()) : FigureCatalogueText.table().render())
    }
}
