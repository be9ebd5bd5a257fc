/// latsim's version: printed by `latsim --version` and written into every
/// result file (Docs/Results.md), so a result says what made it. The minor
/// number grows with every change to a result's figures or keys.
public enum LatsimVersion {
    /// The version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.10.0"
    /// The shape of the result files (Docs/Results.md): 2 since results
    /// carry their header and one top-level object.
    public static let resultFormat = 2
}
