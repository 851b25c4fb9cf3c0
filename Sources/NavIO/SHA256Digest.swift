import CLibCrypto
import Foundation

/// SHA-256 (FIPS 180-4) through OpenSSL's libcrypto EVP interface, fed in pieces.
///
/// Reference: NIST FIPS 180-4 and its example vectors (`SHA256DigestTests`); the project's
/// manifests are `sha256sum`'s digests of the same bytes.
///
/// - Complexity: O(bytes); libcrypto picks the CPU's SHA extensions or AVX2 code at run time.
struct SHA256Digest: ~Copyable {
    private let context: OpaquePointer

    init() {
        // Allocation of a digest context and the built-in SHA-256 only fail when memory is exhausted.
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto: cannot start a SHA-256 digest (out of memory)")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        guard EVP_DigestUpdate(context, base, bytes.count) == 1 else { fatalError("libcrypto: SHA-256 update failed") }
    }

    mutating func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    /// The 32-byte digest; the value is consumed.
    consuming func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &out, &length) == 1, length == 32 else { fatalError("libcrypto: SHA-256 final failed") }
        return out
    }

    /// The digest of `bytes` in one call.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var digest = SHA256Digest()
        digest.update(bytes)
        return digest.finalize()
    }
}
