package org.dpdl4j.protocol.federated.verification;

import org.bouncycastle.math.ec.ECPoint;

import java.util.Map;
import java.util.Objects;

/**
 * An {@link EdgeAgreement} signed by both ends of its edge; either end publishes it with its contribution.
 *
 * @param agreement        what the ends agreed to publish
 * @param lowerSignature   the lower end's signature
 * @param higherSignature  the higher end's signature
 */
public record SignedEdgeAgreement(EdgeAgreement agreement, EdgeSignature lowerSignature, EdgeSignature higherSignature) {
    public SignedEdgeAgreement {
        Objects.requireNonNull(agreement, "agreement");
        Objects.requireNonNull(lowerSignature, "lowerSignature");
        Objects.requireNonNull(higherSignature, "higherSignature");
    }

    /** Whether both ends signed it, under the public keys of the parties. */
    public boolean signedByBothEnds(PedersenGroup group, Map<Integer, ECPoint> publicKeys) {
        ECPoint lower = publicKeys.get(agreement.edge().i());
        ECPoint higher = publicKeys.get(agreement.edge().j());
        byte[] digest = agreement.digest(group);
        return lower != null && higher != null && lowerSignature.verify(group, lower, digest)
                && higherSignature.verify(group, higher, digest);
    }
}
