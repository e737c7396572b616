/* rocrand_mtgp32_11213.h as hipify-clang spells it (for cuRAND's curand_mtgp32dc_p_11213.h).
 *
 * Why: rocRAND installs the MTGP32 parameter tables as include/rocrand/rocrand_mtgp32_11213.h; a
 * CMake target linking roc::rocrand has include/rocrand on its path and finds the flat name, a
 * plain hipcc compile does not.  With hipport's include directory on the path both build.
 */
#if defined(__has_include_next)
#  if __has_include_next(<rocrand_mtgp32_11213.h>)
#    include_next <rocrand_mtgp32_11213.h>
#  else
#    include <rocrand/rocrand_mtgp32_11213.h>
#  endif
#else
#  include <rocrand/rocrand_mtgp32_11213.h>
#endif
