package org.dpdl4j.runtime;

import org.deeplearning4j.nn.conf.MultiLayerConfiguration;
import org.dpdl4j.nn.ConvolutionGeometry;
import org.dpdl4j.nn.LayerDescription;
import org.dpdl4j.nn.ModelDescription;
import org.dpdl4j.nn.ModelReader;

/**
 * The sizes of a network that decide its memory, read from its configuration without allocating it (a network of
 * ten billion parameters is described, not built): what memory estimates multiply by parties, copies and batch rows.
 *
 * @param parameters    p, the length of the flattened parameter vector
 * @param valueBytes    bytes per value of the network's data type
 * @param inputs        values of one input example
 * @param activations   values every layer outputs for one example, summed over the layers
 * @param unfolded      values of the unfolded (im2col) input of every convolution for one example, summed
 * @param exampleNorms  values one example's gradient norms take in a convolution: two T x T Gram matrices, or the
 *                      example's own kernel gradient, whichever the per-example clipping computes (see
 *                      {@code NormStrategy}), summed over the convolutions
 */
public record ModelFootprint(long parameters, int valueBytes, long inputs, long activations, long unfolded, long exampleNorms) {

    /** The footprint of a configuration; a layer whose shapes the reader cannot follow adds no activations. */
    public static ModelFootprint of(MultiLayerConfiguration conf) {
        ModelDescription d = ModelReader.read(conf);
        long activations = 0;
        long unfolded = 0;
        long norms = 0;
        for (LayerDescription layer : d.layers()) {
            activations += layer.output() == null ? 0 : layer.output().size();
            ConvolutionGeometry g = layer.convolution();
            if (g != null) {
                long positions = g.outputPositions();
                long columns = (long) g.inChannels() * g.kernelTaps();
                unfolded += positions * columns;
                boolean ghost = (double) positions * (columns + g.outChannels()) < (double) columns * g.outChannels();
                norms += ghost ? 2 * positions * positions : columns * g.outChannels();
            }
        }
        return new ModelFootprint(d.numParams(), d.dataType().width(), Math.max(0, d.inputSize()), activations, unfolded, norms);
    }

    /** Bytes of {@code count} copies of the parameter vector. */
    public double parameterBytes(double count) {
        return count * parameters * valueBytes;
    }

    /** The subject of an estimate: "a model of 101,898 parameters". */
    public String describe() {
        return String.format(java.util.Locale.ROOT, "a model of %,d parameters", parameters);
    }
}
