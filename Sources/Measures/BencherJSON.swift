import LatsimOutput
import SimKernel

/// Figures for benchmark dashboards: Bencher's Metric Format (BMF JSON,
/// https://bencher.dev/docs/reference/bencher-metric-format), the input
/// of `bencher run --adapter json --file FILE`.
///
/// A BMF document is an object of benchmarks, each an object of measures,
/// each `{"value", "lower_value", "upper_value"}` (the bounds optional).
/// latsim writes one benchmark per scenario (its name as the run table
/// shows it) and one measure per figure the run measured, named after the
/// catalogue with its unit (`touchToPhotonP50 (ms)`): Bencher creates a
/// measure it does not know from its name, and a name that carries the
/// unit keeps a dashboard readable. With `--seeds N` the value is the mean
/// over the seeds and the bounds its 95% interval (Student's t), the
/// interval every other output prints; a single run has the value alone.
/// Which way is better is not part of BMF: a threshold's boundary side is
/// chosen in Bencher (an upper boundary for a figure whose better direction
/// is lower; `latsim figures` lists each figure's).
public enum BencherJSON {
    /// The longest measure name Bencher accepts.
    public static let maximumMeasureName = 64

    /// The measure a figure is written as.
    public static func measure(_ f: Figure) -> String {
        "\(f.rawValue) (\(f.unit.rawValue))"
    }

    /// The document for runs, each a benchmark name and its figures across
    /// its seeds (one seed or more), in the order given; figures no seed
    /// measured are left out (BMF has no null). Values are written at the
    /// figure's precision (``Figure/places``), as every table prints them.
    public static func document(_ runs: [(benchmark: String, figures: [(figure: Figure, statistic: SeedStatistic)])]) -> JSONValue {
        .object(runs.map { run in
            (run.benchmark, .object(run.figures.compactMap { f, s -> (String, JSONValue)? in
                guard let mean = s.mean, mean.isFinite else { return nil }
                // at the figure's precision, as the tables print it: a
                // histogram's 49.999999 ms is the 50 every other output shows
                let places = f.places
                var metric: [(String, JSONValue)] = [("value", .number(mean, places: places))]
                if let h = s.halfWidth95, h.isFinite {
                    metric.append(("lower_value", .number(mean - h, places: places)))
                    metric.append(("upper_value", .number(mean + h, places: places)))
                }
                return (measure(f), .object(metric))
            }))
        })
    }
}
