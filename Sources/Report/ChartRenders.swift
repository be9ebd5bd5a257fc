import Charts
import Experiments
import Foundation
import SimKernel

/// The report's charts rendered concurrently: each chart's gnuplot runs on
/// its own thread, at most as many at once as the machine has cores, while
/// the report goes on with its next runs. The page needs only each chart's
/// file names, which do not depend on the rendering, so it is written in
/// the same order with the same bytes; ``wait()`` is called before the
/// report is committed, and throws the error of the first chart (in the
/// order they were asked for) that failed, as rendering them one by one
/// would have.
final class ChartRenders: Sendable {
    private let group = DispatchGroup()
    private let slots: DispatchSemaphore
    private let submitted = Locked(0)
    /// The first failure by submission order: (index, error).
    private let failure = Locked<(Int, any Error)?>(nil)

    init(width: Int = Parallel.availableCPUs) {
        slots = DispatchSemaphore(value: Swift.max(1, width))
    }

    /// Renders `chart` as `basename` in `directory` on a free core; returns
    /// the names it writes.
    func render(_ chart: ChartScript, gnuplot: Gnuplot, directory: URL, basename: String,
                unrendered: UnrenderedCharts) -> ChartOutput {
        let index = submitted.withLock { n in
            defer { n += 1 }
            return n
        }
        let slots = self.slots, failure = self.failure, group = self.group
        group.enter()
        // a thread of its own, not a dispatch worker: a worker blocked here
        // would starve the dispatch threads that drain gnuplot's pipes
        let job: @Sendable () -> Void = {
            slots.wait()
            defer {
                slots.signal()
                group.leave()
            }
            do {
                let out = try gnuplot.render(chart, directory: directory, basename: basename)
                if !out.rendered { unrendered.add() }
            } catch {
                failure.withLock { if $0 == nil || $0!.0 > index { $0 = (index, error) } }
            }
        }
        // no thread to be had (its stack refused under a memory limit):
        // rendered here, before the next chart is asked for
        if !startThread(stackSize: 0, job) { job() }
        let base = directory.appendingPathComponent(basename)
        return ChartOutput(script: base.appendingPathExtension("gp"), data: base.appendingPathExtension("dat"),
                           images: [base.appendingPathExtension("png"), base.appendingPathExtension("svg")],
                           rendered: gnuplot.executable != nil, hint: nil, warnings: "")
    }

    /// Waits for every chart asked for; throws the first failure.
    func wait() throws {
        group.wait()
        if let (_, error) = failure.withLock({ $0 }) { throw error }
    }
}
