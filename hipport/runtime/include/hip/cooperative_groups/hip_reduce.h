/* hip/cooperative_groups/hip_reduce.h — fallback for HIPs that do not ship it.
 *
 * Why: hipify-clang (and hipport) write this include for CUDA's <cooperative_groups/reduce.h>;
 * ROCm ships the header from 7.x on.  Where the installed HIP has it, it is used; otherwise
 * cooperative_groups::reduce and its functors come from hipport/compat.h. */
#if defined(__has_include_next)
#  if __has_include_next(<hip/cooperative_groups/hip_reduce.h>)
#    include_next <hip/cooperative_groups/hip_reduce.h>
#    define HIPPORT_HAVE_NATIVE_CG_REDUCE_HEADER 1
#  endif
#endif

/* (the next header on the path may be another hipport copy, `hipport runtime --install`: it
 * does the work, and this one steps aside) */
#if !defined(HIPPORT_HAVE_NATIVE_CG_REDUCE_HEADER) && !defined(HIPPORT_FALLBACK_CG_HIP_REDUCE_H)
#define HIPPORT_FALLBACK_CG_HIP_REDUCE_H
#  include <hip/hip_cooperative_groups.h>
#  include <hipport/compat.h>
#endif

