import SimKernel
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
                ring.appendInPlace { $0.initialize(to: text) }
            } else {
                ring.append(text)
            }
            model.append(text)
            if step % 4 == 3 { #expect(ring.removeFirst() == model.removeFirst()) }
            #expect(ring.count == model.count)
            #expect(ring.last == model.last)
        }
        #expect(Array(ring) == model)
    }

    @Test func aSlotMadeInPlaceIsTheNewest() {
        let ring = Ring<Int64>(capacity: 4)
        for i in Int64(0)..<4 { ring.append(i) }
        ring.removeFirst(2)
        // two kept at the storage's end: the new slot wraps round to its start
        let made: Int = ring.appendInPlace { slot in
            slot.initialize(to: 99)
            return 7
        }
        #expect(made == 7)
        #expect(ring.count == 3)
        #expect(Array(ring) == [2, 3, 99])
        #expect(ring.inPlace(2).value == 99 && ring.last == 99)
    }

    /// A plain-data element copied as bytes is the element.
    @Test func anElementCopiedAsBytesIsTheElement() {
        let ring = Ring<(Int64, Double, Bool)>(capacity: 2)
        ring.append((1, 0.5, true))
        ring.append((-7, 1e300, false))
        var copy: (Int64, Double, Bool) = (0, 0, true)
        ring.copyBytes(of: 1, into: &copy)
        #expect(copy == (-7, 1e300, false))
    }
}

/// ``NumberedSlots``: number n is in slot n mod count, read and written in place.
@Suite struct NumberedSlotsTests {
    @Test func aNumberTakesTheSlotOfItsLowBits() {
        let slots = NumberedSlots(atLeast: 5, filledWith: -1)
        #expect(slots.count == 8)
        for n in Int64(0)..<8 { #expect(slots[n] == -1) }
        slots[3] = 30
        #expect(slots[11] == 30 && slots[-5] == 30)  // 11 and -5 are 3 mod 8
        slots[11] = 110
        #expect(slots.inPlace(3).value == 110)
    }

    /// An object used without retaining it is the same object.
    @Test func anUnownedReferenceReachesItsObject() {
        final class Box { var x = 1 }
        let box = Box()
        let ref = Unowned(box)
        ref.with { $0.x += 41 }
        #expect(box.x == 42)
    }
}
