package org.dpdl4j.cli.bench;

import org.dpdl4j.cli.Converters;
import org.dpdl4j.experiments.bench.PairedTiming;
import org.dpdl4j.graph.Edge;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.graph.Topologies;
import org.dpdl4j.protocol.federated.verification.BinomialNoise;
import org.dpdl4j.protocol.federated.verification.EdgeAgreements;
import org.dpdl4j.protocol.federated.verification.GopaVerifier;
import org.dpdl4j.protocol.federated.verification.NoiseBits;
import org.dpdl4j.protocol.federated.verification.NoiseEvidence;
import org.dpdl4j.protocol.federated.verification.PairwiseTerm;
import org.dpdl4j.protocol.federated.verification.PartyContribution;
import org.dpdl4j.protocol.federated.verification.PartySecrets;
import org.dpdl4j.protocol.federated.verification.PedersenGroup;
import org.dpdl4j.protocol.federated.verification.PublicCoins;
import org.dpdl4j.protocol.federated.verification.VerificationReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;

/**
 * Cost of verifiable GOPA per party against its number of neighbours d: the bytes a party publishes and the time
 * to prove them and to verify them. Each party is on a complete graph of d + 1 parties, so every party has d
 * neighbours; the range proof is a fixed cost per coordinate and each neighbour adds a commitment and a proof.
 */
@Command(name = "gopa-verify", mixinStandardHelpOptions = true,
        description = "Verifiable GOPA per party: proof bytes, prove and verify milliseconds against the number of neighbours.")
final class VerifiableGopaBench implements Callable<Integer> {
    /** Stands in for the jointly generated seed of the public coins (a beacon's output in a deployment). */
    private static final byte[] COIN_SEED = "dpdl4j bench: public coins seed".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    @Option(names = "--neighbours", split = ",", defaultValue = "2,4,8,16", description = "Neighbour counts d; default ${DEFAULT-VALUE}.")
    int[] neighbours;

    @Option(converter = Converters.PositiveInt.class, names = "--coordinates", defaultValue = "4",
            description = "Coordinates per party; default ${DEFAULT-VALUE}.")
    int coordinates;

    @Option(converter = Converters.NonNegativeInt.class, names = "--noise-coins", defaultValue = "0",
            description = "Coins N of proven binomial private noise per coordinate (even); 0 (default) leaves eta unproven.")
    int noiseCoins;

    @Option(converter = Converters.PositiveInt.class, names = "--blocks", defaultValue = "5", description = "Measurement blocks; default ${DEFAULT-VALUE}.")
    int blocks;

    @Override
    public Integer call() {
        PedersenGroup group = PedersenGroup.standard();
        SecureRandom random = new SecureRandom();
        System.out.printf(Locale.ROOT, "verifiable GOPA, %d coordinates per party, secp256k1, %s; per party, median of %d blocks:%n",
                coordinates, noiseCoins == 0 ? "eta unproven" : "eta binomial from " + noiseCoins + " coins", blocks);
        for (int d : neighbours) {
            if (d < 1) {
                throw new IllegalArgumentException("--neighbours takes counts >= 1, got " + d);
            }
        }
        if (noiseCoins != 0) {
            BinomialNoise.forStdDev(0.5, noiseCoins);   // refuses an odd or too large count before any work
        }
        for (int d : neighbours) {
            measure(d, group, random, 2, false);   // warm-up: the JIT compiles BouncyCastle's arithmetic first
        }
        System.out.printf(Locale.ROOT, "  %3s %12s %12s %12s %12s%n", "d", "bytes", "bytes/coord", "prove ms", "verify ms");
        for (int d : neighbours) {
            measure(d, group, random, blocks, true);
        }
        return 0;
    }

    /** Prove and verify on a complete graph of d + 1 parties; prints a row of the table if {@code print}. */
    private void measure(int d, PedersenGroup group, SecureRandom random, int blocks, boolean print) {
        Graph graph = Topologies.complete(d + 1);
        BinomialNoise noise = noiseCoins == 0 ? null : BinomialNoise.forStdDev(0.5, noiseCoins);
        List<PartySecrets> secrets = secrets(graph, group, random);
        Map<Integer, List<NoiseBits>> noiseBits = new HashMap<>();
        if (noise != null) {
            for (int k = 0; k < graph.vertexCount(); k++) {
                noiseBits.put(k, drawNoise(noise, k, secrets, group, random));
            }
        }
        NoiseEvidence evidence = noise == null ? NoiseEvidence.none() : new NoiseEvidence(noise, COIN_SEED, noiseBits);
        List<PartyContribution> contributions = new ArrayList<>();
        for (int k = 0; k < graph.vertexCount(); k++) {
            contributions.add(PartyContribution.prove(group, k, 0, secrets.get(k), random));
        }
        GopaVerifier verifier = new GopaVerifier(group, graph, 0, coordinates);
        VerificationReport check = verifier.verify(contributions, List.of(), EdgeAgreements.none(), evidence);
        if (!check.allPassed()) {
            throw new IllegalStateException("honest parties failed verification: " + check);
        }
        Runnable prove = () -> {
            if (noise != null) {
                for (int i = 0; i < coordinates; i++) {
                    noise.commitBits(group, 0, 0, i, random);
                }
            }
            PartyContribution.prove(group, 0, 0, secrets.get(0), random);
        };
        double[] proveMs = new double[blocks];
        double[] verifyMs = new double[blocks];
        for (int b = 0; b < blocks; b++) {
            proveMs[b] = PairedTiming.timeBlock(prove, 1);
            verifyMs[b] = PairedTiming.timeBlock(() -> verifier.verify(contributions, List.of(), EdgeAgreements.none(), evidence), 1)
                    / graph.vertexCount();
        }
        int bytes = contributions.get(0).encodedBytes()
                + (noise == null ? 0 : noiseBits.get(0).stream().mapToInt(NoiseBits::encodedBytes).sum());
        if (print) {
            System.out.printf(Locale.ROOT, "  %3d %12d %12d %12.1f %12.1f%n", d, bytes, bytes / coordinates,
                    PairedTiming.median(proveMs), PairedTiming.median(verifyMs));
        }
    }

    /** Party k's binomial noise: its bits, and its secrets' eta replaced by what the bits and the coins make. */
    private List<NoiseBits> drawNoise(BinomialNoise noise, int k, List<PartySecrets> secrets, PedersenGroup group,
                                      SecureRandom random) {
        List<NoiseBits> bits = new ArrayList<>();
        long[] eta = new long[coordinates];
        BigInteger[] blindings = new BigInteger[coordinates];
        for (int i = 0; i < coordinates; i++) {
            BinomialNoise.Draw draw = noise.commitBits(group, 0, k, i, random);
            boolean[] coins = PublicCoins.draw(COIN_SEED, 0, k, i, noise.trials());
            eta[i] = noise.value(draw.bits(), coins);
            blindings[i] = noise.blinding(group, draw.blindings(), coins);
            bits.add(draw.published());
        }
        PartySecrets s = secrets.get(k);
        secrets.set(k, new PartySecrets(s.values(), s.valueBlindings(), s.pairwise(), eta, blindings));
        return bits;
    }

    private List<PartySecrets> secrets(Graph graph, PedersenGroup group, SecureRandom random) {
        Random values = new Random(1);
        int n = graph.vertexCount();
        List<List<PairwiseTerm>> terms = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            terms.add(new ArrayList<>());
        }
        for (Edge e : graph.edges()) {
            double[] delta = values.doubles(coordinates).map(u -> 100 * (u - 0.5)).toArray();
            PairwiseTerm[] ends = PairwiseTerm.agree(e.i(), e.j(), delta, group, random);
            terms.get(e.i()).add(ends[0]);
            terms.get(e.j()).add(ends[1]);
        }
        List<PartySecrets> out = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            out.add(PartySecrets.encode(values.doubles(coordinates).toArray(), terms.get(k),
                    values.doubles(coordinates).map(u -> u - 0.5).toArray(), group, random));
        }
        return out;
    }
}
