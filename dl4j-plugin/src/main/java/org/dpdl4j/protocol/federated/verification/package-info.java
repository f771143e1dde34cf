/**
 * Verifiable GOPA (Sabater, Bellet and Ramon, "An accurate, scalable and verifiable protocol for federated
 * differentially private averaging", 2020): each party k publishes
 * {@code thetaHat_k = theta_k + sum_{l ~ k} Delta_kl + eta_k} together with Pedersen commitments to its parts and
 * non-interactive zero-knowledge proofs, so that anyone can check the round and name the parties that deviated.
 *
 * <h2>Building blocks</h2>
 * <ul>
 *   <li>{@link org.dpdl4j.protocol.federated.verification.PedersenGroup}: secp256k1 from BouncyCastle, G, and an H
 *       hashed to the curve from a public seed (nobody knows log_G H);</li>
 *   <li>{@link org.dpdl4j.protocol.federated.verification.FixedPoint}: reals as integers of resolution 2^-16 within
 *       +-2^40;</li>
 *   <li>{@link org.dpdl4j.protocol.federated.verification.BlindingProof} (Schnorr on H),
 *       {@link org.dpdl4j.protocol.federated.verification.BitProof} (CDS OR-proof),
 *       {@link org.dpdl4j.protocol.federated.verification.BitDecompositionProof} and
 *       {@link org.dpdl4j.protocol.federated.verification.RangeProof}, made non-interactive by a SHA-256 Fiat-Shamir
 *       transcript that hashes the protocol, the curve, the proof's kind and its
 *       {@link org.dpdl4j.protocol.federated.verification.ProofContext} (round, party, coordinate, edge or bit);</li>
 *   <li>{@link org.dpdl4j.protocol.federated.verification.PartySecrets} and
 *       {@link org.dpdl4j.protocol.federated.verification.PairwiseTerm} (what a party knows),
 *       {@link org.dpdl4j.protocol.federated.verification.PartyContribution} (what it publishes), and
 *       {@link org.dpdl4j.protocol.federated.verification.GopaVerifier} with its
 *       {@link org.dpdl4j.protocol.federated.verification.VerificationReport};</li>
 *   <li>{@link org.dpdl4j.protocol.federated.verification.SigningKey},
 *       {@link org.dpdl4j.protocol.federated.verification.EdgeAgreement},
 *       {@link org.dpdl4j.protocol.federated.verification.SignedEdgeAgreement} and
 *       {@link org.dpdl4j.protocol.federated.verification.EdgeAgreements}: what the two ends of an edge agree to
 *       publish, signed by both, so that a term that does not cancel is attributed to one end;</li>
 *   <li>{@link org.dpdl4j.protocol.federated.verification.BinomialNoise},
 *       {@link org.dpdl4j.protocol.federated.verification.NoiseBits},
 *       {@link org.dpdl4j.protocol.federated.verification.PublicCoins} and
 *       {@link org.dpdl4j.protocol.federated.verification.NoiseEvidence}: private noise proven to follow a binomial law
 *       from committed bits and public coins;</li>
 *   <li>{@link org.dpdl4j.protocol.federated.verification.VerifiableGopaReveal}: GOPA's reveal step with the noise
 *       of {@code GopaAveraging} (same streams, same draws), committed and proven by every party, for values in a
 *       declared interval mapped onto [0, 1].</li>
 * </ul>
 *
 * <h2>What is proven</h2>
 * For every party k, coordinate and neighbour l, under the discrete-logarithm assumption on secp256k1 and with
 * SHA-256 as a random oracle:
 * <ul>
 *   <li>theta_k lies in [0, 1] (as the fixed-point integer in [0, 2^16]);</li>
 *   <li>the committed Delta_kl and Delta_lk sum to zero, so the pairwise terms cancel in the sum of all published
 *       values;</li>
 *   <li>the published thetaHat_k equals theta_k + sum_l Delta_kl + eta_k of the committed values, exactly in fixed
 *       point;</li>
 *   <li>with noise evidence only: eta_k is {@code scale * (Binomial(N, 1/2) - N/2)} drawn from public coins (below).</li>
 * </ul>
 *
 * <h2>What is not proven</h2>
 * <ul>
 *   <li><b>Gaussian eta_k, and the distribution of Delta_kl.</b> The paper derives the noise from committed, jointly
 *       generated randomness so that a party cannot choose it. Here that is done for a binomial stand-in only:
 *       with {@link org.dpdl4j.protocol.federated.verification.BinomialNoise} and
 *       {@link org.dpdl4j.protocol.federated.verification.NoiseEvidence}, eta_k is proven to be
 *       {@code scale * (Binomial(N, 1/2) - N/2)} from the party's committed bits XOR public coins, provided the coins'
 *       seed is fixed after the bits are published (the deployment's ordering; a beacon or a coin toss). The
 *       repository's accountants price Gaussian noise, so that binomial noise is not accounted for yet. Without noise
 *       evidence (the default), eta_k is committed but unconstrained: a party can hide a bias in it, within the
 *       fixed-point range, and pass. The pairwise terms are proven to cancel, not to be Gaussian: both ends derive
 *       them from their shared seed, and a deviation from it changes the masking of those two ends, not the sum.</li>
 *   <li><b>That theta_k is the party's honest value</b> (trained on its data): only that it lies in [0, 1].</li>
 *   <li><b>Which end of an edge deviated, without signed agreements.</b> When one end commits to a term that does not
 *       cancel, neither end can prove cancellation; without more, both are named and the edge is listed as disputed.
 *       With an {@link org.dpdl4j.protocol.federated.verification.EdgeAgreement} both ends signed before publishing
 *       (ECDSA, BouncyCastle; each end checks the pair cancels before it signs), only the end that published something
 *       else is named. An edge whose ends never signed one (one refused) stays disputed: the public record cannot
 *       say who refused, and how public keys are distributed is left to the deployment.</li>
 *   <li>In training ({@code train --algo gopa --verify}), every coordinate: {@link
 *       org.dpdl4j.protocol.federated.verification.SpotCheckedGopa} commits to all p coordinates but proves only the k
 *       that {@link org.dpdl4j.protocol.federated.verification.SpotCheck} draws from the published commitments
 *       (checked by {@link org.dpdl4j.protocol.federated.verification.SpotCheckVerifier}); a lie on one coordinate
 *       escapes a round with probability 1 - k/p. At about 10 ms to prove and 10 ms to verify per coordinate and party
 *       (the range proof), proving all p suits small vectors, not whole networks.</li>
 * </ul>
 *
 * <h2>Drop-outs</h2>
 * A party that publishes nothing is named as dropped out; each of its neighbours opens its term with it
 * ({@link org.dpdl4j.protocol.federated.verification.PairwiseOpening}), the verifier checks the opening against the
 * neighbour's commitments, names a neighbour that does not open or opens something else, and removes the opened
 * terms from the {@link org.dpdl4j.protocol.federated.verification.VerificationReport#aggregate() aggregate}.
 *
 * <p>None of this code is constant-time: the arithmetic is BouncyCastle's and the JDK's {@code BigInteger}, whose
 * timing depends on the secrets. Blindings and nonces come from the {@link java.security.SecureRandom} the caller
 * passes; a seeded one only makes tests repeatable.
 */
package org.dpdl4j.protocol.federated.verification;
