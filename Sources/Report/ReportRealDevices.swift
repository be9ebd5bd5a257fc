import Experiments
import Foundation
import FramePipeline
import Scenarios
import SimKernel

extension ReportWriter {
    /// "Real devices": the shipped table of published measurements run on
    /// the device presets (Docs/Devices.md): the table, the chart, and a
    /// sentence per row saying which stages make up the figure.
    public func realDevicesSection(_ page: Page) throws -> Page {
        var page = page
        progress("real devices")
        let table = try MeasurementTable.builtin()
        let results = try Validation.run(table, jobs: Parallel.availableCPUs)
        let passed = results.filter(\.passes).count
        let known = results.filter { $0.verdict == .expectedMiss }.count
        let failed = results.filter { !$0.asExpected }.map(\.row.id)
        var tally = "\(passed) of \(results.count) do"
        if known > 0 { tally += "; \(known) \(known == 1 ? "is a miss" : "are misses") the table expects, each with its reason below, so `latsim validate` exits 0 and can run in CI" }
        if !failed.isEmpty { tally += "; not as the table expects: " + failed.joined(separator: ", ") }
        page.add("## Real devices")
        page.add()
        page.add("`latsim validate` runs each published end-to-end measurement (Docs/Devices.md, \"The shipped rows\", gives each one's source) on a preset of the device it was taken on, with the app the measurement used, for \(Validation.duration) simulated, and compares the published figure with the simulated one. A preset holds only facts of its device (a manufacturer's table, its device tree, a Google WALT stage measurement, the WWDC 2015 talk) or a class default documented once; no value in it was chosen to make a row come out, and a row the model misses stays a miss (Docs/Devices.md). A row passes within 10% or 5 ms of the published figure, whichever is larger: \(tally).")
        page.add()
        page.add("| measurement | device | app | figure | published (ms) | simulated (ms) | error | verdict |")
        page.add("|---|---|---|---|---:|---:|---:|---|")
        for r in results {
            page.add("| \(r.row.id) | \(r.row.device) | \(r.row.scenario) | \(r.row.measure.phrase) | \(ValidationOutput.published(r)) | \(formatDecimal(r.simulated, places: 1)) | \(ValidationOutput.signed(r.errorPercent, places: 1))% | \(r.passes ? r.verdict.text : "**\(r.verdict.text)**") |")
        }
        page.add()
        page.chart(try render(ValidationOutput.chart(results), "validation"), alt: "published measurements beside latsim's distributions")
        page.add("What each figure is made of, in the model:")
        page.add()
        for r in results {
            var line = "- **\(r.row.id)** (\(r.row.what); \(r.row.tag == "vendor" ? "a vendor's claim" : r.row.tag == "R" ? "read in the source" : "read in a secondary source")): \(r.stagesSentence)"
            if r.row.expectedMiss { line += " Why it misses: " + r.row.reason }
            page.add(line)
        }
        page.add()
        return page
    }
}
