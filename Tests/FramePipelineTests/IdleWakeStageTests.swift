import Experiments
import FramePipeline
import Scenarios
import SimKernel
import Testing

/// The command-mode panel's idle wake as a stage of its own (Docs/Budget.md,
/// Docs/Android.md, "The panel's interface"): named in the stage budget of
/// a command-mode panel only, costing nothing at `display.idleWake` 0 or
/// within the slack before the TE, a whole period beyond it; counted in the
/// run's figures and logged for the traces; a labelled unknown in
/// `validate`'s stage sentence.
@Suite struct IdleWakeStageTests {
    static let T = 1e3 / 60

    /// Taps 500 ms apart, no jitter, with the stage budget: each tap's frame
    /// is sent from idle.
    static func taps(_ device: String, _ overrides: [String]) throws -> RunResult {
        try PipelineRun.run(try tapping(device, overrides), keepBudget: true)
    }

    static func tapping(_ device: String, _ overrides: [String]) throws -> PipelineConfiguration {
        let s = try Scenario.named("android-default").applying(device: try DevicePreset.named(device))
        return try s.configuration(overrides: ["input.trajectory=taps", "input.tapJitter=0ms"] + overrides, duration: "3s")
    }

    /// The Nexus 5 and 5X (command mode) have the stage, after present
    /// wait; the video-mode Nexus 9 and every iOS run do not.
    @Test func theIdleWakeIsAStageOfCommandModePanelsOnly() throws {
        for device in ["nexus-5", "nexus-5x"] {
            let c = try Scenario.named("walt-screen").applying(device: try DevicePreset.named(device)).configuration(overrides: [], duration: "1s")
            let stages = BudgetStage.stages(of: c)
            let wait = try #require(stages.firstIndex(of: .presentWait))
            #expect(stages.firstIndex(of: .idleWake) == wait + 1 && stages.filter { $0 != .idleWake } == BudgetStage.stages(of: .android))
        }
        let video = try Scenario.named("walt-screen").applying(device: try DevicePreset.named("nexus-9")).configuration(overrides: [], duration: "1s")
        #expect(BudgetStage.stages(of: video) == BudgetStage.stages(of: .android) && !BudgetStage.stages(of: video).contains(.idleWake))
        #expect(!BudgetStage.stages(of: .ios).contains(.idleWake))
    }

    /// At the default 0 the stage is empty and every other stage is the
    /// video-mode panel's, to the nanosecond: the panel's interface alone
    /// moves no figure.
    @Test func atZeroTheStageIsEmptyAndNothingElseMoves() throws {
        let command = try Self.taps("nexus-5", [])
        let video = try Self.taps("nexus-5", ["display.interface=video"])
        let b = try #require(command.measurements.budget), v = try #require(video.measurements.budget)
        #expect(b.frames == 6 && b[.idleWake]?.max == 0 && b.totalNanos[b.stages.firstIndex(of: .idleWake)!] == 0)
        for stage in v.stages {
            #expect(b.totalNanos[b.stages.firstIndex(of: stage)!] == v.totalNanos[v.stages.firstIndex(of: stage)!], "\(stage)")
        }
        #expect(command.measurements.tapToPhotonMs.mean == video.measurements.tapToPhotonMs.mean)
        #expect(command.measurements.android?.idleWakes == 0 && command.measurements.android?.idleWakeDelay == 0)
    }

    /// SurfaceFlinger wakes at `V + 5ms` and composes for 1 ms; the TE is at
    /// `V + T`. A 10 ms wake ends at `V + 16ms`, before it: each tap's frame
    /// is sent from idle (6 wakes) and the wake costs nothing. An 11 ms
    /// wake ends at `V + 17ms`: the frame, ready for `V + T`, waits for the
    /// next TE, and the stage is that period, every other stage unchanged.
    @Test func theStageIsWhatTheWakeCostAWholePeriodBeyondTheSlack() throws {
        let base = try Self.taps("nexus-5", [])
        let hidden = try Self.taps("nexus-5", ["display.idleWake=10ms"])
        let late = try Self.taps("nexus-5", ["display.idleWake=11ms"])
        let h = try #require(hidden.measurements.budget), l = try #require(late.measurements.budget)
        let b = try #require(base.measurements.budget)
        #expect(h[.idleWake]?.max == 0 && hidden.measurements.android?.idleWakes == 6 && hidden.measurements.android?.idleWakeDelay == 0)
        #expect(near(allFrames(try #require(l[.idleWake])), Self.T, 1e-6))
        for stage in b.stages where stage != .idleWake {
            #expect(b.totalNanos[b.stages.firstIndex(of: stage)!] == l.totalNanos[l.stages.firstIndex(of: stage)!], "\(stage)")
        }
        let a = try #require(late.measurements.android)
        #expect(a.idleWakes == 6 && abs(Double(a.idleWakeDelay) - 6 * Self.T * 1e6) <= 6)
        #expect(near(late.measurements.tapToPhotonMs.mean! - base.measurements.tapToPhotonMs.mean!, Self.T, 1e-6))
        #expect(late.invariants.budgetMismatches == 0)
    }

    /// A View redrawn at every vsync (walt-screen's app drawing a moving
    /// finger instead of WALT's blinks) on the Nexus 5 with a one-frame
    /// wake: only the first frame is sent from idle. The log holds that one
    /// wake, from its composition's end for one frame, and its cost, one
    /// period.
    @Test func aRunningPipelineLogsItsOneWake() throws {
        let s = try Scenario.named("walt-screen").applying(device: try DevicePreset.named("nexus-5"))
        let c = try s.configuration(overrides: ["display.idleWake=1frame", "app.updates=touch", "input.trajectory=line"], duration: "2s")
        let r = try PipelineRun.run(c, keepLog: true, keepBudget: true)
        let wakes = try #require(r.frameLog?.android?.idleWakes)
        #expect(wakes.count == 1 && r.measurements.android?.idleWakes == 1)
        let w = try #require(wakes.first)
        #expect(w.end - w.start == c.android.idleWake && c.android.idleWake == 16_666_667)
        #expect(abs(Double(w.present - w.ready) - Self.T * 1e6) <= 1 && r.measurements.android?.idleWakeDelay == w.present - w.ready)
        let latch = try #require(r.frameLog?.android?.latches.first { $0.frame == w.frame })
        #expect(latch.compositionEnd == w.start)
    }

    /// WALT's screen test as WALT draws it: a change posted 40 to 60 ms
    /// after the photodiode saw the last, nothing drawn in between, so
    /// every change is a frame sent from an idle command-mode panel. On the
    /// Nexus 5 (legacy offsets 7.5 / 5 ms) a one-frame wake cannot hide in
    /// the 10.667 ms between the composition's end and the TE (SurfaceFlinger
    /// wakes at V + 5 ms, composes 1 ms): every frame is a period later,
    /// 41.167 + 16.667 = 57.833 ms frame-to-photon, and every frame's idle
    /// wake stage is one period (to the nanosecond a period rounds by). At the default 0 nothing changes: 41.167.
    @Test func everyWaltBlinkIsSentFromIdle() throws {
        let s = try Scenario.named("walt-screen").applying(device: try DevicePreset.named("nexus-5"))
        let r = try PipelineRun.run(try s.configuration(overrides: ["display.idleWake=1frame"], duration: "3s"), keepLog: true)
        let wakes = try #require(r.frameLog?.android?.idleWakes)
        #expect(wakes.count == r.measurements.framesPresented && r.measurements.android?.idleWakes == r.measurements.framesPresented)
        #expect(wakes.allSatisfy { abs(Double($0.present - $0.ready) - Self.T * 1e6) <= 1 })
        #expect(allFrames(r.measurements.frameToPhotonMs) == 57.833333)
        let budget = try #require(r.measurements.budget)
        let stage = try #require(budget[.idleWake])
        #expect(near(stage.min, Self.T, 2e-6) && near(stage.max, Self.T, 2e-6) && r.invariants.holds)
        let base = try PipelineRun.run(try s.configuration(overrides: [], duration: "3s")).measurements
        #expect(allFrames(base.frameToPhotonMs) == 41.166667)
    }

    static let table = """
        measurements:
          - id: n5
            device: nexus-5
            scenario: walt-screen
            measure: frameToPhoton
            published: 41ms
            source: x
            tag: R
          - id: n5-tap
            device: nexus-5
            scenario: android-default
            measure: tapToPhoton
            published: 90ms
            source: x
            tag: R
          - id: n9
            device: nexus-9
            scenario: walt-screen
            measure: frameToPhoton
            published: 48ms
            source: x
            tag: R

        """

    /// `validate` names the wake on a command-mode panel as the unknown it
    /// is, with its range and value, and its part (what it cost) comes out
    /// of the remainder: the parts still add up to the figure. A video-mode
    /// panel has no such part.
    @Test func validateNamesTheWakeAsALabelledUnknown() throws {
        let t = try MeasurementTable(yaml: Self.table, file: "ours.yaml")
        func sum(_ r: ValidationResult) -> Double { r.composition.reduce(0) { $0 + $1.ms } }
        let n5 = try Validation.run(t.rows[0], try Validation.configuration(t.rows[0], folder: nil))
        let wake = try #require(n5.composition.first { $0.stage.hasPrefix("idle wake") })
        #expect(wake.stage == "idle wake (unknown, 0–16.7 ms, one frame: 0 ms here)" && wake.ms == 0)
        #expect(n5.stagesSentence.contains("idle wake (unknown, 0–16.7 ms, one frame: 0 ms here) 0 ms + scan-out"))
        #expect(abs(sum(n5) - n5.simulated) < 1e-6)

        let tap = try Validation.run(t.rows[1], try Self.tapping("nexus-5", ["display.idleWake=11ms"]))
        let cost = try #require(tap.composition.first { $0.stage.hasPrefix("idle wake") })
        #expect(cost.stage == "idle wake (unknown, 0–16.7 ms, one frame: 11 ms here)" && near(cost.ms, Self.T, 1e-6))
        #expect(abs(sum(tap) - tap.simulated) < 1e-6)
        let none = try Validation.run(t.rows[1], try Self.tapping("nexus-5", []))
        #expect(near(tap.simulated - none.simulated, Self.T, 1e-6))

        let n9 = try Validation.run(t.rows[2], try Validation.configuration(t.rows[2], folder: nil))
        #expect(!n9.composition.contains { $0.stage.hasPrefix("idle wake") })
    }
}
