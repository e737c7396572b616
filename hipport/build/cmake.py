"""CMake files: CUDA → HIP, as edits over the original bytes.

What is converted (names are data in ``cmake_map.toml``; this module knows CMake's commands):

* ``project(… CUDA)``, ``enable_language(CUDA)``, ``check_language(CUDA)`` → ``HIP``;
  ``cmake_minimum_required`` is raised to 3.21, the first CMake with the HIP language.
* ``CMAKE_CUDA_*`` → ``CMAKE_HIP_*``; ``CUDA_ARCHITECTURES`` & co. → ``HIP_*``; architecture
  values (``70;80``, ``native``, ``all``) become the AMD target list.
* ``find_package(CUDAToolkit|CUDA)`` → ``find_package(hip)`` plus one ``find_package`` per HIP
  library the file links; ``CUDA::cublas`` & co. and FindCUDA's ``${CUDA_LIBRARIES}`` &
  co. → the HIP targets.
* nvcc flags in ``CMAKE_CUDA_FLAGS``, ``CUDA_NVCC_FLAGS``, ``target_compile_options`` and
  ``$<$<COMPILE_LANGUAGE:CUDA>:…>`` → hipcc flags (``nvcc_flags.toml``).
* ``.cu`` sources of a target get ``LANGUAGE HIP`` (``set_source_files_properties`` right
  after the command), or are renamed when the caller renames files.
* FindCUDA's ``cuda_add_executable``/``cuda_add_library`` (with ``OPTIONS``),
  ``cuda_include_directories``, ``cuda_add_cublas_to_target``, ``cuda_add_cufft_to_target``.

Anything else CUDA-specific is warned about (``HB001``/``HB004``), never guessed.  Converting
the output again changes nothing.

Why CMake's HIP language rather than "hipcc as the C++ compiler": with the HIP language CMake
knows which sources are device code, passes ``--offload-arch`` from ``HIP_ARCHITECTURES``,
links with ``--hip-link`` and keeps host-only C++ on the normal C++ compiler — the same shape
as the CUDA project.  It needs CMake >= 3.21 and clang from ROCm; on Debian/Ubuntu's packaged
ROCm (CMake expects ``<rocm>/lib/cmake/hip-lang``) the toolchain file
``HipportDebianROCm.cmake`` from ``hipport cmake-dir --toolchain`` supplies the layout, and was
verified with CMake 3.25 + clang 15.  The hipcc-as-CXX fallback remains available for projects
that keep CUDA sources: ``hipport_translate_sources(... LANGUAGE CXX)``.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from hipport.build import cmake_lexer as lx
from hipport.build.nvcc_flags import (FlagNote, parse_offload_arch, translate_flag_string, translate_nvcc_flags_ex,
                                      translate_option_at)
from hipport.diagnostics import ERROR, INFO, Diagnostic, DiagnosticSink, line_suppressions, register, suppressed
from hipport.edits import Edit, apply_edits
from hipport import lazy_re

register("HB001", "CUDA-specific CMake construct has no automatic HIP conversion; left unchanged")
register("HB004", "CUDA library has no HIP equivalent; left unchanged")
register("HB005", "CMake file could not be parsed; left unchanged", ERROR)
register("HB008", "cmake_minimum_required raised to 3.21 for the HIP language", INFO)

MAP_PATH = Path(__file__).with_name("cmake_map.toml")
HIP_MIN_CMAKE = (3, 21)

_MAP: dict | None = None


def cmake_map() -> dict:
    global _MAP
    if _MAP is None:
        try:
            import tomllib
        except ImportError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        _MAP = tomllib.loads(MAP_PATH.read_text(encoding="utf-8"))
    return _MAP


# Commands whose arguments are compile/link flags (nvcc spelling allowed).
_FLAG_COMMANDS = {"target_compile_options", "add_compile_options", "target_link_options", "add_link_options"}
_FLAG_KEYWORDS = {"PRIVATE", "PUBLIC", "INTERFACE", "BEFORE"}
_COMPILE_FLAG_PROPERTIES = frozenset({"COMPILE_FLAGS", "COMPILE_OPTIONS"})
_FLAG_VARIABLES = lazy_re.compile(r"^(CMAKE_CUDA_FLAGS(_[A-Z]+)?(_INIT)?|CUDA_NVCC_FLAGS(_[A-Z]+)?)$")
_SET_STOP = {"CACHE", "PARENT_SCOPE"}
_TARGET_COMMANDS = {"add_executable", "add_library", "cuda_add_executable", "cuda_add_library", "target_sources"}
_TARGET_KEYWORDS = {"WIN32", "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL", "STATIC", "SHARED", "MODULE", "OBJECT",
                    "PRIVATE", "PUBLIC", "INTERFACE", "FILE_SET", "TYPE", "BASE_DIRS", "FILES"}
_ARCH_VALUE = lazy_re.compile(r"^(?:\d+[a-z]?(?:-real|-virtual)?|native|all|all-major)(?:;(?:\d+[a-z]?(?:-real|-virtual)?"
                         r"|native|all|all-major))*$")
_WORD = lazy_re.compile(r"(?<![A-Za-z0-9_:])(CMAKE_CUDA_[A-Za-z0-9_]+|CUDA(?:Toolkit)?_[A-Za-z0-9_]+|"
                   r"(?:CUDA|CCCL|CUB|Thrust)::[A-Za-z0-9_]+)(?![A-Za-z0-9_])")
#: the CUDA compiler run as a tool in a custom command (the variable, FindCUDA's, or the program)
_CUDA_COMPILER_WORD = lazy_re.compile(r"\$\{(?:CMAKE_CUDA_COMPILER|CUDA_NVCC_EXECUTABLE)\}|(?:\S*/)?nvcc(?:\.exe)?")
_CUSTOM_COMMAND_KEYWORDS = frozenset(
    "COMMAND OUTPUT DEPENDS BYPRODUCTS MAIN_DEPENDENCY IMPLICIT_DEPENDS WORKING_DIRECTORY COMMENT DEPFILE JOB_POOL "
    "JOB_SERVER_AWARE VERBATIM APPEND USES_TERMINAL COMMAND_EXPAND_LISTS DEPENDS_EXPLICIT_ONLY CODEGEN SOURCES ALL "
    "OUTPUT_VARIABLE ERROR_VARIABLE RESULT_VARIABLE RESULTS_VARIABLE OUTPUT_QUIET ERROR_QUIET TIMEOUT "
    "INPUT_FILE OUTPUT_FILE ERROR_FILE ECHO_OUTPUT_VARIABLE ECHO_ERROR_VARIABLE COMMAND_ECHO COMMAND_ERROR_IS_FATAL "
    "ENCODING OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_STRIP_TRAILING_WHITESPACE".split())
_ARCH_LOOP = lazy_re.compile(r"foreach\s*\(\s*(\w+)\s+(?:\$\{CMAKE_CUDA_ARCHITECTURES\}|IN\s+LISTS\s+CMAKE_CUDA_ARCHITECTURES)\s*\)",
                        re.I)
_GENCODE_PER_ARCH = lazy_re.compile(r"-gencode[= ]arch=compute_\$\{(\w+)\},code=(?:sm|compute|lto)_\$\{\1\}")
_EARLY_FLAGS = "HIPPORT_EARLY_HIP_FLAGS"
_FIND_HIPCC = "find_program(HIPPORT_HIPCC hipcc HINTS $ENV{ROCM_PATH}/bin $ENV{HIP_PATH}/bin /opt/rocm/bin REQUIRED)"
_VAR_REF = lazy_re.compile(r"\$\{(CUDA(?:Toolkit)?_[A-Za-z0-9_]+)\}")
_ANY_VAR_REF = lazy_re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_LINK_KEYWORDS = frozenset({"PUBLIC", "PRIVATE", "INTERFACE", "LINK_PUBLIC", "LINK_PRIVATE", "LINK_INTERFACE_LIBRARIES"})
_GENEX_LANG = lazy_re.compile(r"\$<(COMPILE_LANGUAGE|LINK_LANGUAGE|COMPILE_LANG_AND_ID|LINK_LANG_AND_ID):([^>$]*)>")
_GENEX_COMPILER_ID = lazy_re.compile(r"\$<CUDA_COMPILER_(ID|VERSION)(:[^>]*)?>")
_CUDA_STD = lazy_re.compile(r"(?<![A-Za-z0-9_])cuda_std_(\d+)(?![A-Za-z0-9_])")  # compile features
_VERSION = lazy_re.compile(r"^\d+(\.\d+)*(\.\.\.\d+(\.\d+)*)?$")


_PROJECT_KEYWORDS = frozenset({"VERSION", "DESCRIPTION", "HOMEPAGE_URL", "LANGUAGES"})


#: packages whose headers the translator spells flat, as hipify-clang does ("hipsparse.h"), while
#: ROCm installs them under include/<lib>/: the converted build adds that folder to the target.
FLAT_INCLUDE_PACKAGES = ("hipblas", "hipblaslt", "hipsparse", "hipsolver", "rocblas", "rocsolver", "rocsparse")


def _flat_include_lines(pkg: str) -> list[str]:
    if pkg not in FLAT_INCLUDE_PACKAGES:
        return []
    return [f"if(TARGET roc::{pkg})  # hipify-style #include \"{pkg}.h\" needs include/{pkg} on the path",
            f"  set_property(TARGET roc::{pkg} APPEND PROPERTY INTERFACE_INCLUDE_DIRECTORIES \"${{{pkg}_INCLUDE_DIR}}/{pkg}\")",
            "endif()"]


@dataclass
class CMakeOptions:
    offload_arch: tuple[str, ...]
    renames: Mapping[str, str]


@dataclass
class _CommandPlan:
    """Per command: replaced arguments (None = removed), new name, lines to add after/before."""

    name: str | None = None
    args: dict[int, str | None] = field(default_factory=dict)  # index into cmd.tokens
    after: list[str] = field(default_factory=list)
    before: list[str] = field(default_factory=list)
    kept: set[int] = field(default_factory=set)  # arguments left exactly as written


class _Converter:
    def __init__(self, data: bytes, path: str, options: CMakeOptions):
        self.data = data
        self.text = data.decode("latin-1")
        self.path = path
        self.options = options
        self.sink = DiagnosticSink(path, data)
        self.map = cmake_map()
        self.newline = "\r\n" if "\r\n" in self.text else "\n"
        rename = self.map["cmake_variables"]["rename"]
        self.cmake_var_rename = {f"CMAKE_CUDA_{s}": f"CMAKE_HIP_{s}" for s in rename}
        self.cmake_var_approx = {f"CMAKE_CUDA_{s}": note for s, note in self.map["cmake_variables"]["approximate"].items()}
        self.warned: set[tuple[str, int]] = set()
        self.hipcc_found = "HIPPORT_HIPCC" in self.text  # (a converted file has its find_program already)
        self.arch_loop_vars = set(_ARCH_LOOP.findall(self.text))  # foreach(arch ${CMAKE_CUDA_ARCHITECTURES})
        self.host_linked: set[int] = set()  # link commands given hip::host beside a library target
        self._lists_cu: bool | None = None
        self._function_commands: frozenset | None = None

    # ------------------------------------------------------------------ entry point
    def run(self) -> tuple[bytes, list[Diagnostic]]:
        try:
            commands = lx.parse(self.text)
        except lx.CMakeSyntaxError as exc:
            self.sink.add("HB005", f"cannot parse CMake file: {exc}; left unchanged", exc.offset)
            return self.data, self.sink.items
        self.commands = commands
        # before project()/enable_language(), the toolchain's CMAKE_HIP_FLAGS_INIT is not read yet
        self.first_language = next((c.start for c in commands if c.lname in ("project", "enable_language")), -1)
        # (an enable_language() without a project() above it in this file runs after the top level's
        # project(), which read the toolchain: only above a project() are its initial flags unset)
        self.first_project = self.first_language if any(
            c.start == self.first_language and c.lname == "project" for c in commands) else -1
        self.early_flags = False
        self._survey()
        plans = []
        for self.index, cmd in enumerate(commands):
            plans.append(self._plan(cmd))
        self._place_packages(commands, plans)
        edits = self._edits(commands, plans)
        out = apply_edits(self.data, edits)
        supp = line_suppressions(self.data)
        diags = [d for d in self.sink.items if not suppressed(d, supp)]
        return out, diags

    # ------------------------------------------------------------------ survey of the file
    def _survey(self) -> None:
        self.library_kinds: dict[str, str] = {}  # add_library name -> STATIC / SHARED / OBJECT / ...
        self.plain_links: dict[str, bool] = {}  # target -> linked with target_link_libraries' plain signature
        self.found_packages: set[str] = set()
        self.covered_sources: set[str] = set()
        self.cuda_language = False
        self.project_has_cuda = False
        self.uses_nvcc_flags_var = False
        self.cuda_find_index: int | None = None
        self.find_required = True
        # user variables given to target_compile_options & co. (`set(MY_CUDA_FLAGS --use_fast_math)`):
        # their values are compiler flags too, converted where they are set
        self.flag_variables: set[str] = set()
        # variables a set()/list() gave the toolkit's include directory (nbody-cuda's include_dirs)
        self.toolkit_include_variables: set[str] = set()
        for i, cmd in enumerate(self.commands):
            args = cmd.args
            if cmd.lname in _FLAG_COMMANDS:
                self.flag_variables.update(_ANY_VAR_REF.findall(" ".join(a.value for a in args)))
            if cmd.lname == "target_link_libraries" and len(args) > 1:
                self.plain_links.setdefault(args[0].value, args[1].value not in _LINK_KEYWORDS)
            if cmd.lname in ("add_library", "cuda_add_library") and args:
                kind = args[1].value if len(args) > 1 else ""
                self.library_kinds[args[0].value] = kind if kind in ("SHARED", "MODULE", "OBJECT", "INTERFACE") else "STATIC"
            if cmd.lname == "find_package" and args:
                pkg = args[0].value
                if pkg in ("CUDAToolkit", "CUDA"):
                    self.cuda_language |= pkg == "CUDA"
                    if self.cuda_find_index is None:
                        self.cuda_find_index = i
                        self.find_required = any(a.value == "REQUIRED" for a in args)
                else:
                    self.found_packages.add(pkg)
            elif cmd.lname in ("project", "enable_language") and any(
                    a.kind == lx.UNQUOTED and a.value == "CUDA" for a in args[1 if cmd.lname == "project" else 0:]):
                self.cuda_language = self.project_has_cuda = True
            elif cmd.lname == "set_source_files_properties":
                values = [a.value for a in args]
                if "PROPERTIES" in values:
                    props = values[values.index("PROPERTIES") + 1:]
                    if any(props[j] == "LANGUAGE" and j + 1 < len(props) and props[j + 1] == "HIP"
                           for j in range(len(props))):
                        self.covered_sources.update(values[:values.index("PROPERTIES")])
            for a in args:
                if "CUDA_NVCC_FLAGS" in a.text:
                    self.uses_nvcc_flags_var = True
        self.needed_packages: dict[str, int] = {}  # package → index of first command needing it

    def _need(self, package: str, index: int) -> None:
        if package not in self.needed_packages:
            self.needed_packages[package] = index

    def _warn(self, code: str, message: str, offset: int, hint: str = "", severity: str | None = None) -> None:
        key = (message, offset)
        if key not in self.warned:
            self.warned.add(key)
            self.sink.add(code, message, offset, hint=hint, severity=severity)

    def _flag_notes(self, notes: Iterable[FlagNote], offset: int, *, quiet_unknown: bool = False) -> None:
        for note in notes:
            if quiet_unknown and note.code == "HB003":
                continue
            self._warn(note.code, note.message, offset, note.hint, note.severity)

    # ------------------------------------------------------------------ one command
    def _plan(self, cmd: lx.Command) -> _CommandPlan:
        plan = _CommandPlan()
        name = cmd.lname
        toks = cmd.tokens
        handler = getattr(self, "_cmd_" + name, None)
        if handler is not None:
            handler(cmd, plan)
        elif name.startswith("cuda_"):
            target = self.map["findcuda_commands"].get(name)
            if target is None:
                self._warn("HB001", f"FindCUDA command '{cmd.name}' has no automatic HIP conversion", cmd.start,
                           "compile the sources with the HIP language and hipcc flags instead")
        if name in _FLAG_COMMANDS:
            self._flag_args(cmd, plan, [i for i, t in enumerate(toks)
                                        if t.is_argument and t.value not in _FLAG_KEYWORDS
                                        and (name.startswith("add_") or i > self._first_arg(toks))],
                            quiet_unknown=True)
        if "$<" in self.text[cmd.open:cmd.close]:
            self._split_generator_expressions(cmd, plan)
        # generic, per-argument rewrites (names, targets, generator expressions)
        for i, tok in enumerate(toks):
            if not tok.is_argument or tok.kind == lx.BRACKET or i in plan.kept:
                continue
            current = plan.args.get(i, tok.text)
            if current is None:
                continue
            new = self._rewrite_words(current, tok, cmd)
            if new != tok.text:
                plan.args[i] = new
        return plan

    def _split_generator_expressions(self, cmd: lx.Command, plan: _CommandPlan) -> None:
        """`$<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda --expt-relaxed-constexpr>` (AMReX, Taskflow):
        one generator expression over several arguments, which CMake joins with `;` before
        evaluating it.  Rewritten as that one argument when its flags need translating."""
        toks = cmd.tokens
        i = 0
        while i < len(toks):
            tok = toks[i]
            depth = _genex_depth(tok.text) if tok.is_argument and tok.kind == lx.UNQUOTED else 0
            if depth <= 0 or i in plan.kept or i in plan.args:
                i += 1
                continue
            j = i
            while depth > 0 and j + 1 < len(toks) and toks[j + 1].is_argument and toks[j + 1].kind == lx.UNQUOTED \
                    and not self.text[toks[j].end:toks[j + 1].start].strip():
                j += 1
                depth += _genex_depth(toks[j].text)
            if depth != 0 or any(k in plan.args or k in plan.kept for k in range(i + 1, j + 1)):
                i = j + 1
                continue
            joined = ";".join(t.text for t in toks[i:j + 1])
            new = self._rewrite_words(joined, tok, cmd)
            piecewise = ";".join(self._rewrite_words(t.text, t, cmd) for t in toks[i:j + 1])
            if new != piecewise:
                plan.args[i] = new
                for k in range(i + 1, j + 1):
                    plan.args[k] = None
                plan.kept.update(range(i, j + 1))
            i = j + 1

    @staticmethod
    def _first_arg(toks: list[lx.Arg]) -> int:
        for i, t in enumerate(toks):
            if t.is_argument:
                return i
        return -1

    # ------------------------------------------------------------------ words inside arguments
    def _rewrite_words(self, text: str, tok: lx.Arg, cmd: lx.Command) -> str:
        m = self.map
        lib_vars = m["library_variables"]
        targets = m["targets"]

        def var_ref(match: re.Match) -> str:
            name = match.group(1)
            cuda_target = lib_vars.get(name)
            if cuda_target is None:
                return match.group(0)
            entry = targets[cuda_target]
            if not entry["target"]:
                self._warn("HB004", f"'{name}' ({cuda_target}) has no HIP equivalent", tok.start, entry.get("note", ""))
                return match.group(0)
            self._need(entry["package"], self.index)
            return entry["target"]

        text = _VAR_REF.sub(var_ref, text)
        if "-gencode" in text and self.arch_loop_vars:
            # `-gencode=arch=compute_${arch},code=sm_${arch}` for each architecture: those are HIP's now
            text = _GENCODE_PER_ARCH.sub(lambda g: f"--offload-arch=${{{g.group(1)}}}"
                                         if g.group(1) in self.arch_loop_vars else g.group(0), text)

        def word(match: re.Match) -> str:
            w = match.group(1)
            if "::" in w:
                entry = targets.get(w)
                if entry is None:
                    if w.startswith("CUDA::"):
                        self._warn("HB004", f"unknown CUDA target '{w}'", tok.start)
                    return w
                if not entry["target"]:
                    self._warn("HB004", f"'{w}' has no HIP equivalent", tok.start, entry.get("note", ""))
                    return w
                self._need(entry["package"], self.index)
                return entry["target"] + self._with_host(entry["target"], cmd)
            if w in m["names"]:
                return m["names"][w]
            if w == "CMAKE_CUDA_FLAGS" and tok.start < self.first_language or \
                    w == "CMAKE_CUDA_FLAGS_INIT" and tok.start < self.first_project:
                # `set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -O3")` above project(): as CMAKE_HIP_FLAGS
                # it would hide the toolchain's flags (and the toolchain, read by project(), would
                # overwrite a CMAKE_HIP_FLAGS_INIT); kept aside and appended after project()
                self.early_flags = True
                return _EARLY_FLAGS
            if w in m["unsupported"]:
                self._warn("HB001", f"'{w}' has no automatic HIP conversion", tok.start, m["unsupported"][w])
                return w
            if w in self.cmake_var_rename:
                return self.cmake_var_rename[w]
            if w in self.cmake_var_approx:
                self._warn("HB006", f"'{w}' renamed to CMAKE_HIP_{w[11:]}, but its value differs on HIP",
                           tok.start, self.cmake_var_approx[w], INFO)
                return "CMAKE_HIP_" + w[11:]
            if w.startswith("CMAKE_CUDA_"):
                base = re.sub(r"_(DEBUG|RELEASE|RELWITHDEBINFO|MINSIZEREL)(_INIT)?$", "", w)
                if base == "CMAKE_CUDA_FLAGS":
                    return "CMAKE_HIP_" + w[11:]
                self._warn("HB001", f"CMake variable '{w}' has no automatic HIP conversion", tok.start)
            return w

        text = _WORD.sub(word, text)

        def genex(match: re.Match) -> str:
            kind, body = match.group(1), match.group(2)
            items = body.split(",")
            if kind.endswith("LANG_AND_ID"):
                if items and items[0] == "CUDA":
                    items[0] = "HIP"
                    items[1:] = ["Clang" if i == "NVIDIA" else i for i in items[1:]]
            else:
                items = ["HIP" if i == "CUDA" else i for i in items]
            return f"$<{kind}:{','.join(items)}>"

        text = _GENEX_LANG.sub(genex, text)
        text = _CUDA_STD.sub(lambda mm: f"hip_std_{'98' if mm.group(1) == '03' else mm.group(1)}", text)  # (HIP has no 03)
        text = _GENEX_COMPILER_ID.sub(
            lambda mm: f"$<HIP_COMPILER_{mm.group(1)}{(mm.group(2) or '').replace('NVIDIA', 'Clang')}>", text)
        text = self._genex_flags(text, tok)
        return text

    def _with_host(self, target: str, cmd: lx.Command) -> str:
        """A library's target (hip::hiprand) does not bring HIP's own include directory and platform
        macro to a C++ source that calls it, as CUDA::curand brings CUDA's: linked with hip::host too
        (once per command)."""
        if target == "hip::host" or cmd.lname not in ("target_link_libraries", "link_libraries") \
                or any(a.value == "hip::host" or a.value in self._HOST_TARGETS for a in cmd.args) \
                or cmd.start in self.host_linked:
            return ""
        self.host_linked.add(cmd.start)
        self._need("hip", self.index)
        return " hip::host"

    _HOST_TARGETS = frozenset({"CUDA::cudart", "CUDA::cudart_static", "CUDA::cuda_driver", "CUDA::toolkit"})

    def _genex_flags(self, text: str, tok: lx.Arg) -> str:
        """Translate the flags of ``$<COND:FLAGS>`` where COND selects the HIP (ex-CUDA) language or
        compiler, e.g. ``$<$<COMPILE_LANGUAGE:HIP>:…>``, ``$<$<HIP_COMPILER_ID:Clang>:…>`` (was
        ``CUDA_COMPILER_ID:NVIDIA``) or ``$<$<AND:$<COMPILE_LANGUAGE:HIP>,$<CONFIG:Debug>>:…>``."""
        if "HIP" not in text or "LANG" not in text and "HIP_COMPILER_ID" not in text:
            return text
        edits: list[tuple[int, int, str]] = []
        for cond_start, colon, close in _genexes(text):
            cond = text[cond_start:colon]
            payload = text[colon + 1:close]
            if not re.search(r"(COMPILE_LANGUAGE|COMPILE_LANG_AND_ID):(\w+,)*HIP\b|HIP_COMPILER_ID:", cond) or "$<" in payload:
                continue
            shell = payload.startswith("SHELL:")
            flags = payload[6:].split() if shell else [f for f in payload.split(";") if f]
            res = translate_nvcc_flags_ex(flags, offload_arch=self.options.offload_arch)
            self._flag_notes(res.notes, tok.start, quiet_unknown=True)
            if res.flags != flags:
                edits.append((colon + 1, close, ("SHELL:" + " ".join(res.flags)) if shell else ";".join(res.flags)))
        for start, end, new in reversed(edits):
            text = text[:start] + new + text[end:]
        return text


    def _cmd_try_compile(self, cmd, plan):
        """CMake picks a probe's language by its extension, and knows no `.cu` without CUDA enabled."""
        for tok in cmd.args:
            if tok.value.endswith(".cu"):
                self._warn("HB001", f"{cmd.name}() of '{tok.value}': CMake compiles a .cu file only as CUDA", tok.start,
                           "name the probe .hip (hipport convert --rename-cu does it, references included)")
                break

    _cmd_try_run = _cmd_try_compile

    def _cmd_add_custom_command(self, cmd, plan):
        """`COMMAND ${CMAKE_CUDA_COMPILER} -fatbin -gencode=… k.cu` (cuda-samples' driver-API builds):
        nvcc used as a tool, not as a language's compiler.  Its HIP counterpart as a tool is hipcc
        (found with find_program, run for AMD), with the options `hipport flags` gives: `-fatbin` →
        `--genco`, the code object bundle hipModuleLoad reads.  A command with a quoted or bracket argument is
        reported instead: its words cannot be told apart without configuring."""
        toks = cmd.tokens
        for c, tok in enumerate(toks):
            if not (tok.is_argument and c > 0 and toks[c - 1].is_argument and toks[c - 1].value == "COMMAND"
                    and _CUDA_COMPILER_WORD.fullmatch(tok.value)):
                continue
            end = c + 1
            while end < len(toks) and toks[end].is_argument and toks[end].value not in _CUSTOM_COMMAND_KEYWORDS:
                end += 1
            words = toks[c + 1:end]
            if tok.kind != lx.UNQUOTED or any(w.kind != lx.UNQUOTED or "$<" in w.text for w in words):
                self._warn("HB001", "a custom command runs the CUDA compiler; its nvcc options are not translated",
                           tok.start, "give it HIP's options (`hipport flags -- …`) and run hipcc")
                continue
            if not self.hipcc_found:
                self.hipcc_found = True
                plan.before.append(_FIND_HIPCC)
            # (hipcc picks NVIDIA's platform where it finds nvcc; the HIP language this build uses is AMD's)
            plan.args[c] = "${CMAKE_COMMAND} -E env HIP_PLATFORM=amd ${HIPPORT_HIPCC}"
            plan.kept.add(c)
            if words:
                flags, notes = translate_flag_string(" ".join(w.text for w in words),
                                                     offload_arch=self.options.offload_arch)
                self._flag_notes(notes, tok.start, quiet_unknown=True)
                if flags != " ".join(w.text for w in words):
                    plan.args[c + 1] = flags
                    for i in range(c + 2, end):
                        plan.args[i] = None
                plan.kept.update(range(c + 1, end))

    _cmd_add_custom_target = _cmd_add_custom_command
    _cmd_execute_process = _cmd_add_custom_command

    def _cmd_check_ipo_supported(self, cmd, plan):
        """CheckIPOSupported takes C, CXX, Fortran and CUDA, no HIP, and CUDA is not enabled after the
        port: the CUDA entry goes (CXX stands in when it was the only one)."""
        toks = cmd.tokens
        idx = [i for i, t in enumerate(toks) if t.is_argument]
        values = [toks[i].value for i in idx]
        if "LANGUAGES" not in values:
            return
        start = values.index("LANGUAGES") + 1
        stop = next((j for j in range(start, len(values)) if values[j] in ("RESULT", "OUTPUT")), len(values))
        languages = values[start:stop]
        if "CUDA" in languages:
            at = idx[start + languages.index("CUDA")]
            plan.args[at] = None if len(languages) > 1 else "CXX"
            plan.kept.add(at)
            self._warn("HB006", "check_ipo_supported() knows no HIP language: CUDA's entry is left out", toks[at].start,
                       "HIP's device code links with -foffload-lto, which this check does not test", INFO)

    # ------------------------------------------------------------------ conditions
    def _cmd_if(self, cmd, plan):
        """`if(CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")` compares with "Clang" after the port, as
        ``$<CUDA_COMPILER_ID:NVIDIA>`` does: the nvcc branch, whose flags are translated, stays
        the live one, and a Clang-CUDA branch beside it stays dead."""
        args = [i for i, t in enumerate(cmd.tokens) if t.is_argument]
        for a, b, c in zip(args, args[1:], args[2:]):
            left, op, right = (cmd.tokens[k] for k in (a, b, c))
            if left.value.strip("${}") == "CMAKE_CUDA_COMPILER_ID" and op.value in ("STREQUAL", "MATCHES") \
                    and right.kind != lx.BRACKET and right.value == "NVIDIA":
                plan.args[c] = right.text.replace("NVIDIA", "Clang")

    _cmd_elseif = _cmd_if

    # ------------------------------------------------------------------ flags
    def _flag_args(self, cmd: lx.Command, plan: _CommandPlan, indices: list[int], *, quiet_unknown=False) -> None:
        """Translate nvcc flags given as arguments ``indices`` of ``cmd``.

        Unquoted arguments separated only by whitespace are translated together (so
        ``-Xcompiler -fPIC`` stays a pair); a quoted argument holds a space-separated string.
        """
        toks = cmd.tokens
        run: list[int] = []

        def flush() -> None:
            if not run:
                return
            words = [toks[k].text for k in run]
            if any("$<" in w for w in words):
                run.clear()
                return
            if any(";" in w for w in words):  # `${CUDA_NVCC_FLAGS};--use_fast_math`: list items in one argument
                words = [piece for w in words for piece in _list_items(w)]
            res = translate_nvcc_flags_ex(words, offload_arch=self.options.offload_arch)
            self._flag_notes(res.notes, toks[run[0]].start, quiet_unknown=quiet_unknown)
            if res.flags != words:
                contiguous = all(self.text[toks[a].end:toks[b].start].strip() == "" for a, b in zip(run, run[1:]))
                if contiguous:
                    for k in run:
                        plan.args[k] = None
                    plan.args[run[0]] = " ".join(res.flags) if res.flags else None
                else:  # comments between the words: one option at a time, each in its own words
                    self._flag_units(plan, run, words)
            run.clear()

        for k in indices:
            tok = toks[k]
            if tok.kind == lx.UNQUOTED:
                run.append(k)
                continue
            flush()
            if tok.kind == lx.QUOTED and ";" in tok.value and "$<" not in tok.value:
                # `"${CUDA_NVCC_FLAGS};-gencode arch=compute_80,code=sm_80"`: a list in a string
                words = [word for item in _list_items(tok.value) for word in item.split()]
                res = translate_nvcc_flags_ex(words, offload_arch=self.options.offload_arch)
                self._flag_notes(res.notes, tok.start, quiet_unknown=quiet_unknown)
                if res.flags != words:
                    plan.args[k] = '"' + ";".join(res.flags) + '"'
            elif tok.kind == lx.QUOTED and tok.value.startswith("SHELL:"):  # `"SHELL:-gencode arch=…"`: one group
                new, notes = translate_flag_string(tok.value[6:], offload_arch=self.options.offload_arch)
                self._flag_notes(notes, tok.start, quiet_unknown=quiet_unknown)
                if new != tok.value[6:]:
                    plan.args[k] = f'"SHELL:{new}"' if new else None
            elif tok.kind == lx.QUOTED and "$<" not in tok.value:  # (a generator expression's: _genex_flags)
                new, notes = translate_flag_string(tok.value, offload_arch=self.options.offload_arch)
                self._flag_notes(notes, tok.start, quiet_unknown=quiet_unknown)
                if new != tok.value:
                    plan.args[k] = f'"{new}"'
        flush()

    def _flag_units(self, plan: _CommandPlan, run: list[int], words: list[str]) -> None:
        """Translate the words of ``run`` option by option, where comments between them must stay
        in place (a multi-line `set(CUDA_NVCC_FLAGS … -maxrregcount\n 32\n #-w\n …)`): an option and
        its value (the next word, past a comment) are dropped together; the translation goes on the
        option's first word.  One ``--offload-arch`` list for the run, as a whole translation gives."""
        if len(words) != len(run):  # (list items inside an argument: those words are not the tokens)
            words = [self.commands[self.index].tokens[k].text for k in run]
        archs_done = False
        i = 0
        while i < len(run):
            span, one = translate_option_at(words, i, offload_arch=self.options.offload_arch)
            flags = one.flags
            if any(f.startswith("--offload-arch=") for f in flags) and words[i] not in flags:
                if archs_done:
                    flags = [f for f in flags if not f.startswith("--offload-arch=")]
                archs_done = True
            if flags != words[i:i + span]:
                plan.args[run[i]] = " ".join(flags) if flags else None
                for k in run[i + 1:i + span]:
                    plan.args[k] = None
            i += span

    # ------------------------------------------------------------------ command handlers
    def _append_early_flags(self, cmd, plan) -> None:
        """After the first project()/enable_language(): the flags set above it join the toolchain's."""
        line = f'string(APPEND CMAKE_HIP_FLAGS " ${{{_EARLY_FLAGS}}}")'
        if cmd.start == self.first_language and (self.early_flags or _EARLY_FLAGS in self.text) and line not in self.text:
            plan.after.append(line)

    def _cmd_project(self, cmd, plan):
        self._append_early_flags(cmd, plan)
        self._language_args(cmd, plan, skip=1)
        # `project(x LANGUAGES CUDA)`: HIP's CMake package (find_package(hip), FindThreads) needs a
        # C or C++ compiler, which nvcc's projects got implicitly
        toks = cmd.tokens
        args = [i for i, t in enumerate(toks) if t.is_argument][1:]
        values = [toks[i].value for i in args]
        if "LANGUAGES" in values:
            langs = args[values.index("LANGUAGES") + 1:]
        elif values and values[0] not in _PROJECT_KEYWORDS:
            langs = args
        else:
            return
        langs = [i for i in langs if toks[i].value not in _PROJECT_KEYWORDS][:8]
        names = {toks[i].value for i in langs}
        if "CUDA" in names and not names & {"C", "CXX"}:
            first = next(i for i in langs if toks[i].value == "CUDA")
            if plan.args.get(first) == "HIP":
                plan.args[first] = "HIP CXX"

    def _cmd_enable_language(self, cmd, plan):
        self._append_early_flags(cmd, plan)
        self._language_args(cmd, plan, skip=0)

    def _cmd_check_language(self, cmd, plan):
        self._language_args(cmd, plan, skip=0)

    def _language_args(self, cmd, plan, skip):
        toks = cmd.tokens
        arg_idx = [i for i, t in enumerate(toks) if t.is_argument][skip:]
        has_hip = any(toks[i].value == "HIP" for i in arg_idx)
        for i in arg_idx:
            if toks[i].kind == lx.UNQUOTED and toks[i].value == "CUDA":
                plan.args[i] = None if has_hip else "HIP"
                has_hip = True

    def _cmd_cmake_minimum_required(self, cmd, plan):
        if not self.cuda_language:
            return
        toks = cmd.tokens
        for i, t in enumerate(toks[:-1]):
            if t.value == "VERSION" and toks[i + 1].is_argument:
                ver = toks[i + 1]
                low, sep, high = ver.value.partition("...")
                try:
                    parts = tuple(int(p) for p in low.split(".")[:2])
                except ValueError:
                    return
                if parts < HIP_MIN_CMAKE:
                    plan.args[i + 1] = "3.21" + (sep + high if sep else "")
                    self._warn("HB008", f"cmake_minimum_required raised from {low} to 3.21 (first CMake with the "
                               "HIP language)", ver.start, severity=INFO)
                return

    def _cmd_find_package(self, cmd, plan):
        toks = cmd.tokens
        idx = [i for i, t in enumerate(toks) if t.is_argument]
        if not idx or toks[idx[0]].value not in ("CUDAToolkit", "CUDA"):
            return
        plan.args[idx[0]] = "hip"
        if toks[idx[0]].value == "CUDA" and not self.project_has_cuda:
            # FindCUDA projects compile .cu files without the CUDA language; HIP needs its language
            plan.after.append("enable_language(HIP)")
        for i in idx[1:]:
            v = toks[i].value
            if _VERSION.match(v) or v == "EXACT":
                plan.args[i] = None
            elif v in ("COMPONENTS", "OPTIONAL_COMPONENTS"):
                self._warn("HB001", "find_package(CUDAToolkit) components have no HIP equivalent", toks[i].start)
        self._need("hip", self.index)

    def _cmd_set(self, cmd, plan):
        self._set_like(cmd, plan, name_pos=0)

    def _cmd_list(self, cmd, plan):
        args = cmd.args
        if args and args[0].value in ("APPEND", "PREPEND", "INSERT"):
            self._set_like(cmd, plan, name_pos=1, skip_extra=1 if args[0].value == "INSERT" else 0)

    def _cmd_string(self, cmd, plan):
        args = cmd.args
        if args and args[0].value in ("APPEND", "PREPEND"):
            self._set_like(cmd, plan, name_pos=1)

    def _set_like(self, cmd, plan, name_pos, skip_extra=0):
        toks = cmd.tokens
        idx = [i for i, t in enumerate(toks) if t.is_argument]
        if len(idx) <= name_pos:
            return
        var = toks[idx[name_pos]].value
        values = idx[name_pos + 1 + skip_extra:]
        stop = next((n for n, i in enumerate(values) if toks[i].value in _SET_STOP), len(values))
        values = values[:stop]
        if var in ("CMAKE_CUDA_COMPILER", "CMAKE_CUDA_HOST_COMPILER") and values:
            # `set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)`: as CMAKE_HIP_COMPILER it would
            # replace the toolchain's clang with nvcc; left as it was, it sets a variable nothing reads
            plan.kept.add(idx[name_pos])
            self._warn("HB001", f"'{var}' names a CUDA compiler; left unchanged (HIP's compiler comes from the "
                       "toolchain)", toks[idx[name_pos]].start, "remove the setting, or set CMAKE_HIP_COMPILER to clang++")
            return
        if any((m := _ANY_VAR_REF.fullmatch(toks[i].value)) and m.group(1) in self._TOOLKIT_INCLUDES
               for i in values if toks[i].kind != lx.BRACKET):
            self._toolkit_include_variable(cmd, plan, var, values)
        if var in ("CMAKE_CUDA_ARCHITECTURES",):
            self._arch_values(cmd, plan, values)
        elif var == "CMAKE_CUDA_STANDARD" and values and toks[values[0]].value == "03":
            plan.args[values[0]] = "98"
        elif _FLAG_VARIABLES.match(var) or var in self.flag_variables and not var.startswith("CMAKE_"):
            self._flag_args(cmd, plan, values, quiet_unknown=var in self.flag_variables)
            if cmd.lname == "set" and re.fullmatch(r"CMAKE_CUDA_FLAGS(_[A-Z]+)?", var):
                self._join_flag_string(cmd, plan, values)
            if var == "CMAKE_CUDA_FLAGS" and values and cmd.start > self.first_language or \
                    var == "CMAKE_CUDA_FLAGS_INIT" and values and cmd.start > self.first_project:
                self._keep_initial_flags(cmd, plan, values)

    def _join_flag_string(self, cmd, plan, values: list[int]) -> None:
        """`set(CMAKE_CUDA_FLAGS ${CMAKE_CUDA_FLAGS} "-g -G")`: several arguments make a list, and
        the flags variables are strings.  With nvcc the referenced variable was empty, so the list
        had one item; HIP's holds the toolchain's flags, and the `;` between the items would reach
        the compile command.  The arguments are joined into one string, as the author meant."""
        toks = cmd.tokens
        if len(values) < 2 or not any(toks[i].kind == lx.UNQUOTED and "${" in toks[i].text for i in values):
            return
        if any(toks[i].kind == lx.BRACKET for i in values):
            return
        pieces = []
        for i in values:
            text = plan.args.get(i, toks[i].text)
            if text is None:
                continue
            if toks[i].kind == lx.QUOTED and text.startswith('"') and text.endswith('"'):
                text = text[1:-1]
            elif toks[i].kind == lx.UNQUOTED:
                text = re.sub(r'(?<!\\)"', '\\"', text)  # (legacy `-DX="y"`: its quotes are characters)
            if text:
                pieces.append(text)
        plan.args[values[0]] = '"' + " ".join(pieces) + '"'
        for i in values[1:]:
            plan.args[i] = None

    def _keep_initial_flags(self, cmd, plan, values: list[int]) -> None:
        """`set(CMAKE_CUDA_FLAGS "-O3")` would drop the flags a toolchain file put in
        CMAKE_HIP_FLAGS_INIT (Debian's ROCm needs --rocm-path there), and `string(APPEND
        CMAKE_CUDA_FLAGS "-x")` would glue onto them: the first keeps them, the second gets a space.
        The same holds for `set(CMAKE_CUDA_FLAGS_INIT "-std=c++17")` below project() (iEDA's, before
        its enable_language(CUDA)): it becomes `set(CMAKE_HIP_FLAGS_INIT "${CMAKE_HIP_FLAGS_INIT} …")`."""
        toks = cmd.tokens
        first = values[0]
        text = plan.args.get(first, toks[first].text)
        if text is None or toks[first].kind != lx.QUOTED and cmd.name.lower() == "string":
            return
        body = text[1:-1] if text.startswith('"') else text
        if cmd.name.lower() == "set" and not any("CMAKE_CUDA_FLAGS" in toks[i].text or "CMAKE_HIP_FLAGS" in toks[i].text
                                                for i in values):
            plan.args[first] = '"${CMAKE_HIP_FLAGS_INIT} ' + body + '"'
        elif cmd.name.lower() == "string" and body and not body.startswith(" "):
            plan.args[first] = '" ' + body + '"'

    def _arch_values(self, cmd, plan, values: list[int]) -> None:
        toks = cmd.tokens
        if not values:
            return
        words = [toks[i].value for i in values]
        joined = ";".join(words)
        if joined.upper() in ("OFF", "FALSE", "NO", "0", "") or all(w.startswith("gfx") for w in words):
            return
        if not _ARCH_VALUE.match(joined):
            self._warn("HB001", f"CUDA architectures '{joined}' cannot be mapped to AMD targets automatically",
                       toks[values[0]].start, "set HIP_ARCHITECTURES / CMAKE_HIP_ARCHITECTURES to gfx targets")
            return
        targets = ";".join(self.options.offload_arch)
        self._warn("HB007", f"CUDA architectures '{joined}' replaced by AMD targets '{targets}'",
                   toks[values[0]].start, "choose targets with --offload-arch", INFO)
        plan.args[values[0]] = f'"{targets}"'
        for i in values[1:]:
            plan.args[i] = None

    def _cmd_set_target_properties(self, cmd, plan):
        toks = cmd.tokens
        idx = [i for i, t in enumerate(toks) if t.is_argument]
        names = [toks[i].value for i in idx]
        if "PROPERTIES" not in names:
            return
        p = names.index("PROPERTIES") + 1
        for j in range(p, len(idx) - 1, 2):
            if names[j] == "CUDA_ARCHITECTURES":
                self._arch_values(cmd, plan, [idx[j + 1]])
            elif names[j] == "CUDA_SEPARABLE_COMPILATION":
                self._separable(plan, names[:p - 1], idx[j], names[j + 1])
            elif names[j] == "CUDA_STANDARD" and names[j + 1] == "03":
                plan.args[idx[j + 1]] = "98"  # HIP_STANDARD has no 03 (C++03 is C++98 with fixes)
            elif names[j] in _COMPILE_FLAG_PROPERTIES:
                self._flag_args(cmd, plan, [idx[j + 1]], quiet_unknown=True)
            elif names[j] == "LINKER_LANGUAGE":
                self._language_value(cmd, plan, [idx[j + 1]])

    def _cmd_set_property(self, cmd, plan):
        toks = cmd.tokens
        idx = [i for i, t in enumerate(toks) if t.is_argument]
        names = [toks[i].value for i in idx]
        if "PROPERTY" in names:
            p = names.index("PROPERTY")
            if p + 1 < len(names) and names[p + 1] == "CUDA_ARCHITECTURES":
                self._arch_values(cmd, plan, idx[p + 2:])
            if p + 2 < len(names) and names[p + 1] == "CUDA_SEPARABLE_COMPILATION" and names[:1] == ["TARGET"]:
                self._separable(plan, names[1:p], idx[p + 1], names[p + 2])
            if p + 1 < len(names) and names[p + 1] in ("LANGUAGE", "LINKER_LANGUAGE"):
                self._language_value(cmd, plan, idx[p + 2:])
            if p + 1 < len(names) and names[p + 1] in _COMPILE_FLAG_PROPERTIES and names[:1] in (["SOURCE"], ["TARGET"]):
                self._flag_args(cmd, plan, idx[p + 2:], quiet_unknown=True)

    def _separable(self, plan, targets: list[str], name_at: int, value: str) -> None:
        """CUDA_SEPARABLE_COMPILATION ON: HIP's relocatable device code is -fgpu-rdc when compiling
        and `-fgpu-rdc --hip-link` when linking (CMake has no HIP property for it).  The property
        keeps a name of hipport's own, so the command keeps its shape."""
        if value.upper() not in ("ON", "TRUE", "YES", "1", "Y"):
            plan.args[name_at] = "HIPPORT_SEPARABLE_COMPILATION"
            return
        plan.args[name_at] = "HIPPORT_SEPARABLE_COMPILATION"
        for target in targets:
            plan.after.append(f'target_compile_options({target} PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc>")')
            plan.after.append(self._device_link(target))

    def _device_link(self, target: str) -> str:
        """Where the relocatable device code is linked: at the target's own link (an executable, a
        shared library) or, for a static or object library, at each consumer's, as CMake's CUDA
        support does.  Only on a HIP link (a target of C++ sources alone links with g++).  Clang 15
        takes device code from an archive only when it is named `-L dir -l name`."""
        kind = self.library_kinds.get(target, "EXECUTABLE")
        if kind in ("STATIC", "OBJECT"):
            archive = f" -L$<TARGET_FILE_DIR:{target}> -l$<TARGET_FILE_BASE_NAME:{target}>" if kind == "STATIC" else ""
            return f'target_link_options({target} INTERFACE "$<$<LINK_LANGUAGE:HIP>:SHELL:-fgpu-rdc --hip-link{archive}>")'
        return f'target_link_options({target} PRIVATE "$<$<LINK_LANGUAGE:HIP>:SHELL:-fgpu-rdc --hip-link>")'

    def _cmd_set_source_files_properties(self, cmd, plan):
        toks = cmd.tokens
        idx = [i for i, t in enumerate(toks) if t.is_argument]
        names = [toks[i].value for i in idx]
        for j, n in enumerate(names[:-1]):
            if n == "LANGUAGE":
                self._language_value(cmd, plan, [idx[j + 1]])
            elif n in _COMPILE_FLAG_PROPERTIES and "PROPERTIES" in names[:j] and \
                    any(f.endswith((".cu", ".cuh")) for f in names[:names.index("PROPERTIES")]):
                # nvcc's options for a CUDA source: the compiler is clang now
                self._flag_args(cmd, plan, [idx[j + 1]], quiet_unknown=True)

    def _language_value(self, cmd, plan, values):
        """A source's LANGUAGE or a target's LINKER_LANGUAGE `CUDA`: the project has no CUDA
        language after the port (CMake's generate step fails on a CUDA link), HIP is its place."""
        for i in values:
            if cmd.tokens[i].value == "CUDA":
                plan.args[i] = "HIP" if cmd.tokens[i].kind == lx.UNQUOTED else '"HIP"'

    def _cmd_target_link_libraries(self, cmd, plan):
        self._link_names(cmd, plan, skip=1)

    def _cmd_link_libraries(self, cmd, plan):
        self._link_names(cmd, plan, skip=0)

    def _link_names(self, cmd, plan, skip):
        names = self.map["link_names"]
        toks = cmd.tokens
        for i in [i for i, t in enumerate(toks) if t.is_argument][skip:]:
            cuda_target = names.get(toks[i].value)
            if cuda_target is not None and toks[i].kind == lx.UNQUOTED:
                entry = self.map["targets"][cuda_target]
                plan.args[i] = entry["target"]
                self._need(entry["package"], self.index)

    # the toolkit's include directory -----------------------------------------------------
    _TOOLKIT_INCLUDES = frozenset({"CUDAToolkit_INCLUDE_DIRS", "CUDA_INCLUDE_DIRS", "CUDA_TOOLKIT_INCLUDE",
                                   "CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES"})

    def _cmd_include_directories(self, cmd, plan):
        self._toolkit_includes(cmd, plan, target=None)

    def _cmd_target_include_directories(self, cmd, plan):
        args = cmd.args
        if args:
            self._toolkit_includes(cmd, plan, target=args[0].value)

    def _toolkit_include_variable(self, cmd, plan, var: str, values: list[int]) -> None:
        """`list(APPEND include_dirs src ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})`: HIP's include
        directory in its place, and the targets that later take `${include_dirs}` get hip::host
        (a host .cpp including hip_runtime.h needs its platform macro)."""
        toks = cmd.tokens
        for i in values:
            m = _ANY_VAR_REF.fullmatch(toks[i].value) if toks[i].kind != lx.BRACKET else None
            if m and m.group(1) in self._TOOLKIT_INCLUDES:
                plan.args[i] = '"${hip_INCLUDE_DIRS}"' if toks[i].kind == lx.QUOTED else "${hip_INCLUDE_DIRS}"
                plan.kept.add(i)
        self.toolkit_include_variables.add(var)
        self._need("hip", self.index)

    def _toolkit_includes(self, cmd, plan, target: str | None) -> None:
        """`target_include_directories(app PRIVATE ${CUDAToolkit_INCLUDE_DIRS})` lets a C++ source
        include the CUDA runtime's headers.  HIP's need their directory and the platform macro, which
        hip::host brings: the directory becomes HIP's, and the target (or, for include_directories,
        every later target of the directory) links hip::host."""
        toks = cmd.tokens
        scope = "PRIVATE"
        found = False
        for i, tok in enumerate(toks):
            if not tok.is_argument:
                continue
            if tok.value in ("PUBLIC", "PRIVATE", "INTERFACE"):
                scope = tok.value
            m = _ANY_VAR_REF.fullmatch(tok.value) if tok.kind != lx.BRACKET else None
            if m and m.group(1) in self._TOOLKIT_INCLUDES:
                plan.args[i] = '"${hip_INCLUDE_DIRS}"' if tok.kind == lx.QUOTED else "${hip_INCLUDE_DIRS}"
                plan.kept.add(i)
                found = True
            elif m and m.group(1) in self.toolkit_include_variables:
                found = True
        if found:
            self._need("hip", self.index)
            if target is None:
                plan.after.append("link_libraries(hip::host)")
            else:  # (CMake rejects a target linked with and without scope keywords)
                keyword = "" if self.plain_links.get(target) else f" {scope if scope != 'SYSTEM' else 'PRIVATE'}"
                plan.after.append(f"target_link_libraries({target}{keyword} hip::host)")

    # FindCUDA --------------------------------------------------------------------------
    def _cmd_cuda_include_directories(self, cmd, plan):
        plan.name = "include_directories"

    def _cmd_cuda_add_cublas_to_target(self, cmd, plan):
        self._add_lib_to_target(cmd, plan, "CUDA::cublas")

    def _cmd_cuda_add_cufft_to_target(self, cmd, plan):
        self._add_lib_to_target(cmd, plan, "CUDA::cufft")

    def _add_lib_to_target(self, cmd, plan, cuda_target):
        entry = self.map["targets"][cuda_target]
        args = cmd.args
        if not args:
            return
        plan.name = "target_link_libraries"
        first = cmd.tokens.index(args[0])
        plan.args[first] = f"{args[0].text} {entry['target']}"
        self._need(entry["package"], self.index)

    def _cmd_cuda_add_executable(self, cmd, plan):
        self._cuda_add_target(cmd, plan, "add_executable")

    def _cmd_cuda_add_library(self, cmd, plan):
        self._cuda_add_target(cmd, plan, "add_library")

    def _cuda_add_target(self, cmd, plan, new_name):
        plan.name = new_name
        toks = cmd.tokens
        idx = [i for i, t in enumerate(toks) if t.is_argument]
        if not idx:
            return
        target = toks[idx[0]].text
        names = [toks[i].value for i in idx]
        if "OPTIONS" in names:
            o = names.index("OPTIONS")
            for config, words in _option_sections([toks[i] for i in idx[o + 1:]]).items():
                res = translate_nvcc_flags_ex(words, offload_arch=self.options.offload_arch)
                self._flag_notes(res.notes, toks[idx[o]].start)
                if res.flags:
                    plan.after.append(_hip_compile_options(target, res.flags, config))
            for i in idx[o:]:
                plan.args[i] = None
        if self.uses_nvcc_flags_var:
            plan.after.append(f'target_compile_options({target} PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:'
                              '${CUDA_NVCC_FLAGS}>")')
        self._sources(cmd, plan, after_options=True)

    def _cmd_aux_source_directory(self, cmd, plan):
        """`aux_source_directory(. SOURCES)` collects the sources of the enabled languages by
        extension, and HIP's is `.hip`: the `.cu` files are globbed into the variable too.  (The
        targets made from it get their `.cu` sources the HIP language, as for a file(GLOB).)"""
        args = cmd.args
        if len(args) != 2 or args[0].kind == lx.BRACKET:
            return
        folder, var = args[0].value, args[1].value
        pattern = "*.cu" if folder in (".", "./") else folder.rstrip("/") + "/*.cu"
        if not pattern.startswith(("/", "${")):
            pattern = "${CMAKE_CURRENT_SOURCE_DIR}/" + pattern
        lines = [f'file(GLOB _hipport_cu_sources "{pattern}")', f"list(APPEND {var} ${{_hipport_cu_sources}})"]
        indent, _ = self._line_bounds(cmd)
        if (self.newline + indent).join(lines) not in self.text:
            plan.after += lines

    def _cmd_add_executable(self, cmd, plan):
        self._sources(cmd, plan)

    def _cmd_add_library(self, cmd, plan):
        self._sources(cmd, plan)

    def _cmd_target_sources(self, cmd, plan):
        self._sources(cmd, plan)

    def _sources(self, cmd, plan, after_options=False):
        """Give the target's ``.cu`` sources the HIP language (or rename them)."""
        toks = cmd.tokens
        idx = [i for i, t in enumerate(toks) if t.is_argument]
        if len(idx) < 2:
            return
        names = [toks[i].value for i in idx]
        if cmd.lname == "add_library" and any(n in ("IMPORTED", "ALIAS", "INTERFACE") for n in names[1:3]):
            return
        if "OPTIONS" in names:
            cut = names.index("OPTIONS")
            idx, names = idx[:cut], names[:cut]
        literal: list[str] = []
        has_cu = dynamic = False
        for i, n in zip(idx[1:], names[1:]):
            if n in _TARGET_KEYWORDS:
                continue
            if "${" in n or "$<" in n:
                dynamic = True
                # `$<$<CONFIG:Debug>:debug.cu>`: a source named inside a generator expression
                literal += [c for c in re.findall(r"(?<=[:;])(?:\$\{\w+\}/)?[\w./+-]+\.cu(?=[;>])", n)
                            if c not in self.covered_sources and c not in literal]
                continue
            renamed = self.options.renames.get(n)
            if renamed is not None:
                plan.args[i] = f'"{renamed}"' if toks[i].kind == lx.QUOTED else renamed
                continue
            if n.endswith(".cu"):
                has_cu = True
                if n not in self.covered_sources and n not in literal:
                    literal.append(n)
        if literal:
            self.covered_sources.update(literal)
            files = " ".join(_quote(n) for n in literal)
            plan.after.append(f"set_source_files_properties({files} PROPERTIES LANGUAGE HIP)")
        elif dynamic and not has_cu and cmd.lname != "target_sources" and (
                self._file_lists_cu_sources() or cmd.start in self._in_functions()):
            target = toks[idx[0]].text
            marker = f"get_target_property(_hipport_sources {target} SOURCES)"
            if marker not in self.text:
                plan.after += [marker,
                               'list(FILTER _hipport_sources INCLUDE REGEX "\\\\.cu$")',
                               "set_source_files_properties(${_hipport_sources} PROPERTIES LANGUAGE HIP)"]

    def _in_functions(self) -> frozenset:
        """Offsets of the commands inside a function() or macro() body: there the sources come from
        the callers (HeCBench's `add_hecbench_benchmark(… SOURCES main.cu)` through
        cmake_parse_arguments), in this file or in another that includes this one."""
        if self._function_commands is None:
            inside, depth = set(), 0
            for c in self.commands:
                if c.lname in ("function", "macro"):
                    depth += 1
                elif c.lname in ("endfunction", "endmacro"):
                    depth = max(0, depth - 1)
                elif depth:
                    inside.add(c.start)
            self._function_commands = frozenset(inside)
        return self._function_commands

    def _file_lists_cu_sources(self) -> bool:
        """Whether a variable of this file may hold ``.cu`` sources (set/list/file(GLOB))."""
        if self._lists_cu is None:
            self._lists_cu = any(
                cmd.lname in ("set", "list", "file") and any(re.search(r"\.cu\b(?!h)", a.value) for a in cmd.args)
                and not (cmd.args and cmd.args[1:2] and cmd.args[1].value == "_hipport_sources")  # (our own fix-up)
                or cmd.lname == "file" and cmd.args and cmd.args[0].value in ("GLOB", "GLOB_RECURSE")
                and any(_glob_matches_cu(a.value) for a in cmd.args[2:])  # `src/*.c*`, `src/*`
                or cmd.lname == "aux_source_directory"
                for cmd in self.commands)
        return self._lists_cu

    # ------------------------------------------------------------------ find_package placement
    def _place_packages(self, commands, plans) -> None:
        missing = [p for p in self.needed_packages if p not in self.found_packages]
        if not missing:
            return
        required = " REQUIRED" if self.find_required else ""
        if self.cuda_find_index is not None:
            extra = [p for p in missing if p != "hip"]
            for p in extra:
                plans[self.cuda_find_index].after.extend([f"find_package({p}{required})", *_flat_include_lines(p)])
            return
        for pkg in missing:
            first = self.needed_packages[pkg]
            plans[first].before.extend([f"find_package({pkg} REQUIRED)", *_flat_include_lines(pkg)])

    # ------------------------------------------------------------------ edits
    def _line_bounds(self, cmd: lx.Command) -> tuple[str, int]:
        """Indentation of the command's line and where a line inserted after it goes."""
        line_start = self.text.rfind("\n", 0, cmd.start) + 1
        indent = self.text[line_start:cmd.start]
        if indent.strip():
            indent = ""
        end = self.text.find("\n", cmd.close)
        end = len(self.text) if end < 0 else end
        rest = self.text[cmd.close + 1:end]
        if rest.strip() and not (rest.lstrip().startswith("#") and not rest.lstrip().startswith("#[")):
            insert_at = cmd.close + 1
        else:
            insert_at = end - 1 if end > 0 and self.text[end - 1] == "\r" and end <= len(self.text) else end
            if insert_at < cmd.close + 1:
                insert_at = cmd.close + 1
        return indent, insert_at

    def _edits(self, commands, plans) -> list[Edit]:
        edits: list[Edit] = []
        nl = self.newline
        for cmd, plan in zip(commands, plans):
            toks = cmd.tokens
            if plan.name is not None and plan.name != cmd.name:
                edits.append(Edit(cmd.start, cmd.start + len(cmd.name), plan.name.encode("latin-1"), "cmake-command"))
            gone: set[int] = set()  # removed with their whole line
            floor = 0
            for i, new in sorted(plan.args.items()):
                tok = toks[i]
                if i in gone:
                    continue
                if new is None:
                    prev_end = toks[i - 1].end if i > 0 else cmd.open + 1
                    gap = self.text[prev_end:tok.start]
                    line = self._removed_line(toks, plan, i) if gap.strip() or prev_end < floor else None
                    if line is not None:  # a comment (or a removed line) above it, nothing else left on its line
                        edits.append(Edit(line[0], line[1], b"", "cmake-arg"))
                        gone.update(line[2])
                        floor = line[1]
                        continue
                    if gap.strip():  # a comment before it: keep the comment
                        prev_end = tok.start
                    prev_end = max(prev_end, floor)  # (not into a line already removed)
                    if i == 0 and i + 1 < len(toks):
                        edits.append(Edit(tok.start, toks[i + 1].start, b"", "cmake-arg"))
                    else:
                        edits.append(Edit(prev_end, tok.end, b"", "cmake-arg"))
                elif new != tok.text:
                    edits.append(Edit(tok.start, tok.end, new.encode("latin-1"), "cmake-arg"))
            if plan.before or plan.after:
                indent, insert_at = self._line_bounds(cmd)
                if plan.before:
                    text = "".join(f"{line}{nl}{indent}" for line in plan.before)
                    edits.append(Edit(cmd.start, cmd.start, text.encode("latin-1"), "cmake-insert"))
                if plan.after:
                    text = "".join(f"{nl}{indent}{line}" for line in plan.after)
                    edits.append(Edit(insert_at, insert_at, text.encode("latin-1"), "cmake-insert"))
        return edits


    def _removed_line(self, toks: list[lx.Arg], plan: _CommandPlan, i: int) -> tuple[int, int, list[int]] | None:
        """Where the removed argument ``toks[i]`` starts its line and every other word of the line
        (`-gencode arch=…`) goes too: the whole line, newline included, so that a multi-line list
        with comments (`#-v` above it) keeps no blank line.  ``(start, end, removed indices)``, or
        None when something stays on the line."""
        line_start = self.text.rfind("\n", 0, toks[i].start) + 1
        if self.text[line_start:toks[i].start].strip():
            return None
        eol = self.text.find("\n", toks[i].start)
        if eol < 0:
            return None
        words = [k for k in range(i, len(toks)) if toks[k].start < eol]
        if any(plan.args.get(k, "") is not None for k in words) or \
                self.text[toks[words[-1]].end:eol].strip():
            return None
        return line_start, eol + 1, words


#: FindCUDA's configuration keywords in `cuda_add_*(… OPTIONS … RELEASE … DEBUG …)`, as $<CONFIG:…> spells them
_FINDCUDA_CONFIGS = {"DEBUG": "Debug", "RELEASE": "Release", "MINSIZEREL": "MinSizeRel", "RELWITHDEBINFO": "RelWithDebInfo"}


def _option_sections(tokens: list[lx.Arg]) -> dict[str, list[str]]:
    """The nvcc options of `cuda_add_library(… OPTIONS a RELEASE b DEBUG c)` by configuration
    (`""`: every one), as FindCUDA's CUDA_PARSE_NVCC_OPTIONS reads them: a configuration keyword
    opens a section for that configuration.  A quoted argument holding several options
    (`"-gencode arch=… -cudart static"`) is split into them, as nvcc splits it."""
    sections: dict[str, list[str]] = {"": []}
    config = ""
    for tok in tokens:
        if tok.kind == lx.UNQUOTED and tok.value in _FINDCUDA_CONFIGS:
            config = _FINDCUDA_CONFIGS[tok.value]
            sections.setdefault(config, [])
        elif tok.kind == lx.QUOTED:
            sections[config] += tok.value.split()
        elif tok.kind == lx.UNQUOTED:
            sections[config] += _list_items(tok.value)
        else:
            sections[config].append(tok.value)
    return sections


def _hip_compile_options(target: str, flags: list[str], config: str = "") -> str:
    """`target_compile_options` for the HIP sources of *target* (in configuration *config* only,
    when given).  The flags are one generator expression in one quoted argument: a `"` or `\\`
    of a flag (`-DUSE_CUDA="__USE_CUDA__"`) is escaped and a `>` spelled `$<ANGLE-R>`, so that
    neither ends the argument or the expression early."""
    payload = ";".join(f.replace("\\", "\\\\").replace('"', '\\"').replace(">", "$<ANGLE-R>") for f in flags)
    cond = f"$<AND:$<COMPILE_LANGUAGE:HIP>,$<CONFIG:{config}>>" if config else "$<COMPILE_LANGUAGE:HIP>"
    return f'target_compile_options({target} PRIVATE "$<{cond}:{payload}>")'


def _glob_matches_cu(pattern: str) -> bool:
    """Could this file(GLOB) pattern pick a .cu source (`*.c*`, `*`, `*.cu`)?"""
    base = pattern.rsplit("/", 1)[-1]
    return "*" in base and fnmatch.fnmatchcase("x.cu", base)


def _list_items(text: str) -> list[str]:
    """The items of a CMake list written in one argument (`a;b`; `\\;` is no separator)."""
    return [item for item in re.split(r"(?<!\\);", text) if item]


_HERE = lazy_re.compile(r"\$\{CMAKE_CURRENT_(?:SOURCE|LIST)_DIR\}/")


def cuda_language_sources(data: bytes) -> list[str]:
    """Sources a CMake file compiles as CUDA whatever their extension: ``set_source_files_properties(
    x.notcu PROPERTIES LANGUAGE CUDA)`` or ``set_property(SOURCE x.cpp PROPERTY LANGUAGE CUDA)``.
    ``hipport convert`` translates them as CUDA sources although their names do not say so.
    Names built from variables are left out; they cannot be resolved without configuring."""
    if b"CUDA" not in data or b"LANGUAGE" not in data:
        return []
    try:
        commands = lx.parse(data.decode("latin-1"))
    except lx.CMakeSyntaxError:
        return []
    found: list[str] = []
    for cmd in commands:
        values = [a.value for a in cmd.args]
        if cmd.lname == "set_source_files_properties" and "PROPERTIES" in values:
            cut = values.index("PROPERTIES")
            names, props = values[:cut], values[cut + 1:]
        elif cmd.lname == "set_property" and values[:1] == ["SOURCE"] and "PROPERTY" in values:
            cut = values.index("PROPERTY")
            names, props = [v for v in values[1:cut] if v not in ("DIRECTORY", "TARGET_DIRECTORY")], values[cut:]
        else:
            continue
        if any(a == "LANGUAGE" and b == "CUDA" for a, b in zip(props, props[1:])):
            found += [n for part in names for n in _HERE.sub("", part).split(";") if n and "$" not in n]
    return found


def _genex_depth(text: str) -> int:
    """Generator expressions opened minus closed in *text* (its `>` that close one)."""
    depth = 0
    i = 0
    while i < len(text):
        if text.startswith("$<", i):
            depth += 1
            i += 2
            continue
        if text[i] == ">" and text[i - 1:i] != "-":
            depth -= 1
        i += 1
    return depth


def _genexes(text: str) -> list[tuple[int, int, int]]:
    """Top-level generator expressions ``$<COND:PAYLOAD>`` of ``text``: offsets of COND's start,
    of the ``:`` ending COND, and of the closing ``>``.  Expressions without a payload are
    skipped."""
    found = []
    i = 0
    n = len(text)
    while i < n:
        if not text.startswith("$<", i):
            i += 1
            continue
        depth, j, colon = 1, i + 2, -1
        while j < n and depth:
            if text.startswith("$<", j):
                depth += 1
                j += 2
                continue
            if text[j] == ">":
                depth -= 1
            elif text[j] == ":" and depth == 1 and colon < 0:
                colon = j
            j += 1
        if depth:
            break  # unbalanced: leave it alone
        if colon > 0:
            found.append((i + 2, colon, j - 1))
        i = j
    return found


def _quote(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_./+-]+", name) else '"' + name.replace('"', '\\"') + '"'


def convert_cmake(data: bytes | str, path: str = "CMakeLists.txt", *, offload_arch=None,
                  renames: Mapping[str, str] | None = None) -> tuple[bytes | str, list[Diagnostic]]:
    """Convert one CMake file (``CMakeLists.txt`` or ``*.cmake``) from CUDA to HIP.

    ``offload_arch``: AMD targets that replace CUDA architectures (default gfx90a, gfx942,
    gfx1100).  ``renames``: source names as written in this file → new names (for
    ``convert --rename-cu``); a renamed ``.hip`` source needs no ``LANGUAGE`` property.
    Returns the new text (bytes for bytes, str for str; identical outside the rewritten spans) and
    the diagnostics.
    """
    options = CMakeOptions(parse_offload_arch(offload_arch), dict(renames or {}))
    if isinstance(data, str):
        out, diags = _Converter(data.encode("utf-8", "surrogateescape"), path, options).run()
        return out.decode("utf-8", "surrogateescape"), diags
    return _Converter(data, path, options).run()
