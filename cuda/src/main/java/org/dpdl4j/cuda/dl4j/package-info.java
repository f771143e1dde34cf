/**
 * The CUDA engine as DL4J and dpdl4j's core see it: DL4J networks read into the engine's models, the per-example seam
 * ({@link org.dpdl4j.optim.ExampleGradients}) and the device engine the core finds by service lookup.
 */
package org.dpdl4j.cuda.dl4j;
