package org.dpdl4j.attacks.matching;

/** How the dummy's gradient {@code g} is compared with the target {@code T}. */
public enum MatchingLoss {
    /**
     * {@code ||s g - T||^2} summed over every weight and bias tensor (Deep Leakage from Gradients), {@code s} the
     * known or fitted scale of the observation.
     */
    SQUARED_DISTANCE,
    /**
     * {@code 1 - <g, T> / (||g|| ||T||)} over all tensors at once (Inverting Gradients, Geiping et al. 2020): the
     * direction of the gradient only, so any scale of the observation (a learning rate, clipping) is irrelevant.
     */
    COSINE_DISTANCE,
    /**
     * The mean over the gradient's tensors (each layer's weights and bias) of {@code 1 - cos(g_k, T_k)}: every layer
     * has the same say, however large its gradient. Once a network has trained, its last layers' gradients dwarf
     * the first layers', whose directions then hardly move the whole-gradient cosine although they carry the input.
     */
    LAYERWISE_COSINE_DISTANCE
}
