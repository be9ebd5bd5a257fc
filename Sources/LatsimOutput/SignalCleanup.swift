import Foundation
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths to remove, and child processes to stop, if the process is
/// interrupted: temporary files, staging folders, a running gnuplot.
///
/// Code that creates something temporary registers it (ideally inside
/// ``critical(_:)``, together with the creation) and unregisters it once the
/// thing has been moved into place or removed. ``SignalCleanup`` empties
/// ``shared`` when SIGINT, SIGTERM or SIGHUP arrives.
///
/// ``critical(_:)`` and the cleanup exclude each other: once the cleanup has
/// started, a critical section never runs again, so nothing can be created
/// (and left behind) after the cleanup has looked.
public final class CleanupRegistry: @unchecked Sendable {
    /// The registry ``SignalCleanup`` empties on a signal.
    public static let shared = CleanupRegistry()

    /// Identifies one registration, for ``unregister(_:)``.
    public struct Token: Hashable, Sendable {
        let id: Int
    }

    private enum Item {
        case path(String)
        case process(Int32)
        case processGroup(Int32)
    }

    private let lock = NSRecursiveLock()
    private var nextID = 0
    private var items: [Int: Item] = [:]

    /// An empty registry (tests use their own; the command line uses ``shared``).
    public init() {}

    /// Runs `body` while no cleanup can start; creating a temporary file and
    /// registering it belong in one critical section.
    public func critical<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Registers a file or folder (removed with everything in it).
    @discardableResult
    public func register(_ url: URL) -> Token {
        register(path: url.path)
    }

    /// Registers a file or folder by its path.
    @discardableResult
    public func register(path: String) -> Token {
        add(.path(path))
    }

    /// Registers a child process, sent SIGTERM by the cleanup.
    @discardableResult
    public func register(process identifier: Int32) -> Token {
        add(.process(identifier))
    }

    /// Registers a process group (a child started as its group's leader,
    /// with everything it started), sent SIGKILL by the cleanup.
    @discardableResult
    public func register(processGroup identifier: Int32) -> Token {
        add(.processGroup(identifier))
    }

    /// Forgets a registration (the path was moved into place or removed).
    public func unregister(_ token: Token) {
        critical { _ = items.removeValue(forKey: token.id) }
    }

    /// The registered paths, oldest first.
    public var paths: [String] {
        critical {
            items.sorted { $0.key < $1.key }.compactMap { if case .path(let p) = $0.value { return p } else { return nil } }
        }
    }

    /// Runs `body` with `url` registered, unregistering it afterwards
    /// (whether or not `body` throws; the caller removes what it must).
    public func whileRegistered<T>(_ url: URL, _ body: () throws -> T) rethrows -> T {
        let token = register(url)
        defer { unregister(token) }
        return try body()
    }

    /// Stops the registered processes and removes the registered paths,
    /// newest first, and forgets them; returns the paths that could not be
    /// removed.
    @discardableResult
    public func removeAll() -> [String] {
        critical {
            let left = removeRegistered()
            items.removeAll()
            return left
        }
    }

    /// The cleanup of a signal: like ``removeAll()``, but the lock is never
    /// released, so no critical section runs again before the process exits.
    func removeAllForExit() {
        lock.lock()
        _ = removeRegistered()
    }

    private func add(_ item: Item) -> Token {
        critical {
            nextID += 1
            items[nextID] = item
            return Token(id: nextID)
        }
    }

    /// Removal itself; the caller holds the lock.
    private func removeRegistered() -> [String] {
        let ordered = items.sorted { $0.key > $1.key }.map(\.value)
        var stopped = false
        for case .process(let identifier) in ordered where identifier > 0 {
            kill(identifier, SIGTERM)
            stopped = true
        }
        for case .processGroup(let identifier) in ordered where identifier > 1 {
            kill(-identifier, SIGKILL)
            stopped = true
        }
        var left: [String] = []
        for case .path(let path) in ordered {
            // a stopped child may still be finishing a file in a folder being
            // removed: try again a few times before giving up
            var attempts = stopped ? 50 : 1
            while true {
                try? FileManager.default.removeItem(atPath: path)
                attempts -= 1
                if FileSystem.linkStatus(path) == nil || attempts == 0 { break }
                usleep(10_000)
            }
            if FileSystem.linkStatus(path) != nil { left.append(path) }
        }
        return left
    }
}

/// Removes ``CleanupRegistry/shared``'s paths when the process is
/// interrupted, then exits with 128 + the signal's number: 130 for SIGINT,
/// 143 for SIGTERM, 129 for SIGHUP.
///
/// ``install()`` sets handlers once per process. The handler itself only
/// writes the signal's number to a pipe (all a signal handler may safely
/// do); a thread waiting on that pipe does the cleanup. A second signal
/// during the cleanup exits at once. Handlers, unlike ignored signals, are
/// reset for child processes, so gnuplot still stops on Ctrl-C. The three
/// signals are unblocked in the installing thread, in case the process was
/// started with them blocked.
public enum SignalCleanup {
    /// The signals handled: SIGINT, SIGTERM and SIGHUP.
    public static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The exit status after `signal`: 128 + its number.
    public static func exitStatus(for signal: Int32) -> Int32 {
        128 + signal
    }

    /// Installs the handlers (once; later calls do nothing).
    public static func install() {
        _ = installation
    }

    private static let installation: Void = {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
        cleanupSignalWriteEnd = fds[1]
        cleanupSignalReceived = 0
        let readEnd = fds[0]
        // a parent may have started latsim with these signals blocked (a
        // dispatch thread blocks them, and Process keeps that mask): unblock
        // them here (the main thread), before the cleanup thread inherits
        // the mask
        var handled = sigset_t()
        sigemptyset(&handled)
        for s in signals { sigaddset(&handled, s) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
        let started = startThread(stackSize: 0) {
            var byte: UInt8 = 0
            while true {
                let n = read(readEnd, &byte, 1)
                if n == 1 { break }
                if n < 0 && errno == EINTR { continue }
                return
            }
            CleanupRegistry.shared.removeAllForExit()
            _exit(exitStatus(for: Int32(byte)))
        }
        // without the thread (its stack refused under a memory limit) the
        // signals keep their default action: latsim ends at once, its
        // temporary files left behind, rather than ignoring them
        guard started else { return }
        for s in signals { signal(s, cleanupSignalHandler) }
    }()
}

/// The pipe the handler writes to (set before the handlers are installed).
nonisolated(unsafe) private var cleanupSignalWriteEnd: Int32 = -1
/// The first signal received, 0 before.
nonisolated(unsafe) private var cleanupSignalReceived: Int32 = 0

/// The handler: hands the signal to the cleanup thread; a second signal
/// exits at once.
private func cleanupSignalHandler(_ signal: Int32) {
    if cleanupSignalReceived != 0 { _exit(SignalCleanup.exitStatus(for: signal)) }
    cleanupSignalReceived = signal
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(cleanupSignalWriteEnd, &byte, 1)
    errno = saved
}
