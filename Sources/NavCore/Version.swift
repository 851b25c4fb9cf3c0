/// navbench's version, stamped into every report and manifest.
public enum NavbenchVersion {
    public static let current = "0.1.0"
}
