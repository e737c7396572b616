// Half-precision activations and reductions as ML kernels write them (max, relu-fma, tanh, _rn).
#include <cuda_fp16.h>

__global__ void activations(const __half* x, const __half2* y, __half* out, __half2* out2, signed char* q,
                            const double* scale, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    __half m = __hmax(x[i], __float2half(0.0f));
    m = __hmin(m, __hmax_nan(x[i], m));
    out[i] = __hadd_rn(htanh(m), __hfma_relu(x[i], m, __double2half(scale[0])));
    __half2 v = __hmax2(y[i], __hmin2(y[i], __float2half2_rn(1.0f)));
    out2[i] = __hfma2_relu(h2tanh(v), __hmul2_rn(v, v), __hsub2_rn(v, v));
    q[i] = __half2char_rz(out[i]);
}

// Gradient accumulation into half buffers, in the register-heavy style of older CUDA code.
__global__ void accumulate(const __half* grad, __half* acc, __half2* acc2, int n) {
    register int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    atomicAdd(&acc[i % 7], grad[i]);
    atomicAdd(acc2, __halves2half2(grad[i], grad[i]));
}

// Warp reductions over half values, with the full mask and with a partial one.
__global__ void warp_half_sum(const __half* x, const __half2* y, __half* out, __half2* out2, unsigned mask) {
    __half v = x[threadIdx.x];
    __half2 w = y[threadIdx.x];
    for (int offset = 16; offset > 0; offset /= 2) {
        v = __hadd(v, __shfl_down_sync(0xffffffff, v, offset));
        w = __hadd2(w, __shfl_xor_sync(mask, w, offset));
    }
    char c = __shfl_sync(mask, (char)threadIdx.x, 0);
    out[threadIdx.x] = __shfl_sync(0xffffffff, v, 0);
    out2[threadIdx.x] = __shfl_up_sync(mask, w, (unsigned)c & 1);
}
