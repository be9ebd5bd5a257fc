import Experiments
import PredictorProcess
import SimKernel

extension OwnPredictor {
    /// A predictor in another process: each run starts `command` afresh
    /// (so runs share no state and a study gives the same figures at any
    /// thread count; at most one process per worker thread is alive at a
    /// time), named by its handshake, and stopped and reaped when the run
    /// is over. A process that fails spoils its run, and the study stops.
    public init(command: PredictorCommand) {
        self.init(start: { frameInterval throws(LatsimError) in
            let p = try command.start(frameInterval: frameInterval)
            return OwnPredictor.Started(predictor: p, name: p.name, finish: { p.finish() })
        })
    }
}
