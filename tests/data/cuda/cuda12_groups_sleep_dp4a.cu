// CUDA 12 group members, a spin lock with __nanosleep back-off, int8 dot products with __dp4a,
// a device-side __trap, and a cooperative launch that leans on CUDA's default arguments.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__device__ int lock = 0;

__global__ void shape(unsigned long long* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    dim3 threads = block.dim_threads();
    if (block.thread_rank() == 0) {
        out[grid.block_rank()] = block.num_threads() + threads.x + grid.num_blocks() + grid.block_index().x +
                                 grid.dim_blocks().x + grid.num_threads();
    }
    grid.sync();
}

__global__ void guarded_add(int* counter) {
    while (atomicCAS(&lock, 0, 1) != 0) {
        __nanosleep(100);
    }
    *counter += 1;
    __threadfence();
    atomicExch(&lock, 0);
}

__global__ void int8_dot(const int* a, const int* b, const char4* ca, const char4* cb, int* out,
                         unsigned int* uout, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = __dp4a(a[i], b[i], 0) + __dp4a(ca[i], cb[i], 1);
    uout[i] = __dp4a(static_cast<unsigned int>(a[i]), static_cast<unsigned int>(b[i]), 0u);
    if (out[i] < -1000000) __trap();
}

int main() {
    unsigned long long* d_out = nullptr;
    cudaMalloc(&d_out, 64 * sizeof(unsigned long long));
    void* args[] = {&d_out};
    cudaError_t err = cudaLaunchCooperativeKernel((void*)shape, dim3(2), dim3(64), args);
    if (err == cudaSuccess) err = cudaLaunchCooperativeKernel((void*)shape, dim3(2), dim3(64), args, 0);
    int* counter = nullptr;
    cudaMalloc(&counter, sizeof(int));
    guarded_add<<<4, 32>>>(counter);
    cudaDeviceSynchronize();
    std::printf("%s\n", cudaGetErrorString(err));
    cudaFree(counter);
    cudaFree(d_out);
    return 0;
}

// Kernel parameters passed as grid constants, and a register cap (CUDA 11.7 / 12.4 qualifiers).
struct Params { const float* in; float* out; int n; };
__global__ void __maxnreg__(64) scale_params(const __grid_constant__ Params p, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.out[i] = p.in[i] * factor;
}
