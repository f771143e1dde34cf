package org.dpdl4j.attacks.observe;

import java.util.Map;
import java.util.Objects;
import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.protocol.federated.Mu2Config;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The untrusted server of DP-mu^2-FL (spec table 8.5): it sees each machine's messages
 * {@code m_t^i = dhat_t^i + Y_t^i}, so {@code m_t - m_(t-1) = Clip_S(q_t) + Y_t - Y_(t-1)}, a weighted difference of the
 * gradients of the round's example at the query points {@code x_t} and {@code x_(t-1)} plus noise of std
 * {@code sqrt(2) sigma}. The attack matches {@code q_t} by evaluating the dummy's gradient at both points.
 */
public final class Mu2ServerObserver implements AttackObserver<Mu2Uplink> {
    private final Mu2Config config;

    /** The server of a run with these settings (untrusted, or a non-private run). */
    public Mu2ServerObserver(Mu2Config config) {
        this.config = Objects.requireNonNull(config, "config must not be null");
    }

    @Override
    public AttackSurface surface() {
        return new AttackSurface(config.algorithmName(), "server",
                "every machine's messages m_t^i and the query points it broadcast",
                "m_t - m_(t-1) = Clip_S(alpha_t grad f(x_t) - alpha_(t-1) grad f(x_(t-1))) + Y_t - Y_(t-1)",
                "knows the query points, alpha_t, S and sigma; not the clip factor");
    }

    @Override
    public AttackCase observe(Mu2Uplink uplink, CaseContext context) {
        long p = uplink.template().numParams();
        INDArray observed = uplink.message().reshape(1, p).sub(uplink.previousMessage().reshape(1, p)
                .castTo(uplink.message().dataType()));
        boolean noisy = config.noise().isPrivate() && config.trust() == org.dpdl4j.protocol.federated.ServerTrust.UNTRUSTED;
        double noise = noisy ? Mu2Releases.differenceStd(config, uplink.t()) : 0.0;
        return Mu2Releases.caseOf(config, "server", uplink.template(), uplink.point(), uplink.previousPoint(),
                uplink.t(), observed, noise, uplink.machine(), context, Map.of());
    }
}
