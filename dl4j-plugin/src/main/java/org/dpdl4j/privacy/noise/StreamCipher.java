package org.dpdl4j.privacy.noise;

/**
 * The stream cipher behind {@link SecureNoiseSource}. Both are standard, and both come from the JDK.
 * AES-256 in counter mode is the default because the JVM runs it on the CPU's AES instructions (on
 * Java 17, over 10 GB/s on a current x86 core), while its ChaCha20 is plain Java (about 0.3-0.4 GB/s),
 * which would make secure noise the bottleneck of a training step. CTR_DRBG, the NIST generator, is
 * built on the same AES-CTR construction.
 */
public enum StreamCipher {
    /** AES with a 256-bit key in counter mode. */
    AES_256_CTR,
    /** ChaCha20 (RFC 8439) with a 256-bit key. */
    CHACHA20
}
