// half2 members and arithmetic, cooperative-groups tile reduce, graph capture, symbols, occupancy.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

__constant__ float c_scale[4];
__device__ int d_counter;

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) reduce_kernel(const T* __restrict__ in, T* out, int n) {
    extern __shared__ unsigned char smem_raw[];
    T* smem = reinterpret_cast<T*>(smem_raw);
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    T v = 0;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) v += in[i] * c_scale[0];
    T running = cg::inclusive_scan(tile, v) - cg::exclusive_scan(tile, v, cg::plus<T>());  // == v
    v = cg::reduce(tile, running, cg::plus<T>());
    if (tile.thread_rank() == 0) smem[threadIdx.x / 32] = v;
    block.sync();
    if (threadIdx.x == 0) {
        T s = 0;
        for (int w = 0; w < BLOCK / 32; ++w) s += smem[w];
        atomicAdd(out, s);
        atomicAdd(&d_counter, 1);
    }
}

__global__ void half_kernel(half2* data, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    half2 h = data[i];
    h = __hmul2(h, __floats2half2_rn(2.0f, 2.0f));
    out[2 * i] = __half2float(h.x);
    out[2 * i + 1] = __low2float(h) + __high2float(h);
    unsigned mask = __ballot_sync(0xffffffff, i & 1);
    if (mask) data[i] = h;
}

int main() {
    float scale[4] = {1, 2, 3, 4};
    cudaMemcpyToSymbol(c_scale, scale, sizeof(scale));
    int n = 1 << 20;
    float *in, *out;
    cudaMallocManaged(&in, n * sizeof(float));
    cudaMalloc((void**)&out, sizeof(float));
    cudaMemset(out, 0, sizeof(float));
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreateWithFlags(&b, cudaEventDisableTiming);
    cudaFuncSetAttribute(reduce_kernel<float, 256>, cudaFuncAttributeMaxDynamicSharedMemorySize, 8192);
    int blocks = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reduce_kernel<float, 256>, 256, 256 / 32 * sizeof(float));
    cudaEventRecord(a, s);
    reduce_kernel<float, 256><<<blocks * 80, 256, 256 / 32 * sizeof(float), s>>>(in, out, n);
    cudaEventRecord(b, s);
    cudaStreamWaitEvent(s, b);
    cudaGraph_t g; cudaGraphExec_t ge;
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    half_kernel<<<n / 256, 256, 0, s>>>((half2*)in, out, n / 2);
    cudaStreamEndCapture(s, &g);
    cudaGraphInstantiate(&ge, g, 0);
    cudaGraphLaunch(ge, s);
    cudaStreamSynchronize(s);
    int count = 0;
    cudaMemcpyFromSymbol(&count, d_counter, sizeof(int));
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("%s %d %d %s\n", prop.name, prop.warpSize, count, cudaGetErrorString(cudaGetLastError()));
    cudaGraphExecDestroy(ge); cudaGraphDestroy(g);
    cudaFree(in); cudaFree(out);
    return 0;
}
