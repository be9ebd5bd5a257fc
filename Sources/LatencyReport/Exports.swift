// The output layer (atomic files, staging, destinations, signal cleanup)
// and the text and JSON helpers live in LatsimOutput; code importing
// LatencyReport sees them as before.
@_exported import LatsimOutput
