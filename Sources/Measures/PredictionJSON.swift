import LatsimOutput
import TouchModel

/// The prediction fields of the summary JSON and of `latsim predict`.
public enum PredictionJSON {
    /// `samples`, `errorPx {rms, p50, p95, max}`, `alongTrackMeanPx`,
    /// `crossTrackRmsPx`, `jitterPx`, `photonErrorPx {rms, p95}`, and the
    /// same in millimetres.
    public static func fields(_ s: PredictionScore) -> [(String, JSONValue)] {
        [
            ("samples", .int(s.samples)),
            ("errorPx", errors(s.errorPx)),
            ("alongTrackMeanPx", .ms(s.alongTrackMeanPx)),
            ("crossTrackRmsPx", .ms(s.crossTrackRmsPx)),
            ("jitterPx", .ms(s.jitterPx)),
            ("photonErrorPx", photon(s.photonErrorPx)),
            ("errorMM", errors(s.errorMM)),
            ("alongTrackMeanMM", .ms(s.alongTrackMeanMM)),
            ("photonErrorMM", photon(s.photonErrorMM)),
        ]
    }

    static func errors(_ e: ErrorStats) -> JSONValue {
        .object([("rms", .ms(e.rms)), ("p50", .ms(e.p50)), ("p95", .ms(e.p95)), ("max", .ms(e.max))])
    }

    static func photon(_ p: PhotonStats) -> JSONValue {
        .object([("rms", .ms(p.rms)), ("p95", .ms(p.p95))])
    }
}
