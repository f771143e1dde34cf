package org.dpdl4j.privacy.noise;

import org.dpdl4j.graph.Edge;
import org.dpdl4j.graph.Graph;
import org.dpdl4j.privacy.secrets.NodeKeyPair;

import java.security.SecureRandom;
import java.util.Arrays;

/**
 * Secure streams for a protocol on a graph, as the nodes of a real deployment would derive them:
 * every node draws a private 256-bit key and an X25519 key pair from {@link SecureRandom}; the two ends
 * of every edge run the key agreement and obtain the same edge secret, which nobody else can compute.
 * Round r of a stream is the key stream of {@link SecureNoiseSource#withKey} with stream id r.
 * (Here the simulation holds every node's keys in one process; each stream still depends only on the
 * keys its owners hold. {@link #restrictedTo} gives a worker that holds some of the nodes their keys and the secrets of
 * their edges only.)
 */
public final class SecureNoiseStreams implements NoiseStreams, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final byte[][] nodeKeys;
    private final byte[][] edgeSecrets;
    private final SecureRandom samplingRandom = new SecureRandom();

    /** Keys for the nodes and edges of {@code graph}. */
    public SecureNoiseStreams(Graph graph) {
        this(graph, new SecureRandom());
    }

    SecureNoiseStreams(Graph graph, SecureRandom random) {
        int n = graph.vertexCount();
        nodeKeys = new byte[n][32];
        NodeKeyPair[] pairs = new NodeKeyPair[n];
        for (int i = 0; i < n; i++) {
            random.nextBytes(nodeKeys[i]);
            pairs[i] = NodeKeyPair.generate(i, random);
        }
        edgeSecrets = new byte[graph.edgeCount()][];
        for (int e = 0; e < graph.edgeCount(); e++) {
            Edge edge = graph.edge(e);
            byte[] fromLow = pairs[edge.i()].edgeSecret(edge.j(), pairs[edge.j()].publicKey());
            byte[] fromHigh = pairs[edge.j()].edgeSecret(edge.i(), pairs[edge.i()].publicKey());
            if (!Arrays.equals(fromLow, fromHigh)) {
                throw new IllegalStateException("key agreement on edge " + edge + " gave different secrets at its two ends");
            }
            edgeSecrets[e] = fromLow;
        }
    }

    private SecureNoiseStreams(byte[][] nodeKeys, byte[][] edgeSecrets) {
        this.nodeKeys = nodeKeys;
        this.edgeSecrets = edgeSecrets;
    }

    @Override
    public NoiseSource privateNoise(int node, long round) {
        return SecureNoiseSource.withKey(held(nodeKeys, node, "node"), round);
    }

    @Override
    public NoiseSource pairwiseNoise(int edge, long round) {
        return SecureNoiseSource.withKey(held(edgeSecrets, edge, "edge"), round);
    }

    /**
     * The keys of {@code nodes} and the secrets of {@code edges} only, with sampling randomness of its own: what a
     * worker holding those nodes may know. Asking it for another party's stream is an error.
     */
    @Override
    public NoiseStreams restrictedTo(int[] nodes, int[] edges) {
        byte[][] keys = new byte[nodeKeys.length][];
        for (int i : nodes) {
            keys[i] = held(nodeKeys, i, "node").clone();
        }
        byte[][] secrets = new byte[edgeSecrets.length][];
        for (int e : edges) {
            secrets[e] = held(edgeSecrets, e, "edge").clone();
        }
        return new SecureNoiseStreams(keys, secrets);
    }

    private static byte[] held(byte[][] keys, int id, String what) {
        if (id < 0 || id >= keys.length) {
            throw new IllegalArgumentException(what + " " + id + " does not exist: there are " + keys.length + " " + what + "s");
        }
        if (keys[id] == null) {
            throw new IllegalStateException("these streams do not hold the key of " + what + " " + id + ": they were restricted"
                    + " to the parties of one worker");
        }
        return keys[id];
    }

    @Override
    public java.util.random.RandomGenerator sampling(int node, long round) {
        return samplingRandom;
    }

    @Override
    public boolean drawsRowByRow() {
        return true;   // the all-rows methods are the interface's row-by-row defaults
    }

    @Override
    public boolean isSecure() {
        return true;
    }

    @Override
    public String description() {
        return "secure streams (AES-256-CTR; node keys from SecureRandom, edge secrets from X25519 key agreement)";
    }
}
