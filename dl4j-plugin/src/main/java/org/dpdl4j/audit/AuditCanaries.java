package org.dpdl4j.audit;

import org.dpdl4j.optim.PlantedExamples;
import org.nd4j.linalg.api.buffer.DataType;
import org.nd4j.linalg.api.ndarray.INDArray;

/**
 * White-box gradient canaries as an auditor sees them: m fixed vectors in parameter space of one norm, a coin per
 * canary saying whether it takes part, and each vector's inner product with a released gradient. The kinds differ in
 * their vectors: random directions ({@link GradientCanaries}) or one coordinate each ({@link DiracCanaries}).
 */
public interface AuditCanaries extends PlantedExamples {

    /** m, all canaries, included or not. */
    int canaries();

    /** The coins: whether each canary was included (a copy). */
    boolean[] coins();

    /** Each vector's L2 norm (the clip C for a correct mechanism). */
    double norm();

    /** p, the dimension of the parameter space the vectors live in. */
    long parameters();

    /** The type {@link #innerProducts} computes in (the network's parameter type). */
    DataType dataType();

    /**
     * Every canary's inner product with one vector of parameter space, in one operation.
     *
     * @param column a [p, 1] column of {@link #dataType()}, e.g. a released gradient
     * @return [m, 1], in {@link #dataType()}
     */
    INDArray innerProducts(INDArray column);
}
