/**
 * The CUDA engine's DP step, free of DL4J and of CUDA types: dense and convolutional float32 models
 * ({@link org.dpdl4j.cuda.engine.DenseModel}, {@link org.dpdl4j.cuda.engine.ConvNetModel}), the step on a
 * {@link org.dpdl4j.cuda.engine.Backend} (ghost norms, clipping factors, the clipped sum, noise, the update), and the
 * plain-Java backend whose kernels mirror the CUDA ones operation by operation, the reference the tests hold the GPU to.
 */
package org.dpdl4j.cuda.engine;
