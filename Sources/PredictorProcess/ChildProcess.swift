#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SimKernel

/// A child process started with `/bin/sh -c COMMAND`, its stdin one end of
/// a socket pair and its stdout one end of another (so that closing its
/// stdout is an end of file at once, whatever its stdin does), its stderr
/// ours, in a process group of its own (so that it and everything it starts
/// can be stopped together), with the default signal dispositions and no
/// signal blocked.
final class ChildProcess: @unchecked Sendable {
    /// The shell's process id, which is also the process group's.
    let pid: pid_t
    /// Our end of its stdin's socket pair, written to (non-blocking, close-on-exec).
    let input: Int32
    /// Our end of its stdout's socket pair, read from (non-blocking, close-on-exec).
    let output: Int32
    private var reaped: Int32?

    /// A socket pair: ours (non-blocking, writes never raise SIGPIPE) and theirs, both close-on-exec.
    private static func pair() throws(LatsimError) -> (mine: Int32, theirs: Int32) {
        var fds: [Int32] = [-1, -1]
        #if os(Linux)
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #else
        let type = SOCK_STREAM
        #endif
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else {
            throw ChildProcess.environment("cannot make a socket pair for the predictor", errno)
        }
        #if !os(Linux)
        for f in fds { _ = fcntl(f, F_SETFD, FD_CLOEXEC) }
        #endif
        let mine = fds[0]
        _ = fcntl(mine, F_SETFL, fcntl(mine, F_GETFL) | O_NONBLOCK)
        #if !os(Linux)
        var on: Int32 = 1
        _ = setsockopt(mine, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return (mine, fds[1])
    }

    /// Starts `command`; an environment error when the shell cannot be started.
    init(command: String) throws(LatsimError) {
        let stdin = try ChildProcess.pair()
        let stdout: (mine: Int32, theirs: Int32)
        do { stdout = try ChildProcess.pair() } catch {
            close(stdin.mine)
            close(stdin.theirs)
            throw error
        }

        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_adddup2(&actions, stdin.theirs, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout.theirs, 1)
        posix_spawn_file_actions_addclose(&actions, stdin.theirs)
        posix_spawn_file_actions_addclose(&actions, stdout.theirs)
        // nothing else of ours is inherited: an open descriptor held by the
        // predictor (or a process it leaves behind) would keep whatever
        // waits for it waiting
        #if os(Linux)
        if let closeFrom = ChildProcess.closeFrom { _ = closeFrom(&actions, 3) }
        #endif
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        var flags = Int32(POSIX_SPAWN_SETPGROUP) | Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(ChildProcess.shellCommand(command)), nil]
        defer { for a in argv { free(a) } }
        // our environment plus the tag every process it starts inherits,
        // so that a process that left its group and session is found too
        let tag = ChildProcess.newTag()
        var environment: [UnsafeMutablePointer<CChar>?] = []
        var e = environ
        while let entry = e.pointee {
            if !String(cString: entry).hasPrefix(ChildProcess.tagVariable + "=") { environment.append(strdup(entry)) }
            e += 1
        }
        environment.append(strdup(ChildProcess.tagVariable + "=" + tag))
        environment.append(nil)
        defer { for a in environment { free(a) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv, environment)
        close(stdin.theirs)
        close(stdout.theirs)
        guard status == 0 else {
            close(stdin.mine)
            close(stdout.mine)
            throw ChildProcess.environment("cannot start /bin/sh for the predictor", status)
        }
        pid = child
        input = stdin.mine
        output = stdout.mine
        self.tag = tag
    }

    /// The text `/bin/sh -c` runs: a simple command (words and quotes
    /// alone: no `;`, `&`, `|`, redirection, substitution, group, comment
    /// or line break, no assignment or shell keyword first) is run with
    /// `exec`, so that no shell stays between latsim and the predictor
    /// holding its stdout open: a predictor that closes its stdout is an
    /// end of file at once. Anything else runs as written (its shell keeps
    /// stdout open until it exits).
    static func shellCommand(_ command: String) -> String {
        let special = Set(";&|<>()`$\\\n\r#{}".unicodeScalars)
        guard !command.unicodeScalars.contains(where: { special.contains($0) }) else { return command }
        let first = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init) ?? ""
        let keywords: Set<String> = ["exec", "if", "then", "else", "elif", "fi", "while", "until", "for", "do", "done", "case", "esac",
                                     "!", "time", "cd", "eval", "set", "export", "readonly", "unset", "shift", "trap", "ulimit", "umask", ".", "source"]
        guard !first.isEmpty, !first.contains("="), !keywords.contains(first) else { return command }
        return "exec " + command
    }

    /// The program a simple command (one ``shellCommand(_:)`` runs with
    /// `exec`) names first, its quotes removed; nil for any other command,
    /// whose program only its shell knows.
    static func program(of command: String) -> String? {
        guard shellCommand(command) != command else { return nil }
        var word = "", quote: Character? = nil
        for c in command.drop(while: { $0 == " " || $0 == "\t" }) {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == " " || c == "\t" {
                break
            } else {
                word.append(c)
            }
        }
        return word.isEmpty ? nil : word
    }

    /// Why the shell could not start `command`'s program, or nil when it
    /// can (or when the command is not simple: its shell decides). A
    /// program with a `/` is that file (from the current directory when
    /// relative); one without is looked for on `PATH`, as the shell looks.
    static func unstartable(_ command: String, path: String?) -> String? {
        // a word the shell expands (`~/bin/p`, `p*`) is its shell's to find
        guard let program = program(of: command), !program.contains(where: { "~*?[".contains($0) }) else { return nil }
        func executable(_ file: String) -> Bool {
            var st = stat()
            return stat(file, &st) == 0 && (st.st_mode & S_IFMT) != S_IFDIR && access(file, X_OK) == 0
        }
        if program.contains("/") {
            var st = stat()
            if stat(program, &st) != 0 { return "'\(LatsimError.shortened(program))' does not exist" }
            if !executable(program) { return "'\(LatsimError.shortened(program))' is not an executable file" }
            return nil
        }
        // an empty entry of PATH is the current directory, as for the shell
        let dirs = (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false).map { $0.isEmpty ? "." : String($0) }
        if dirs.contains(where: { executable($0 + "/" + program) }) { return nil }
        return "no program '\(LatsimError.shortened(program))' on PATH"
    }

    /// The environment variable that marks the predictor's processes.
    static let tagVariable = "LATSIM_PREDICTOR_TAG"
    /// This predictor's value of ``tagVariable``: unique in this machine
    /// while latsim runs (its process id, a count, a random number).
    let tag: String
    private static let counter = Locked(0)
    static func newTag() -> String {
        let n = counter.withLock { c -> Int in c += 1; return c }
        return "\(getpid())-\(n)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// The processes (other than `except`) whose environment carries
    /// `tag`: everything the predictor started, whatever group or session
    /// it moved to, unless it cleared its environment. Linux only (read
    /// from /proc); elsewhere none.
    static func processes(tagged tag: String, except: pid_t) -> [pid_t] {
        #if os(Linux)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        let needleData = Data([UInt8(0)] + Array((tagVariable + "=" + tag).utf8) + [0])
        var found: [pid_t] = []
        for name in names {
            guard let p = pid_t(name), p != except, p != getpid() else { continue }
            guard let env = FileManager.default.contents(atPath: "/proc/\(name)/environ"), env.count >= needleData.count - 2 else { continue }
            // entries are NUL-separated: look for NUL, the entry, NUL
            var haystack = Data([0])
            haystack.append(env)
            haystack.append(0)
            if haystack.range(of: needleData) != nil { found.append(p) }
        }
        return found
        #else
        return []
        #endif
    }

    deinit {
        stop()
        close(input)
        close(output)
    }

    #if os(Linux)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later),
    /// looked up at run time: Swift's Glibc module does not declare it.
    static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32)? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32).self)
    }()
    #endif

    static func environment(_ what: String, _ code: Int32) -> LatsimError {
        LatsimError(.environment, problem: "\(what): \(String(cString: strerror(code)))")
    }

    /// How the process ended: `exited with status N`, `was killed by
    /// signal N`; nil while it runs. Peeks without reaping, so that the
    /// process group cannot be reused before ``stop()``.
    func exitDescription() -> (text: String, status: Int32?)? {
        if let r = reaped { return describe(r) }
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return nil }
        #if os(Linux)
        let who = info._sifields._sigchld.si_pid
        let value = info._sifields._sigchld.si_status
        #else
        let who = info.si_pid
        let value = info.si_status
        #endif
        guard who == pid else { return nil }
        if info.si_code == Int32(CLD_EXITED) { return ("exited with status \(value)", value) }
        return ("was killed by signal \(value)", nil)
    }

    private func describe(_ status: Int32) -> (text: String, status: Int32?) {
        let signal = status & 0x7F
        if signal == 0 { return ("exited with status \((status >> 8) & 0xFF)", (status >> 8) & 0xFF) }
        return ("was killed by signal \(signal)", nil)
    }

    /// Waits up to `seconds` for the process to exit (peeking); true when it did.
    func awaitExit(seconds: Double) -> Bool {
        let deadline = Monotonic.now() + seconds
        var pause: UInt32 = 200
        while exitDescription() == nil {
            if Monotonic.now() >= deadline { return false }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        return true
    }

    /// Kills the process group (SIGKILL) and reaps the process: no zombie
    /// and nothing it started is left. Safe to call more than once.
    func stop() {
        guard reaped == nil else { return }
        // the group is killed before the leader is reaped, so that its id
        // cannot have been reused by then; then every process carrying the
        // predictor's tag (one that moved to a session of its own with
        // setsid, or was orphaned), twice in case one forked meanwhile
        kill(-pid, SIGKILL)
        for _ in 0..<2 {
            let strays = ChildProcess.processes(tagged: tag, except: pid)
            if strays.isEmpty { break }
            for p in strays { kill(p, SIGKILL) }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        reaped = status
    }
}

/// A monotonic clock in seconds.
enum Monotonic {
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}

/// The `PATH` latsim runs with (the predictor's shell inherits it).
enum ProcessInfoPath {
    static var current: String? { getenv("PATH").map { String(cString: $0) } }
}
