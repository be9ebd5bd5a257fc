import Charts
import Foundation
import SimKernel

/// Realistic sample data for every chart, shaped like the talk's figures.
enum ChartFixtures {
    /// One 60 Hz display frame.
    static let T: SimTime = 16_666_667
    static let ms: SimTime = 1_000_000

    /// The talk's iOS 8 pipeline: each touch is scanned in frame k, handled
    /// by the app in frame k+1 (commit at its end), prepared by Core Animation
    /// and rendered by the GPU in frame k+2, and on screen in frame k+3:
    /// four frames from scan to photon, double buffered.
    static func ios8Diagram() -> PipelineDiagramChart {
        pipeline(gpuMs: 7, buffers: 2, latchDelayFrames: 3,
                 subtitle: "ios8 — 4 frames from scan to photon (double buffering)")
    }

    /// The same pipeline with a GPU job that overruns the frame: the render
    /// server needs a third buffer and every frame is on screen one frame
    /// later (five frames from scan to photon).
    static func ios8TripleDiagram() -> PipelineDiagramChart {
        pipeline(gpuMs: 14, buffers: 3, latchDelayFrames: 4,
                 subtitle: "ios8, heavy GPU — 5 frames from scan to photon (triple buffering)")
    }

    static func pipeline(gpuMs: Int64, buffers: Int, latchDelayFrames: Int64, subtitle: String) -> PipelineDiagramChart {
        let followed: Int64 = 1
        var boxes: [DiagramBox] = []
        var markers: [DiagramMarker] = []
        var path: [DiagramPathPoint] = []
        for k in Int64(-4)...6 {
            let hl = k == followed
            let color = Int(((k % Int64(buffers)) + Int64(buffers)) % Int64(buffers))
            let scan = k * T
            let app = (k + 1) * T, commit = app + 9 * ms
            let prepare = (k + 2) * T, gpu = prepare + 4 * ms, gpuEnd = gpu + gpuMs * ms
            let latch = (k + latchDelayFrames) * T
            boxes.append(DiagramBox(lane: .multiTouch, startNs: scan, endNs: scan + T, label: "scan \(k)", colorKey: color, highlighted: hl))
            boxes.append(DiagramBox(lane: .app, startNs: app, endNs: commit, label: "handler", colorKey: color, highlighted: hl))
            boxes.append(DiagramBox(lane: .coreAnimation, startNs: prepare, endNs: gpu, label: "prepare", colorKey: color, highlighted: hl))
            boxes.append(DiagramBox(lane: .gpu, startNs: gpu, endNs: gpuEnd, label: "render", colorKey: color, highlighted: hl))
            boxes.append(DiagramBox(lane: .display, startNs: latch, endNs: latch + T, label: "frame \(k)", colorKey: color, highlighted: hl))
            markers.append(DiagramMarker(lane: .app, timeNs: commit, label: "commit (CATransaction)"))
            if hl {
                path = [
                    DiagramPathPoint(lane: .multiTouch, timeNs: scan + T / 2),
                    DiagramPathPoint(lane: .app, timeNs: app),
                    DiagramPathPoint(lane: .app, timeNs: commit),
                    DiagramPathPoint(lane: .coreAnimation, timeNs: prepare),
                    DiagramPathPoint(lane: .gpu, timeNs: gpu),
                    DiagramPathPoint(lane: .gpu, timeNs: gpuEnd),
                    DiagramPathPoint(lane: .display, timeNs: latch),
                    DiagramPathPoint(lane: .display, timeNs: latch + T / 2),
                ]
            }
        }
        return PipelineDiagramChart(
            framePeriodNs: T, startNs: 0, endNs: 7 * T, vsyncNs: (0...7).map { $0 * T },
            boxes: boxes, markers: markers, touchPath: path,
            title: "Touch-to-display pipeline", subtitle: subtitle)
    }

    static func talkTable() -> TalkTableChart {
        TalkTableChart(rows: [
            (scenario: "ios8", label: "iOS 8", talkFrames: 4, simulatedFrames: 4.0),
            (scenario: "ios8_heavy_gpu", label: "iOS 8, heavy GPU", talkFrames: 5, simulatedFrames: 5.0),
            (scenario: "ios8-metal", label: "iOS 8, Metal", talkFrames: 4, simulatedFrames: 4.0),
            (scenario: "ios9-lowlatency", label: "iOS 9 low latency", talkFrames: 3, simulatedFrames: 3.0),
            (scenario: "ios9-metal-direct", label: "iOS 9, Metal direct", talkFrames: 2, simulatedFrames: 2.02),
            (scenario: "ios9-coalesced-120hz", label: "iOS 9, 120 Hz scan", talkFrames: 2.5, simulatedFrames: 2.49),
        ])
    }

    /// A smooth CDF from a sorted sample list.
    static func cdf(_ values: [Double]) -> [(valueMs: Double, fraction: Double)] {
        let sorted = values.sorted()
        return sorted.enumerated().map { (valueMs: $1, fraction: Double($0 + 1) / Double(sorted.count)) }
    }

    /// Deterministic pseudo-latencies around `base` ms.
    static func samples(base: Double, spread: Double, count: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix(seed: seed)
        return (0..<count).map { _ in base + spread * (rng.unit() + rng.unit() + rng.unit()) / 3 }
    }

    static func latencyCDF() -> LatencyCDFChart {
        LatencyCDFChart(series: [
            (name: "ios8", points: cdf(samples(base: 58, spread: 17, count: 400, seed: 1))),
            (name: "ios9_lowlatency", points: cdf(samples(base: 41, spread: 17, count: 400, seed: 2))),
            (name: "ios9 + prediction", points: cdf(samples(base: 25, spread: 17, count: 400, seed: 3))),
        ], subtitle: "60 Hz display, 400 frames per scenario", framePeriodMs: 1000.0 / 60)
    }

    static func sweep() -> SweepChart {
        func series(_ name: String, extra: Double) -> (name: String, points: [(x: Double, p50Ms: Double, p99Ms: Double, fps: Double?)]) {
            let xs: [Double] = [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24]
            return (name: name, points: xs.map { x in
                let triple = x > 12 - extra
                let p50 = 58 + (triple ? 16.7 : 0) + x * 0.2
                let fps = x > 16.6 + extra * 2 ? 60 * 16.6 / (x + 1) : 60
                return (x: x, p50Ms: p50, p99Ms: p50 + 8 + x * 0.3, fps: fps)
            })
        }
        return SweepChart(series: [series("app 4 ms", extra: 0), series("app 10 ms", extra: 3)],
                          xLabel: "GPU render time (ms)",
                          title: "Latency and frame rate vs GPU load",
                          subtitle: "ios8 scenario, adaptive buffering; second dimension: app handler time",
                          annotations: [.init(x: 12, label: "adaptive buffering goes triple")])
    }

    static func motion() -> MotionChart {
        let truePath = (0...120).map { i -> (x: Double, y: Double) in
            let t = Double(i) / 120
            return (x: 100 + 560 * t, y: 520 - 260 * sin(t * .pi))
        }
        func lagged(_ lag: Int, step: Int) -> [(x: Double, y: Double)] {
            stride(from: 0, through: 120 - lag, by: step).map { truePath[$0] }
        }
        return MotionChart(truePath: truePath, drawn: [
            (name: "ios8 (4 frames behind)", path: lagged(24, step: 4)),
            (name: "ios9_coalesced (2.5 frames)", path: lagged(15, step: 2)),
        ], subtitle: "arc drawn at 1.2 points/ms; where the finger is when the frame shows")
    }

    static func horizon() -> HorizonErrorChart {
        let hs: [Double] = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40]
        return HorizonErrorChart(series: [
            (predictor: "none (hold last)", points: hs.map { (horizonMs: $0, errorPx: 0.9 * $0) }),
            (predictor: "linear_2pt", points: hs.map { (horizonMs: $0, errorPx: 0.6 + 0.012 * $0 * $0) }),
            (predictor: "kalman", points: hs.map { (horizonMs: $0, errorPx: 0.8 + 0.008 * $0 * $0) }),
        ], yLabel: "RMS position error (px)", subtitle: "finger on a circle, 120 Hz scan", framePeriodMs: 1000.0 / 60)
    }

    /// A two-key sweep: a step where handler plus GPU pass a frame; a
    /// non-numeric second axis with named tics.
    static func heatMap() -> SweepHeatMapChart {
        var cells: [SweepHeatMapChart.Cell] = []
        for gpu in stride(from: 2.0, through: 16, by: 2) {
            for (k, _) in ["double", "triple", "adaptive"].enumerated() {
                let late = gpu + 7 > 16.7
                cells.append(.init(x: gpu, y: Double(k + 1), p50Ms: late ? 66.7 : 50, fps: late && k == 0 ? 30 : 60))
            }
        }
        return SweepHeatMapChart(cells: cells, xLabel: "GPU time (ms)", yLabel: "os.buffering",
                                 yTics: [(1, "double"), (2, "triple"), (3, "adaptive")], title: "GPU x buffering", subtitle: "fixture")
    }

    /// Every chart with its file name.
    static func all() -> [(name: String, chart: any GnuplotChart)] {
        [
            ("talk-table", talkTable()),
            ("pipeline-ios8", ios8Diagram()),
            ("pipeline-ios8-triple", ios8TripleDiagram()),
            ("latency-cdf", latencyCDF()),
            ("sweep-gpu", sweep()),
            ("motion", motion()),
            ("horizon-error", horizon()),
            ("sweep-heat-map", heatMap()),
        ]
    }
}

/// A tiny deterministic generator for fixtures.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
