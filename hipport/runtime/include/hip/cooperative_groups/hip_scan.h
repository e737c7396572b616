/* hip/cooperative_groups/hip_scan.h — fallback for HIPs that do not ship it.
 *
 * Why: hipify-clang (and hipport) write this include for CUDA's <cooperative_groups/scan.h>.
 * Where the installed HIP has the header, it is used; otherwise this provides CUDA's
 * inclusive_scan / exclusive_scan over a statically sized tile (thread_block_tile<N>): a
 * Hillis-Steele scan over the tile's lanes with shfl_up, log2(N) steps, every lane gets its
 * prefix; and over a coalesced group.  As in CUDA, exclusive_scan's first lane gets a
 * value-initialised T. */
#if defined(__has_include_next)
#  if __has_include_next(<hip/cooperative_groups/hip_scan.h>)
#    include_next <hip/cooperative_groups/hip_scan.h>
#    define HIPPORT_HAVE_NATIVE_CG_SCAN_HEADER 1
#  endif
#endif

/* (the next header on the path may be another hipport copy, `hipport runtime --install`: it
 * does the work, and this one steps aside) */
#if !defined(HIPPORT_HAVE_NATIVE_CG_SCAN_HEADER) && !defined(HIPPORT_FALLBACK_CG_HIP_SCAN_H)
#define HIPPORT_FALLBACK_CG_HIP_SCAN_H
#include <hip/hip_cooperative_groups.h>
#include <hipport/compat.h>

namespace cooperative_groups {
template <unsigned int TileSize, typename Parent, typename T, typename Op>
__device__ inline T inclusive_scan(const thread_block_tile<TileSize, Parent>& tile, T value, Op op) {
  for (unsigned int delta = 1; delta < TileSize; delta <<= 1) {
    T other = hipport::shfl_up(tile, value, delta);
    if (tile.thread_rank() >= delta) value = op(value, other);
  }
  return value;
}
template <unsigned int TileSize, typename Parent, typename T>
__device__ inline T inclusive_scan(const thread_block_tile<TileSize, Parent>& tile, T value) {
  return inclusive_scan(tile, value, plus<T>());
}
template <unsigned int TileSize, typename Parent, typename T, typename Op>
__device__ inline T exclusive_scan(const thread_block_tile<TileSize, Parent>& tile, T value, Op op) {
  T inclusive = inclusive_scan(tile, value, op);
  T before = hipport::shfl_up(tile, inclusive, 1);
  return tile.thread_rank() == 0 ? T() : before;
}
template <unsigned int TileSize, typename Parent, typename T>
__device__ inline T exclusive_scan(const thread_block_tile<TileSize, Parent>& tile, T value) {
  return exclusive_scan(tile, value, plus<T>());
}
/* over a coalesced group (its members need not be contiguous lanes): every member reads every
 * member's value by rank, in rank order, and folds those up to its own */
template <typename T, typename Op>
__device__ inline T inclusive_scan(const coalesced_group& group, T value, Op op) {
  const unsigned int me = group.thread_rank();
  T result = hipport::shfl(group, value, 0);
  for (unsigned int rank = 1; rank < group.size(); ++rank) {
    const T other = hipport::shfl(group, value, rank);  // (every member takes part in every shuffle)
    if (rank <= me) result = op(result, other);
  }
  return result;
}
template <typename T>
__device__ inline T inclusive_scan(const coalesced_group& group, T value) {
  return inclusive_scan(group, value, plus<T>());
}
template <typename T, typename Op>
__device__ inline T exclusive_scan(const coalesced_group& group, T value, Op op) {
  const unsigned int me = group.thread_rank();
  T result = T();
  for (unsigned int rank = 0; rank + 1 < group.size(); ++rank) {
    const T other = hipport::shfl(group, value, rank);
    if (rank < me) result = rank == 0 ? other : op(result, other);
  }
  return result;
}
template <typename T>
__device__ inline T exclusive_scan(const coalesced_group& group, T value) {
  return exclusive_scan(group, value, plus<T>());
}
}  // namespace cooperative_groups
#endif

