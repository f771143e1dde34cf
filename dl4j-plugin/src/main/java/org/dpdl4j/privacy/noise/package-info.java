/**
 * Where the Gaussian noise and the sampling randomness of every mechanism come from. A {@link NoiseSource} is one
 * stream: {@link SecureNoiseSource} (a {@link StreamCipher} key stream, the default), {@link LookAheadNoiseSource}
 * (a private secure source that draws the next request on a background thread) or {@link SeededNoiseSource}
 * (reproducible from a {@link NoiseKey}, not secure). {@link NoiseStreams} give a multi-party protocol its per-node
 * and per-edge streams ({@link SecureNoiseStreams}, with edge secrets from key agreement, or
 * {@link SeededNoiseStreams}), chosen by {@link NoiseKind}, and {@link PairwiseNoise} builds Decor's and GOPA's
 * pairwise-cancelling noise from the edge streams.
 *
 * <p>How much noise a mechanism needs is decided by the accountants in {@code org.dpdl4j.privacy.accounting} and by
 * the protocols; the X25519 keys and HKDF behind edge secrets are in {@code org.dpdl4j.privacy.secrets}, and the
 * graphs whose edges key the streams in {@code org.dpdl4j.graph}.
 */
package org.dpdl4j.privacy.noise;
