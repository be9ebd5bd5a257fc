import ArgumentParser

/// The `latsim` command line.
@main
struct Latsim: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latsim",
        abstract: "Simulate the touch-to-display frame pipeline and measure its latency.",
        discussion: """
        latsim models the Multi-Touch digitizer, UIKit's touch delivery, the app's \
        handler, Core Animation's render server, the GPU, display buffers and vsync, \
        after the WWDC 2015 talk "Advanced Touch Input on iOS".

        Start with `latsim table` (the talk's figures reproduced), `latsim list`, and \
        `latsim run ios9-coalescing-120hz`.
        """,
        subcommands: [
            ReportCommand.self, TableCommand.self, ListCommand.self, ScenarioCommand.self, KeysCommand.self, RunCommand.self, SweepCommand.self, DiagramCommand.self, PredictCommand.self, RegressCommand.self,
        ]
    )
}
