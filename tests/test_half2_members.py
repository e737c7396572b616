"""half2 `.x` / `.y`: HIP declares them as raw bits, so the translator reads them as `half`."""

from __future__ import annotations

import hipport
from hipport.options import Options
from tests.conftest import build_and_run_host


def tr(src: str) -> str:
    return hipport.translate_source(src, path="t.cu", options=Options()).text


KERNEL = """\
#include <cuda_fp16.h>
__global__ void k(half2* out, const half2* in, float* f, half2 a, const half2 &b) {
  half2 tmp = in[0], t2;
  f[0] = (float)tmp.x + (float)tmp.y;  // tmp.x in a comment, "tmp.y" in a string
  f[1] = __half2float(in[1].x) + (float)b.y + (float)a.x;
  out[0].x = __float2half(1.0f);
  t2.y = tmp.x;
  out->y = in->x;
}
"""


def test_members_of_half2_objects_are_read_as_half():
    out = tr(KERNEL)
    assert "f[0] = (float)reinterpret_cast<half&>(tmp.x) + (float)reinterpret_cast<half&>(tmp.y);  " \
           "// tmp.x in a comment, \"tmp.y\" in a string" in out
    assert "__half2float(reinterpret_cast<const half&>(in[1].x)) + (float)reinterpret_cast<const half&>(b.y) " \
           "+ (float)reinterpret_cast<half&>(a.x);" in out
    assert "reinterpret_cast<half&>(out[0].x) = __float2half(1.0f);" in out
    assert "reinterpret_cast<half&>(t2.y) = reinterpret_cast<half&>(tmp.x);" in out
    assert "reinterpret_cast<half&>(out->y) = reinterpret_cast<const half&>(in->x);" in out


def test_translation_is_idempotent_and_compiles(hipcc, tmp_path):
    out = tr(KERNEL)
    assert tr(out) == out
    result = hipcc(out, tmp_path)
    assert result.returncode == 0, result.stderr


def test_a_name_declared_with_another_type_elsewhere_is_scoped():
    """FasterTransformer's cuda_cast specializations: `half2 val` in one function, `int2 val` in the
    next; each use reads the declaration its scope sees."""
    src = ("__device__ float f(half2 v) { return (float)v.x; }\n"
           "__device__ float g(float2 v) { return v.x; }\n"
           "__device__ float h(half2 w) { return (float)w.y; }\n"
           "__device__ float k(half2 v) {\n  float r = (float)v.y;\n  { float2 v = make_float2(1, 2); r += v.x; }\n"
           "  return r + (float)v.x;\n}\n"
           "__device__ float p(half2 v);\nfloat2 v;\n__device__ float q() { return v.x; }\n")
    out = tr(src)
    assert "__device__ float f(half2 v) { return (float)reinterpret_cast<half&>(v.x); }" in out
    assert "return v.x;" in out and "return (float)reinterpret_cast<half&>(w.y);" in out
    assert "float r = (float)reinterpret_cast<half&>(v.y);" in out and "r += v.x; }" in out
    assert "return r + (float)reinterpret_cast<half&>(v.x);" in out
    assert "__device__ float q() { return v.x; }" in out  # the file-scope float2, not p's parameter


def test_other_members_and_types_are_left_alone():
    src = ("struct P { half2 h; };\n"
           "__device__ float f(P p, __half2 raw, float4 q, half2 s) {\n"
           "  return (float)p.h.x + (float)raw.x + q.x + q.z + (float)s.x;\n}\n"
           "#define FIRST(v) v.x\n")
    out = tr(src)
    assert ("(float)reinterpret_cast<const half&>(p.h.x) + (float)reinterpret_cast<half&>(raw.x) + q.x + q.z + "
            "(float)reinterpret_cast<half&>(s.x);") in out
    assert "#define FIRST(v) v.x" in out


def test_file_without_half2_is_untouched():
    src = "__device__ float f(float2 v) { return v.x; }\n"
    assert tr(src).endswith(src)


def test_function_returning_half2_declares_no_objects():
    src = ("__device__ half2 make(int a, int b) { return __floats2half2_rn(a, b); }\n"
           "int n, y;\n__device__ float f(float2 q) { return q.y + y; }\n")
    assert "reinterpret_cast" not in tr(src)


def test_const_members_in_a_file_with_main_stay_idempotent():
    """The `const half&` casts this pass writes are not host half arithmetic that wants compat.h."""
    src = ("#include <cuda_fp16.h>\n__global__ void k(const __half2* in, float* out) {\n"
           "  out[0] = __half2float(in[0].x);\n}\nint main() { return 0; }\n")
    out = tr(src)
    assert "reinterpret_cast<const half&>(in[0].x)" in out and "compat.h" not in out
    assert tr(out) == out


def test_members_read_through_a_macro_are_reported():
    """`LO(in[0])` with `#define LO(h) (h).x`: the access only exists after preprocessing, and the
    macro may serve float2 as well, so the read is reported where the macro is used."""
    src = ("#define LO(h) (h).x\n#define HI(h) h.y\n#define ID(h) (h)\n"
           "__global__ void k(const __half2* in, float2 f, __half2 v, float* out) {\n"
           "  out[0] = __half2float(LO(in[0])) + __half2float(HI(v)) + LO(f) + __half2float(LO(*in));\n"
           "  out[1] = __half2float(ID(v).x) + HI(in);\n}\n")
    result = hipport.translate_source(src, path="k.cu")
    found = [(d.line, d.column) for d in result.diagnostics if d.code == "HP029"]
    assert found == [(5, 28), (5, 54), (5, 84)]  # in[0], v, *in; not f (float2), not `in` (a pointer)
    assert "#define LO(h) (h).x\n" in result.text  # the macro serves float2 too: left as written


def test_half2_fields_are_read_as_half_and_written_as_half():
    """`w.h.x` with `struct W { __half2 h; }`: a read gets `const half&` (right whether `w` is const
    or not), a write `half&`; a field name the file also gives another type is left alone."""
    src = ("struct W { __half2 h; __half2 a[2]; };\nstruct F { float2 v; };\nstruct G { __half2 v; };\n"
           "__global__ void k(W* p, const W* q, F f) {\n"
           "  p->h.x = q->h.y; p[0].a[1].y += q[0].a[0].x; ++p->h.x; float g = f.v.x;\n}\n")
    out = tr(src)
    assert ("reinterpret_cast<half&>(p->h.x) = reinterpret_cast<const half&>(q->h.y); "
            "reinterpret_cast<half&>(p[0].a[1].y) += reinterpret_cast<const half&>(q[0].a[0].x); "
            "++reinterpret_cast<half&>(p->h.x); float g = f.v.x;") in out
    assert tr(out) == out


RAW_PROGRAM = """\
#include <cuda_fp16.h>
#include <cstdio>
#include <cstring>
static unsigned short bits(__half h) { unsigned short b; memcpy(&b, &h, 2); return b; }
static __half_raw one() { return {0x3C00}; }
int main() {
  constexpr __half_raw inf = {0x7C00};
  const __half_raw table[2] = {{0x3C00}, {0x4000}};
  __half2_raw pair = {0xFC00, 0x3C00};
  __half2 p = __half2(pair);
  __half_raw designated = {.x = 0x0001}, empty = {}, max = {0x7BFF};
  __half_raw later;
  later = {0x4200};
  printf("%04x %04x %04x %04x %04x %04x %04x\\n", bits(__half(inf)), bits(__half(table[0])), bits(__half(table[1])),
         bits(__low2half(p)), bits(__high2half(p)), bits(__half(designated)), bits(__half(empty)));
  printf("%04x %04x %04x\\n", bits(__half(max)), bits(__half(later)), bits(__half(one())));
  return 0;
}
"""


def test_raw_half_lists_name_the_bits(hipcc, tmp_path):
    """`__half_raw inf = {0x7C00}` is +inf's bits on CUDA; HIP's union reads the list as a value
    (DeepSpeed's reduction identities), and `__half2_raw {a, b}` does not compile."""
    from tests.conftest import build_and_run_host

    out = tr(RAW_PROGRAM)
    assert "constexpr __half_raw inf = {.x = 0x7C00};" in out
    assert "table[2] = {{.x = 0x3C00}, {.x = 0x4000}};" in out and "pair = {.x = 0xFC00, .y = 0x3C00};" in out
    assert "designated = {.x = 0x0001}, empty = {}, max = {.x = 0x7BFF};" in out and tr(out) == out
    assert "later = {.x = 0x4200};" in out and "return {.x = 0x3C00};" in out
    assert build_and_run_host(hipcc, out, tmp_path, "raw", extra=["-std=c++17"]).split() == \
        ["7c00", "3c00", "4000", "fc00", "3c00", "0001", "0000", "7bff", "4200", "3c00"]


TEMPLATE_PROGRAM = """\
#include <cuda_fp16.h>
#include <cstdio>
template <typename V> float lo(const V &v) { return __half2float(v.x); }
template <typename T2> __host__ __device__ float sum2(T2 a, const T2* p, T2 arr[2]) {
  T2 local = a;
  local.y = p->x;  // written through the accessor
  return (float)local.x + (float)local.y + (float)arr[1].y;
}
template <> float lo<float2>(const float2 &v) { return v.x; }
template <typename T> struct Box { T v; float get() const { return (float)v.x; } };
int main() {
  __half2 h = __floats2half2_rn(1.0f, 2.0f);
  __half2 arr[2] = {h, h};
  float2 f = make_float2(3.f, 4.f);
  float2 farr[2] = {f, f};
  Box<__half2> bh{h};
  Box<float2> bf{f};
  printf("%g %g %g %g %g %g\\n", lo(h), sum2(h, &h, arr), lo(f), sum2(f, &f, farr), bh.get(), bf.get());
  return 0;
}
"""


def test_members_of_template_typed_objects_read_as_cuda_types_them(hipcc, tmp_path):
    """`v.x` with `V = __half2` is a __half on CUDA and the raw bits on HIP (15360 for 1.0):
    hipport::x_of(v) is each instantiation's own member, the __half for __half2."""
    from tests.conftest import build_and_run_host

    out = tr(TEMPLATE_PROGRAM)
    assert "return __half2float(hipport::x_of(v));" in out and "hipport::y_of(local) = hipport::x_of(*p);" in out
    assert "(float)hipport::y_of(arr[1])" in out and "{ return v.x; }" in out  # the float2 specialization
    assert "#include <hipport/compat.h>" in out and tr(out) == out
    assert "float get() const { return (float)hipport::x_of(v); }" in out  # a class template's member
    assert build_and_run_host(hipcc, out, tmp_path, "tpl", extra=["-std=c++17"]).split() == ["1", "4", "3", "10", "1", "3"]
    assert "x_of" not in tr(TEMPLATE_PROGRAM.replace("half2", "float2").replace("__floats2float2_rn", "make_float2"))


def test_members_of_an_alias_of_half2_read_as_half():
    """ggml's `typedef half2 ggml_half2;` and `using h2 = __half2;` name the same type."""
    src = ("typedef half2 ggml_half2;\nusing h2 = __half2;\nstruct blk { ggml_half2 dm; };\n"
           "__device__ float f(const blk* b, h2 v) {\n  ggml_half2 w = b->dm;\n"
           "  return __half2float(w.x) + __half2float(v.y) + __half2float(b[0].dm.y);\n}\n")
    out = tr(src)
    assert "__half2float(reinterpret_cast<half&>(w.x)) + __half2float(reinterpret_cast<half&>(v.y))" in out
    assert "__half2float(reinterpret_cast<const half&>(b[0].dm.y))" in out and tr(out) == out


def test_members_of_half2_casts_call_results_and_autos_read_as_half():
    """The receiver names its type: a cast to half2, a call of an fp16 function returning one, or
    an `auto` it initializes."""
    src = ("__global__ void k(half2* p, unsigned* u, float* out) {\n  auto a = __floats2half2_rn(1.5f, 2.f);\n"
           "  out[0] = __half2float(reinterpret_cast<half2&>(u[0]).x) + __half2float(((half2*)u)[1].y)\n"
           "         + __half2float(__hmul2(p[0], p[1]).y) + __half2float(a.x);\n"
           "  reinterpret_cast<half2*>(u)[2].x = __float2half(1.f);\n  float2 f = make_float2(1, 2); out[1] = f.x;\n}\n")
    out = tr(src)
    assert "__half2float(reinterpret_cast<const half&>(reinterpret_cast<half2&>(u[0]).x))" in out
    assert "__half2float(reinterpret_cast<const half&>(((half2*)u)[1].y))" in out
    assert "__half2float(reinterpret_cast<const half&>(__hmul2(p[0], p[1]).y))" in out
    assert "__half2float(reinterpret_cast<half&>(a.x))" in out
    assert "reinterpret_cast<half&>(reinterpret_cast<half2*>(u)[2].x) = __float2half(1.f);" in out
    assert "out[1] = f.x;" in out and tr(out) == out


def test_reads_in_const_methods_and_copy_captures_are_const_and_products_declare_nothing():
    """`m.x` in a const member function and `t.x` in a `[=]` lambda are const (`half&` would not
    compile); `w = w * v;` multiplies two half2s, it declares no `v` of type `w`."""
    src = ("struct S {\n  __half2 m;\n  __device__ float lo() const { return __half2float(m.x); }\n"
           "  __device__ void set() { m.y = __float2half(1.f); }\n};\n"
           "__global__ void k(const __half2* in, float* out) {\n  __half2 t = in[0], w = in[1];\n"
           "  auto lo = [=](int) { return __half2float(t.x); };\n  w = w * t;\n  t.y = __float2half(2.f);\n"
           "  out[0] = lo(0) + __half2float(w.x);\n}\n")
    out = tr(src)
    assert "lo() const { return __half2float(reinterpret_cast<const half&>(m.x)); }" in out
    assert "set() { reinterpret_cast<half&>(m.y) = __float2half(1.f); }" in out
    assert "[=](int) { return __half2float(reinterpret_cast<const half&>(t.x)); }" in out
    assert "reinterpret_cast<half&>(t.y) = __float2half(2.f);" in out and "__half2float(reinterpret_cast<half&>(w.x))" in out


def test_members_of_a_dereferenced_half2_pointer_read_as_half():
    src = ("__global__ void k(float* f, const __half2* hp, __half2* out) {\n  f[0] = __half2float((*hp).x);\n"
           "  (*out).y = __float2half(1.f);\n}\n")
    out = tr(src)
    assert "__half2float(reinterpret_cast<const half&>((*hp).x))" in out
    assert "reinterpret_cast<half&>((*out).y) = __float2half(1.f);" in out and tr(out) == out


DIRECT_INIT = """\
#include <cuda_fp16.h>
#include <cstdio>
__host__ __device__ half2 mk(float a, float b) { return __floats2half2_rn(a, b); }
__host__ __device__ float a1(const half2* p) { half2 v = p[0]; return __half2float(v.x); }
__host__ __device__ float a2(const float2* q) { float2 v(q[0]); return v.x; }
int main() {
  __half2_raw r; r.x = 0x3c00; r.y = 0x4000;
  half2 a(r), e(mk(1.f, 2.f)), f = mk(1.f, 2.f);
  auto c = mk(1.f, 2.f);
  const auto& g = f;
  half2 h = __floats2half2_rn(1.f, 2.f);
  float2 q = make_float2(3.f, 4.f);
  printf("%g %g %g %g %g %g %g %g %g\\n", __half2float(a.y), __half2float(e.y), __half2float(f.y),
         __half2float(c.y), __half2float(g.y), __half2float(mk(1.f, 2.f).x),
         __half2float(static_cast<half2>(r).y), a1(&h), a2(&q));
  return 0;
}
"""


def test_direct_initialised_objects_own_function_results_and_auto_copies_read_as_half(hipcc, tmp_path):
    """(set CA) `half2 a(r);`, `mk(…).x` and `auto c = mk(…)` of the file's own `half2 mk(…)`,
    `const auto& g = f;`, `static_cast<half2>(r).y`: read as half; a `float2 v(q[0])` in another
    function is a float2 (its member must stay a float).  Run on the host, as CUDA computes it."""
    out = tr(DIRECT_INIT)
    for member in ("a.y", "e.y", "f.y", "c.y"):
        assert f"__half2float(reinterpret_cast<half&>({member}))" in out
    assert "__half2float(reinterpret_cast<const half&>(g.y))" in out
    assert "__half2float(reinterpret_cast<const half&>(mk(1.f, 2.f).x))" in out
    assert "__half2float(reinterpret_cast<const half&>(static_cast<half2>(r).y))" in out
    assert "{ float2 v(q[0]); return v.x; }" in out
    assert tr(out) == out
    assert build_and_run_host(hipcc, out, tmp_path, "direct_init").split() == "2 2 2 2 2 1 2 1 3".split()
