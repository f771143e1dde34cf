package org.dpdl4j.attacks.observe;

/** The network every tapped run of a campaign trains and the attacks invert. */
public enum AttackedModel {
    /** An MLP with one hidden layer of sigmoid units (its width in {@link CampaignSettings#hiddenUnits()}), softmax output. */
    SIGMOID_MLP,
    /**
     * The end-to-end tanh CNN of private image classification (two convolutions with max pooling, dense 32, softmax;
     * 26,010 parameters on MNIST). Only the central protocols train it: the stacked engines of the multi-party
     * protocols compute fully connected layers.
     */
    TANH_CNN
}
