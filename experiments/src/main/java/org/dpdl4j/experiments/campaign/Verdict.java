package org.dpdl4j.experiments.campaign;

/**
 * Whether a protocol observed from one position hides the images at one epsilon, over every attack of the
 * campaign: an image counts as failed only when every attack failed on it, as recovered when any attack recovered it.
 *
 * @param algorithm the protocol
 * @param observer  the observer position
 * @param epsilon   the calibrated epsilon
 * @param images    attacked images
 * @param failed    fraction of images on which every attack failed
 * @param recovered fraction of images some attack recovered
 */
public record Verdict(String algorithm, String observer, double epsilon, int images, double failed, double recovered) {

    /** Required fraction of failed images for a private variant to count as protecting them (spec 8.6, oracle 5). */
    public static final double REQUIRED_FAILURE = 0.9;

    /** Whether recovery fails on at least 90% of the images. */
    public boolean failsOnNinetyPercent() {
        return failed >= REQUIRED_FAILURE;
    }
}
