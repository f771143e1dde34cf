package org.dpdl4j.attacks.observe;

import org.dpdl4j.attacks.AttackCase;
import org.dpdl4j.attacks.ObservationScale;
import org.dpdl4j.attacks.ReleaseOrigin;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * The FedAvg server attacking one client (McMahan et al. 2017). With one local SGD step,
 * {@code theta_k - theta = -eta * (mean gradient of the client's batch at theta)}, so the update is the gradient
 * with the known factor {@code -eta} (plus the client's noise, if it adds any).
 */
public final class FedAvgServerObserver implements AttackObserver<FedAvgUpload> {
    private static final AttackSurface SURFACE = new AttackSurface("fedavg", "server",
            "the broadcast model theta and each client's returned model theta_k",
            "theta_k - theta = -eta * gradient of the client's batch mean loss at theta (L = 1 local step)",
            "honest-but-curious server that knows the model, the learning rate, L and the batch size");

    @Override
    public AttackSurface surface() {
        return SURFACE;
    }

    @Override
    public AttackCase observe(FedAvgUpload upload, CaseContext context) {
        if (upload.localSteps() != 1) {
            throw new IllegalArgumentException("the FedAvg server observer turns an update into a gradient only for"
                    + " L = 1 local step; this client ran " + upload.localSteps()
                    + " steps, whose update is not one gradient");
        }
        INDArray theta = upload.globalModel().params();
        INDArray update = upload.clientParameters().reshape(1, theta.length()).sub(theta.reshape(1, theta.length()));
        ReleaseOrigin provenance = new ReleaseOrigin(SURFACE.protocol(), SURFACE.position(), context.round(),
                context.modelAccuracy(), context.details())
                .with("learning_rate", Double.toString(upload.learningRate()))
                .with("local_steps", Integer.toString(upload.localSteps()))
                .with("client_noise_std", Double.toString(upload.noiseStd()));
        return new AttackCase(upload.globalModel(), update, ObservationScale.known(-upload.learningRate()),
                upload.noiseStd(), upload.batchSize(), context.truth(), provenance);
    }
}
