#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts `body` on a thread of its own with `stackSize` bytes of stack (0:
/// the system's default), detached; returns false, and never runs `body`, when the system refuses
/// the thread (no memory for its stack under a data limit, or no thread
/// left). Foundation's `Thread.start()` gives no such answer: a refused
/// thread simply never ran, and whoever waited for its work waited for good
/// (a trace's writer under `ulimit -d`). A caller does the work itself then.
public func startThread(stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
    final class Work {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    guard pthread_attr_init(&attributes) == 0 else { return false }
    defer { pthread_attr_destroy(&attributes) }
    if stackSize > 0 { _ = pthread_attr_setstacksize(&attributes, stackSize) }
    _ = pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    let context = Unmanaged.passRetained(Work(body)).toOpaque()
    // (Darwin's thread handle is optional and its start routine's context
    // is not; Glibc's the other way round)
    #if canImport(Darwin)
    var thread: pthread_t?
    let started = pthread_create(&thread, &attributes, { context in
        Unmanaged<Work>.fromOpaque(context).takeRetainedValue().body()
        return nil
    }, context)
    #else
    var thread = pthread_t()
    let started = pthread_create(&thread, &attributes, { context in
        Unmanaged<Work>.fromOpaque(context!).takeRetainedValue().body()
        return nil
    }, context)
    #endif
    guard started == 0 else {
        Unmanaged<Work>.fromOpaque(context).release()
        return false
    }
    return true
}
