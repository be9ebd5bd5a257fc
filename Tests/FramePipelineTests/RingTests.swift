@testable import FramePipeline
import Testing

/// ``Ring``: a first-in first-out queue that keeps its order as it wraps
/// and grows, whether an element is appended as a value or made in its slot.
@Suite struct RingTests {
    @Test func keepsTheOrderOfAQueueAsItWrapsAndGrows() {
        let ring = Ring<String>(capacity: 4)
        var model: [String] = []
        var next = 0
        // appends outrun removals, so the ring wraps at each capacity and grows three times
        for step in 0..<200 {
            let text = "element \(next)"
            next += 1
            if step % 3 == 0 {
                ring.appendUninitialized().initialize(to: text)
            } else {
                ring.append(text)
            }
            model.append(text)
            if step % 4 == 3 { #expect(ring.removeFirst() == model.removeFirst()) }
            #expect(ring.count == model.count)
            #expect(ring.last == model.last)
        }
        #expect(Array(ring) == model)
        #expect(ring.storage.mask + 1 >= model.count)
    }

    @Test func aSlotMadeInPlaceIsTheNewest() {
        let ring = Ring<Int64>(capacity: 4)
        for i in Int64(0)..<4 { ring.append(i) }
        ring.removeFirst(2)
        // two kept at the storage's end: the new slot wraps round to its start
        let slot = ring.appendUninitialized()
        slot.initialize(to: 99)
        #expect(ring.count == 3)
        #expect(Array(ring) == [2, 3, 99])
        #expect(ring.pointer(2) == slot)
    }
}
