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
            try CLI.write(FigureCatalogueText.json().text() + "\n", to: json)
            if json == "-" { return }
        }
        CLI.say(markdown ? String(FigureCatalogueText.markdown().dropLast()) : FigureCatalogueText.table().render())
    }
}
