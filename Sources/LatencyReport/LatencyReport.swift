// LatencyReport
