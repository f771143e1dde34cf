// The kernels of dpdl4j's DP step for float32 networks (dense layers, and convolutions with max pooling), compiled at
// run time by NVRTC for the device found (no #include: NVRTC has no standard headers; only built-in device functions
// are used).
//
// Layouts: a dense layer's activation or error matrix of a batch of b examples and n units is column-major, element
// (i, k) at i + k * b (cuBLAS's layout, so that every product is one cuBLAS call). Labels come row-major from the host,
// element (i, k) at i * n + k. Convolutional activations and errors are NCHW, example after example. Every kernel is a
// grid-stride loop over its outputs, so any grid size is correct.
//
// Each kernel mirrors a method of org.dpdl4j.cuda.engine.JavaKernels, the reference the CPU tests check against dpdl4j's
// host engine; the two must compute the same float operations in the same order. Compiled with --fmad=false, so that
// no multiply-add is contracted into a fused one the Java reference does not make.

#define ACT_IDENTITY 0
#define ACT_LEAKY_RELU 1
#define ACT_TANH 2
#define ACT_SIGMOID 3

#define GRID_STRIDE(e, total) \
    for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < (total); e += blockDim.x * gridDim.x)

__device__ __forceinline__ float activate(float v, int act, float slope) {
    if (act == ACT_LEAKY_RELU) {
        return v > 0.0f ? v : slope * v;
    }
    if (act == ACT_TANH) {
        // tanh z = sign(z) (1 - e) / (1 + e) with e = exp(-2|z|), which cannot overflow (as the host engine)
        double x = v;
        double e = exp(-2.0 * fabs(x));
        double t = (1.0 - e) / (1.0 + e);
        return (float) (x < 0.0 ? -t : t);
    }
    if (act == ACT_SIGMOID) {
        return (float) (1.0 / (1.0 + exp(-(double) v)));
    }
    return v;
}

// eps * f'(z), written through the activation's output a = f(z)
__device__ __forceinline__ float times_derivative(float a, float eps, int act, float slope) {
    if (act == ACT_LEAKY_RELU) {
        return a > 0.0f ? eps : slope * eps;
    }
    if (act == ACT_TANH) {
        return eps * (1.0f - a * a);
    }
    if (act == ACT_SIGMOID) {
        return eps * (a * (1.0f - a));
    }
    return eps;
}

// z := f(z + bias) over count values whose unit is (e / inner) % n: a column-major [b, n] matrix (inner = b) or NCHW
// maps (inner = H * W, n = C); bias may be null (0).
extern "C" __global__ void bias_activation(float* z, const float* bias, int count, int inner, int n, int act,
                                           float slope) {
    GRID_STRIDE(e, count) {
        float v = z[e];
        if (bias != 0) {
            v += bias[(e / inner) % n];
        }
        z[e] = activate(v, act, slope);
    }
}

// eps := eps * f'(z) given a = f(z), elementwise over count elements.
extern "C" __global__ void activation_backprop(float* eps, const float* a, int count, int act, float slope) {
    GRID_STRIDE(e, count) {
        eps[e] = times_derivative(a[e], eps[e], act, slope);
    }
}

// Softmax + multi-class cross-entropy per example (one thread per example): loss -sum_k y_k log(clip(p_k)) and
// the error p_k sum(y) - y_k in place of the pre-activations z; probabilities clipped to [eps, 1 - eps] in the loss only.
extern "C" __global__ void softmax_cross_entropy(float* z, const float* labels, float* loss, int b, int n, double clipEps) {
    GRID_STRIDE(i, b) {
        double max = z[i];
        for (int k = 1; k < n; k++) {
            double v = z[i + k * b];
            max = v > max ? v : max;
        }
        double total = 0.0;
        for (int k = 0; k < n; k++) {
            total += exp(z[i + k * b] - max);
        }
        double labelSum = 0.0;
        for (int k = 0; k < n; k++) {
            labelSum += labels[i * n + k];
        }
        double l = 0.0;
        for (int k = 0; k < n; k++) {
            double p = exp(z[i + k * b] - max) / total;
            double y = labels[i * n + k];
            if (y != 0.0) {
                double clipped = clipEps > 0.0 ? fmin(fmax(p, clipEps), 1.0 - clipEps) : p;
                l -= y * log(clipped);
            }
            z[i + k * b] = (float) (p * labelSum - y);
        }
        loss[i] = (float) l;
    }
}

// Sigmoid + binary cross-entropy per output, summed per example; the error replaces z (DL4J's formula, p - y
// wherever p is not clipped).
extern "C" __global__ void sigmoid_cross_entropy(float* z, const float* labels, float* loss, int b, int n, double clipEps) {
    GRID_STRIDE(i, b) {
        double l = 0.0;
        for (int k = 0; k < n; k++) {
            double p = 1.0 / (1.0 + exp(-(double) z[i + k * b]));
            double clipped = clipEps > 0.0 ? fmin(fmax(p, clipEps), 1.0 - clipEps) : p;
            double y = labels[i * n + k];
            l -= (y == 0.0 ? 0.0 : y * log(clipped)) + (y == 1.0 ? 0.0 : (1.0 - y) * log(1.0 - clipped));
            z[i + k * b] = (float) ((clipped - y) / (clipped * (1.0 - clipped)) * (p * (1.0 - p)));
        }
        loss[i] = (float) l;
    }
}

// Squared error after an activation: loss sum_k (a_k - y_k)^2 (divided by n for the mean), error d loss / dz in
// place of z.
extern "C" __global__ void squared_error(float* z, const float* labels, float* loss, int b, int n, int act, float slope,
                                         int mean) {
    GRID_STRIDE(i, b) {
        float scale = mean ? 1.0f / (float) n : 1.0f;
        float l = 0.0f;
        for (int k = 0; k < n; k++) {
            float a = activate(z[i + k * b], act, slope);
            float diff = a - labels[i * n + k];
            l += diff * diff * scale;
            float g = 2.0f * diff * scale;
            z[i + k * b] = times_derivative(a, g, act, slope);
        }
        loss[i] = l;
    }
}

// One dense layer's term of the per-example squared gradient norms (ghost norms): (||a_i||^2 + [bias]) ||delta_i||^2,
// added to sq (or written, for the first layer). The layer's input a has element (i, j) at a[i * rowStride +
// j * colStride] (the host's row-major features, or a column-major activation); inputSq, when not null, holds
// ||a_i||^2 already. The error is column-major [b, nOut].
extern "C" __global__ void add_ghost_norms(float* sq, const float* a, int rowStride, int colStride, const float* inputSq,
                                           const float* error, int b, int nIn, int nOut, int hasBias, int first) {
    GRID_STRIDE(i, b) {
        float t = 0.0f;
        if (inputSq != 0) {
            t = inputSq[i];
        } else {
            for (int j = 0; j < nIn; j++) {
                float v = a[i * rowStride + j * colStride];
                t += v * v;
            }
        }
        if (hasBias) {
            t += 1.0f;
        }
        float s = 0.0f;
        for (int k = 0; k < nOut; k++) {
            float v = error[i + k * b];
            s += v * v;
        }
        float term = t * s;
        sq[i] = first ? term : sq[i] + term;
    }
}

// Every error row i (of the column-major [b, cols] block of all layers' errors) times min(1, C / ||g_i||), with
// ||g_i|| = sqrt(sq[i]), which is also written to norms. A zero norm gives C / 0 = inf, hence 1; NaN stays NaN.
extern "C" __global__ void clip_errors(float* errors, int b, int cols, const float* sq, float* norms, float clip) {
    GRID_STRIDE(e, b * cols) {
        int i = e % b;
        float norm = sqrtf(sq[i]);
        float f = clip / norm;
        f = f > 1.0f ? 1.0f : f;
        errors[e] *= f;
        if (e < b) {
            norms[i] = norm;
        }
    }
}

// The clipping factors of a convolutional network: norms[i] := sqrt(sq[i]), factors[i] := min(1, C / norms[i]) (as
// clip_errors computes them; a zero norm gives factor 1).
extern "C" __global__ void clip_factors(const float* sq, float* norms, float* factors, int b, float clip) {
    GRID_STRIDE(i, b) {
        float norm = sqrtf(sq[i]);
        float f = clip / norm;
        f = f > 1.0f ? 1.0f : f;
        norms[i] = norm;
        factors[i] = f;
    }
}

// values[e] *= factors[(e / inner) % b] over count values: the rows of a column-major [b, n] block (inner = 1), or
// example after example (inner = the values of one example).
extern "C" __global__ void scale_by_example(float* values, int count, int inner, int b, const float* factors) {
    GRID_STRIDE(e, count) {
        values[e] *= factors[(e / inner) % b];
    }
}

// The first step of b dot products <u_i, d_i> of `length` values each (vector i at i * length; u = d for squared
// lengths): lane j of vector i sums the products at j, j + lanes, j + 2 lanes, ... into parts[i * lanes + j], so that
// b * lanes threads share the work and neighbouring threads read neighbouring values. add_lane_sums finishes.
extern "C" __global__ void dot_lanes(float* parts, const float* u, const float* d, int length, int b, int lanes) {
    GRID_STRIDE(e, b * lanes) {
        int i = e / lanes;
        const float* x = u + (long long) i * length;
        const float* y = d + (long long) i * length;
        float s = 0.0f;
        for (int r = e % lanes; r < length; r += lanes) {
            s += x[r] * y[r];
        }
        parts[e] = s;
    }
}

// sq[i] (+)= the sum of vector i's lanes from dot_lanes, in lane order; writes instead of adding when first.
extern "C" __global__ void add_lane_sums(float* sq, const float* parts, int lanes, int b, int first) {
    GRID_STRIDE(i, b) {
        const float* lane = parts + (long long) i * lanes;
        float s = 0.0f;
        for (int j = 0; j < lanes; j++) {
            s += lane[j];
        }
        sq[i] = first ? s : sq[i] + s;
    }
}

// Unfolds NCHW images x [b, c, h, w] for a convolution: cols holds, example after example, the K x T matrix (K =
// c * kH * kW rows in (channel, kernel row, kernel column) order, T = outH * outW columns) of the input values each
// output position sees; taps outside the image (the padding) are 0. Per example it is the column-major T x K matrix
// U_i whose products give the per-example norms.
extern "C" __global__ void im2col(const float* x, float* cols, int b, int c, int h, int w, int kH, int kW, int sH, int sW,
                                  int padH, int padW, int outH, int outW) {
    int t = outH * outW;
    int k = c * kH * kW;
    GRID_STRIDE(e, b * k * t) {
        int pos = e % t;
        int row = (e / t) % k;
        int i = e / (t * k);
        int ow = pos % outW;
        int oh = pos / outW;
        int kw = row % kW;
        int kh = (row / kW) % kH;
        int ch = row / (kW * kH);
        int y = oh * sH - padH + kh;
        int xw = ow * sW - padW + kw;
        cols[e] = (y >= 0 && y < h && xw >= 0 && xw < w) ? x[(((long long) i * c + ch) * h + y) * w + xw] : 0.0f;
    }
}

// The private SGD step: g = (clipped sum + noise) / divisor (noise may be null: already added, or none), kept in grad
// as the released gradient; params -= g * lr.
extern "C" __global__ void noisy_sgd(float* params, float* grad, const float* noise, int p, float divisor, float lr) {
    GRID_STRIDE(j, p) {
        float g = grad[j];
        if (noise != 0) {
            g += noise[j];
        }
        g = g / divisor;
        grad[j] = g;
        params[j] -= g * lr;
    }
}

// The private step with DL4J's Nesterov momentum (libnd4j's nesterovs updater, then params -= update): g = (clipped
// sum + noise) / divisor kept in grad; m = momentum v; v := m - lr g; params -= m + (-momentum - 1) v.
extern "C" __global__ void noisy_nesterovs(float* params, float* v, float* grad, const float* noise, int p, float divisor,
                                           float lr, float momentum) {
    float momentumT = -momentum - 1.0f;
    GRID_STRIDE(j, p) {
        float g = grad[j];
        if (noise != 0) {
            g += noise[j];
        }
        g = g / divisor;
        grad[j] = g;
        float m = momentum * v[j];
        float next = m - lr * g;
        v[j] = next;
        params[j] -= m + momentumT * next;
    }
}

// Gossip over compressed rows: out[i, j] = sum over row i's non-zeros k (in column order) of w[k] x[cols[k], j], the
// first term a product and each next one added (the host's sparse path). x and out are row-major [n, p]; the row starts
// and columns are floats, exact below 2^24.
extern "C" __global__ void mix_rows(float* out, const float* start, const float* cols, const float* weights,
                                    const float* x, int n, int p) {
    GRID_STRIDE(e, n * p) {
        int i = e / p;
        int j = e % p;
        int from = (int) start[i];
        int to = (int) start[i + 1];
        float s = 0.0f;
        for (int k = from; k < to; k++) {
            float term = weights[k] * x[(long long) ((int) cols[k]) * p + j];
            s = k == from ? term : s + term;
        }
        out[e] = s;
    }
}

// A batch from data kept on the device: out row r := src row index[r], rows of `width` values (indices held as floats,
// exact below 2^24); a plain copy, so the batch is the one the host would gather.
extern "C" __global__ void gather_rows(float* out, const float* src, const float* index, int rows, int width) {
    GRID_STRIDE(e, rows * width) {
        int r = e / width;
        int j = e % width;
        out[e] = src[(long long) ((int) index[r]) * width + j];
    }
}

// Philox4x32-10 (Salmon et al. 2011): four 32-bit words from a 128-bit counter and a 64-bit key.
__device__ __forceinline__ void philox4x32(unsigned int c[4], unsigned int k0, unsigned int k1) {
    for (int round = 0; round < 10; round++) {
        unsigned int hi0 = __umulhi(0xD2511F53u, c[0]);
        unsigned int lo0 = 0xD2511F53u * c[0];
        unsigned int hi1 = __umulhi(0xCD9E8D57u, c[2]);
        unsigned int lo1 = 0xCD9E8D57u * c[2];
        unsigned int n0 = hi1 ^ c[1] ^ k0;
        unsigned int n2 = hi0 ^ c[3] ^ k1;
        c[0] = n0;
        c[1] = lo1;
        c[2] = n2;
        c[3] = lo0;
        k0 += 0x9E3779B9u;
        k1 += 0xBB67AE85u;
    }
}

// A standard normal by Box-Muller from the Philox words of counter (j, 0, stream low, stream high) under the 64-bit
// seed. Reproducible and fast; predictable to anyone with the seed: NOT secure.
__device__ __forceinline__ double philox_normal(unsigned long long seed, unsigned long long stream, int j) {
    unsigned int c[4];
    c[0] = (unsigned int) j;
    c[1] = 0u;
    c[2] = (unsigned int) (stream & 0xFFFFFFFFull);
    c[3] = (unsigned int) (stream >> 32);
    philox4x32(c, (unsigned int) (seed & 0xFFFFFFFFull), (unsigned int) (seed >> 32));
    // 53-bit uniforms: u1 in (0, 1] (its logarithm is finite), u2 in [0, 1)
    unsigned long long w1 = (((unsigned long long) c[0] << 32) | c[1]) >> 11;
    unsigned long long w2 = (((unsigned long long) c[2] << 32) | c[3]) >> 11;
    double u1 = ((double) w1 + 1.0) * 1.1102230246251565e-16;
    double u2 = (double) w2 * 1.1102230246251565e-16;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

// Seeded (NOT secure) Gaussian noise: grad[j] += std * z_j.
extern "C" __global__ void add_philox_gaussian(float* grad, int p, unsigned long long seed, unsigned long long stream,
                                               float std) {
    GRID_STRIDE(j, p) {
        grad[j] += (float) (std * philox_normal(seed, stream, j));
    }
}

// Seeded (NOT secure) Gaussian rows: x[r, j] += std * z_j of stream first + r * stride, for rows [rows, p] at once (the
// private noise of every node, or the pairwise noise of every edge, of a round); std in double, as the host's streams
// round std * z.
extern "C" __global__ void add_philox_rows(float* x, int rows, int p, unsigned long long seed, unsigned long long first,
                                           unsigned long long stride, double std) {
    GRID_STRIDE(e, rows * p) {
        int r = e / p;
        int j = e % p;
        x[e] += (float) (std * philox_normal(seed, first + (unsigned long long) r * stride, j));
    }
}

// Seeded (NOT secure) Gaussian rows for listed parties: x[r, j] += std * z_j of stream base + id_r * stride, where
// id_r = ids[2r] * 32768 + ids[2r + 1] (a party id below 2^30 held as two floats, each exact): the rows of parties that
// are not numbered consecutively, such as a round's sampled participants.
extern "C" __global__ void add_philox_listed(float* x, int rows, int p, unsigned long long seed, unsigned long long base,
                                             unsigned long long stride, const float* ids, double std) {
    GRID_STRIDE(e, rows * p) {
        int r = e / p;
        int j = e % p;
        unsigned long long id = (unsigned long long) ((int) ids[2 * r]) * 32768ull + (unsigned long long) ((int) ids[2 * r + 1]);
        x[e] += (float) (std * philox_normal(seed, base + id * stride, j));
    }
}
