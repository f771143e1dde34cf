package org.dpdl4j.privacy.secrets;

import javax.crypto.KeyAgreement;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.spec.NamedParameterSpec;
import java.util.Arrays;

/**
 * A node's X25519 key pair (RFC 7748, in the JDK). Two nodes that exchange public keys derive the same
 * 32-byte edge secret, which nobody else can compute: the shared seed of their pairwise-cancelling noise.
 * The same code serves a networked deployment, where only public keys travel.
 */
public final class NodeKeyPair {
    private static final byte[] SALT = "dpdl4j pairwise noise v1".getBytes(StandardCharsets.UTF_8);

    private final int node;
    private final KeyPair keys;

    private NodeKeyPair(int node, KeyPair keys) {
        this.node = node;
        this.keys = keys;
    }

    /** A fresh key pair from the given randomness (use {@link SecureRandom} for real secrecy). */
    public static NodeKeyPair generate(int node, SecureRandom random) {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("XDH");
            gen.initialize(NamedParameterSpec.X25519, random);
            return new NodeKeyPair(node, gen.generateKeyPair());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK does not provide X25519 (needs Java 11 or later)", e);
        }
    }

    public int node() {
        return node;
    }

    /** The public key to send to neighbours. */
    public PublicKey publicKey() {
        return keys.getPublic();
    }

    /**
     * The secret this node shares with {@code peer} (whose public key it received): HKDF of the X25519
     * output, bound to the unordered pair of node ids, so both ends obtain the same 32 bytes.
     */
    public byte[] edgeSecret(int peer, PublicKey peerKey) {
        if (peer == node) {
            throw new IllegalArgumentException("node " + node + " cannot share an edge secret with itself");
        }
        try {
            KeyAgreement ka = KeyAgreement.getInstance("XDH");
            ka.init(keys.getPrivate());
            ka.doPhase(peerKey, true);
            byte[] shared = ka.generateSecret();
            byte[] info = ByteBuffer.allocate(8).putInt(Math.min(node, peer)).putInt(Math.max(node, peer)).array();
            try {
                return Hkdf.derive(shared, SALT, info, 32);
            } finally {
                Arrays.fill(shared, (byte) 0);
            }
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("X25519 key agreement failed between nodes " + node + " and " + peer, e);
        }
    }
}
