/// Stream numbers that keep each generator's random draws independent.
enum StreamTag {
    static let circle: UInt64 = 0xC12C_0000_0000_0000
    static let random: UInt64 = 0x2A4D_0000_0000_0000
    /// Strokes use stream `strokeBase &+ k` for stroke k.
    static let strokeBase: UInt64 = 0x5742_0000_0000_0000
    /// Flicks use stream `flickBase &+ k` for flick k.
    static let flickBase: UInt64 = 0xF11C_0000_0000_0000
    /// Taps use stream `tapBase &+ i` for tap i's place in its slot.
    static let tapBase: UInt64 = 0x7A95_0000_0000_0000
}
