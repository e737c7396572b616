/* hip/hip_gl_interop.h as hipport ships it: HIP's own header where the installed HIP has one,
 * otherwise HIP's runtime API header, which declares the OpenGL interop (hipGraphicsGLRegister*,
 * hipGLGetDevices) in HIP 5.2.
 *
 * Why: `cuda_gl_interop.h` and `cudaGL.h` translate to `hip/hip_gl_interop.h` (as hipify-clang
 * writes), which the HIP that Debian and Ubuntu ship (5.2) does not have.
 * CUDA's header includes the OpenGL header on Linux and macOS, and programs rely on it for GLuint
 * and GL_TEXTURE_2D, so this one does too, where it is installed.
 */
#if defined(__has_include_next)
#  if __has_include_next(<hip/hip_gl_interop.h>)
#    include_next <hip/hip_gl_interop.h>
#    define HIPPORT_NATIVE_HIP_GL_INTEROP 1
#  endif
#endif

#if !defined(HIPPORT_NATIVE_HIP_GL_INTEROP) && !defined(HIPPORT_HIP_GL_INTEROP_H)
#define HIPPORT_HIP_GL_INTEROP_H
#include <hip/hip_runtime_api.h>
#endif

#if !defined(HIPPORT_GL_INCLUDED) && defined(__has_include)
#  define HIPPORT_GL_INCLUDED
#  if defined(__APPLE__) && __has_include(<OpenGL/gl.h>)
#    include <OpenGL/gl.h>
#  elif __has_include(<GL/gl.h>)
#    include <GL/gl.h>
#  endif
#endif
