package org.dpdl4j.attacks.matching;

import java.util.Objects;
import org.nd4j.linalg.api.ndarray.INDArray;

/** Whether the dummy labels are unknowns (DLG) or known (iDLG after label recovery, or an informed attacker). */
public sealed interface LabelTreatment {

    /** DLG: soft labels {@code softmax(u')} (sigmoid for sigmoid outputs) with logits {@code u'} optimised jointly. */
    record Optimised() implements LabelTreatment {
    }

    /**
     * Labels fixed to the given rows (one-hot or soft), one per dummy example.
     *
     * @param labels {@code batchSize x outputs}
     */
    record Fixed(INDArray labels) implements LabelTreatment {
        public Fixed {
            Objects.requireNonNull(labels, "fixed labels must not be null");
            if (labels.rank() != 2) {
                throw new IllegalArgumentException("fixed labels must be batchSize x outputs, got shape "
                        + java.util.Arrays.toString(labels.shape()));
            }
        }
    }

    /** Labels are unknowns. */
    static LabelTreatment optimised() {
        return new Optimised();
    }

    /** Labels are known. */
    static LabelTreatment fixed(INDArray labels) {
        return new Fixed(labels);
    }
}
