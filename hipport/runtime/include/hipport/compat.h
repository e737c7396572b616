/* hipport/compat.h — what older HIP releases lack and real CUDA code uses.
 *
 * Why: the translator maps CUDA names to HIP names, but some CUDA device intrinsics simply do
 * not exist in the HIP a user has installed (Debian and Ubuntu ship HIP 5.2; the `*_sync` warp
 * intrinsics arrived in ROCm 6.2 behind HIP_ENABLE_WARP_SYNC_BUILTINS and became default in
 * 6.4, `__syncwarp` in 7.0, cooperative-groups `reduce` and `__reduce_*_sync` later still).
 * Each block below is compiled only when the installed HIP does not provide the real one, so
 * a newer HIP always uses its own definition; the translator includes this header only in files
 * that use one of these names.
 *
 * Semantics on AMD: a wavefront executes in lockstep, so the shuffles ignore their mask (as the
 * real HIP ones do after checking it).  Votes honour the mask.  A 32-bit all-ones mask written
 * for CUDA (0xffffffff) is read as "the whole warp", so CUDA code that meant every lane keeps
 * meaning every lane on a 64-wide wavefront; any other 32-bit mask means exactly those lanes.
 *
 * Override the detection with HIPPORT_COMPAT_WARP_SYNC=0/1, HIPPORT_COMPAT_SYNCWARP=0/1,
 * HIPPORT_COMPAT_REDUCE=0/1 when a distribution backports features.
 */
#ifndef HIPPORT_COMPAT_H
#define HIPPORT_COMPAT_H

#include <hip/hip_runtime.h>
#include <stdint.h>
#include <string.h>

#include <hipport/version.h>

/* Stream and host callbacks: HIP spells CUDA's CUDART_CB/CUDA_CB calling-convention macro
 * HIPRT_CB but declares it only on the NVIDIA platform; on Linux it expands to nothing. */
#ifndef HIPRT_CB
#  define HIPRT_CB
#endif
/* CUDA's API calling-convention macros (`typedef CUresult CUDAAPI (*fn)(...)`): empty on Linux */
#ifndef CUDAAPI
#  define CUDAAPI
#endif
#ifndef CUDARTAPI
#  define CUDARTAPI
#endif

/* Declaration qualifiers of newer CUDA that HIP's compiler may not know: a __grid_constant__
 * kernel parameter is a const by-value parameter either way; __maxnreg__ is a register hint. */
#if defined(HIPPORT_PLATFORM_AMD) && !defined(__grid_constant__)
#  define __grid_constant__
#endif
#if defined(HIPPORT_PLATFORM_AMD) && !defined(__maxnreg__)
#  define __maxnreg__(registers)
#endif

/* crt/host_defines.h's markers on CUDA's own declarations, copied by code that re-declares
 * built-ins (for an IDE, or to wrap them); HIP defines none of them. */
#ifndef __device_builtin__
#  define __device_builtin__
#endif
#ifndef __cudart_builtin__
#  define __cudart_builtin__
#endif
#ifndef __device_builtin_texture_type__
#  define __device_builtin_texture_type__
#endif
#ifndef __device_builtin_surface_type__
#  define __device_builtin_surface_type__
#endif
#ifndef __builtin_align__
#  define __builtin_align__(n) __attribute__((aligned(n)))
#endif

/* Device code needs a GPU compiler (HIP's clang, or nvcc on the NVIDIA platform): a host-only
 * .cpp that g++ or clang++ builds against hip::host gets the host-side parts of this header. */
#if defined(__HIP__) || defined(__HIPCC__) || defined(__CUDACC__)
#  define HIPPORT_GPU_COMPILER 1
#endif

/* A C source (a `.c` host file calling the driver API) gets only the macros above: the rest is
 * C++ (overloads, templates, cooperative groups) that a C compiler cannot read, and C's implicit
 * pointer conversions need none of the overloads. */
#ifdef __cplusplus
#include <hip/hip_cooperative_groups.h>
#include <type_traits>

#include <hipport/warp.h>

/* ---- which pieces are missing ---------------------------------------------------------- */
#if !defined(HIPPORT_COMPAT_WARP_SYNC)
#  if defined(HIPPORT_PLATFORM_AMD) &&                                                  \
      (!HIPPORT_HIP_AT_LEAST(6, 2) || defined(HIP_DISABLE_WARP_SYNC_BUILTINS) ||        \
       (!HIPPORT_HIP_AT_LEAST(6, 4) && !defined(HIP_ENABLE_WARP_SYNC_BUILTINS)))
#    define HIPPORT_COMPAT_WARP_SYNC 1
#  else
#    define HIPPORT_COMPAT_WARP_SYNC 0
#  endif
#endif

#if !defined(HIPPORT_COMPAT_SYNCWARP)
#  if defined(HIPPORT_PLATFORM_AMD) && !HIPPORT_HIP_AT_LEAST(7, 0)
#    define HIPPORT_COMPAT_SYNCWARP 1
#  else
#    define HIPPORT_COMPAT_SYNCWARP 0
#  endif
#endif

/* cooperative_groups::reduce and __reduce_*_sync shipped together, in their own header. */
#if !defined(HIPPORT_COMPAT_REDUCE)
#  if defined(HIPPORT_PLATFORM_AMD)
#    if defined(__has_include)
#      if __has_include(<hip/amd_detail/amd_hip_cooperative_groups_reduce.h>)
#        define HIPPORT_COMPAT_REDUCE 0
#      endif
#    endif
#    if !defined(HIPPORT_COMPAT_REDUCE)
#      define HIPPORT_COMPAT_REDUCE 1
#    endif
#  else
#    define HIPPORT_COMPAT_REDUCE 0
#  endif
#endif

#if defined(HIPPORT_GPU_COMPILER)  /* device code, to the end of the half-precision part */
namespace hipport {
namespace compat_detail {

/* CUDA's full 32-bit mask means "all lanes"; widen it to the whole wavefront. */
template <typename MaskT>
__device__ inline unsigned long long widen_mask(MaskT mask) {
  static_assert(std::is_integral<MaskT>::value, "warp masks are integers");
  typedef typename std::make_unsigned<MaskT>::type U;
  const U bits = static_cast<U>(mask);  /* -1 and 0xffffffff alike become all ones */
  if (sizeof(MaskT) < 8 && bits == static_cast<U>(~U(0))) return ~0ull;
  return static_cast<unsigned long long>(bits);
}

/* The same 64 bits, reinterpreted: shuffles and compares of 4- and 8-byte values. */
template <typename T>
__device__ inline unsigned long long to_bits(T value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "4- or 8-byte values only");
  unsigned long long bits = 0;
  memcpy(&bits, &value, sizeof(T));
  return bits;
}

/* HIP's __shfl* take int, unsigned, long, long long (and unsigned), float and double; CUDA's also
 * take __half and __half2.  Any other value of up to 8 bytes moves as its bits. */
template <typename T>
struct native_shuffle
    : std::integral_constant<bool, std::is_same<T, int>::value || std::is_same<T, unsigned int>::value ||
                                       std::is_same<T, long>::value || std::is_same<T, unsigned long>::value ||
                                       std::is_same<T, long long>::value ||
                                       std::is_same<T, unsigned long long>::value || std::is_same<T, float>::value ||
                                       std::is_same<T, double>::value> {};
template <typename T, typename Op>
__device__ inline T shuffle(T var, Op op, std::true_type) { return op(var); }
template <typename T, typename Op>
__device__ inline T shuffle(T var, Op op, std::false_type) {
  static_assert(sizeof(T) <= 8, "a shuffle moves at most 8 bytes");
  typename std::conditional<(sizeof(T) <= 4), unsigned int, unsigned long long>::type bits = 0;
  memcpy(&bits, &var, sizeof(T));
  bits = op(bits);
  T out = var;
  memcpy(&out, &bits, sizeof(T));
  return out;
}
template <typename T, typename Op>
__device__ inline T shuffle(T var, Op op) { return shuffle(var, op, native_shuffle<T>()); }
struct ShuffleIndex {
  int lane, width;
  template <typename V> __device__ V operator()(V v) const { return __shfl(v, lane, width); }
};
struct ShuffleUp {
  unsigned int delta;
  int width;
  template <typename V> __device__ V operator()(V v) const { return __shfl_up(v, delta, width); }
};
struct ShuffleDown {
  unsigned int delta;
  int width;
  template <typename V> __device__ V operator()(V v) const { return __shfl_down(v, delta, width); }
};
struct ShuffleXor {
  int lane_mask, width;
  template <typename V> __device__ V operator()(V v) const { return __shfl_xor(v, lane_mask, width); }
};

__device__ inline unsigned long long read_first_lane(unsigned long long bits) {
  unsigned lo = static_cast<unsigned>(__builtin_amdgcn_readfirstlane(static_cast<int>(bits & 0xffffffffu)));
  unsigned hi = static_cast<unsigned>(__builtin_amdgcn_readfirstlane(static_cast<int>(bits >> 32)));
  return (static_cast<unsigned long long>(hi) << 32) | lo;
}

}  // namespace compat_detail
}  // namespace hipport

#if defined(HIPPORT_PLATFORM_AMD) && HIPPORT_COMPAT_WARP_SYNC
/* ---- __activemask, votes, shuffles, match (HIP < 6.4 without the opt-in macro) ------------ */
__device__ inline unsigned long long __activemask() { return __ballot(1); }

template <typename MaskT>
__device__ inline unsigned long long __ballot_sync(MaskT mask, int predicate) {
  return __ballot(predicate) & hipport::compat_detail::widen_mask(mask);
}

template <typename MaskT>
__device__ inline int __all_sync(MaskT mask, int predicate) {
  const unsigned long long lanes = hipport::compat_detail::widen_mask(mask) & __ballot(1);
  return (__ballot(predicate) & lanes) == lanes;
}

template <typename MaskT>
__device__ inline int __any_sync(MaskT mask, int predicate) {
  return (__ballot(predicate) & hipport::compat_detail::widen_mask(mask)) != 0;
}

template <typename MaskT>
__device__ inline unsigned __uni_sync(MaskT mask, int predicate) {
  const unsigned long long lanes = hipport::compat_detail::widen_mask(mask) & __ballot(1);
  const unsigned long long set = __ballot(predicate) & lanes;
  return set == 0 || set == lanes;
}

template <typename MaskT, typename T>
__device__ inline T __shfl_sync(MaskT mask, T var, int src_lane, int width = warpSize) {
  (void)mask;
  return hipport::compat_detail::shuffle(var, hipport::compat_detail::ShuffleIndex{src_lane, width});
}

template <typename MaskT, typename T>
__device__ inline T __shfl_up_sync(MaskT mask, T var, unsigned int delta, int width = warpSize) {
  (void)mask;
  return hipport::compat_detail::shuffle(var, hipport::compat_detail::ShuffleUp{delta, width});
}

template <typename MaskT, typename T>
__device__ inline T __shfl_down_sync(MaskT mask, T var, unsigned int delta, int width = warpSize) {
  (void)mask;
  return hipport::compat_detail::shuffle(var, hipport::compat_detail::ShuffleDown{delta, width});
}

template <typename MaskT, typename T>
__device__ inline T __shfl_xor_sync(MaskT mask, T var, int lane_mask, int width = warpSize) {
  (void)mask;
  return hipport::compat_detail::shuffle(var, hipport::compat_detail::ShuffleXor{lane_mask, width});
}

/* Lanes of `mask` holding the same value as this lane.  Waterfall: each round the first
 * remaining lane broadcasts its value and every lane holding it drops out. */
template <typename MaskT, typename T>
__device__ inline unsigned long long __match_any_sync(MaskT mask, T value) {
  const unsigned long long lanes = hipport::compat_detail::widen_mask(mask);
  const unsigned long long mine = hipport::compat_detail::to_bits(value);
  unsigned long long result = 0;
  bool done = false;
  while (__any(!done)) {
    if (!done) {
      const unsigned long long chosen = hipport::compat_detail::read_first_lane(mine);
      if (chosen == mine) {
        result = __ballot(1) & lanes;
        done = true;
      }
    }
  }
  return result;
}

template <typename MaskT, typename T>
__device__ inline unsigned long long __match_all_sync(MaskT mask, T value, int* pred) {
  const unsigned long long lanes = hipport::compat_detail::widen_mask(mask) & __ballot(1);
  const unsigned long long mine = hipport::compat_detail::to_bits(value);
  const unsigned long long first = hipport::compat_detail::read_first_lane(mine);
  const bool same = (__ballot(first == mine) & lanes) == lanes;
  *pred = same;
  return same ? lanes : 0ull;
}
#endif /* HIPPORT_COMPAT_WARP_SYNC */

#if defined(HIPPORT_PLATFORM_AMD) && HIPPORT_COMPAT_SYNCWARP
/* ---- __syncwarp (HIP < 7.0): a wavefront barrier with wavefront-scope memory ordering ---- */
__device__ inline void __syncwarp() {
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
}
template <typename MaskT>
__device__ inline void __syncwarp(MaskT mask) {
  (void)mask;
  __syncwarp();
}
#endif /* HIPPORT_COMPAT_SYNCWARP */

/* tile.shfl(v, lane) & co. of a value HIP's group shuffles reject ("Neither an integer or float
 * type": a uint4, a struct), which CUDA's shuffle as any trivially copyable type: the translator
 * writes hipport::shfl_xor(tile, v, mask); an int or float type goes to the member as it is, any
 * other value is shuffled as 32-bit words (cuda-samples' shfl_scan shuffles uint4).  The reductions
 * and scans below shuffle through these too, so they take a __half or a struct as CUDA's do. */
#define HIPPORT_GROUP_SHFL(name)                                                                   \
  template <typename G, typename T, typename A,                                                    \
            typename std::enable_if<std::is_integral<T>::value || std::is_floating_point<T>::value, int>::type = 0> \
  __device__ inline T name(const G& g, T value, A arg) {                                           \
    return g.name(value, arg);                                                                     \
  }                                                                                                \
  template <typename G, typename T, typename A,                                                    \
            typename std::enable_if<!std::is_integral<T>::value && !std::is_floating_point<T>::value, int>::type = 0> \
  __device__ inline T name(const G& g, T value, A arg) {                                           \
    constexpr int words = (sizeof(T) + sizeof(unsigned int) - 1) / sizeof(unsigned int);           \
    unsigned int w[words] = {};                                                                    \
    __builtin_memcpy(w, &value, sizeof(T));                                                        \
    for (int i = 0; i < words; ++i) w[i] = g.name(w[i], arg);                                      \
    T result;                                                                                      \
    __builtin_memcpy(&result, w, sizeof(T));                                                       \
    return result;                                                                                 \
  }
namespace hipport {
HIPPORT_GROUP_SHFL(shfl)
HIPPORT_GROUP_SHFL(shfl_up)
HIPPORT_GROUP_SHFL(shfl_down)
HIPPORT_GROUP_SHFL(shfl_xor)
}  // namespace hipport
#undef HIPPORT_GROUP_SHFL

#if defined(HIPPORT_PLATFORM_AMD) && HIPPORT_COMPAT_REDUCE
/* ---- __reduce_*_sync and cooperative_groups::reduce -------------------------------------- */
namespace hipport {
namespace compat_detail {

/* Reduce over the lanes in `mask` (all of which execute this call, as CUDA requires).
 * Full wavefront: butterfly.  Partial mask: each lane folds the others' values in rank order. */
template <typename T, typename Op>
__device__ inline T reduce_lanes(unsigned long long mask, T value, Op op) {
  const unsigned long long lanes = mask & __ballot(1);
  const unsigned long long full = (warpSize == 64) ? ~0ull : 0xffffffffull;
  if (lanes == full) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2) value = op(value, __shfl_xor(value, offset, warpSize));
    return value;
  }
  T result = value;
  bool first = true;
  for (unsigned long long rest = lanes; rest != 0; rest &= rest - 1) {
    const int lane = __builtin_ctzll(rest);
    const T other = __shfl(value, lane, warpSize);
    result = first ? other : op(result, other);
    first = false;
  }
  return result;
}

template <typename T> struct op_add { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct op_min { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <typename T> struct op_max { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <typename T> struct op_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <typename T> struct op_or  { __device__ T operator()(T a, T b) const { return a | b; } };
template <typename T> struct op_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };

/* thread_rank within the whole block, for tiles partitioned from it */
__device__ inline unsigned block_thread_rank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

}  // namespace compat_detail
}  // namespace hipport

#define HIPPORT_DEFINE_REDUCE_SYNC(NAME, OP)                                              \
  template <typename MaskT>                                                               \
  __device__ inline int NAME(MaskT mask, int value) {                                     \
    return hipport::compat_detail::reduce_lanes(hipport::compat_detail::widen_mask(mask), value, \
                                                hipport::compat_detail::OP<int>());       \
  }                                                                                       \
  template <typename MaskT>                                                               \
  __device__ inline unsigned NAME(MaskT mask, unsigned value) {                           \
    return hipport::compat_detail::reduce_lanes(hipport::compat_detail::widen_mask(mask), value, \
                                                hipport::compat_detail::OP<unsigned>());  \
  }
HIPPORT_DEFINE_REDUCE_SYNC(__reduce_add_sync, op_add)
HIPPORT_DEFINE_REDUCE_SYNC(__reduce_min_sync, op_min)
HIPPORT_DEFINE_REDUCE_SYNC(__reduce_max_sync, op_max)
#undef HIPPORT_DEFINE_REDUCE_SYNC
template <typename MaskT>
__device__ inline unsigned __reduce_and_sync(MaskT mask, unsigned value) {
  return hipport::compat_detail::reduce_lanes(hipport::compat_detail::widen_mask(mask), value,
                                              hipport::compat_detail::op_and<unsigned>());
}
template <typename MaskT>
__device__ inline unsigned __reduce_or_sync(MaskT mask, unsigned value) {
  return hipport::compat_detail::reduce_lanes(hipport::compat_detail::widen_mask(mask), value,
                                              hipport::compat_detail::op_or<unsigned>());
}
template <typename MaskT>
__device__ inline unsigned __reduce_xor_sync(MaskT mask, unsigned value) {
  return hipport::compat_detail::reduce_lanes(hipport::compat_detail::widen_mask(mask), value,
                                              hipport::compat_detail::op_xor<unsigned>());
}

namespace cooperative_groups {
/* The functors CUDA's <cooperative_groups/reduce.h> provides. */
template <typename T> struct plus    { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct less    { __device__ T operator()(T a, T b) const { return b < a ? b : a; } };
template <typename T> struct greater { __device__ T operator()(T a, T b) const { return a < b ? b : a; } };
template <typename T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <typename T> struct bit_or  { __device__ T operator()(T a, T b) const { return a | b; } };
template <typename T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };

/* reduce over a statically sized tile: butterfly over the tile's lanes, every lane gets it */
template <unsigned int TileSize, typename Parent, typename T, typename Op>
__device__ inline T reduce(const thread_block_tile<TileSize, Parent>& tile, T value, Op op) {
  static_assert(TileSize && (TileSize & (TileSize - 1)) == 0 && TileSize <= 64, "tile size must be a power of two up to 64");
  for (unsigned int offset = TileSize / 2; offset > 0; offset /= 2)
    value = op(value, hipport::shfl_xor(tile, value, offset));
  return value;
}

/* reduce over a coalesced group: fold the members' values in rank order */
template <typename T, typename Op>
__device__ inline T reduce(const coalesced_group& group, T value, Op op) {
  T result = hipport::shfl(group, value, 0);
  for (unsigned int rank = 1; rank < group.size(); ++rank) result = op(result, hipport::shfl(group, value, rank));
  return result;
}
}  // namespace cooperative_groups
#endif /* HIPPORT_COMPAT_REDUCE */

/* ---- meta_group_rank / meta_group_size ------------------------------------------------------
 * CUDA spells them as members (tile.meta_group_rank()); HIP 5.2's tiles lack them and a member
 * cannot be added from outside, so the translator rewrites `t.meta_group_rank()` to
 * `hipport::meta_group_rank(t)`.  Where the tile has the member it is called; otherwise the
 * value is computed for a tile partitioned from the thread block (the common case). */
namespace hipport {
namespace compat_detail {
template <typename G, typename = void> struct has_meta_group_rank : std::false_type {};
template <typename G>
struct has_meta_group_rank<G, decltype((void)std::declval<const G&>().meta_group_rank())> : std::true_type {};
template <typename G, typename = void> struct has_meta_group_size : std::false_type {};
template <typename G>
struct has_meta_group_size<G, decltype((void)std::declval<const G&>().meta_group_size())> : std::true_type {};

template <typename G>
__host__ __device__ inline unsigned meta_rank(const G& g, std::true_type) { return static_cast<unsigned>(g.meta_group_rank()); }
template <typename G>
__device__ inline unsigned meta_rank(const G& g, std::false_type) {
  const unsigned rank = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  return rank / static_cast<unsigned>(g.size());
}
template <typename G>
__host__ __device__ inline unsigned meta_size(const G& g, std::true_type) { return static_cast<unsigned>(g.meta_group_size()); }
template <typename G>
__device__ inline unsigned meta_size(const G& g, std::false_type) {
  const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned n = static_cast<unsigned>(g.size());
  return (threads + n - 1) / n;
}
}  // namespace compat_detail

template <typename G>
__host__ __device__ inline unsigned meta_group_rank(const G& g) {
  return compat_detail::meta_rank(g, compat_detail::has_meta_group_rank<G>());
}
template <typename G>
__host__ __device__ inline unsigned meta_group_size(const G& g) {
  return compat_detail::meta_size(g, compat_detail::has_meta_group_size<G>());
}
}  // namespace hipport

/* ---- CUDA 12 group members --------------------------------------------------------------
 * CUDA 12 names a block's shape `block.dim_threads()` / `block.num_threads()` and the grid's
 * `grid.block_rank()`, `num_blocks()`, `block_index()`, `dim_blocks()`; HIP 5.2's groups have
 * none of them (nor `group_dim()`).  The translator rewrites `g.dim_threads()` to
 * `hipport::dim_threads(g)`: the member is called where the group has it, otherwise the value
 * comes from the launch (these members belong to thread_block and grid_group only, whose shape
 * is the launch's; num_threads of any group is its size()).  Any object with the member, a user's
 * type included (the translator sees names, not types), gets its own member, const or not. */
#define HIPPORT_GROUP_MEMBER(name, R, fallback)                                                 \
  namespace compat_detail {                                                                        \
  template <typename G, typename = void> struct has_##name : std::false_type {};                  \
  template <typename G>                                                                            \
  struct has_##name<G, decltype((void)std::declval<G&>().name())> : std::true_type {};             \
  template <typename G>                                                                            \
  __host__ __device__ inline auto name##_of(G& g, std::true_type) -> decltype(g.name()) {          \
    return g.name();                                                                               \
  }                                                                                                \
  template <typename G>                                                                            \
  __device__ inline R name##_of(G& g, std::false_type) { (void)g; return fallback; }            \
  }                                                                                                \
  template <typename G, typename B = typename std::remove_reference<G>::type>                      \
  __host__ __device__ inline auto name(G&& g)                                                      \
      -> decltype(compat_detail::name##_of(g, compat_detail::has_##name<B>())) {                  \
    return compat_detail::name##_of(g, compat_detail::has_##name<B>());                            \
  }
namespace hipport {
HIPPORT_GROUP_MEMBER(num_threads, unsigned long long, static_cast<unsigned long long>(g.size()))
HIPPORT_GROUP_MEMBER(dim_threads, dim3, dim3(blockDim.x, blockDim.y, blockDim.z))
HIPPORT_GROUP_MEMBER(group_dim, dim3, dim3(blockDim.x, blockDim.y, blockDim.z))
HIPPORT_GROUP_MEMBER(block_index, dim3, dim3(blockIdx.x, blockIdx.y, blockIdx.z))
HIPPORT_GROUP_MEMBER(dim_blocks, dim3, dim3(gridDim.x, gridDim.y, gridDim.z))
HIPPORT_GROUP_MEMBER(block_rank, unsigned long long,
                     (static_cast<unsigned long long>(blockIdx.z) * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x)
HIPPORT_GROUP_MEMBER(num_blocks, unsigned long long,
                     static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z)
}  // namespace hipport
#undef HIPPORT_GROUP_MEMBER

/* tile.ballot(p) / tile.any(p) / tile.all(p): HIP 5.2's tiles have no votes.  The translator writes
 * hipport::ballot(tile, p); a tile with the member uses it (as does a user's type with one), otherwise
 * the wavefront's ballot is cut to the tile's lanes (a tile is a contiguous run of lanes starting at
 * thread_rank() 0). */
#define HIPPORT_GROUP_VOTE(name, R, from_bits)                                                  \
  namespace compat_detail {                                                                        \
  template <typename G, typename P, typename = void> struct has_##name : std::false_type {};      \
  template <typename G, typename P>                                                                \
  struct has_##name<G, P, decltype((void)std::declval<G&>().name(std::declval<P>()))> : std::true_type {}; \
  template <typename G, typename P>                                                                \
  __host__ __device__ inline auto name##_of(G& g, P&& p, std::true_type) -> decltype(g.name(static_cast<P&&>(p))) { \
    return g.name(static_cast<P&&>(p));                                                            \
  }                                                                                                \
  template <typename G, typename P>                                                                \
  __device__ inline R name##_of(G& g, P&& p, std::false_type) {                                 \
    const unsigned long long bits = tile_votes(g, static_cast<int>(p)), all_lanes = tile_lanes(g); \
    (void)all_lanes;                                                                               \
    return from_bits;                                                                              \
  }                                                                                                \
  }                                                                                                \
  template <typename G, typename P, typename B = typename std::remove_reference<G>::type>          \
  __host__ __device__ inline auto name(G&& g, P&& predicate)                                       \
      -> decltype(compat_detail::name##_of(g, static_cast<P&&>(predicate), compat_detail::has_##name<B, P>())) { \
    return compat_detail::name##_of(g, static_cast<P&&>(predicate), compat_detail::has_##name<B, P>()); \
  }
namespace hipport {
namespace compat_detail {
template <typename G>
__device__ inline unsigned long long tile_lanes(const G& g) {
  const unsigned n = static_cast<unsigned>(g.size());
  return n >= 64 ? ~0ull : (1ull << n) - 1;
}
template <typename G>
__device__ inline unsigned long long tile_votes(const G& g, int p) {
  const unsigned long long votes = static_cast<unsigned long long>(__ballot(p));
  const unsigned first_lane = __lane_id() - static_cast<unsigned>(g.thread_rank());
  return (votes >> first_lane) & tile_lanes(g);
}
}  // namespace compat_detail
HIPPORT_GROUP_VOTE(ballot, unsigned int, static_cast<unsigned int>(bits))
HIPPORT_GROUP_VOTE(any, bool, bits != 0)
HIPPORT_GROUP_VOTE(all, bool, bits == all_lanes)
}  // namespace hipport
#undef HIPPORT_GROUP_VOTE

/* tile.match_any(v) / tile.match_all(v, pred): HIP 5.2's tiles have neither.  The translator writes
 * hipport::match_any(tile, v); a tile with the member uses it, otherwise the wavefront's match over
 * the tile's lanes, shifted so bit 0 is the tile's thread_rank() 0 (as CUDA's tile masks are). */
namespace hipport {
namespace compat_detail {
template <typename G, typename T, typename = void> struct has_match : std::false_type {};
template <typename G, typename T>
struct has_match<G, T, decltype((void)std::declval<const G&>().match_any(std::declval<T>()))> : std::true_type {};
template <typename G, typename T>
__host__ __device__ inline auto match_any_of(const G& g, T v, std::true_type) -> decltype(g.match_any(v)) { return g.match_any(v); }
template <typename G, typename T>
__device__ inline unsigned long long match_any_of(const G& g, T v, std::false_type) {
  const unsigned first_lane = __lane_id() - static_cast<unsigned>(g.thread_rank());
  return __match_any_sync(tile_lanes(g) << first_lane, v) >> first_lane;
}
template <typename G, typename T>
__host__ __device__ inline auto match_all_of(const G& g, T v, int& pred, std::true_type) -> decltype(g.match_all(v, pred)) { return g.match_all(v, pred); }
template <typename G, typename T>
__device__ inline unsigned long long match_all_of(const G& g, T v, int& pred, std::false_type) {
  const unsigned first_lane = __lane_id() - static_cast<unsigned>(g.thread_rank());
  return __match_all_sync(tile_lanes(g) << first_lane, v, &pred) >> first_lane;
}
}  // namespace compat_detail
template <typename G, typename T>
__host__ __device__ inline unsigned long long match_any(const G& g, T value) {
  return compat_detail::match_any_of(g, value, compat_detail::has_match<G, T>());
}
template <typename G, typename T>
__host__ __device__ inline unsigned long long match_all(const G& g, T value, int& pred) {
  return compat_detail::match_all_of(g, value, pred, compat_detail::has_match<G, T>());
}
}  // namespace hipport

/* cg::tiled_partition<8>(warp_tile): a tile of a tile.  HIP 5.2 partitions only a thread block;
 * its tiles take their lanes from the thread's place in the block, so a tile of N cut from a tile
 * of M (N dividing M) holds the same lanes as a tile of N cut from the block. */
#if defined(HIPPORT_PLATFORM_AMD) && defined(HIP_VERSION) && HIP_VERSION < 50300000
namespace cooperative_groups {
namespace impl {
template <unsigned int size, unsigned int parent_size, class grand_parent>
struct tiled_partition_internal<size, thread_block_tile<parent_size, grand_parent> >
    : public thread_block_tile<size, thread_block_tile<parent_size, grand_parent> > {
  static_assert(size <= parent_size, "a sub-tile must not be larger than its parent tile");
  __CG_QUALIFIER__ tiled_partition_internal(const thread_block_tile<parent_size, grand_parent>& g)
      : thread_block_tile<size, thread_block_tile<parent_size, grand_parent> >(g) {}
};
}  // namespace impl
}  // namespace cooperative_groups
#endif

/* ---- hipport::x_of / y_of: a member as CUDA types it ---------------------------------------
 * CUDA's __half2 members are __half; HIP's are the raw 16 bits.  The translator writes `v.x` of
 * an object typed by a template parameter as x_of(v): `v.x` itself, by reference, for every
 * type, and the __half CUDA means for __half2, so each instantiation reads what it did on CUDA. */
namespace hipport {
template <typename V> __host__ __device__ constexpr auto x_of(V& v) -> decltype((v.x)) { return v.x; }
template <typename V> __host__ __device__ constexpr auto y_of(V& v) -> decltype((v.y)) { return v.y; }
}  // namespace hipport
#if defined(HIPPORT_PLATFORM_AMD)
#include <hip/hip_fp16.h>
namespace hipport {
__host__ __device__ inline __half& x_of(__half2& v) { return reinterpret_cast<__half&>(v.x); }
__host__ __device__ inline const __half& x_of(const __half2& v) { return reinterpret_cast<const __half&>(v.x); }
__host__ __device__ inline __half& y_of(__half2& v) { return reinterpret_cast<__half&>(v.y); }
__host__ __device__ inline const __half& y_of(const __half2& v) { return reinterpret_cast<const __half&>(v.y); }
}  // namespace hipport
#endif

/* ---- half-precision intrinsics HIP 5.2's hip_fp16.h lacks ----------------------------------
 * __hmax / __hmin (and their 2-lane and _nan forms), __double2half, htanh, the _rn arithmetic,
 * __hfma_relu and the char conversions.  Templates pinned to __half / __half2, so a HIP that
 * declares the real functions wins overload resolution; HIPPORT_COMPAT_FP16=0 leaves them out. */
#if !defined(HIPPORT_COMPAT_FP16)
#  define HIPPORT_COMPAT_FP16 1
#endif
#if HIPPORT_COMPAT_FP16 && defined(HIPPORT_PLATFORM_AMD)
/* hrcp / h2rcp of __half: HIP 5.2's definitions call __llvm_amdgcn_rcp_f16, which its device
 * library does not define (the program fails to link).  Weak, so a library that has it wins. */
#if defined(HIP_VERSION_MAJOR) && HIP_VERSION_MAJOR < 6
extern "C" __device__ __attribute__((weak)) _Float16 __llvm_amdgcn_rcp_f16(_Float16 x) {
  return static_cast<_Float16>(1.0f / static_cast<float>(x));
}
#endif
#include <hip/hip_fp16.h>
namespace hipport {
namespace fp16_detail {
template <typename T> using if_half = typename std::enable_if<std::is_same<T, __half>::value, int>::type;
template <typename T> using if_half2 = typename std::enable_if<std::is_same<T, __half2>::value, int>::type;
__host__ __device__ inline __half quiet_nan() { return __float2half(__builtin_nanf("")); }
__device__ inline __half max_of(__half a, __half b, bool nan_wins) {
  const float x = __half2float(a), y = __half2float(b);
  if (x != x || y != y) return nan_wins ? quiet_nan() : (x != x ? b : a);
  return x < y ? b : a;
}
__device__ inline __half min_of(__half a, __half b, bool nan_wins) {
  const float x = __half2float(a), y = __half2float(b);
  if (x != x || y != y) return nan_wins ? quiet_nan() : (x != x ? b : a);
  return y < x ? b : a;
}
__device__ inline __half relu(__half a) {
  const float x = __half2float(a);
  return x != x ? quiet_nan() : (x < 0.0f ? __float2half(0.0f) : a);
}
}  // namespace fp16_detail
}  // namespace hipport
#define HIPPORT_FP16_PAIR(name, two, body1)                                                         \
  template <typename H, hipport::fp16_detail::if_half<H> = 0>                                      \
  __device__ inline __half name(H a, H b) { return body1; }                                         \
  template <typename H, hipport::fp16_detail::if_half2<H> = 0>                                     \
  __device__ inline __half2 two(H a, H b) {                                                         \
    return __halves2half2(name(__low2half(a), __low2half(b)), name(__high2half(a), __high2half(b))); \
  }
HIPPORT_FP16_PAIR(__hmax, __hmax2, hipport::fp16_detail::max_of(a, b, false))
HIPPORT_FP16_PAIR(__hmin, __hmin2, hipport::fp16_detail::min_of(a, b, false))
HIPPORT_FP16_PAIR(__hmax_nan, __hmax2_nan, hipport::fp16_detail::max_of(a, b, true))
HIPPORT_FP16_PAIR(__hmin_nan, __hmin2_nan, hipport::fp16_detail::min_of(a, b, true))
HIPPORT_FP16_PAIR(__hadd_rn, __hadd2_rn, __hadd(a, b))
HIPPORT_FP16_PAIR(__hsub_rn, __hsub2_rn, __hsub(a, b))
HIPPORT_FP16_PAIR(__hmul_rn, __hmul2_rn, __hmul(a, b))
#undef HIPPORT_FP16_PAIR
template <typename H, hipport::fp16_detail::if_half<H> = 0>
__device__ inline __half __hfma_relu(H a, H b, H c) { return hipport::fp16_detail::relu(__hfma(a, b, c)); }
template <typename H, hipport::fp16_detail::if_half2<H> = 0>
__device__ inline __half2 __hfma2_relu(H a, H b, H c) {
  const __half2 r = __hfma2(a, b, c);
  return __halves2half2(hipport::fp16_detail::relu(__low2half(r)), hipport::fp16_detail::relu(__high2half(r)));
}
template <typename H, hipport::fp16_detail::if_half<H> = 0>
__device__ inline __half htanh(H a) { return __float2half(tanhf(__half2float(a))); }
template <typename H, hipport::fp16_detail::if_half2<H> = 0>
__device__ inline __half2 h2tanh(H a) { return __halves2half2(htanh(__low2half(a)), htanh(__high2half(a))); }
/* CUDA rounds a double to half once; through float it can round twice (off by one ulp at most) */
template <typename D, typename std::enable_if<std::is_same<D, double>::value, int>::type = 0>
__host__ __device__ inline __half __double2half(D d) { return __float2half(static_cast<float>(d)); }
template <typename H, hipport::fp16_detail::if_half<H> = 0>
__device__ inline signed char __half2char_rz(H a) {
  const float x = __half2float(a);
  return x != x ? 0 : x >= 127.0f ? 127 : x <= -128.0f ? -128 : static_cast<signed char>(x);
}
template <typename H, hipport::fp16_detail::if_half<H> = 0>
__device__ inline unsigned char __half2uchar_rz(H a) {
  const float x = __half2float(a);
  return x != x ? 0 : x >= 255.0f ? 255 : x <= 0.0f ? 0 : static_cast<unsigned char>(x);
}
/* __shfl* of __half and __half2, which CUDA declares and HIP 5.2 does not (its overloads for int,
 * float, … make such a call ambiguous): the value moves as its bits. */
#define HIPPORT_HALF_SHUFFLE(name, arg_type, op)                                                   \
  template <typename H, typename std::enable_if<std::is_same<H, __half>::value ||                 \
                                                    std::is_same<H, __half2>::value, int>::type = 0> \
  __device__ inline H name(H var, arg_type arg, int width = warpSize) {                           \
    return hipport::compat_detail::shuffle(var, hipport::compat_detail::op{arg, width},           \
                                           std::false_type());                                    \
  }
HIPPORT_HALF_SHUFFLE(__shfl, int, ShuffleIndex)
HIPPORT_HALF_SHUFFLE(__shfl_up, unsigned int, ShuffleUp)
HIPPORT_HALF_SHUFFLE(__shfl_down, unsigned int, ShuffleDown)
HIPPORT_HALF_SHUFFLE(__shfl_xor, int, ShuffleXor)
#undef HIPPORT_HALF_SHUFFLE

/* atomicAdd on __half and __half2: a compare-and-swap loop on the aligned 32-bit word that holds
 * the value (HIP 5.2 declares neither). */
namespace hipport {
namespace fp16_detail {
__device__ inline unsigned int bits_of(__half2 v) { unsigned int b; __builtin_memcpy(&b, &v, 4); return b; }
__device__ inline __half2 half2_of(unsigned int b) { __half2 v; __builtin_memcpy(&v, &b, 4); return v; }
}  // namespace fp16_detail
}  // namespace hipport
template <typename H, hipport::fp16_detail::if_half2<H> = 0>
__device__ inline H atomicAdd(H* address, typename std::common_type<H>::type value) {  // (not deduced: converts)
  unsigned int* word = reinterpret_cast<unsigned int*>(address);
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    old = atomicCAS(word, assumed, hipport::fp16_detail::bits_of(__hadd2(hipport::fp16_detail::half2_of(assumed), value)));
  } while (assumed != old);
  return hipport::fp16_detail::half2_of(old);
}
template <typename H, hipport::fp16_detail::if_half<H> = 0>
__device__ inline H atomicAdd(H* address, typename std::common_type<H>::type value) {
  const __SIZE_TYPE__ at = reinterpret_cast<__SIZE_TYPE__>(address);
  unsigned int* word = reinterpret_cast<unsigned int*>(at & ~static_cast<__SIZE_TYPE__>(3));
  const unsigned int shift = (at & 2) ? 16u : 0u;
  unsigned int old = *word, assumed;
  do {
    assumed = old;
    const unsigned short sum = __half_as_ushort(__hadd(__ushort_as_half(static_cast<unsigned short>(assumed >> shift)), value));
    old = atomicCAS(word, assumed, (assumed & ~(0xffffu << shift)) | (static_cast<unsigned int>(sum) << shift));
  } while (assumed != old);
  return __ushort_as_half(static_cast<unsigned short>(old >> shift));
}

/* __half arithmetic and comparisons in host code: CUDA's operators are __host__ __device__, HIP
 * 5.2's __device__ only (so CPU reference code fails to compile).  Host templates pinned to
 * __half: device code keeps HIP's own (clang prefers the same-side overload). */
#define HIPPORT_HALF_HOST_OP(op)                                                                   \
  template <typename H, hipport::fp16_detail::if_half<H> = 0>                                      \
  __host__ inline H operator op(const H& x, const H& y) {                                          \
    return __float2half(__half2float(x) op __half2float(y));                                       \
  }                                                                                                \
  template <typename H, hipport::fp16_detail::if_half<H> = 0>                                      \
  __host__ inline H& operator op##=(H& x, const H& y) { return x = x op y; }
HIPPORT_HALF_HOST_OP(+)
HIPPORT_HALF_HOST_OP(-)
HIPPORT_HALF_HOST_OP(*)
HIPPORT_HALF_HOST_OP(/)
#undef HIPPORT_HALF_HOST_OP
#define HIPPORT_HALF_HOST_CMP(op)                                                                  \
  template <typename H, hipport::fp16_detail::if_half<H> = 0>                                      \
  __host__ inline bool operator op(const H& x, const H& y) { return __half2float(x) op __half2float(y); }
HIPPORT_HALF_HOST_CMP(==)
HIPPORT_HALF_HOST_CMP(!=)
HIPPORT_HALF_HOST_CMP(<)
HIPPORT_HALF_HOST_CMP(<=)
HIPPORT_HALF_HOST_CMP(>)
HIPPORT_HALF_HOST_CMP(>=)
#undef HIPPORT_HALF_HOST_CMP
template <typename H, hipport::fp16_detail::if_half<H> = 0>
__host__ inline H operator-(const H& x) { return __float2half(-__half2float(x)); }
/* The scalar __half intrinsics in host code, which CUDA 12 declares __host__ __device__ and HIP
 * 5.2 for the device only: host templates pinned to __half, computed in float (exact for these). */
#define HIPPORT_HALF_HOST_FN(name, result, expr)                                                    \
  template <typename H, hipport::fp16_detail::if_half<H> = 0>                                      \
  __host__ inline result name(H a, H b) {                                                           \
    const float x = __half2float(a), y = __half2float(b);                                           \
    return expr;                                                                                    \
  }
HIPPORT_HALF_HOST_FN(__hadd, H, __float2half(x + y))
HIPPORT_HALF_HOST_FN(__hsub, H, __float2half(x - y))
HIPPORT_HALF_HOST_FN(__hmul, H, __float2half(x * y))
HIPPORT_HALF_HOST_FN(__hdiv, H, __float2half(x / y))
HIPPORT_HALF_HOST_FN(__hmax, H, x != x ? b : (y != y ? a : (x < y ? b : a)))
HIPPORT_HALF_HOST_FN(__hmin, H, x != x ? b : (y != y ? a : (y < x ? b : a)))
HIPPORT_HALF_HOST_FN(__heq, bool, x == y)
HIPPORT_HALF_HOST_FN(__hne, bool, x == x && y == y && x != y)
HIPPORT_HALF_HOST_FN(__hlt, bool, x < y)
HIPPORT_HALF_HOST_FN(__hle, bool, x <= y)
HIPPORT_HALF_HOST_FN(__hgt, bool, x > y)
HIPPORT_HALF_HOST_FN(__hge, bool, x >= y)
#undef HIPPORT_HALF_HOST_FN
template <typename H, hipport::fp16_detail::if_half<H> = 0>
__host__ inline H __hneg(H a) { return __float2half(-__half2float(a)); }
template <typename H, hipport::fp16_detail::if_half<H> = 0>
__host__ inline H __habs(H a) { const float x = __half2float(a); return __float2half(x < 0.0f ? -x : x); }
template <typename H, hipport::fp16_detail::if_half<H> = 0>
__host__ inline bool __hisnan(H a) { const float x = __half2float(a); return x != x; }
template <typename H, hipport::fp16_detail::if_half<H> = 0>
__host__ inline H __hfma(H a, H b, H c) {
  return __float2half(__half2float(a) * __half2float(b) + __half2float(c));
}
#endif /* HIPPORT_COMPAT_FP16 */
#endif /* HIPPORT_GPU_COMPILER */

/* cuda_fp16.h's and cuda_bf16.h's special values, with CUDA's bit patterns (HIP spells none) */
#ifndef CUDART_INF_FP16
#  define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#  define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#  define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#  define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#  define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#  define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#  define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#endif
#ifndef CUDART_INF_BF16
#  define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#  define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#  define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#  define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#  define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#  define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#  define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
#endif

#if defined(HIPPORT_GPU_COMPILER)
/* ---- __nanosleep, __dp4a ------------------------------------------------------------------
 * HIP declares neither; the translator writes hipport::nanosleep / hipport::dp4a. */
namespace hipport {
__device__ inline void nanosleep(unsigned int ns) {
#if defined(HIPPORT_PLATFORM_AMD)
  /* s_sleep 1 waits 64 clocks, about 40 ns at the clocks AMD GPUs run; CUDA promises only a sleep
   * of about ns, at most a millisecond */
  for (unsigned int slept = 0; slept < ns && slept < 1000000u; slept += 40) __builtin_amdgcn_s_sleep(1);
#else
  __nanosleep(ns);
#endif
}
/* what `asm("mov.u64 %0, %globaltimer;" ...)` becomes: nanoseconds.  AMD's wall clock runs at the
 * constant rate HIP reports as hipDeviceAttributeWallClockRate, 100 MHz on the CDNA and RDNA parts. */
__device__ inline unsigned long long globaltimer() {
#if defined(HIPPORT_PLATFORM_AMD)
#  if __has_builtin(__builtin_amdgcn_s_memrealtime)
  return static_cast<unsigned long long>(__builtin_amdgcn_s_memrealtime()) * 10ull;  /* wall_clock64() */
#  else
  return 0;  /* the host pass over device code; never run */
#  endif
#else
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
#endif
}
namespace compat_detail {
template <typename Byte>
__device__ inline int dot4(unsigned int a, unsigned int b) {
  int sum = 0;
  for (int i = 0; i < 4; ++i)
    sum += static_cast<int>(static_cast<Byte>(a >> (8 * i))) * static_cast<int>(static_cast<Byte>(b >> (8 * i)));
  return sum;
}
__device__ inline unsigned int bits(char4 v) {
  return static_cast<unsigned char>(v.x) | static_cast<unsigned char>(v.y) << 8 |
         static_cast<unsigned char>(v.z) << 16 | static_cast<unsigned int>(static_cast<unsigned char>(v.w)) << 24;
}
__device__ inline unsigned int bits(uchar4 v) {
  return v.x | v.y << 8 | v.z << 16 | static_cast<unsigned int>(v.w) << 24;
}
}  // namespace compat_detail
__device__ inline int dp4a(int a, int b, int c) {
  return c + compat_detail::dot4<signed char>(static_cast<unsigned int>(a), static_cast<unsigned int>(b));
}
__device__ inline unsigned int dp4a(unsigned int a, unsigned int b, unsigned int c) {
  return c + static_cast<unsigned int>(compat_detail::dot4<unsigned char>(a, b));
}
__device__ inline int dp4a(char4 a, char4 b, int c) {
  return c + compat_detail::dot4<signed char>(compat_detail::bits(a), compat_detail::bits(b));
}
__device__ inline unsigned int dp4a(uchar4 a, uchar4 b, unsigned int c) {
  return c + static_cast<unsigned int>(compat_detail::dot4<unsigned char>(compat_detail::bits(a), compat_detail::bits(b)));
}
}  // namespace hipport

#if defined(HIPPORT_PLATFORM_AMD)
/* ---- umin, umax, llmin, llmax, ullmin, ullmax; __ffs / __ffsll of other integer types -----
 * CUDA's math_functions.h declares the typed minima and maxima, HIP 5.2 does not.  HIP overloads
 * __ffs for int and unsigned int and __ffsll for long long and unsigned long long, so a `long`
 * or `std::uint64_t` argument (CUDA converts it to its one parameter type) is ambiguous there.
 * Templates: where HIP declares the same function, its own wins overload resolution. */
template <typename D = void>
__device__ inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
template <typename D = void>
__device__ inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
template <typename D = void>
__device__ inline long long llmin(long long a, long long b) { return a < b ? a : b; }
template <typename D = void>
__device__ inline long long llmax(long long a, long long b) { return a > b ? a : b; }
template <typename D = void>
__device__ inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
template <typename D = void>
__device__ inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
template <typename T, typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, int>::value &&
                                                  !std::is_same<T, unsigned int>::value, int>::type = 0>
__device__ inline unsigned int __ffs(T x) { return __ffs(static_cast<int>(x)); }
template <typename T, typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, long long>::value &&
                                                  !std::is_same<T, unsigned long long>::value, int>::type = 0>
__device__ inline unsigned int __ffsll(T x) { return __ffsll(static_cast<long long>(x)); }
#endif

#endif /* HIPPORT_GPU_COMPILER */

/* ---- hipsparseGetErrorString / hipsparseGetErrorName ---------------------------------------
 * What cusparseGetErrorString / cusparseGetErrorName become; hipSPARSE declares them only since
 * ROCm 6.  Templates over the status enumeration (read by value, so this header needs no
 * hipsparse.h): where hipSPARSE declares the real functions, those win overload resolution. */
namespace hipport {
namespace compat_detail {
inline const char* sparse_status(int status, bool name) {
  static const char* const names[] = {
      "HIPSPARSE_STATUS_SUCCESS", "HIPSPARSE_STATUS_NOT_INITIALIZED", "HIPSPARSE_STATUS_ALLOC_FAILED",
      "HIPSPARSE_STATUS_INVALID_VALUE", "HIPSPARSE_STATUS_ARCH_MISMATCH", "HIPSPARSE_STATUS_MAPPING_ERROR",
      "HIPSPARSE_STATUS_EXECUTION_FAILED", "HIPSPARSE_STATUS_INTERNAL_ERROR",
      "HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED", "HIPSPARSE_STATUS_ZERO_PIVOT", "HIPSPARSE_STATUS_NOT_SUPPORTED",
      "HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES"};
  static const char* const texts[] = {
      "success", "hipSPARSE was not initialized", "resource allocation failed",
      "an unsupported value was passed to the function", "the device architecture is not supported",
      "access to GPU memory failed", "the GPU program failed to execute", "an internal hipSPARSE operation failed",
      "the matrix type is not supported", "a zero pivot was computed", "the operation is not supported",
      "resources are insufficient"};
  if (status < 0 || status >= static_cast<int>(sizeof(names) / sizeof(names[0]))) return "unknown hipSPARSE status";
  return name ? names[status] : texts[status];
}
}  // namespace compat_detail
}  // namespace hipport
template <typename Status, typename std::enable_if<std::is_enum<Status>::value, int>::type = 0>
inline const char* hipsparseGetErrorString(Status status) {
  return hipport::compat_detail::sparse_status(static_cast<int>(status), false);
}
template <typename Status, typename std::enable_if<std::is_enum<Status>::value, int>::type = 0>
inline const char* hipsparseGetErrorName(Status status) {
  return hipport::compat_detail::sparse_status(static_cast<int>(status), true);
}

#if defined(HIPPORT_GPU_COMPILER)
/* ---- atomic overloads HIP 5.2 lacks ------------------------------------------------------------
 * CUDA's atomicMin/atomicMax on long long (the double-min idiom
 * `atomicMin((long long*)p, __double_as_longlong(v))`), its atomicAnd/Or/Xor on long long and its
 * 16-bit atomicCAS.  Templates, so a HIP that declares them is preferred; the value is not deduced,
 * so `atomicMax(p, 0)` works.  Declared before the block-scope forwarders below, which call them. */
#if defined(HIPPORT_PLATFORM_AMD)
namespace hipport {
namespace atomic_detail {
template <typename T> struct same { typedef T type; };
template <typename T, typename U>
using if_is = typename std::enable_if<std::is_same<T, U>::value, int>::type;
}  // namespace atomic_detail
}  // namespace hipport
#define HIPPORT_LL_ATOMIC(name, builtin, scope)                                                 \
  template <typename T, hipport::atomic_detail::if_is<T, long long> = 0>                        \
  __device__ inline T name(T* address, typename hipport::atomic_detail::same<T>::type val) {    \
    return builtin(address, val, __ATOMIC_RELAXED, scope);                                      \
  }
HIPPORT_LL_ATOMIC(atomicMin, __hip_atomic_fetch_min, __HIP_MEMORY_SCOPE_AGENT)
HIPPORT_LL_ATOMIC(atomicMax, __hip_atomic_fetch_max, __HIP_MEMORY_SCOPE_AGENT)
HIPPORT_LL_ATOMIC(atomicMin_system, __hip_atomic_fetch_min, __HIP_MEMORY_SCOPE_SYSTEM)
HIPPORT_LL_ATOMIC(atomicMax_system, __hip_atomic_fetch_max, __HIP_MEMORY_SCOPE_SYSTEM)
HIPPORT_LL_ATOMIC(atomicAnd, __hip_atomic_fetch_and, __HIP_MEMORY_SCOPE_AGENT)
HIPPORT_LL_ATOMIC(atomicOr, __hip_atomic_fetch_or, __HIP_MEMORY_SCOPE_AGENT)
HIPPORT_LL_ATOMIC(atomicXor, __hip_atomic_fetch_xor, __HIP_MEMORY_SCOPE_AGENT)
HIPPORT_LL_ATOMIC(atomicAnd_system, __hip_atomic_fetch_and, __HIP_MEMORY_SCOPE_SYSTEM)
HIPPORT_LL_ATOMIC(atomicOr_system, __hip_atomic_fetch_or, __HIP_MEMORY_SCOPE_SYSTEM)
HIPPORT_LL_ATOMIC(atomicXor_system, __hip_atomic_fetch_xor, __HIP_MEMORY_SCOPE_SYSTEM)
#undef HIPPORT_LL_ATOMIC
/* atomicAdd of a float2 / float4 (CUDA, sm_90): atomic per element, as CUDA documents its own */
#define HIPPORT_VEC_ATOMIC_ADD(name, scalar)                                                        \
  template <typename T, typename std::enable_if<std::is_same<T, float2>::value || std::is_same<T, float4>::value, \
                                                int>::type = 0>                                    \
  __device__ inline T name(T* address, typename hipport::atomic_detail::same<T>::type val) {       \
    T old;                                                                                         \
    float* to = reinterpret_cast<float*>(address);                                                 \
    float* was = reinterpret_cast<float*>(&old);                                                   \
    const float* add = reinterpret_cast<const float*>(&val);                                       \
    for (unsigned i = 0; i < sizeof(T) / sizeof(float); ++i) was[i] = scalar(to + i, add[i]);      \
    return old;                                                                                    \
  }
HIPPORT_VEC_ATOMIC_ADD(atomicAdd, atomicAdd)
HIPPORT_VEC_ATOMIC_ADD(atomicAdd_system, atomicAdd_system)
#undef HIPPORT_VEC_ATOMIC_ADD
/* 16-bit compare-and-swap: a 32-bit one on the aligned word that holds the value */
template <typename T, hipport::atomic_detail::if_is<T, unsigned short> = 0>
__device__ inline T atomicCAS(T* address, typename hipport::atomic_detail::same<T>::type compare,
                              typename hipport::atomic_detail::same<T>::type val) {
  const __SIZE_TYPE__ at = reinterpret_cast<__SIZE_TYPE__>(address);
  unsigned int* word = reinterpret_cast<unsigned int*>(at & ~static_cast<__SIZE_TYPE__>(3));
  const unsigned int shift = (at & 2) ? 16u : 0u;
  unsigned int old = *word;
  for (;;) {
    const unsigned short current = static_cast<unsigned short>(old >> shift);
    if (current != compare) return current;
    const unsigned int desired = (old & ~(0xffffu << shift)) | (static_cast<unsigned int>(val) << shift);
    const unsigned int seen = atomicCAS(word, old, desired);
    if (seen == old) return current;
    old = seen;
  }
}
#endif

#endif /* HIPPORT_GPU_COMPILER */

/* ---- sincos / sincospi of a float ---------------------------------------------------------------
 * CUDA overloads them for float (C++); HIP declares the double forms and sincosf / sincospif.
 * Templates for exactly float, so a HIP that has the overload is preferred. */
#if defined(HIPPORT_GPU_COMPILER) && defined(HIPPORT_PLATFORM_AMD)
template <typename T, typename std::enable_if<std::is_same<T, float>::value, int>::type = 0>
__host__ __device__ inline void sincos(T x, T* s, T* c) { ::sincosf(x, s, c); }
template <typename T, typename std::enable_if<std::is_same<T, float>::value, int>::type = 0>
__device__ inline void sincospi(T x, T* s, T* c) { ::sincospif(x, s, c); }
#endif

#if defined(HIPPORT_GPU_COMPILER)
/* ---- block-scope atomics ---------------------------------------------------------------------
 * CUDA's atomicAdd_block & co. act on the calling block's view of memory; HIP declares none of
 * them.  These forward to the device-scope atomic, a stronger guarantee with the same result.
 * Templates, so a HIP that declares the real ones is preferred for the argument types it covers. */
#if defined(HIPPORT_PLATFORM_AMD)
#define HIPPORT_BLOCK_ATOMIC(name, op)                                                          \
  template <typename T, typename... U>                                                          \
  __device__ inline auto name(T* address, U... args) -> decltype(op(address, args...)) {        \
    return op(address, args...);                                                                \
  }
HIPPORT_BLOCK_ATOMIC(atomicAdd_block, atomicAdd)
HIPPORT_BLOCK_ATOMIC(atomicSub_block, atomicSub)
HIPPORT_BLOCK_ATOMIC(atomicExch_block, atomicExch)
HIPPORT_BLOCK_ATOMIC(atomicMin_block, atomicMin)
HIPPORT_BLOCK_ATOMIC(atomicMax_block, atomicMax)
HIPPORT_BLOCK_ATOMIC(atomicInc_block, atomicInc)
HIPPORT_BLOCK_ATOMIC(atomicDec_block, atomicDec)
HIPPORT_BLOCK_ATOMIC(atomicCAS_block, atomicCAS)
HIPPORT_BLOCK_ATOMIC(atomicAnd_block, atomicAnd)
HIPPORT_BLOCK_ATOMIC(atomicOr_block, atomicOr)
HIPPORT_BLOCK_ATOMIC(atomicXor_block, atomicXor)
#undef HIPPORT_BLOCK_ATOMIC
#endif

/* ---- surface reads that return their value, __ldg of ushort4 ----------------------------------
 * CUDA's `T v = surf2Dread<T>(surf, x, y)`; HIP 5.2 has only the form that writes through a
 * pointer.  Its hip_ldg.h has every vector __ldg but ushort4's.  Templates, so a HIP that declares
 * them wins. */
#if defined(HIPPORT_PLATFORM_AMD)
#define HIPPORT_SURF_READ(name, params, args)                                                      \
  template <typename T>                                                                           \
  __device__ inline T name(hipSurfaceObject_t surface, HIPPORT_UNPAREN params,                     \
                           int boundaryMode = hipBoundaryModeTrap) {                              \
    T value;                                                                                      \
    name(&value, surface, HIPPORT_UNPAREN args, boundaryMode);                                    \
    return value;                                                                                 \
  }
#define HIPPORT_UNPAREN(...) __VA_ARGS__
HIPPORT_SURF_READ(surf1Dread, (int x), (x))
HIPPORT_SURF_READ(surf2Dread, (int x, int y), (x, y))
HIPPORT_SURF_READ(surf3Dread, (int x, int y, int z), (x, y, z))
HIPPORT_SURF_READ(surf1DLayeredread, (int x, int layer), (x, layer))
HIPPORT_SURF_READ(surf2DLayeredread, (int x, int y, int layer), (x, y, layer))
HIPPORT_SURF_READ(surfCubemapread, (int x, int y, int face), (x, y, face))
HIPPORT_SURF_READ(surfCubemapLayeredread, (int x, int y, int face, int layer), (x, y, face, layer))
#undef HIPPORT_SURF_READ
#undef HIPPORT_UNPAREN
template <typename T, typename std::enable_if<std::is_same<T, ushort4>::value, int>::type = 0>
__device__ inline T __ldg(const T* pointer) { return *pointer; }
#endif

#endif /* HIPPORT_GPU_COMPILER */

/* ---- HIPPORT_UNION_ASSIGN(U) ------------------------------------------------------------------
 * A union with a float4/int4 member is copy-assignable in CUDA (trivial vector types); HIP's vector
 * types define their own copy assignment, which deletes the union's.  The translator puts this in
 * such a union: a bytewise copy assignment on AMD, nothing elsewhere. */
#if defined(HIPPORT_PLATFORM_AMD)
#  define HIPPORT_UNION_ASSIGN(U)                                                                 \
    __host__ __device__ U& operator=(const U& other) {                                           \
      __builtin_memcpy(static_cast<void*>(this), static_cast<const void*>(&other), sizeof(U));    \
      return *this;                                                                               \
    }
#else
#  define HIPPORT_UNION_ASSIGN(U)
#endif

/* ---- cudaDeviceProp fields HIP 5.2 lacks ------------------------------------------------------
 * hipDeviceProp_t gained asyncEngineCount, unifiedAddressing, ... in ROCm 6.  The translator
 * rewrites a read `prop.asyncEngineCount` to `hipport::prop::asyncEngineCount(prop)`: the member
 * where the struct has it, otherwise the device attribute, asked of the device whose PCI location
 * the struct records (the current device when none matches).  Host code only. */
namespace hipport {
namespace prop {
namespace detail {
template <typename P>
inline int device_of(const P& p) {
  int count = 0;
  if (hipGetDeviceCount(&count) == hipSuccess) {
    for (int d = 0; d < count; ++d) {
      int bus = -1, device = -1, domain = -1;
      (void)hipDeviceGetAttribute(&bus, hipDeviceAttributePciBusId, d);
      (void)hipDeviceGetAttribute(&device, hipDeviceAttributePciDeviceId, d);
      (void)hipDeviceGetAttribute(&domain, hipDeviceAttributePciDomainID, d);
      if (bus == p.pciBusID && device == p.pciDeviceID && domain == p.pciDomainID) return d;
    }
  }
  int current = 0;
  (void)hipGetDevice(&current);
  return current;
}
template <typename P>
inline int attribute(const P& p, hipDeviceAttribute_t which) {
  int value = 0;
  if (hipDeviceGetAttribute(&value, which, device_of(p)) != hipSuccess) value = 0;
  return value;
}
}  // namespace detail
#define HIPPORT_PROP_FIELD(field, type, attr)                                                      \
  namespace detail {                                                                               \
  template <typename P, typename = void> struct has_##field : std::false_type {};                 \
  template <typename P> struct has_##field<P, decltype((void)std::declval<const P&>().field)>      \
      : std::true_type {};                                                                         \
  template <typename P> inline type field##_of(const P& p, std::true_type) {                      \
    return static_cast<type>(p.field);                                                             \
  }                                                                                                \
  template <typename P> inline type field##_of(const P& p, std::false_type) {                     \
    return static_cast<type>(attribute(p, attr));                                                  \
  }                                                                                                \
  }                                                                                                \
  template <typename P> inline type field(const P& p) {                                            \
    return detail::field##_of(p, detail::has_##field<P>());                                        \
  }
HIPPORT_PROP_FIELD(deviceOverlap, int, hipDeviceAttributeDeviceOverlap)
HIPPORT_PROP_FIELD(asyncEngineCount, int, hipDeviceAttributeAsyncEngineCount)
HIPPORT_PROP_FIELD(unifiedAddressing, int, hipDeviceAttributeUnifiedAddressing)
HIPPORT_PROP_FIELD(sharedMemPerMultiprocessor, size_t, hipDeviceAttributeSharedMemPerMultiprocessor)
HIPPORT_PROP_FIELD(regsPerMultiprocessor, int, hipDeviceAttributeMaxRegistersPerMultiprocessor)
HIPPORT_PROP_FIELD(streamPrioritiesSupported, int, hipDeviceAttributeStreamPrioritiesSupported)
HIPPORT_PROP_FIELD(sharedMemPerBlockOptin, size_t, hipDeviceAttributeSharedMemPerBlockOptin)
HIPPORT_PROP_FIELD(maxBlocksPerMultiProcessor, int, hipDeviceAttributeMaxBlocksPerMultiProcessor)
HIPPORT_PROP_FIELD(singleToDoublePrecisionPerfRatio, int, hipDeviceAttributeSingleToDoublePrecisionPerfRatio)
HIPPORT_PROP_FIELD(hostNativeAtomicSupported, int, hipDeviceAttributeHostNativeAtomicSupported)
HIPPORT_PROP_FIELD(computePreemptionSupported, int, hipDeviceAttributeComputePreemptionSupported)
HIPPORT_PROP_FIELD(canUseHostPointerForRegisteredMem, int, hipDeviceAttributeCanUseHostPointerForRegisteredMem)
HIPPORT_PROP_FIELD(globalL1CacheSupported, int, hipDeviceAttributeGlobalL1CacheSupported)
HIPPORT_PROP_FIELD(localL1CacheSupported, int, hipDeviceAttributeLocalL1CacheSupported)
HIPPORT_PROP_FIELD(persistingL2CacheMaxSize, int, hipDeviceAttributePersistingL2CacheMaxSize)
HIPPORT_PROP_FIELD(accessPolicyMaxWindowSize, int, hipDeviceAttributeAccessPolicyMaxWindowSize)
HIPPORT_PROP_FIELD(memoryPoolsSupported, int, hipDeviceAttributeMemoryPoolsSupported)
HIPPORT_PROP_FIELD(reservedSharedMemPerBlock, size_t, hipDeviceAttributeReservedSharedMemPerBlock)
HIPPORT_PROP_FIELD(multiGpuBoardGroupID, int, hipDeviceAttributeMultiGpuBoardGroupID)
HIPPORT_PROP_FIELD(surfaceAlignment, size_t, hipDeviceAttributeSurfaceAlignment)
#undef HIPPORT_PROP_FIELD
}  // namespace prop
}  // namespace hipport

/* ---- cudaPointerAttributes::type -------------------------------------------------------------
 * HIP names the member `memoryType` before ROCm 5.5 and `type` since (both, in a union, until
 * ROCm 6).  The translator rewrites a read `attr.type` to `hipport::pointer::type(attr)`.  HIP
 * before 5.3 has no hipMemoryTypeManaged / hipMemoryTypeUnregistered: they are defined here, and
 * managed memory (isManaged) reports as managed, as CUDA does.  Host code only. */
#if defined(HIP_VERSION) && HIP_VERSION < 50300000
#ifndef hipMemoryTypeManaged
#define hipMemoryTypeManaged ((hipMemoryType)4)
#endif
#ifndef hipMemoryTypeUnregistered
#define hipMemoryTypeUnregistered ((hipMemoryType)5)
#endif
#endif
namespace hipport {
namespace pointer {
namespace detail {
template <typename A, typename = void> struct has_type : std::false_type {};
template <typename A> struct has_type<A, decltype((void)std::declval<const A&>().type)> : std::true_type {};
template <typename A> inline hipMemoryType type_of(const A& a, std::true_type) { return a.type; }
template <typename A> inline hipMemoryType type_of(const A& a, std::false_type) {
  return a.isManaged ? hipMemoryTypeManaged : a.memoryType;
}
}  // namespace detail
template <typename A> inline hipMemoryType type(const A& a) { return detail::type_of(a, detail::has_type<A>()); }
}  // namespace pointer
}  // namespace hipport

/* ---- typed pointer overloads ------------------------------------------------------------
 * CUDA's runtime header has `template <class T> cudaHostAlloc(T**, size_t, unsigned)` and
 * `cudaMallocPitch(T**, ...)`; HIP 5.2 has only the void** forms, so `hipHostAlloc(&floatp, …)`
 * does not compile.  These templates take the flag/extent types as their own parameters, which
 * makes them coexist with a HIP that declares the same overloads: an exact-type call prefers
 * HIP's more specialised template, and no signature is defined twice. */
template <typename T, typename Flags,
          typename std::enable_if<!std::is_void<T>::value && std::is_integral<Flags>::value, int>::type = 0>
static inline hipError_t hipHostAlloc(T** ptr, size_t size, Flags flags) {
  /* hipHostAllocX flags have the hipHostMallocX values; the void** hipHostAlloc is deprecated */
  return hipHostMalloc(reinterpret_cast<void**>(ptr), size, static_cast<unsigned int>(flags));
}

template <typename T, typename Width, typename Height,
          typename std::enable_if<!std::is_void<T>::value && std::is_integral<Width>::value &&
                                      std::is_integral<Height>::value, int>::type = 0>
static inline hipError_t hipMallocPitch(T** ptr, size_t* pitch, Width width, Height height) {
  return hipMallocPitch(reinterpret_cast<void**>(ptr), pitch, static_cast<size_t>(width), static_cast<size_t>(height));
}

/* CUDA's `cudaHostGetDevicePointer(T**, void*, unsigned)` and `cudaGetSymbolAddress(T**, const S&)`
 * templates: HIP has only `void**` first parameters.  The symbol is forwarded as it came, so the
 * call picks among HIP's own overloads exactly as a `void**` call would. */
template <typename T, typename Flags,
          typename std::enable_if<!std::is_void<T>::value && std::is_integral<Flags>::value, int>::type = 0>
static inline hipError_t hipHostGetDevicePointer(T** device, void* host, Flags flags) {
  return hipHostGetDevicePointer(reinterpret_cast<void**>(device), host, static_cast<unsigned int>(flags));
}

template <typename T, typename S, typename std::enable_if<!std::is_void<T>::value, int>::type = 0>
static inline hipError_t hipGetSymbolAddress(T** device, const S& symbol) {
  return hipGetSymbolAddress(reinterpret_cast<void**>(device), symbol);
}

/* ---- kernel handles ------------------------------------------------------------------------
 * CUDA's runtime header takes a kernel itself (`template <class T> cudaFuncGetAttributes(attr,
 * T* entry)` and the like), so hipify-clang leaves `cudaFuncSetAttribute(myKernel, …)` as it is;
 * HIP 5.2 takes only `const void*`, which a function pointer does not convert to.  A parameter
 * of function-pointer type is more specialised than any `T*` or `F` template a newer HIP may
 * declare, so these never clash with one; a `void*` handle still picks HIP's own function. */
template <typename R, typename... A>
static inline hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, R (*kernel)(A...)) {
  return hipFuncGetAttributes(attr, reinterpret_cast<const void*>(kernel));
}

template <typename R, typename... A>
static inline hipError_t hipFuncSetCacheConfig(R (*kernel)(A...), hipFuncCache_t config) {
  return hipFuncSetCacheConfig(reinterpret_cast<const void*>(kernel), config);
}

template <typename R, typename... A>
static inline hipError_t hipFuncSetSharedMemConfig(R (*kernel)(A...), hipSharedMemConfig config) {
  return hipFuncSetSharedMemConfig(reinterpret_cast<const void*>(kernel), config);
}

template <typename R, typename... A>
static inline hipError_t hipFuncSetAttribute(R (*kernel)(A...), hipFuncAttribute attr, int value) {
  return hipFuncSetAttribute(reinterpret_cast<const void*>(kernel), attr, value);
}

template <typename R, typename... A>
static inline hipError_t hipLaunchKernel(R (*kernel)(A...), dim3 grid, dim3 block, void** args,
                                         size_t shared_mem = 0, hipStream_t stream = nullptr) {
  return hipLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args, shared_mem, stream);
}

template <typename R, typename... A>
static inline hipError_t hipLaunchCooperativeKernel(R (*kernel)(A...), dim3 grid, dim3 block, void** args,
                                                    unsigned int shared_mem, hipStream_t stream) {
  return hipLaunchCooperativeKernel(reinterpret_cast<const void*>(kernel), grid, block, args, shared_mem, stream);
}

/* ---- host-to-device copies from const memory ------------------------------------------------
 * cuMemcpyHtoD(dst, const void* src, n) becomes hipMemcpyHtoD, whose source HIP 5.2 declares as a
 * plain `void*` (later HIP: `const void*`).  These templates take a const source there; for a
 * `void*` one, and with a HIP that takes `const void*`, HIP's own function matches as well and,
 * not being a template, is chosen. */
template <typename T>
static inline hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, const T* src, size_t bytes) {
  return hipMemcpyHtoD(dst, const_cast<void*>(static_cast<const void*>(src)), bytes);
}

template <typename T>
static inline hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, const T* src, size_t bytes, hipStream_t stream) {
  return hipMemcpyHtoDAsync(dst, const_cast<void*>(static_cast<const void*>(src)), bytes, stream);
}

/* ---- driver-API error strings -------------------------------------------------------------
 * cuGetErrorString / cuGetErrorName become hipDrvGetErrorString / hipDrvGetErrorName, which HIP
 * 5.2 does not declare.  Being templates, these give way to a HIP that declares them: its exact,
 * non-template declaration wins overload resolution. */
template <typename E, typename std::enable_if<std::is_same<E, hipError_t>::value, int>::type = 0>
static inline hipError_t hipDrvGetErrorString(E error, const char** text) {
  if (text == nullptr) return hipErrorInvalidValue;
  *text = hipGetErrorString(error);
  return hipSuccess;
}

template <typename E, typename std::enable_if<std::is_same<E, hipError_t>::value, int>::type = 0>
static inline hipError_t hipDrvGetErrorName(E error, const char** text) {
  if (text == nullptr) return hipErrorInvalidValue;
  *text = hipGetErrorName(error);
  return hipSuccess;
}

/* ---- hipDeviceSetLimit ---------------------------------------------------------------------
 * cudaDeviceSetLimit / cuCtxSetLimit become hipDeviceSetLimit, which HIP 5.2 lacks (it has only
 * hipDeviceGetLimit).  There, a request the device already satisfies succeeds and any other is
 * reported as hipErrorUnsupportedLimit rather than silently ignored.  A HIP that declares the
 * function wins overload resolution over this template. */
template <typename L, typename std::enable_if<std::is_same<L, hipLimit_t>::value, int>::type = 0>
static inline hipError_t hipDeviceSetLimit(L limit, size_t value) {
  size_t current = 0;
  if (hipDeviceGetLimit(&current, limit) == hipSuccess && current >= value) return hipSuccess;
  return hipErrorUnsupportedLimit;
}

/* ---- hipCtxGetApiVersion of an unsigned int ------------------------------------------------
 * cuCtxGetApiVersion reports through an unsigned int*, hipCtxGetApiVersion through an int*.  HIP's
 * deprecation of the function is for the program's call, not for this forwarding one. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
template <typename U, typename std::enable_if<std::is_same<U, unsigned int>::value, int>::type = 0>
static inline hipError_t hipCtxGetApiVersion(hipCtx_t ctx, U* version) {
  return hipCtxGetApiVersion(ctx, reinterpret_cast<int*>(version));
}
#pragma GCC diagnostic pop

/* ---- CUctxCreateParams ---------------------------------------------------------------------
 * CUDA 13's cuCtxCreate(&ctx, &params, flags, dev) becomes hipCtxCreate(&ctx, flags, dev): HIP's
 * context takes no affinity or CIG parameters.  The struct the code declares and fills beside the
 * call (NVIDIA's samples zero-initialise one) keeps compiling with this stand-in. */
namespace hipport {
struct CtxCreateParams {
  void* execAffinityParams;
  int numExecAffinityParams;
  void* cigParams;
};
}  // namespace hipport

/* ---- location-based prefetch and advice (CUDA 13) -----------------------------------------
 * CUDA 13's cudaMemPrefetchAsync / cudaMemAdvise (and the driver's) take a cudaMemLocation where
 * HIP's take a device number, hipCpuDeviceId for the host; only newer HIP has the location forms,
 * as hipMemPrefetchAsync_v2 / hipMemAdvise_v2.  These overloads pass the location on as the
 * device number (CUDA 13 defines no prefetch flags yet).  HIP before 6.0 also lacks
 * hipMemLocationTypeHost (2, as CUDA's). */
#if defined(HIP_VERSION) && HIP_VERSION < 60000000 && !defined(hipMemLocationTypeHost)
#define hipMemLocationTypeHost ((hipMemLocationType)2)
#endif
namespace hipport {
inline int device_of(const hipMemLocation& location) {
  return location.type == hipMemLocationTypeDevice ? location.id : hipCpuDeviceId;
}
}  // namespace hipport
template <typename L, typename std::enable_if<std::is_same<L, hipMemLocation>::value, int>::type = 0>
static inline hipError_t hipMemPrefetchAsync(const void* ptr, size_t count, L location, unsigned int flags,
                                             hipStream_t stream = nullptr) {
  return flags == 0 ? hipMemPrefetchAsync(ptr, count, hipport::device_of(location), stream) : hipErrorInvalidValue;
}
template <typename L, typename std::enable_if<std::is_same<L, hipMemLocation>::value, int>::type = 0>
static inline hipError_t hipMemAdvise(const void* ptr, size_t count, hipMemoryAdvise advice, L location) {
  return hipMemAdvise(ptr, count, advice, hipport::device_of(location));
}

#if defined(HIPPORT_GPU_COMPILER)
/* ---- hipport::index3 ------------------------------------------------------------------------
 * What a whole threadIdx / blockIdx / blockDim / gridDim becomes: CUDA's value, which converts to
 * uint3 and to dim3 as CUDA's do (HIP 5.2's dim3 has no constructor from a uint3).  Not derived
 * from uint3: HIP's vector operator templates would then match it exactly and make a program's own
 * `operator+(uint3, uint3)` (helper_math.h) ambiguous. */
namespace hipport {
struct index3 {
  unsigned int x, y, z;
  __host__ __device__ index3(unsigned int x_, unsigned int y_, unsigned int z_) : x(x_), y(y_), z(z_) {}
  __host__ __device__ operator uint3() const { return make_uint3(x, y, z); }
  __host__ __device__ operator dim3() const { return dim3(x, y, z); }
};
}  // namespace hipport

/* ---- cache-hinted loads and stores ----------------------------------------------------------
 * CUDA's __ldcs, __ldcg, __ldca, __ldcv, __ldlu and __stcs, __stcg, __stwb, __stwt (streaming,
 * global-only, write-through … hints) become these.  HIP 5.2 has __ldcs/__ldcg for __half only and
 * no stores; the hint changes caching, never the value, so a plain access computes the same. */
namespace hipport {
template <typename T> __device__ inline T ldca(const T* address) { return *address; }
template <typename T> __device__ inline T ldcg(const T* address) { return *address; }
template <typename T> __device__ inline T ldcs(const T* address) { return *address; }
template <typename T> __device__ inline T ldcv(const T* address) { return *address; }
template <typename T> __device__ inline T ldlu(const T* address) { return *address; }
template <typename T, typename V> __device__ inline void stcg(T* address, const V& value) { *address = value; }
template <typename T, typename V> __device__ inline void stcs(T* address, const V& value) { *address = value; }
template <typename T, typename V> __device__ inline void stwb(T* address, const V& value) { *address = value; }
template <typename T, typename V> __device__ inline void stwt(T* address, const V& value) { *address = value; }
}  // namespace hipport

/* ---- CUDA 12.8's __nv_atomic_* builtins -------------------------------------------------------
 * nvcc declares them itself; clang's __hip_atomic_* builtins take the same pointer, value, order
 * and scope (the translator renames __NV_ATOMIC_* to clang's __ATOMIC_* orders, which have CUDA's
 * values, and __NV_THREAD_SCOPE_* to __HIP_MEMORY_SCOPE_*).  CUDA's scope defaults to the system;
 * the pointer forms copy through their pointers; `weak` picks the weak or strong exchange. */
namespace hipport {
template <typename T, typename V>
__device__ inline T nv_atomic_fetch_add(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  return __hip_atomic_fetch_add(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline void nv_atomic_add(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  (void)__hip_atomic_fetch_add(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline T nv_atomic_fetch_and(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  return __hip_atomic_fetch_and(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline void nv_atomic_and(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  (void)__hip_atomic_fetch_and(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline T nv_atomic_fetch_or(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  return __hip_atomic_fetch_or(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline void nv_atomic_or(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  (void)__hip_atomic_fetch_or(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline T nv_atomic_fetch_xor(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  return __hip_atomic_fetch_xor(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline void nv_atomic_xor(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  (void)__hip_atomic_fetch_xor(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline T nv_atomic_fetch_min(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  return __hip_atomic_fetch_min(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline void nv_atomic_min(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  (void)__hip_atomic_fetch_min(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline T nv_atomic_fetch_max(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  return __hip_atomic_fetch_max(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline void nv_atomic_max(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  (void)__hip_atomic_fetch_max(p, static_cast<T>(v), order, scope);
}
template <typename T, typename V>
__device__ inline T nv_atomic_fetch_sub(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  return __hip_atomic_fetch_add(p, static_cast<T>(-static_cast<T>(v)), order, scope);
}
template <typename T, typename V>
__device__ inline void nv_atomic_sub(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  (void)nv_atomic_fetch_sub(p, v, order, scope);
}
template <typename T>
__device__ inline T nv_atomic_load_n(const T* p, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  return __hip_atomic_load(const_cast<T*>(p), order, scope);
}
template <typename T>
__device__ inline void nv_atomic_load(const T* p, T* ret, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  *ret = nv_atomic_load_n(p, order, scope);
}
template <typename T, typename V>
__device__ inline void nv_atomic_store_n(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  __hip_atomic_store(p, static_cast<T>(v), order, scope);
}
template <typename T>
__device__ inline void nv_atomic_store(T* p, T* v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  __hip_atomic_store(p, *v, order, scope);
}
template <typename T, typename V>
__device__ inline T nv_atomic_exchange_n(T* p, V v, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  return __hip_atomic_exchange(p, static_cast<T>(v), order, scope);
}
template <typename T>
__device__ inline void nv_atomic_exchange(T* p, T* v, T* ret, int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  *ret = __hip_atomic_exchange(p, *v, order, scope);
}
template <typename T, typename V>
__device__ inline bool nv_atomic_compare_exchange_n(T* p, T* expected, V desired, bool weak, int success, int failure,
                                                    int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  return weak ? __hip_atomic_compare_exchange_weak(p, expected, static_cast<T>(desired), success, failure, scope)
              : __hip_atomic_compare_exchange_strong(p, expected, static_cast<T>(desired), success, failure, scope);
}
template <typename T>
__device__ inline bool nv_atomic_compare_exchange(T* p, T* expected, T* desired, bool weak, int success, int failure,
                                                  int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  return nv_atomic_compare_exchange_n(p, expected, *desired, weak, success, failure, scope);
}
/* the scope is not a constant here, which clang's fence needs: the system scope covers every narrower one */
__device__ inline void nv_atomic_thread_fence(int order, int scope = __HIP_MEMORY_SCOPE_SYSTEM) {
  (void)scope;
  __atomic_thread_fence(order);
}
}  // namespace hipport
#endif /* HIPPORT_GPU_COMPILER */

/* HIP before 6.0 has no stack-size limit (only the printf FIFO and the malloc heap); CUDA's
 * value is 0, as in later HIP.  hipDeviceSetLimit above then reports it unsupported there. */
#if defined(HIP_VERSION) && HIP_VERSION < 60000000 && !defined(hipLimitStackSize)
#define hipLimitStackSize ((hipLimit_t)0x0)
#endif

/* HIP before 6.0 defines hipDeviceLmemResizeToMax as 0x16, which overlaps the scheduling bits
 * (0x7), so hipSetDeviceFlags(hipDeviceScheduleAuto | hipDeviceLmemResizeToMax) fails with
 * hipErrorInvalidValue; CUDA's value, and later HIP's, is 0x10 (which ROCm ignores). */
#if defined(hipDeviceLmemResizeToMax) && hipDeviceLmemResizeToMax == 0x16
#undef hipDeviceLmemResizeToMax
#define hipDeviceLmemResizeToMax 0x10
#endif

/* Event record / wait flags of graph capture, with CUDA's values, where HIP lacks them. */
#ifndef hipEventRecordDefault
#define hipEventRecordDefault 0x0
#endif
#ifndef hipEventRecordExternal
#define hipEventRecordExternal 0x1
#endif
#ifndef hipEventWaitDefault
#define hipEventWaitDefault 0x0
#endif
#ifndef hipEventWaitExternal
#define hipEventWaitExternal 0x1
#endif

/* ---- hipEventRecordWithFlags ---------------------------------------------------------------
 * HIP 5.2 lacks it.  With the default flag it is hipEventRecord; an external event (for graphs)
 * is reported as not supported rather than recorded as something else.  A HIP that declares the
 * function wins overload resolution over this template. */
template <typename E, typename std::enable_if<std::is_same<E, hipEvent_t>::value, int>::type = 0>
static inline hipError_t hipEventRecordWithFlags(E event, hipStream_t stream = nullptr, unsigned int flags = 0) {
  return flags == 0 ? hipEventRecord(event, stream) : hipErrorNotSupported;
}

/* ---- driver-API texture-reference modes ----------------------------------------------------
 * cuTexRefSetAddressMode(ref, 0, CU_TR_ADDRESS_MODE_WRAP) translates to
 * hipTexRefSetAddressMode(ref, 0, HIP_TR_ADDRESS_MODE_WRAP), but HIP declares these functions
 * with the runtime's enumerations (hipTextureAddressMode, hipTextureFilterMode), which the driver
 * ones do not convert to.  The values are the same; these overloads pass them on.  Templates
 * pinned to the driver enumerations, so a HIP that adds such overloads wins. */
template <typename Mode, typename std::enable_if<std::is_same<Mode, HIPaddress_mode>::value, int>::type = 0>
static inline hipError_t hipTexRefSetAddressMode(textureReference* ref, int dim, Mode mode) {
  return hipTexRefSetAddressMode(ref, dim, static_cast<hipTextureAddressMode>(mode));
}
template <typename Mode, typename std::enable_if<std::is_same<Mode, HIPfilter_mode>::value, int>::type = 0>
static inline hipError_t hipTexRefSetFilterMode(textureReference* ref, Mode mode) {
  return hipTexRefSetFilterMode(ref, static_cast<hipTextureFilterMode>(mode));
}
template <typename Mode, typename std::enable_if<std::is_same<Mode, HIPfilter_mode>::value, int>::type = 0>
static inline hipError_t hipTexRefSetMipmapFilterMode(textureReference* ref, Mode mode) {
  return hipTexRefSetMipmapFilterMode(ref, static_cast<hipTextureFilterMode>(mode));
}

/* ---- the virtual-memory attribute HIP 5.2 lacks ----------------------------------------------
 * HIP 5.2 declares the virtual memory API (hipMemCreate, hipMemMap, …) but not the device attribute
 * that says whether a device supports it, which CUDA code asks before using it.  There the
 * attribute is a tag of its own, for which hipDeviceGetAttribute answers 0 (not supported), so
 * the program takes its other path. */
#if defined(HIP_VERSION) && HIP_VERSION < 50300000 && !defined(hipDeviceAttributeVirtualMemoryManagementSupported)
namespace hipport {
struct VirtualMemoryManagementSupportedAttribute {};
}  // namespace hipport
static inline hipError_t hipDeviceGetAttribute(int* value, hipport::VirtualMemoryManagementSupportedAttribute, int device) {
  (void)device;
  if (value == nullptr) return hipErrorInvalidValue;
  *value = 0;
  return hipSuccess;
}
#define hipDeviceAttributeVirtualMemoryManagementSupported (::hipport::VirtualMemoryManagementSupportedAttribute{})
#endif

/* ---- occupancy with a block-size-dependent shared-memory size ------------------------------
 * cudaOccupancyMaxPotentialBlockSizeVariableSMem is a host template in CUDA's own header; HIP has
 * none.  hipport::occupancyMaxPotentialBlockSizeVariableSMem does what CUDA's does: for every
 * block size a wavefront multiple up to the kernel's (and the caller's) limit, ask the
 * occupancy of that size with the shared memory the functor gives, and keep the size that
 * keeps the most threads resident (the larger one on a tie). */
namespace hipport {
template <typename UnaryFunction, typename Kernel>
static inline hipError_t occupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int* min_grid_size, int* block_size, Kernel kernel, UnaryFunction block_size_to_dynamic_smem,
    int block_size_limit = 0, unsigned int flags = 0) {
  if (min_grid_size == nullptr || block_size == nullptr) return hipErrorInvalidValue;
  int device = 0;
  hipError_t status = hipGetDevice(&device);
  if (status != hipSuccess) return status;
  hipDeviceProp_t prop;
  status = hipGetDeviceProperties(&prop, device);
  if (status != hipSuccess) return status;
  hipFuncAttributes attributes;
  status = hipFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernel));
  if (status != hipSuccess) return status;
  int limit = attributes.maxThreadsPerBlock < prop.maxThreadsPerBlock ? attributes.maxThreadsPerBlock
                                                                       : prop.maxThreadsPerBlock;
  if (block_size_limit > 0 && block_size_limit < limit) limit = block_size_limit;
  const int granularity = prop.warpSize > 0 ? prop.warpSize : 64;
  int best_threads = 0, best_size = 0, best_blocks = 0;
  for (int size = (limit / granularity) * granularity; size > 0; size -= granularity) {
    int blocks = 0;
    status = hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
        &blocks, reinterpret_cast<const void*>(kernel), size, block_size_to_dynamic_smem(size), flags);
    if (status != hipSuccess) return status;
    if (blocks * size > best_threads) {
      best_threads = blocks * size;
      best_size = size;
      best_blocks = blocks;
    }
  }
  *block_size = best_size;
  *min_grid_size = best_blocks * prop.multiProcessorCount;
  return hipSuccess;
}
template <typename UnaryFunction, typename Kernel>
static inline hipError_t occupancyMaxPotentialBlockSizeVariableSMem(int* min_grid_size, int* block_size, Kernel kernel,
                                                                    UnaryFunction block_size_to_dynamic_smem,
                                                                    int block_size_limit = 0) {
  return occupancyMaxPotentialBlockSizeVariableSMemWithFlags(min_grid_size, block_size, kernel,
                                                             block_size_to_dynamic_smem, block_size_limit, 0);
}
}  // namespace hipport

/* ---- CUDA's math functions in host code -----------------------------------------------------
 * CUDA's math library is __host__ __device__, so a CPU reference calls rsqrtf, normcdff or
 * erfinvf directly; HIP declares these for device code only, and the host call finds no function.
 * These host overloads sit beside HIP's device ones (clang picks the one for the side the call
 * runs on).  Not sinpi/cospi: C23 gives the host library its own. */
#if defined(HIPPORT_PLATFORM_AMD) && defined(HIPPORT_GPU_COMPILER)
namespace hipport {
namespace host_math {
/* Giles' single-precision approximation of erfinv at x, with w = -log((1 - x)(1 + x)) */
__host__ inline double erfinv_guess(double x, double w) {
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w; p = -3.5233877e-06 + p * w; p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w; p = -0.00125372503 + p * w; p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w; p = 1.50140941 + p * w;
  } else {
    w = __builtin_sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w; p = 0.00134934322 + p * w; p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w; p = -0.0076224613 + p * w; p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w; p = 2.83297682 + p * w;
  }
  return p * x;
}
constexpr double two_over_sqrt_pi = 1.1283791670955126;
__host__ inline double erfinv(double y) {
  if (!(y > -1.0 && y < 1.0)) return y == 1.0 ? __builtin_inf() : y == -1.0 ? -__builtin_inf() : __builtin_nan("");
  double x = erfinv_guess(y, -__builtin_log((1.0 - y) * (1.0 + y)));
  for (int i = 0; i < 3; ++i) x -= (__builtin_erf(x) - y) / (two_over_sqrt_pi * __builtin_exp(-x * x));
  return x;
}
__host__ inline double erfcx(double x) {
  if (x < 25.0) return __builtin_exp(x * x) * __builtin_erfc(x);
  const double r = 1.0 / (x * x);  /* the asymptotic series, where exp(x*x) alone would overflow */
  return (1.0 - 0.5 * r * (1.0 - 1.5 * r * (1.0 - 2.5 * r))) / (x * 1.7724538509055160);
}
__host__ inline double erfcinv(double y) {  /* Newton on erfc itself: exact in the tails, where 1 - y rounds */
  if (!(y > 0.0 && y < 2.0)) return y == 0.0 ? __builtin_inf() : y == 2.0 ? -__builtin_inf() : __builtin_nan("");
  if (y < 1e-10) {  /* far tail: Newton on log(erfc(x)) = log(erfcx(x)) - x*x, which never underflows */
    const double log_y = __builtin_log(y);
    double x = __builtin_sqrt(-log_y);  /* erfc(x) ~ exp(-x*x) / (x sqrt(pi)) */
    x = __builtin_sqrt(-log_y - __builtin_log(x * 1.7724538509055160));
    for (int i = 0; i < 4; ++i) {
      const double e = erfcx(x);
      x += (__builtin_log(e) - x * x - log_y) * e / two_over_sqrt_pi;
    }
    return x;
  }
  double x = erfinv_guess(1.0 - y, -__builtin_log(y * (2.0 - y)));
  for (int i = 0; i < 3; ++i) x += (__builtin_erfc(x) - y) / (two_over_sqrt_pi * __builtin_exp(-x * x));
  return x;
}
__host__ inline void sincospi(double x, double* s, double* c) {
  const double r = __builtin_remainder(x, 2.0);  /* in [-1, 1]: exact zeros and ones where CUDA gives them */
  if (r == 0.0 || r == 1.0 || r == -1.0) { *s = __builtin_copysign(0.0, x); *c = r == 0.0 ? 1.0 : -1.0; return; }
  if (r == 0.5 || r == -0.5) { *s = r > 0 ? 1.0 : -1.0; *c = 0.0; return; }
  *s = __builtin_sin(3.14159265358979323846 * r);
  *c = __builtin_cos(3.14159265358979323846 * r);
}
}  // namespace host_math
}  // namespace hipport
__host__ inline double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
__host__ inline float rsqrtf(float x) { return 1.0f / __builtin_sqrtf(x); }
__host__ inline double rcbrt(double x) { return 1.0 / __builtin_cbrt(x); }
__host__ inline float rcbrtf(float x) { return 1.0f / __builtin_cbrtf(x); }
__host__ inline double erfinv(double y) { return hipport::host_math::erfinv(y); }
__host__ inline float erfinvf(float y) { return static_cast<float>(hipport::host_math::erfinv(y)); }
__host__ inline double erfcinv(double y) { return hipport::host_math::erfcinv(y); }
__host__ inline float erfcinvf(float y) { return static_cast<float>(hipport::host_math::erfcinv(y)); }
__host__ inline double erfcx(double x) { return hipport::host_math::erfcx(x); }
__host__ inline float erfcxf(float x) { return static_cast<float>(hipport::host_math::erfcx(x)); }
__host__ inline double normcdf(double x) { return 0.5 * __builtin_erfc(-x * 0.70710678118654752440); }
__host__ inline float normcdff(float x) { return static_cast<float>(normcdf(x)); }
__host__ inline double normcdfinv(double p) { return -1.41421356237309504880 * hipport::host_math::erfcinv(2.0 * p); }
__host__ inline float normcdfinvf(float p) { return static_cast<float>(normcdfinv(p)); }
__host__ inline void sincospi(double x, double* s, double* c) { hipport::host_math::sincospi(x, s, c); }
__host__ inline void sincospif(float x, float* s, float* c) {
  double sd, cd;
  hipport::host_math::sincospi(x, &sd, &cd);
  *s = static_cast<float>(sd);
  *c = static_cast<float>(cd);
}
__host__ inline double rhypot(double x, double y) { return 1.0 / __builtin_hypot(x, y); }
__host__ inline float rhypotf(float x, float y) { return 1.0f / __builtin_hypotf(x, y); }
__host__ inline double norm3d(double a, double b, double c) { return __builtin_hypot(__builtin_hypot(a, b), c); }
__host__ inline float norm3df(float a, float b, float c) { return static_cast<float>(norm3d(a, b, c)); }
__host__ inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
__host__ inline float rnorm3df(float a, float b, float c) { return static_cast<float>(rnorm3d(a, b, c)); }
__host__ inline double norm4d(double a, double b, double c, double d) {
  return __builtin_hypot(__builtin_hypot(a, b), __builtin_hypot(c, d));
}
__host__ inline float norm4df(float a, float b, float c, float d) { return static_cast<float>(norm4d(a, b, c, d)); }
__host__ inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
__host__ inline float rnorm4df(float a, float b, float c, float d) { return static_cast<float>(rnorm4d(a, b, c, d)); }
#endif

/* ---- hipGraphUpload ------------------------------------------------------------------------
 * cudaGraphUpload becomes hipGraphUpload, which HIP 5.2 lacks.  Uploading ahead is only an
 * optimisation (the first launch uploads the graph), so there it succeeds doing nothing.  Pinned
 * to hipGraphExec_t, so a HIP that declares the function wins overload resolution. */
template <typename Exec, typename std::enable_if<std::is_same<Exec, hipGraphExec_t>::value, int>::type = 0>
static inline hipError_t hipGraphUpload(Exec graph_exec, hipStream_t stream) {
  (void)stream;
  return graph_exec != nullptr ? hipSuccess : hipErrorInvalidValue;
}

#endif /* __cplusplus */
#endif /* HIPPORT_COMPAT_H */
