import SimKernel

/// The display: at each vsync latch a completed frame becomes the front
/// buffer and the previous front buffer is released. `latest` latches the
/// newest completed frame and drops older ones; `fifo` latches the oldest.
/// No completed frame: the old one is shown again (a repeated frame), a
/// hitch when a newer commit was made before this vsync.
extension PipelineRun {
    mutating func vsyncLatch(_ now: SimTime) {
        queue.schedule(at: latchTicker.advance(), kind: PipelineEvent.latch.rawValue)
        if !presentQueue.isEmpty {
            let frame: Frame
            if configuration.present == .latest {
                frame = presentQueue.removeLast()
                while let old = presentQueue.popFirst() {
                    measurements.droppedFrames += 1
                    log?.drops.append(.init(time: now, frame: old.id))
                    releaseBuffer(old.buffer, now: now)
                }
            } else {
                frame = presentQueue.removeFirst()
            }
            latch(frame, now: now)
            if lowLatencyNow(now) { tryStartRender(now) }
        } else if front != nil {
            measurements.repeatedFrames += 1
            let frontSeq = front.unsafelyUnwrapped.commit.seq
            let owed = commitSeq - 1 > frontSeq
            if owed { measurements.hitches += 1 }
            if let log, let f = front {
                log.latches.append(.init(time: now, frame: f.id, commitSeq: f.commit.seq, mainTouch: f.commit.newest.index,
                                         buffer: f.buffer, repeated: true, hitch: owed, measured: false))
            }
        }
    }

    /// `frame` becomes the front buffer.
    mutating func latch(_ frame: Frame, now: SimTime) {
        if front != nil { releaseBuffer(front.unsafelyUnwrapped.buffer, now: now) }
        front = frame
        measurements.framesPresented += 1
        let c = frame.commit
        if c.seq <= lastLatchedSeq { invariants.latchesOutOfCommitOrder += 1 }
        lastLatchedSeq = c.seq
        let s = c.newest
        let measured = s.index > shownNewest
        if measured {
            shownNewest = s.index
            let photon = photonTime(latch: now, y: s.y)
            let ttp = Double(photon - s.time) / 1e6
            // instants are whole ns, so a frame count carries up to 1e-7 of
            // rounding: kept to MODEL.md's precision of 1e-6 frames, equal
            // frames compare equal
            let frames = ((Double(now - s.windowStart) * displayHz / 1e9 + 1.0) * 1e6).rounded() / 1e6
            measurements.touchToPhotonMs.record(ttp)
            measurements.pipelineFrames.record(frames)
            if predicting {
                measurements.effectiveMs.record(ttp - Double(c.horizon) / 1e6)
                measurements.effectiveFrames.record(((frames - Double(c.horizon) * displayHz / 1e9) * 1e6).rounded() / 1e6)
                measurements.prediction.recordPhoton(drawn: c.drawn, truth: finger.state(at: photon).position)
            }
        }
        while shownDrawn < c.drawnTotal, let d = drawnWaiting.popFirst() {
            shownDrawn += 1
            measurements.perSampleMs.record(Double(photonTime(latch: now, y: d.y) - d.time) / 1e6)
        }
        log?.latches.append(.init(time: now, frame: frame.id, commitSeq: c.seq, mainTouch: s.index,
                                  buffer: frame.buffer, repeated: false, hitch: false, measured: measured,
                                  drawnX: c.drawn.x, drawnY: c.drawn.y, horizon: c.horizon))
    }
}
