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
 * keys its owners hold.)
 */
public final class SecureNoiseStreams implements NoiseStreams {
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

    @Override
    public NoiseSource privateNoise(int node, long round) {
        return SecureNoiseSource.withKey(nodeKeys[node], round);
    }

    @Override
    public NoiseSource pairwiseNoise(int edge, long round) {
        return SecureNoiseSource.withKey(edgeSecrets[edge], round);
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
