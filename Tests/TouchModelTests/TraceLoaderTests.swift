import Foundation
import SimKernel
import Testing
@testable import TouchModel

@Suite("Recorded traces")
struct TraceLoaderTests {
    static let ms = Nanos.perMillisecond

    @Test
    func loadsARealGestureLog() throws {
        let path = Fixtures.dollarDirectory + "/s01/medium/arrow01.xml"
        let tr = try Trajectory.make(path, parameters: TrajectoryParameters())
        // first point X=66 Y=218 at T=1349546, last X=172 Y=184 at T=1350255 (709 ms later)
        #expect(tr.duration == 709 * TraceLoaderTests.ms)
        #expect(tr.state(at: 0).position == TouchPoint(x: 66, y: 218))
        #expect(tr.state(at: 0).isDown)
        #expect(tr.state(at: 709 * TraceLoaderTests.ms).position == TouchPoint(x: 172, y: 184))
        #expect(tr.state(at: 709 * TraceLoaderTests.ms).isDown)
        #expect(!tr.state(at: 709 * TraceLoaderTests.ms + 1).isDown)
        #expect(!tr.state(at: -1).isDown)
        // between (66,218)@0 and (68,217)@33 ms: linear interpolation, slope as velocity
        let mid = tr.state(at: 16_500_000)
        #expect(abs(mid.position.x - 67) < 1e-12 && abs(mid.position.y - 217.5) < 1e-12)
        #expect(abs(mid.velocity.x - 2 / 0.033) < 1e-9 && abs(mid.velocity.y + 1 / 0.033) < 1e-9)
    }

    @Test
    func playsADirectoryFileByFileWithGaps() throws {
        let dir = Fixtures.dollarDirectory + "/s01/fast"
        let params = TrajectoryParameters(traceGap: 200 * TraceLoaderTests.ms)
        let tr = try Trajectory.make(dir, parameters: params)
        let files = try FileManager.default.subpathsOfDirectory(atPath: dir).filter { $0.hasSuffix(".xml") }
        #expect(tr.strokeCount == files.count)
        // count touch-downs by scanning every millisecond
        var downs = 0, wasDown = false
        for i in 0...(Int(tr.duration! / TraceLoaderTests.ms) + 1) {
            let d = tr.state(at: SimTime(i) * TraceLoaderTests.ms).isDown
            if d && !wasDown { downs += 1 }
            wasDown = d
        }
        #expect(downs == files.count)
        // the first stroke is arrow01 (files sorted by path)
        let first = try Trajectory.make(dir + "/arrow01.xml", parameters: params)
        #expect(tr.state(at: 5 * TraceLoaderTests.ms) == first.state(at: 5 * TraceLoaderTests.ms))
    }

    @Test func csvTraceWithDuplicateTimestampsKeepsTheLastPoint() throws {
        let dir = try Fixtures.temporaryDirectory("csv-ok")
        let path = dir + "/swipe.csv"
        try Fixtures.write("t_ms,x,y,force\n1000,10,20,0.5\n1008,18,20,0.5\n1008,19,21,0.5\n\n# a comment\n1016,27,22,0.4\n", to: path)
        let tr = try Trajectory.make(path, parameters: TrajectoryParameters())
        #expect(tr.duration == 16 * TraceLoaderTests.ms)
        #expect(tr.state(at: 8 * TraceLoaderTests.ms).position == TouchPoint(x: 19, y: 21))
        #expect(tr.state(at: 12 * TraceLoaderTests.ms).position == TouchPoint(x: 23, y: 21.5))
        #expect(tr.state(at: 12 * TraceLoaderTests.ms).velocity == TouchPoint(x: 1000, y: 125))
    }

    /// A corrupt file, the line its error must name and a word it must contain.
    static let corrupt: [(name: String, text: String, line: Int?, word: String)] = [
        ("missing.xml", "<Gesture Name=\"a\">\n  <Point X=\"1\" Y=\"2\" T=\"10\" />\n  <Point X=\"1\" T=\"20\" />\n</Gesture>\n", 3, "no Y attribute"),
        ("nonnumeric.xml", "<Gesture>\n<Point X=\"1\" Y=\"2\" T=\"10\" />\n\n<Point X=\"abc\" Y=\"2\" T=\"20\" />\n</Gesture>\n", 4, "abc"),
        ("backwards.xml", "<Gesture>\n<Point X=\"1\" Y=\"2\" T=\"30\" />\n<Point X=\"2\" Y=\"2\" T=\"40\" />\n<Point X=\"3\" Y=\"2\" T=\"35\" />\n</Gesture>\n", 4, "backwards"),
        ("empty.xml", "<Gesture>\n<Point X=\"1\" Y=\"2\" T=\"30\" />\n<Point X=\"5\" Y=\"2\" T=\"30\" />\n</Gesture>\n", 3, "empty"),
        ("nopoints.xml", "<Gesture>\n</Gesture>\n", 2, "empty"),
        ("header.csv", "time,x,y\n0,1,2\n", 1, "header"),
        ("columns.csv", "t_ms,x,y\n0,1,2\n8,1\n", 3, "2 columns"),
        ("number.csv", "t_ms,x,y\n0,1,2\n8,1,nan\n", 3, "nan"),
        ("backwards.csv", "t_ms,x,y\n0,1,2\n8,1,2\n4,1,2\n", 4, "backwards"),
    ]

    @Test("corrupt input names the file and the line", arguments: corrupt.indices)
    func corruptInputIsReported(index: Int) throws {
        let c = TraceLoaderTests.corrupt[index]
        let dir = try Fixtures.temporaryDirectory("corrupt-\(index)")
        let path = dir + "/" + c.name
        try Fixtures.write(c.text, to: path)
        do {
            _ = try Trajectory.make(path, parameters: TrajectoryParameters())
            Issue.record("\(c.name) was accepted")
        } catch {
            #expect(error.file == path)
            #expect(error.line == c.line, "\(error)")
            // `FILE:LINE: ` or, for a CSV field, `FILE:LINE:COLUMN: `
            #expect(error.description.hasPrefix("\(path):\(c.line!):"), "\(error)")
            #expect(error.description.contains(c.word), "\(error)")
            #expect(error.description.contains("; expected"), "\(error)")
        }
    }

    @Test func unreadableAndUnknownFilesAreReported() throws {
        let dir = try Fixtures.temporaryDirectory("odd")
        try Fixtures.write("hello", to: dir + "/notes.txt")
        #expect(throws: LatsimError.self) { _ = try Trajectory.make(dir + "/notes.txt", parameters: TrajectoryParameters()) }
        #expect(throws: LatsimError.self) { _ = try Trajectory.make(dir + "/absent.xml", parameters: TrajectoryParameters()) }
        #expect(throws: LatsimError.self) { _ = try Trajectory.make(dir, parameters: TrajectoryParameters()) }
    }

    @Test func directoryLoadingSkipsBadFilesOnlyWhenAsked() throws {
        let dir = try Fixtures.temporaryDirectory("mixed")
        try FileManager.default.createDirectory(atPath: dir + "/b", withIntermediateDirectories: true)
        try Fixtures.write("t_ms,x,y\n0,0,0\n10,10,0\n", to: dir + "/a.csv")
        try Fixtures.write("t_ms,x,y\n0,0,0\nten,10,0\n", to: dir + "/b/bad.csv")
        try Fixtures.write("<Gesture>\n<Point X=\"50\" Y=\"0\" T=\"100\" />\n<Point X=\"50\" Y=\"20\" T=\"120\" />\n</Gesture>\n", to: dir + "/c.xml")
        #expect {
            _ = try Trajectory.loadDirectory(dir, parameters: TrajectoryParameters(), skipBad: false)
        } throws: { error in
            (error as? LatsimError)?.file == dir + "/b/bad.csv" && (error as? LatsimError)?.line == 3
        }
        let (tr, skipped) = try Trajectory.loadDirectory(dir, parameters: TrajectoryParameters(traceGap: 50 * TraceLoaderTests.ms), skipBad: true)
        #expect(skipped.count == 1 && skipped[0].file == dir + "/b/bad.csv")
        #expect(tr.strokeCount == 2)
        // a.csv: 0...10 ms, gap 50 ms, c.xml: 60...80 ms
        #expect(tr.duration == 80 * TraceLoaderTests.ms)
        #expect(tr.state(at: 5 * TraceLoaderTests.ms).position == TouchPoint(x: 5, y: 0))
        #expect(!tr.state(at: 30 * TraceLoaderTests.ms).isDown)
        #expect(tr.state(at: 30 * TraceLoaderTests.ms).position == TouchPoint(x: 10, y: 0))
        #expect(tr.state(at: 70 * TraceLoaderTests.ms) == FingerState(position: TouchPoint(x: 50, y: 10), velocity: TouchPoint(x: 0, y: 1000), isDown: true))
    }

    /// Files read on several threads give the trajectory, the skipped files
    /// and the first error that one thread gives: each file's stroke or
    /// error is kept at the file's index.
    @Test(arguments: [2, 3, 8])
    func readingOnSeveralThreadsGivesWhatOneGives(_ jobs: Int) throws {
        let one = try Trajectory.loadDirectory(Fixtures.dollarDirectory, parameters: TrajectoryParameters(), skipBad: false, jobs: 1)
        let many = try Trajectory.loadDirectory(Fixtures.dollarDirectory, parameters: TrajectoryParameters(), skipBad: false, jobs: jobs)
        #expect(one.trajectory.strokeCount == many.trajectory.strokeCount && (one.trajectory.strokeCount ?? 0) > 10)
        #expect(one.trajectory.duration == many.trajectory.duration)
        let duration = try #require(one.trajectory.duration)
        for t in stride(from: SimTime(0), through: duration, by: 997_000) {
            #expect(one.trajectory.state(at: t) == many.trajectory.state(at: t))
        }
        let dir = try Fixtures.temporaryDirectory("threads-\(jobs)")
        for k in 0..<12 {
            let bad = k == 4 || k == 9
            try Fixtures.write(bad ? "t_ms,x,y\n0,0,0\n\(k),x,0\n" : "t_ms,x,y\n0,0,0\n10,\(k),0\n", to: dir + "/f\(10 + k).csv")
        }
        #expect {
            _ = try Trajectory.loadDirectory(dir, parameters: TrajectoryParameters(), skipBad: false, jobs: jobs)
        } throws: { error in (error as? LatsimError)?.file == dir + "/f14.csv" }
        let skipping = try Trajectory.loadDirectory(dir, parameters: TrajectoryParameters(), skipBad: true, jobs: jobs)
        #expect(skipping.skipped.map(\.file) == [dir + "/f14.csv", dir + "/f19.csv"])
        #expect(skipping.trajectory.strokeCount == 10)
    }
}

