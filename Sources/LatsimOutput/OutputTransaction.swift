import Foundation
import SimKernel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The outputs of one command committed together: while a transaction is
/// open, every file ``AtomicFile`` writes (and every image ``Gnuplot``
/// renders) is written in full to its temporary file beside its
/// destination, flushed, and left there; ``commit()`` renames them all into
/// place in one critical section of ``CleanupRegistry``, which the signal
/// cleanup cannot interrupt. An interrupt before the commit removes the
/// temporary files (every destination keeps its old file); one after it
/// waits for the renames (every destination has its new file). A command
/// that fails discards the transaction: nothing it wrote appears.
///
/// A transaction belongs to the thread that began it (the command line's
/// main thread): writes from other threads, and from code that runs
/// without a transaction (libraries, tests), happen at once. Files written
/// inside a ``StagedDirectory``'s staging folder are not held (the staging folder is itself committed whole), nor are writes to
/// devices, FIFOs, sockets and standard output, which happen at once.
public final class OutputTransaction: @unchecked Sendable {
    private struct Pending {
        var temporary: String
        var target: String
        var file: String
        var token: CleanupRegistry.Token
        var createdFolders: [String]
    }

    /// The thread's open transaction: a thread-specific slot holding a
    /// retained reference, released when the transaction closes, another
    /// opens, or the thread ends (cheaper than Foundation's thread
    /// dictionary, which bridges its keys and values on every use).
    private static let slot: pthread_key_t = {
        var key = pthread_key_t()
        #if canImport(Darwin)
        let status = pthread_key_create(&key) { Unmanaged<OutputTransaction>.fromOpaque($0).release() }
        #else
        let status = pthread_key_create(&key) { if let p = $0 { Unmanaged<OutputTransaction>.fromOpaque(p).release() } }
        #endif
        precondition(status == 0, "no thread-specific slot for the output transaction (pthread_key_create: \(status))")
        return key
    }()

    /// Makes `t` this thread's transaction (nil: none), releasing the one before.
    private static func setCurrent(_ t: OutputTransaction?) {
        let old = pthread_getspecific(slot)
        pthread_setspecific(slot, t.map { Unmanaged.passRetained($0).toOpaque() })
        if let old { Unmanaged<OutputTransaction>.fromOpaque(old).release() }
    }
    private let registry: CleanupRegistry
    private let pending = Locked([Pending]())

    private init(registry: CleanupRegistry) { self.registry = registry }

    /// Opens the process's transaction (one at a time).
    @discardableResult
    public static func begin(registry: CleanupRegistry = .shared) -> OutputTransaction {
        let t = OutputTransaction(registry: registry)
        setCurrent(t)
        return t
    }

    /// This thread's open transaction, if any.
    public static var current: OutputTransaction? {
        pthread_getspecific(slot).map { Unmanaged<OutputTransaction>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Closes the transaction on this thread.
    private func close() {
        if Self.current === self { Self.setCurrent(nil) }
    }

    /// The destinations held so far, in the order written.
    public var destinations: [String] { pending.withLock { $0.map(\.file) } }

    /// Takes a finished temporary file (registered with the registry by
    /// `token`) to be renamed over `target` at the commit. A second file for
    /// the same target replaces the first.
    package func hold(temporary: String, target: String, file: String, token: CleanupRegistry.Token, createdFolders: [String]) {
        let replaced: Pending? = pending.withLock { list in
            var old: Pending?
            if let i = list.firstIndex(where: { $0.target == target }) { old = list.remove(at: i) }
            list.append(Pending(temporary: temporary, target: target, file: file, token: token, createdFolders: createdFolders))
            return old
        }
        if let replaced {
            unlink(replaced.temporary)
            registry.unregister(replaced.token)
        }
    }

    /// True when a write to `target` is held by this transaction: a file
    /// outside every staging folder.
    package func holds(_ target: String) -> Bool {
        !StagedDirectory.isInsideStaging(target)
    }

    /// Renames every held file into place, all in one critical section, and
    /// closes the transaction.
    ///
    /// - Throws: ``LatsimError`` when a rename fails; the files not yet
    ///   renamed are then removed.
    public func commit() throws {
        close()
        let items = pending.withLock { list -> [Pending] in defer { list.removeAll() }; return list }
        try registry.critical {
            var failure: LatsimError?
            for item in items {
                if failure == nil {
                    let code = FileSystem.move(item.temporary, to: item.target)
                    if code != 0 { failure = FileSystem.error(code, file: item.file) }
                }
                if failure != nil {
                    unlink(item.temporary)
                    FileSystem.removeDirectories(item.createdFolders)
                }
                registry.unregister(item.token)
            }
            if let failure { throw failure }
        }
    }

    /// Removes every held file (and the folders made for them) and closes
    /// the transaction: every destination keeps what it had.
    public func discard() {
        close()
        let items = pending.withLock { list -> [Pending] in defer { list.removeAll() }; return list }
        registry.critical {
            for item in items.reversed() {
                unlink(item.temporary)
                FileSystem.removeDirectories(item.createdFolders)
                registry.unregister(item.token)
            }
        }
    }
}

/// The hidden names of latsim's temporary files and staging folders carry
/// the id of the process that made them and a token of its machine
/// (`.NAME.latsim-PID-HOST-RANDOM.tmp`, `.NAME.latsim-staging-PID-HOST-RANDOM`),
/// so that a later run on the same machine can tell the leftovers of a
/// process killed outright (SIGKILL, a power cut: no cleanup ran) from those
/// of a process still running, and remove them. Leftovers of another
/// machine (a folder shared over the network, as a cluster's part files
/// are) are never touched: its process ids mean nothing here.
public enum LeftoverFiles {
    /// This machine's token: a hash of its host name and machine id, in
    /// base 36.
    public static let host: String = {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        let machine = (try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8)) ?? ""
        var hash: UInt32 = 2_166_136_261 // FNV-1a
        for byte in Array(String(cString: name).utf8) + [0] + Array(machine.utf8) {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return String(hash, radix: 36)
    }()

    /// The part of a temporary name after the destination's name:
    /// `latsim-PID-HOST-RANDOM` (with `kind-` before the id for staging and
    /// old folders).
    package static func tag(_ kind: String? = nil) -> String {
        "latsim-" + (kind.map { $0 + "-" } ?? "") + "\(getpid())-\(host)-" + FileSystem.randomSuffix()
    }

    /// The process id and machine token in a name latsim gave a temporary
    /// file or folder, or nil for any other name.
    public static func owner(of name: String) -> (pid: Int32, host: String)? {
        guard name.hasPrefix("."), let range = name.range(of: ".latsim-", options: .backwards) else { return nil }
        var rest = name[range.upperBound...]
        for kind in ["staging-", "old-"] where rest.hasPrefix(kind) { rest = rest.dropFirst(kind.count) }
        func token(digitsOnly: Bool) -> Substring? {
            let t = rest.prefix { $0.isASCII && ($0.isNumber || (!digitsOnly && ("a"..."z").contains($0))) }
            guard !t.isEmpty, t.count <= 16 else { return nil }
            rest = rest.dropFirst(t.count)
            return t
        }
        guard let digits = token(digitsOnly: true), let pid = Int32(digits), rest.hasPrefix("-") else { return nil }
        rest = rest.dropFirst()
        guard let host = token(digitsOnly: false), rest.hasPrefix("-") else { return nil }
        rest = rest.dropFirst()
        guard token(digitsOnly: false) != nil else { return nil }
        if rest.isEmpty { return (pid, String(host)) }
        guard rest.hasPrefix(".tmp") else { return nil }
        rest = rest.dropFirst(4)
        if rest.isEmpty { return (pid, String(host)) }
        guard rest.hasPrefix("."), rest.count > 1, rest.dropFirst().allSatisfy({ ("a"..."z").contains($0) }) else { return nil }
        return (pid, String(host))
    }

    private static let cleaned = Locked(Set<String>())

    /// Removes, once per folder and process, the temporary files and
    /// staging folders in `folder` made on this machine by a process that
    /// no longer exists. Returns the names removed.
    @discardableResult
    public static func clean(_ folder: String) -> [String] {
        let key = FileSystem.canonical(folder)
        guard cleaned.withLock({ $0.insert(key).inserted }) else { return [] }
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var removed: [String] = []
        for name in names {
            guard let (pid, made) = owner(of: name), made == host, pid > 0, pid != getpid() else { continue }
            // a live process (or one we may not signal) keeps its files
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            if (try? FileManager.default.removeItem(atPath: FileSystem.join(folder, name))) != nil { removed.append(name) }
        }
        return removed
    }
}
