package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.crypto.signers.HMacDSAKCalculator;
import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.Objects;

/**
 * A party's ECDSA signing key on the group's curve (BouncyCastle's {@link ECDSASigner} with deterministic nonces,
 * RFC 6979), for signing {@link EdgeAgreement}s. How the verifier learns the public keys (a registry, certificates)
 * is outside this package: it takes them as given.
 */
public final class SigningKey {
    private final int party;
    private final BigInteger secret;
    private final ECPoint publicKey;
    private final PedersenGroup group;

    private SigningKey(PedersenGroup group, int party, BigInteger secret) {
        this.group = group;
        this.party = party;
        this.secret = secret;
        this.publicKey = group.g().multiply(secret).normalize();
    }

    /** A fresh key for {@code party}. */
    public static SigningKey generate(PedersenGroup group, int party, SecureRandom random) {
        Objects.requireNonNull(group, "group");
        BigInteger secret;
        do {
            secret = group.randomScalar(random);
        } while (secret.signum() == 0);
        return new SigningKey(group, party, secret);
    }

    /** The signature of a 32-byte digest. */
    public EdgeSignature sign(byte[] digest) {
        ECDSASigner signer = new ECDSASigner(new HMacDSAKCalculator(new SHA256Digest()));
        signer.init(true, new ECPrivateKeyParameters(secret, group.domain()));
        BigInteger[] rs = signer.generateSignature(digest);
        return new EdgeSignature(rs[0], rs[1]);
    }

    public int party() {
        return party;
    }

    /** The public key the verifier checks this party's signatures with. */
    public ECPoint publicKey() {
        return publicKey;
    }

    @Override
    public String toString() {
        return "SigningKey[party " + party + "]";   // never the secret
    }
}
