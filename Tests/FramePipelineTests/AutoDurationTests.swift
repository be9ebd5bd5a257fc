@testable import FramePipeline
import SimKernel
import Testing

/// `auto` work durations follow AOSP's configuration and the rate
/// (Docs/Android.md, "Clocks"): with no duration given a device runs
/// `PhaseOffsets` (SurfaceFlingerDefaultFactory::createVsyncConfiguration
/// without `debug.sf.use_phase_offsets_as_durations`), whose unset offsets
/// are 1 / 1 ms, and 2 / 1 ms (app / SurfaceFlinger) at a high rate,
/// converted by `sfOffsetToDuration` (`T - sf`) and `appOffsetToDuration`
/// (`T + sf - app`, plus `T` while below `T`). A duration given makes it
/// WorkDuration, whose unset ones are `T` and `T - 1ms`.
@Suite struct AutoDurationTests {
    static let ms = Nanos.perMillisecond

    static func timing(_ hz: Int64, _ version: AndroidVersion = .v12, app: WorkDuration = .auto, sf: WorkDuration = .auto,
                       peakOfSeveral: Bool = false) -> (app: SimTime, sf: SimTime) {
        var s = AndroidSettings()
        s.version = version
        s.appDuration = app
        s.sfDuration = sf
        let t = AndroidTiming(s, displayHz: Rational(hz), peakOfSeveral: peakOfSeveral)
        return (t.appDuration, t.sfDuration)
    }

    /// From Android 12, T >= 15 ms takes the default offsets 1 / 1 ms:
    /// 60 Hz gives T = 16,666,667 and T - 1 ms = 15,666,667 (unchanged);
    /// 66 Hz (T = 15.152 ms) gives 15,151,515 and 14,151,515.
    @Test func lowRatesKeepTheDefaultOffsets() {
        #expect(Self.timing(60) == (16_666_667, 15_666_667))
        #expect(Self.timing(66) == (15_151_515, 14_151_515))
    }

    /// Below a 15 ms period the high-fps offsets, app 2 ms and sf 1 ms:
    /// D_sf = T - 1 ms; D_app = T + 1 - 2 = T - 1 ms, below T, so plus T:
    /// 2T - 1 ms. 90 Hz: 2 x 11.111111 - 1 = 21.222222 ms (1.91e9 / 90 =
    /// 21,222,222.2) and 10,111,111.1; 120 Hz: 15,666,666.7 -> 15,666,667
    /// and 7,333,333.3 -> 7,333,333; 67 Hz (T = 14.925 ms) is already
    /// high: 28,850,746 and 13,925,373.
    @Test func highRatesTakeTheHighFpsOffsets() {
        #expect(Self.timing(90) == (21_222_222, 10_111_111))
        #expect(Self.timing(120) == (15_666_667, 7_333_333))
        #expect(Self.timing(67) == (28_850_746, 13_925_373))
    }

    /// A duration given is WorkDuration: the other `auto` is T - 1 ms (sf)
    /// or T (app), at any rate: at 120 Hz 7,333,333 beside a given 16.6 ms,
    /// and 8,333,333 beside a given 10.5 ms.
    @Test func aGivenDurationMeansWorkDurationDefaults() {
        #expect(Self.timing(120, app: .fixed(16_600_000)) == (16_600_000, 7_333_333))
        #expect(Self.timing(120, sf: .fixed(10_500_000)) == (8_333_333, 10_500_000))
    }

    /// Before 12 the offsets are phases (the legacy rule): Android 11
    /// takes 2 / 1 ms above 65 Hz, so at 66 Hz the app wakes after
    /// SurfaceFlinger (a >= s): D_app = T + s - a = T - 1 ms = 14,151,515,
    /// D_sf = T - s = 14,151,515; Android 12 at 66 Hz keeps 1 / 1
    /// (T >= 15 ms). Android 10 takes them for the higher rate of a display
    /// that switches (RefreshRateType::PERFORMANCE) only: at 90 Hz alone
    /// 1 / 1 (11,111,111 and 10,111,111), as the peak of two 2 / 1
    /// (10,111,111 twice). 9 never does.
    @Test func androidTenAndElevenTakeHighFpsOffsetsByTheirOwnRules() {
        #expect(Self.timing(66, .v11) == (14_151_515, 14_151_515))
        #expect(Self.timing(65, .v11) == (15_384_615, 14_384_615))
        #expect(Self.timing(90, .v10) == (11_111_111, 10_111_111))
        #expect(Self.timing(90, .v10, peakOfSeveral: true) == (10_111_111, 10_111_111))
        #expect(Self.timing(90, .v9, peakOfSeveral: true) == (11_111_111, 10_111_111))
    }
}
