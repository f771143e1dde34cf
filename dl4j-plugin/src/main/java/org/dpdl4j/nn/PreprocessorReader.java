package org.dpdl4j.nn;

import org.deeplearning4j.nn.conf.CNN2DFormat;
import org.deeplearning4j.nn.conf.InputPreProcessor;
import org.deeplearning4j.nn.conf.preprocessor.CnnToFeedForwardPreProcessor;
import org.deeplearning4j.nn.conf.preprocessor.FeedForwardToCnnPreProcessor;

/**
 * What DL4J's input preprocessors make of the example arriving at a layer. The reader follows the two that
 * {@code InputType.convolutionalFlat} inserts: flat rows to NCHW images before a convolution, and NCHW images
 * back to flat rows after one.
 */
final class PreprocessorReader {
    private static final String FLAT_INPUT = "InputType.convolutionalFlat(height, width, channels)";

    private PreprocessorReader() {
    }

    /**
     * @param arriving what the previous layer gives; {@code null} where unknown (a problem was filed for it)
     *                 or at the first layer
     * @param atInput  whether this is the first layer, which receives the network's flat input rows
     * @return the example after the preprocessor, or {@code null} where it cannot be told
     */
    static ExampleShape apply(InputPreProcessor pre, ExampleShape arriving, boolean atInput, LayerProblems problems) {
        String name = "input preprocessor " + pre.getClass().getSimpleName();
        if (pre instanceof FeedForwardToCnnPreProcessor toImage) {
            ExampleShape image = ExampleShape.image(toImage.getNumChannels(), toImage.getInputHeight(),
                    toImage.getInputWidth());
            if (arriving != null && arriving.isImage()) {
                problems.add(name + " reshapes flat rows but receives an " + arriving,
                        "remove the preprocessor: the previous layer already gives images");
            } else if (arriving != null && arriving.size() != image.size()) {
                problems.add(name + " reshapes " + image.size() + " values into an " + image + " but receives "
                        + arriving.size(), "make the image size match the previous layer's output");
            }
            return image;
        }
        if (pre instanceof CnnToFeedForwardPreProcessor toFlat) {
            if (toFlat.getFormat() != CNN2DFormat.NCHW) {
                problems.add(name + " uses the " + toFlat.getFormat() + " layout; only NCHW is supported",
                        "use CNN2DFormat.NCHW, DL4J's default");
                return null;
            }
            if (atInput || (arriving != null && !arriving.isImage())) {
                problems.add(name + " flattens images but receives flat rows ("
                        + (atInput ? "the network's input" : arriving) + ")",
                        "remove it, or place a convolution before it; for image data use " + FLAT_INPUT);
                return null;
            }
            return arriving == null ? null : ExampleShape.flat(arriving.size());
        }
        problems.add(name + " is not supported", "only the flat-to-image and image-to-flat preprocessors that "
                + FLAT_INPUT + " adds are; feed the layer the input it expects instead");
        return null;
    }
}
