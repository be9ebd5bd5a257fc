import FramePipeline
import SimKernel

/// Every quantity the summary JSON lists in its `latency`, `display` and
/// `work` objects, declared once, in their order (Docs/Model.md, "Summary
/// JSON"; Docs/Android.md, "Measurements"). A new stream or count of
/// ``Measurements`` is listed by a row here; its figures (a statistic of the
/// stream, the count per run) are rows of ``FigureCatalogue``.
public enum MeasureCatalogue {
    /// The rows, in the summary's order within each section.
    public static let measures: [Measure] = latency + display + work

    typealias M = Measure

    static let latency: [M] = [
        M(name: "touchToPhotonMs", section: .latency, value: .stream { $0.touchToPhotonMs }),
        M(name: "pipelineFrames", section: .latency, value: .stream { $0.pipelineFrames }),
        M(name: "effectiveMs", section: .latency, value: .stream { $0.effectiveMs }),
        M(name: "effectiveFrames", section: .latency, value: .stream { $0.effectiveFrames }),
        M(name: "perSampleMs", section: .latency, value: .stream { $0.perSampleMs }),
        // the frames measured: a tapping finger's taps, else the frames with new touch content
        M(name: "framesMeasured", section: .latency,
          value: .count { $0.configuration.taps ? $0.measurements.tapToPhotonMs.count : $0.measurements.pipelineFrames.count }),
        M(name: "frameToPhotonMs", section: .latency, value: .stream { $0.frameToPhotonMs }),
        M(name: "budgetMs", section: .latency, value: .budget),
        M(name: "tapToPhotonMs", section: .latency, value: .stream { $0.tapToPhotonMs }),
        M(name: "touchDownMs", section: .latency, value: .stream { $0.touchDownMs }),
        M(name: "liftToPhotonMs", section: .latency, value: .stream { $0.liftToPhotonMs }),
        M(name: "touchUpMs", section: .latency, value: .stream { $0.touchUpMs }),
    ]

    static let display: [M] = [
        M(name: "framesPresented", section: .display, value: .count { $0.measurements.framesPresented }),
        M(name: "repeatedFrames", section: .display, value: .count { $0.measurements.repeatedFrames }),
        M(name: "droppedFrames", section: .display, value: .count { $0.measurements.droppedFrames }),
        M(name: "hitchTimeRatioMsPerS", section: .display, value: .number(places: 6) { $0.hitchTimeRatioMsPerS }),
        // Android sizes its BufferQueue once: null there
        M(name: "tripleBufferedFraction", section: .display,
          value: .number(places: 6) { $0.measurements.android == nil ? $0.tripleBufferedFraction : nil }),
        M(name: "hitches", section: .display, value: .count { $0.measurements.hitches }),
        // FrameTimeline's class of every frame; null on iOS and before Android 12
        M(name: "frameTimeline", section: .display,
          value: .counts { r in r.measurements.android?.frameTimeline.map { f in JankClass.allCases.map { ($0.rawValue, f[$0]) } } }),
        android(.display, "buffers") { $0.buffers },
        android(.display, "maxBuffersHeld") { $0.maxBuffersHeld },
        android(.display, "dequeueWaits") { $0.dequeueWaits },
        androidMs(.display, "dequeueWaitMs") { $0.dequeueWaitTime },
        android(.display, "fenceWaits") { $0.fenceWaits },
        androidMs(.display, "fenceWaitMs") { $0.fenceWaitTime },
        android(.display, "maxQueued") { $0.maxQueued },
        android(.display, "maxLatchedPending") { $0.maxLatchedPending },
        android(.display, "backpressureSkips") { $0.backPressureSkips },
    ]

    static let work: [M] = [
        M(name: "deliveries", section: .work, value: .count { $0.measurements.deliveries }),
        M(name: "handlerRuns", section: .work, value: .count { $0.measurements.handlerRuns }),
        M(name: "wastedUpdates", section: .work, value: .count { $0.measurements.wastedUpdates }),
        M(name: "samples", section: .work, value: .count { $0.measurements.samples }),
        android(.work, "choreographerFrames") { $0.choreographerFrames },
        android(.work, "lateFrames") { $0.lateFrames },
        M(name: "resampled", section: .work, platform: .android, value: .counts { r in
            r.measurements.android.map { [("interpolated", $0.interpolated), ("extrapolated", $0.extrapolated), ("none", $0.notResampled)] }
        }),
    ]

    /// A count of Android's own measurements, listed on Android runs.
    static func android(_ section: Measure.Section, _ name: String, _ read: @escaping @Sendable (AndroidMeasurements) -> Int) -> M {
        M(name: name, section: section, platform: .android, value: .count { $0.measurements.android.map(read) })
    }

    /// A time in all of Android's own measurements, in ms.
    static func androidMs(_ section: Measure.Section, _ name: String, _ read: @escaping @Sendable (AndroidMeasurements) -> SimTime) -> M {
        M(name: name, section: section, platform: .android, value: .number(places: 6) { $0.measurements.android.map { Double(read($0)) / 1e6 } })
    }
}
