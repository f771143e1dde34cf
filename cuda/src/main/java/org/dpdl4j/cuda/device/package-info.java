/**
 * One NVIDIA GPU through the bytedeco CUDA presets: the libraries and the probe that says whether the engine can run
 * here, device memory and one stream, cuBLAS products, cuDNN convolutions, and the kernels NVRTC compiles for the GPU
 * found.
 */
package org.dpdl4j.cuda.device;
