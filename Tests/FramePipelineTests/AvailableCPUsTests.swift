import Foundation
import Testing
@testable import Experiments
import SimKernel

#if canImport(Glibc)
import Glibc
#endif

/// The default number of threads is what the process may use: its CPU
/// affinity mask and its cgroup's CPU quota, not only the online CPUs.
@Suite struct AvailableCPUsTests {
    /// cgroup v2's cpu.max: "QUOTA PERIOD", or "max PERIOD" for none;
    /// a quota of 1.5 CPUs gives 2 threads (rounded up).
    @Test func cgroupQuotasAreWholeCPUsRoundedUp() {
        #expect(Parallel.quota(cpuMax: "max 100000\n") == nil)
        #expect(Parallel.quota(cpuMax: "100000 100000\n") == 1)
        #expect(Parallel.quota(cpuMax: "150000 100000") == 2)
        #expect(Parallel.quota(cpuMax: "400000 100000") == 4)
        #expect(Parallel.quota(cpuMax: "garbage") == nil)
        // v1: -1 is no quota
        #expect(Parallel.quota(cfsQuota: "-1\n", period: "100000\n") == nil)
        #expect(Parallel.quota(cfsQuota: "50000\n", period: "100000\n") == 1)
        #expect(Parallel.quota(cfsQuota: "250000", period: "100000") == 3)
    }

    @Test func cpuListsCountTheirCPUs() {
        #expect(Parallel.cpuCount(list: "0-3,8,10-11\n") == 7)
        #expect(Parallel.cpuCount(list: "0") == 1)
        #expect(Parallel.cpuCount(list: "3-1") == nil)
        #expect(Parallel.cpuCount(list: "") == nil)
    }

    #if os(Linux)
    /// A thread bound to one CPU (as `taskset -c 0` binds a process) gets
    /// one worker; the mask restored, the count is back.
    @Test func theAffinityMaskBoundsTheWorkers() throws {
        typealias Affinity = @convention(c) (Int32, Int, UnsafeMutableRawPointer) -> Int32
        let libc = try #require(dlopen(nil, RTLD_NOW))
        let get = unsafeBitCast(try #require(dlsym(libc, "sched_getaffinity")), to: Affinity.self)
        let set = unsafeBitCast(try #require(dlsym(libc, "sched_setaffinity")), to: Affinity.self)
        var saved = [UInt8](repeating: 0, count: 128), one = [UInt8](repeating: 0, count: 128)
        try #require(get(0, 128, &saved) == 0)
        let before = Parallel.availableCPUs
        one[0] = 1 // CPU 0 alone
        try #require(set(0, 128, &one) == 0)
        let bound = Parallel.availableCPUs
        _ = set(0, 128, &saved)
        #expect(bound == 1)
        #expect(Parallel.availableCPUs == before)
        #expect(before <= ProcessInfo.processInfo.activeProcessorCount && before >= 1)
    }
    #endif
}
