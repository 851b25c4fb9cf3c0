import Foundation
import NavIO
import Testing

/// The read policy is a value each call is given (no process-wide switch): an external link is
/// refused by default and followed when the caller's policy allows it, in the same process; the
/// memory budget is the caller's.
@Suite struct ReadPolicyTests {
    static let linked = fixture("links/linked.h5")  // /vio/timestamps → target.h5:/timestamps

    @Test func anExternalLinkIsRefusedByDefault() throws {
        let report = validateTrace(at: Self.linked)
        #expect(!report.isValid)
        let e = try #require(report.errors.first).error
        #expect(e.kind == .externalLink)
        #expect(e.object == "/vio/timestamps")
        #expect(e.problem.contains("target.h5:/timestamps") && e.problem.contains("--allow-external-links"), "\(e.problem)")
        #expect(throws: TraceError.self) { try readTrace(at: Self.linked) }
    }

    @Test func theCallersPolicyFollowsIt() throws {
        let allow = HDF5ReadPolicy(allowExternalLinks: true)
        #expect(validateTrace(at: Self.linked, policy: allow).isValid)
        let s = try readTrace(at: Self.linked, policy: allow)
        let t = try #require(s.vio).timestamps
        let expected: [Double] = (0..<10).map { (i: Int) -> Double in Double(i) * 0.04 }
        #expect(t == expected)
        // The next call with the default policy is not affected by the previous one.
        #expect(!validateTrace(at: Self.linked).isValid)
    }

    @Test func theMemoryBudgetIsTheCallers() throws {
        let tiny = HDF5ReadPolicy(memoryBudgetBytes: 16)
        do {
            _ = try readTrace(at: fixture("h5py_session.h5"), policy: tiny)
            Issue.record("a 16-byte budget read a whole session")
        } catch {
            #expect(error.kind == .tooLarge)
            #expect(error.problem.contains("memory budget of 16 bytes"), "\(error.problem)")
        }
        _ = try readTrace(at: fixture("h5py_session.h5"))
    }

    /// Virtual datasets and external raw storage read from outside the file's own bytes (issue
    /// 29: a self-mapped VDS overflowed libhdf5's stack, external storage read /etc/passwd, a
    /// FIFO hung): refused by default with one line naming the dataset and its first source;
    /// with external links allowed, read beside the file (whatever the working folder), except a
    /// mapping onto itself.
    @Test(arguments: [
        ("links/vds_other.h5", "virtual dataset mapped from target.h5:/timestamps refused (pass --allow-external-links to follow it)"),
        ("links/raw.h5", "external raw storage in raw_timestamps.bin refused (pass --allow-external-links to read it)"),
        ("links/vds_self.h5", "virtual dataset mapped from .:vio/timestamps refused (pass --allow-external-links to follow it)"),
    ])
    func storageOutsideTheFileIsRefusedByDefault(_ name: String, _ problem: String) throws {
        let report = validateTrace(at: fixture(name))
        let e = try #require(report.errors.first).error
        #expect(e.kind == .externalLink && e.object == "/vio/timestamps" && e.problem == problem, "\(e)")
        #expect(throws: TraceError.self) { try readTrace(at: fixture(name)) }
    }

    @Test func allowedStorageOutsideTheFileIsReadButNeverASelfMapping() throws {
        let allow = HDF5ReadPolicy(allowExternalLinks: true)
        for name in ["links/vds_other.h5", "links/raw.h5"] {
            let s = try readTrace(at: fixture(name), policy: allow)
            let expected: [Double] = (0..<10).map { (i: Int) -> Double in Double(i) * 0.04 }
            #expect(try #require(s.vio).timestamps == expected, "\(name)")
        }
        let report = validateTrace(at: fixture("links/vds_self.h5"), policy: allow)
        let e = try #require(report.errors.first).error
        #expect(e.problem == "virtual dataset mapped onto itself: never followed", "\(e)")
    }
}
