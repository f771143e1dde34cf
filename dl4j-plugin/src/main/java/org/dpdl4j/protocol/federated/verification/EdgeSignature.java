package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.signers.ECDSASigner;
import org.bouncycastle.math.ec.ECPoint;

import java.math.BigInteger;
import java.util.Objects;

/**
 * An ECDSA signature (r, s) by one end of an edge on an {@link EdgeAgreement}.
 *
 * @param r ECDSA's r
 * @param s ECDSA's s
 */
public record EdgeSignature(BigInteger r, BigInteger s) {
    /** Bytes in a fixed-length encoding: two scalars. */
    public static final int ENCODED_BYTES = 2 * PedersenGroup.SCALAR_BYTES;

    public EdgeSignature {
        Objects.requireNonNull(r, "r");
        Objects.requireNonNull(s, "s");
    }

    /** Whether this is a valid signature of {@code digest} under {@code publicKey}. */
    public boolean verify(PedersenGroup group, ECPoint publicKey, byte[] digest) {
        if (!group.isGroupElement(publicKey)) {
            return false;
        }
        ECDSASigner verifier = new ECDSASigner();
        verifier.init(false, new ECPublicKeyParameters(publicKey, group.domain()));
        return verifier.verifySignature(digest, r, s);
    }
}
