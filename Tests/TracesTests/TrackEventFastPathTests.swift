import Foundation
import PerfettoProtos
import Testing
@testable import Traces

/// The importer reads a packet holding only a track event straight from
/// its bytes: what it reads is what the protobuf decoder reads, and any
/// packet it might judge differently goes to the decoder.
struct TrackEventFastPathTests {
    static func packet(_ build: (inout Perfetto_Protos_TrackEvent) -> Void, timestamp: UInt64 = 1_234_567) -> Perfetto_Protos_TracePacket {
        var p = Perfetto_Protos_TracePacket()
        p.timestamp = timestamp
        p.trustedPacketSequenceID = 7
        var e = Perfetto_Protos_TrackEvent()
        build(&e)
        p.trackEvent = e
        return p
    }

    static func fast(_ bytes: [UInt8]) -> (timestamp: UInt64, event: PerfettoImport.TrackEventFields)? {
        bytes.withUnsafeBytes { PerfettoImport.trackEventPacket($0, from: 0, to: $0.count) }
    }

    @Test func readsWhatTheDecoderReads() throws {
        var a = Perfetto_Protos_DebugAnnotation()
        a.name = "commit"
        a.intValue = 3
        let names = ["DrawFrame 12", "Choreographer#doFrame 7", "GPU frame", "waiting for GPU completion 4", "latch and composite",
                     "composite", "onMessageRefresh", "scan 3", "", "Draw", "compositeX"]
        var packets: [Perfetto_Protos_TracePacket] = []
        for (k, name) in names.enumerated() {
            packets.append(Self.packet({ e in
                e.type = k % 2 == 0 ? .sliceBegin : .sliceEnd
                e.trackUuid = UInt64(1_000 + k)
                e.name = name
                e.categories = ["latsim"]
                e.debugAnnotations = [a]
                e.flowIds = [UInt64(k)]
            }))
        }
        packets.append(Self.packet({ e in e.type = .counter; e.trackUuid = 100_000; e.doubleCounterValue = 2.5 }))
        packets.append(Self.packet({ e in e.type = .instant; e.trackUuid = 5; e.name = "DrawFrame"; e.terminatingFlowIds = [9] }))
        packets.append(Self.packet({ e in e.type = .sliceBegin; e.trackUuid = 5; e.nameIid = 3 }))
        for p in packets {
            let bytes: [UInt8] = try p.serializedBytes()
            let read = try #require(Self.fast(bytes), "\(p)")
            let decoded = try Perfetto_Protos_TracePacket(serializedBytes: bytes)
            #expect(read.timestamp == decoded.timestamp)
            #expect(read.event.type == Int32(decoded.trackEvent.type.rawValue))
            #expect(read.event.track == decoded.trackEvent.trackUuid)
            #expect(read.event.rules == PerfettoImport.rules(of: decoded.trackEvent.name))
        }
        // the rules themselves: a prefix, not a part of one
        #expect(PerfettoImport.rules(of: "DrawFrame 12") == 0b0010)
        #expect(PerfettoImport.rules(of: "Draw") == 0 && PerfettoImport.rules(of: "compositeX") == 0b1000)
    }

    @Test func leavesOtherPacketsToTheDecoder() throws {
        // a packet with another field read, a name that is not ASCII, a cut packet, no track event
        var timeline = Self.packet({ e in e.type = .sliceBegin; e.trackUuid = 1; e.name = "DrawFrame" })
        timeline.frameTimelineEvent.frameEnd.cookie = 3
        let nonASCII = Self.packet({ e in e.type = .sliceBegin; e.trackUuid = 1; e.name = "DrawFrame é" })
        let whole: [UInt8] = try Self.packet({ e in e.type = .sliceBegin; e.trackUuid = 1; e.name = "DrawFrame" }).serializedBytes()
        var descriptor = Perfetto_Protos_TracePacket()
        descriptor.trackDescriptor.uuid = 4
        #expect(Self.fast(try timeline.serializedBytes()) == nil)
        #expect(Self.fast(try nonASCII.serializedBytes()) == nil)
        #expect(Self.fast(Array(whole.dropLast(2))) == nil)
        #expect(Self.fast(try descriptor.serializedBytes()) == nil)
        // a known field of the wrong wire type: timestamp (8) as bytes
        #expect(Self.fast([0x42, 0x01, 0x00] + whole) == nil)
    }
}
