"""Makefiles: ``nvcc`` → ``hipcc`` and nvcc flags → hipcc flags, as edits over the original bytes.

A Makefile is not parsed as a whole (make's grammar depends on the shell and on variable values
known only at run time).  What is rewritten is narrow and recognisable:

* a word that runs nvcc (``nvcc``, ``/usr/local/cuda/bin/nvcc``, ``$(CUDA_PATH)/bin/nvcc``)
  becomes ``hipcc``;
* in the value of a flags variable (``NVCCFLAGS``, ``CUDAFLAGS``, ``GENCODE_FLAGS``… — any
  variable whose name contains ``NVCC``, ``CUDA…FLAGS`` or ``GENCODE``) and in the arguments of
  a command that runs nvcc (``$(NVCC) …`` or ``nvcc …``), nvcc flags are translated with the
  shared table;
* everywhere else (``LDFLAGS``, ``CUDA_L := …``, a ``$(CXX)`` link line), what the host compiler
  and linker see: ``-lcudart`` → ``-lamdhip64``, ``-lcublas`` → ``-lhipblas``…, and a CUDA
  include directory (``-I$(CUDA_PATH)/include``) gains ``-D__HIP_PLATFORM_AMD__``, which HIP's
  headers need outside hipcc.

Words are only replaced where the translation changes them, so spacing, comments, line
continuations and everything else in the file stay byte-identical.  Converting twice changes
nothing (hipcc's flags are recognised as already translated).
"""

from __future__ import annotations

import re
from typing import Iterable

from hipport.build.nvcc_flags import parse_offload_arch, table, translate_nvcc_flags_ex, translate_option_at
from hipport.diagnostics import Diagnostic, DiagnosticSink, line_suppressions, suppressed
from hipport.edits import Edit, apply_edits
from hipport import lazy_re

_NVCC_WORD = lazy_re.compile(r"(?<![\w./$(){}-])((?:(?:\$[({][A-Za-z_][A-Za-z0-9_]*[)}])?[\w./-]*/)?nvcc)(?![\w.-])")
_ASSIGN = lazy_re.compile(r"^(\s*(?:export\s+|override\s+)?)([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?=|:=|::=|\+=|!=|=)")
# (a name that says it: for a makefile fragment whose flags reach nvcc from another file, `include flags.mk`)
_NVCC_ONLY_OPTION = lazy_re.compile(r"(?<!\S)(?:--ptxas-options|-Xptxas|-Xcompiler|--compiler-options|-gencode|"
                               r"--generate-code|--gpu-architecture|--gpu-code|-arch[= ]?(?:sm|compute)_|--use_fast_math|"
                               r"-rdc=|--relocatable-device-code|--expt-[a-z-]+|--extended-lambda|-Xcudafe)")
# `$(shell which nvcc)`, `$(shell command -v nvcc)`: a lookup of the compiler's path
_PATH_LOOKUP = lazy_re.compile(r"\$[({]shell\s+(?:which|command\s+-v|type\s+-p)\s+\Z")
_LOOKUP_CLOSE = lazy_re.compile(r"\s*[)}]")
_RUNS_A_COMPILER = lazy_re.compile(r"`|\$\(shell\b|(?<![\w/.-])(?:nvcc|hipcc)(?![\w.-])")
_FLAG_VAR = lazy_re.compile(r"NVCC|CUDA\w*FLAGS|GENCODE|NVFLAGS|CU_FLAGS|CUFLAGS|GPU\w*FLAGS", re.I)
# the CUDA libraries a host link names, where hipcc's own list (`""`: hipcc adds it) does not fit
_HOST_LIBRARIES = {"cudart": "amdhip64", "cudart_static": "amdhip64", "cuda": "amdhip64"}
# a CUDA include directory: `-I$(CUDA_PATH)/include`, `-I/usr/local/cuda-5.0/include`, `-I$(CUDA_INCLUDEPATH)`
_CUDA_INCLUDE_DIR = lazy_re.compile(r"-I\s*(?:\S*cuda\S*/include/?|\$[({]CUDA\w*INC\w*[)}])", re.I)
_NVCC_VAR_NAMES = ("NVCC", "CUDA_CC", "NVCC_EXE", "CUDACC", "NVCC_BIN")
# a variable that names the compiler: `CC = nvcc` (HeCBench), `GPUCC = /usr/local/cuda/bin/nvcc`,
# `CC = $(NVCC)`; (hipcc: so that converting the output again reads it the same way)
_COMPILER_VALUE = lazy_re.compile(r"\s*[\"']?(?:(?:\$[({][A-Za-z_][A-Za-z0-9_]*[)}])?[\w./-]*/)?(?:nvcc|hipcc)(?![\w.-])"
                             r"|\s*\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]\s*$")
_COMPILER_WORD = lazy_re.compile(r"(?<![\w./$(){}-])(?:(?:\$[({][A-Za-z_][A-Za-z0-9_]*[)}])?[\w./-]*/)?(?:nvcc|hipcc)(?![\w.-])")
_WORDS = lazy_re.compile(r"""(?:[^\s"'\\]|\\.|"(?:[^"\\]|\\.)*"|'[^']*')+""")


def _compiler_variables(values: dict[str, list[str]]) -> set[str]:
    """The variables whose value is the CUDA compiler (or another such variable): `$(CC) $(CFLAGS)`
    is an nvcc line where `CC = nvcc`, whatever the variable is called."""
    found = set(_NVCC_VAR_NAMES)
    while True:
        more = {name for name, vals in values.items() if name not in found and any(
            (m := _COMPILER_VALUE.match(v)) and (m.group(1) is None or m.group(1) in found) for v in vals)}
        if not more:
            return found
        found |= more


def _logical_lines(text: str) -> Iterable[tuple[int, int]]:
    """(start, end) of each logical line: physical lines joined by a trailing backslash."""
    pos = 0
    n = len(text)
    while pos < n:
        end = pos
        while True:
            nl = text.find("\n", end)
            if nl < 0:
                end = n
                break
            line = text[end:nl].rstrip("\r")
            if line.endswith("\\") and not line.endswith("\\\\"):
                end = nl + 1
                continue
            end = nl
            break
        yield pos, end
        pos = end + 1


def _unquote(word: str) -> str:
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "\"'":
        return word[1:-1]
    return word


class _MakeConverter:
    def __init__(self, data: bytes, path: str, offload_arch):
        self.data = data
        self.text = data.decode("latin-1")
        self.sink = DiagnosticSink(path, data)
        self.targets = parse_offload_arch(offload_arch)
        self.edits: list[Edit] = []
        self.seen: set[tuple[str, str, int]] = set()
        self.uses_nvcc = _NVCC_WORD.search(self.text) is not None
        self.hipcc = b"hipcc"  # (decided in run(), once the variables nvcc reads are known)
        # relocatable device code anywhere (`-dc`, `-rdc=true`): the link lines need clang's device link
        self.rdc = _RDC.search(self.text) is not None and "--hip-link" not in self.text

    def run(self) -> tuple[bytes, list[Diagnostic]]:
        lines = list(_logical_lines(self.text))
        self.nvcc_vars = self._variables_nvcc_reads(lines)
        # nvcc (CUDA 11 and later) compiles C++17 by default, Debian's hipcc 5.2 C++11: nvcc lines that
        # never name a standard (themselves or through their variables) get nvcc's
        if not self.nvcc_names_a_standard:
            self.hipcc = b"hipcc -std=c++17"
        for start, end in lines:
            self._line(start, end)
        out = apply_edits(self.data, self.edits)
        supp = line_suppressions(self.data)
        return out, [d for d in self.sink.items if not suppressed(d, supp)]

    def _line(self, start: int, end: int) -> None:
        line = self.text[start:end]
        body = line
        comment = _comment_start(line)
        if comment >= 0:
            body = line[:comment]
        if not body.strip():
            return
        for lib in _CUDA_SHARED_LIBRARY.finditer(body):
            # cuda-samples' `find … -name libcuda.so`: the driver probe that waives the sample
            self.edits.append(Edit(start + lib.start(), start + lib.end(), b"libamdhip64.so", "make-host-library"))
            find = _FIND_PATHS.search(body, 0, lib.start())
            if find:  # …searched where HIP's runtime library lives too, not only the toolkit's stubs
                self.edits.append(Edit(start + find.end(), start + find.end(), _HIP_LIBRARY_DIRS, "make-host-library"))
        flags_from = None  # offset within body where nvcc flags start
        m = _ASSIGN.match(body) or _EVAL_ASSIGN.search(body)  # (`$(foreach sm,…,$(eval GENCODE_FLAGS += …))`)
        if m and self._is_flag_variable(m.group(2)):
            flags_from = m.end()
        starts = []  # where the arguments of an nvcc invocation begin
        for nv in _NVCC_WORD.finditer(body):
            quoted_value = m is not None and m.end() <= nv.start(1) - 1 and _whole_quoted_word(body, nv.start(1), nv.end(1))
            if _quoted(body, nv.start()) and not quoted_value:
                continue  # `@echo "nvcc major: …"`: text, not a command (but `NVCC := "…/bin/nvcc"` is one)
            lookup = _PATH_LOOKUP.search(body, 0, nv.start(1))
            close = _LOOKUP_CLOSE.match(body, nv.end(1)) if lookup is not None else None
            if quoted_value:  # the flags go after the closing quote: `"hipcc" -std=c++17`
                close = _QUOTE_CLOSE.match(body, nv.end(1))
            if close is not None:  # `$(shell which nvcc)` prints a path: the flags go after the call
                self.edits.append(Edit(start + nv.start(1), start + nv.end(1), b"hipcc", "make-nvcc"))
                self.edits.append(Edit(start + close.end(), start + close.end(), self.hipcc[len(b"hipcc"):], "make-nvcc"))
            else:
                self.edits.append(Edit(start + nv.start(1), start + nv.end(1), self.hipcc, "make-nvcc"))
            if not (m and m.end() > nv.start()):
                starts.append(close.end() if close is not None else nv.end())
        var = self.nvcc_var.search(body)
        if var and not (m and var.start() < m.end()):
            starts.append(var.end())
        if flags_from is None and starts:
            flags_from = min(starts)
        if flags_from is None:
            self._host_words(start, body, m.end() if m else 0)
            return
        host_too = bool(m) and m.group(2) in self.host_vars and flags_from == m.end()
        self._flags(start, body, flags_from, host_too=host_too)
        if self.rdc and starts and flags_from == min(starts) and _is_link(body, flags_from):
            # rdc objects are device-linked by nvcc's link on its own; clang's needs telling
            at = min(starts)
            self.edits.append(Edit(start + at, start + at, b" -fgpu-rdc --hip-link", "make-rdc-link"))

    def _host_words(self, start: int, body: str, pos: int) -> None:
        """Outside nvcc's lines, the host compiler and linker see CUDA too: `-lcudart` (a g++ link
        needs HIP's runtime library by name, where hipcc adds it itself), `-lcublas`…, and a
        CUDA include directory, whose HIP headers need the platform macro hipcc would define."""
        if "-l" not in body and "-I" not in body:
            return
        words = list(_WORDS.finditer(body, pos))
        has_platform = "__HIP_PLATFORM_AMD__" in body
        for k, w in enumerate(words):
            word = w.group()
            if word == "-I" and k + 1 < len(words) and not has_platform and \
                    _CUDA_INCLUDE_DIR.fullmatch("-I" + words[k + 1].group()):
                # `-I $(CUDA_INCLUDEPATH)` (cs344's Makefile): the directory is the next word
                nxt = words[k + 1]
                self.edits.append(Edit(start + nxt.end(), start + nxt.end(), b" -D__HIP_PLATFORM_AMD__",
                                       "make-host-platform"))
                has_platform = True
            elif word.startswith("-l") and len(word) > 2:
                lib = _HOST_LIBRARIES.get(word[2:], table().libraries.get(word[2:], word[2:]))
                if lib and lib != word[2:]:
                    self.edits.append(Edit(start + w.start(), start + w.end(), b"-l" + lib.encode(), "make-host-library"))
            elif not has_platform and _CUDA_INCLUDE_DIR.fullmatch(word):
                self.edits.append(Edit(start + w.end(), start + w.end(), b" -D__HIP_PLATFORM_AMD__", "make-host-platform"))
                has_platform = True

    def _foreach_flags(self, start: int, word) -> None:
        """The text argument of `$(foreach var,list,text)` is a flag list made once per item."""
        w_start, _w_end, text = word
        depth, commas = 0, []
        for i, ch in enumerate(text[2:-1], 2):
            if text.startswith("$(", i) or text.startswith("${", i):
                depth += 1
            elif ch in ")}" and depth:
                depth -= 1
            elif ch == "," and depth == 0:
                commas.append(i)
                if len(commas) == 2:
                    break
        if len(commas) < 2:
            return
        body = text[commas[1] + 1:-1]
        flags = body.split()
        out = translate_nvcc_flags_ex(flags, offload_arch=self.targets).flags
        if out != flags and out:
            at = w_start + commas[1] + 1
            self.edits.append(Edit(start + at, start + at + len(body), " ".join(out).encode("latin-1"), "make-flags"))

    def _is_flag_variable(self, name: str) -> bool:
        return (bool(_FLAG_VAR.search(name)) or name in self.nvcc_vars) and \
            not re.fullmatch(r"NVCC|NVCC_?(EXE|BIN|PATH)", name, re.I)

    def _variables_nvcc_reads(self, lines) -> set[str]:
        """Variables an nvcc command line expands (the cuda-samples template's `$(NVCC)
        $(ALL_CCFLAGS) $(GENCODE_FLAGS) …`), and the variables their values expand in turn.  (A
        hipcc line counts too, so that converting the output again reads it the same way.)  Also
        sets self.host_vars: the variables a recipe runs another program with (`g++ … $(LIB)`)."""
        nvcc_refs: set[str] = set()
        host_refs: set[str] = set()
        std_on_lines = False
        values: dict[str, list[str]] = {}
        commands = []
        for start, end in lines:
            body = self.text[start:end]
            m = _ASSIGN.match(body)
            if m:
                values.setdefault(m.group(2), []).append(body[m.end():])
            else:
                commands.append(body)
        self.nvcc_var = re.compile(r"\$[({](" + "|".join(sorted(_compiler_variables(values))) + r")[)}]")
        for body in commands:
            at = [nv.end() for nv in _COMPILER_WORD.finditer(body) if not _quoted(body, nv.start())]
            var = self.nvcc_var.search(body)
            if var:
                at.append(var.end())
            for pos in at:
                nvcc_refs.update(_VAR_REF.findall(body, pos, _command_end(body, pos)))
                std_on_lines |= "-std" in body[pos:_command_end(body, pos)]
            if not at and body.startswith("\t"):
                host_refs.update(_VAR_REF.findall(body))
        self.host_vars = _closure(host_refs, values) - _AUTOMATIC
        # a variable holding options only nvcc takes is nvcc's, also where its nvcc line is in
        # another file (solanity's gpu-common.mk: `CFLAGS_release:=--ptxas-options=-v … -Xcompiler "…"`)
        # (not a value that runs nvcc itself: `V=\`nvcc -arch=sm_80 --version\``, converted as a command)
        nvcc_refs.update(n for n, vs in values.items()
                         if any(_NVCC_ONLY_OPTION.search(v) and not _RUNS_A_COMPILER.search(v) for v in vs))
        read = {v for v in _closure(nvcc_refs, values) if v not in _AUTOMATIC and v in values}
        self.nvcc_names_a_standard = std_on_lines or any(
            "-std" in value for name in read | {n for n in values if _FLAG_VAR.search(n)} for value in values[name])
        return read

    def _flags(self, start: int, body: str, pos: int, host_too: bool = False) -> None:
        """*host_too*: the variable also reaches another program's command line (`g++ … $(LIB)`),
        where HIP's runtime library must be named (hipcc adds it by itself)."""
        end = _command_end(body, pos)
        host = _XCOMPILER_PREFIX.search(body, pos, end)
        if host is not None:  # `$(addprefix -Xcompiler ,$(CCFLAGS))`: clang takes the host flags as they are
            self.edits.append(Edit(start + host.start(), start + host.end(), host.group(1).encode("latin-1"),
                                   "make-flags"))
            pos = host.end()
        words = list(_words(body, pos, end))
        # a word ending in "\" is a line continuation marker
        words = [w for w in words if w[2] != "\\"]
        for w in words:
            if w[2].startswith("$(foreach "):
                self._foreach_flags(start, w)  # `$(foreach sm,$(SMS),-gencode arch=compute_$(sm),…)`
        if host_too and "__HIP_PLATFORM_AMD__" not in body:
            include = next((w for w in words if _CUDA_INCLUDE_DIR.fullmatch(w[2])), None)
            if include is not None:  # a host compiler reads the variable too (FLAME GPU's CUDA_LIB)
                self.edits.append(Edit(start + include[1], start + include[1], b" -D__HIP_PLATFORM_AMD__",
                                       "make-host-platform"))
        if not words:
            return
        raw = [_unquote(w[2]) for w in words]
        # Translate word by word so untouched words keep their bytes; a flag whose value is the
        # next word is translated together with it.
        arch_done = False
        i = 0
        while i < len(words):
            lib = raw[i][2:] if raw[i].startswith("-l") else ""
            if host_too and lib in _HOST_LIBRARIES:
                self.edits.append(Edit(start + words[i][0], start + words[i][1],
                                       b"-l" + _HOST_LIBRARIES[lib].encode(), "make-host-library"))
                i += 1
                continue
            span, out = translate_option_at(raw, i, offload_arch=self.targets)
            group = raw[i:i + span]
            flags = out.flags
            if any(f.startswith("--offload-arch=") for f in flags) and any(
                    not g.startswith("--offload-arch=") for g in group):
                if arch_done:
                    flags = [f for f in flags if not f.startswith("--offload-arch=")]
                arch_done = True
            for note in out.notes:
                key = (note.code, note.message, start)  # once per logical line
                if note.code != "HB003" and key not in self.seen:
                    self.seen.add(key)
                    self.sink.add(note.code, note.message, start + words[i][0], hint=note.hint,
                                  severity=note.severity)
            if flags != group:
                s, e = start + words[i][0], start + words[i + span - 1][1]
                if flags:
                    self.edits.append(Edit(s, e, " ".join(flags).encode("latin-1"), "make-flags"))
                else:
                    self.edits.append(self._removal(start, body, words, i, span, pos))
            i += span


    @staticmethod
    def _removal(start: int, body: str, words, i: int, span: int, pos: int) -> Edit:
        """Remove a dropped flag with the blank before it, staying on its own physical line."""
        s, e = words[i][0], words[i + span - 1][1]
        if i and "\n" not in body[words[i - 1][1]:s]:
            return Edit(start + words[i - 1][1], start + e, b"", "make-flags")
        j = s
        while not i and j > pos and body[j - 1] in " \t":
            j -= 1
        return Edit(start + j, start + e, b"", "make-flags")


_VAR_REF = lazy_re.compile(r"\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]")
_EVAL_ASSIGN = lazy_re.compile(r"(\$\(eval\s+)([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?=|:=|::=|\+=|=)")
_XCOMPILER_PREFIX = lazy_re.compile(r"\$\(addprefix\s+-Xcompiler\s*,\s*(\$[({][^()]*[)}]|[^$()]*?)\s*\)")
_AUTOMATIC = frozenset({"@", "<", "^", "+", "*", "?"})
_CUDA_SHARED_LIBRARY = lazy_re.compile(r"(?<![\w.-])libcuda(?:rt)?\.so(?![\w.])")
# `find -L $(CUDA_SEARCH_PATH) -maxdepth 1 -name libcuda.so`: the end of the paths searched
_FIND_PATHS = lazy_re.compile(r"\bfind(?:\s+-[HLP])*(?:\s+[^\s-][^\s]*)+?(?=\s+-(?:maxdepth|name|type|iname)\b)")
# ROCm's and the distribution's library directories (wildcard: only those that exist)
_HIP_LIBRARY_DIRS = b" $(wildcard $(ROCM_PATH)/lib /opt/rocm/lib /usr/lib/*-linux-gnu /usr/lib64)"


_RDC = lazy_re.compile(r"(?<![\w-])(?:-dc|--device-c|-rdc[= ]true|--relocatable-device-code[= ]true|-dlink|--device-link)(?![\w-])")
_COMPILE_ONLY = lazy_re.compile(r"(?<![\w-])(?:-c|-dc|--compile|--device-c|-E|-M|-MM|-ptx|-cubin|-fatbin|-lib|--lib|-dlink"
                           r"|--device-link|--genco|--emit-static-lib)(?![\w-])")


def _is_link(body: str, pos: int) -> bool:
    """Does the command from *pos* link: an output named (`-o`, nvcc's `--output-file`, a shared
    library's `--shared`), and no -c / -dc / -E …?"""
    command = body[pos:_command_end(body, pos)]
    return not _COMPILE_ONLY.search(command) and any(
        w in ("-o", "--output-file", "-shared", "--shared") or w.startswith(("--output-file=", "-o="))
        for w in command.split())


def _closure(names: set[str], values: dict[str, list[str]]) -> set[str]:
    """*names* and the variables their values expand, transitively (a computed name, solanity's
    `CFLAGS:=$(CFLAGS_$V)`, expands every variable it can name)."""
    found = set(names)
    pending = list(found)
    while pending:
        for value in values.get(pending.pop(), ()):
            for ref in _VAR_REF.findall(value) + _computed_names(value, values):
                if ref not in found:
                    found.add(ref)
                    pending.append(ref)
    return found


# `$(CFLAGS_$V)`, `$(FLAGS_$(MODE))`: a reference whose name is built from other variables
_COMPUTED_REF = lazy_re.compile(r"\$[({]([A-Za-z0-9_]*(?:\$(?:[A-Za-z]|[({][A-Za-z_][A-Za-z0-9_]*[)}])[A-Za-z0-9_]*)+)[)}]")


def _computed_names(value: str, values: dict[str, list[str]]) -> list[str]:
    """The variables of *values* that a computed reference in *value* may name: its variable
    parts match any name characters (`CFLAGS_$V` → CFLAGS_release, CFLAGS_debug)."""
    found = []
    for m in _COMPUTED_REF.finditer(value):
        pieces = re.split(r"\$(?:[A-Za-z]|[({][A-Za-z_][A-Za-z0-9_]*[)}])", m.group(1))
        pattern = re.compile(r"\w*".join(re.escape(p) for p in pieces))
        found += [name for name in values if pattern.fullmatch(name)]
    return found


def _words(body: str, pos: int, end: int):
    """(start, end, text) of the shell words in body[pos:end]; a `$(…)` call, spaces and all, is
    one word (`$(addprefix -Xlinker ,$(LDFLAGS))` is not three options)."""
    i = pos
    while i < end:
        while i < end and body[i] in " \t\r\n":
            i += 1
        if i >= end:
            return
        w = i
        depth = 0
        quote = ""
        while i < end:
            ch = body[i]
            if quote:
                if ch == quote:
                    quote = ""
            elif ch in "\"'`":  # (``-ccbin=`which gcc` ``: a command substitution is part of its word)
                quote = ch
            elif ch == "\\" and body[i + 1:i + 2] in ("\n", "\r") and not depth:
                if i == w:
                    i += 1  # a line continuation: a word of its own, which the caller drops
                break
            elif ch == "\\":
                i += 1
            elif body.startswith("$(", i) or body.startswith("${", i):
                depth += 1
                i += 1
            elif ch in ")}" and depth:
                depth -= 1
            elif ch in " \t\r\n" and not depth:
                break
            i += 1
        yield w, min(i, end), body[w:min(i, end)]


_QUOTE_CLOSE = lazy_re.compile(r"[\"']")


def _whole_quoted_word(body: str, start: int, end: int) -> bool:
    """Is body[start:end] the whole of a quoted string (`"/usr/local/cuda/bin/nvcc"`)?"""
    return start > 0 and end < len(body) and body[start - 1] in "\"'" and body[end] == body[start - 1]


def _quoted(body: str, pos: int) -> bool:
    """Is *pos* inside a '…' or "…" string of the line?"""
    quote = ""
    for i, ch in enumerate(body[:pos]):
        if quote:
            if ch == quote and body[i - 1] != "\\":
                quote = ""
        elif ch in "\"'":
            quote = ch
    return bool(quote)


def _command_end(body: str, pos: int) -> int:
    """Where the shell command that starts at *pos* ends: at `|`, `;`, `&&`, the backtick closing
    the substitution it runs in, or the `)` closing an enclosing `$(shell …)`, outside quotes —
    what follows is another program's.  A backtick substitution opened after *pos* is one of the
    command's words (``nvcc -ccbin=`which gcc` ``)."""
    depth, quote, i = 0, "", pos
    inside_backticks = _unescaped_count(body, "`", pos) % 2 == 1
    while i < len(body):
        ch = body[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'" or ch == "`" and not inside_backticks:
            quote = ch
        elif ch == "\\":
            i += 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            if depth == 0:
                return i
            depth -= 1
        elif ch in "|;`" or body.startswith("&&", i):
            return i
        i += 1
    return len(body)


def _unescaped_count(body: str, ch: str, end: int) -> int:
    """How many *ch* in body[:end] are not escaped with a backslash."""
    return sum(1 for i in range(end) if body[i] == ch and (i == 0 or body[i - 1] != "\\"))


def _comment_start(line: str) -> int:
    i = 0
    while True:
        i = line.find("#", i)
        if i < 0:
            return -1
        if i > 0 and line[i - 1] == "\\":
            i += 1
            continue
        return i


def convert_makefile(data: bytes | str, path: str = "Makefile", *, offload_arch=None) -> tuple[bytes | str, list[Diagnostic]]:
    """Convert one Makefile: nvcc → hipcc and nvcc flags → hipcc flags (see the module doc).
    Bytes in, bytes out; a str gives a str."""
    if isinstance(data, str):
        out, diags = _MakeConverter(data.encode("utf-8", "surrogateescape"), path, offload_arch).run()
        return out.decode("utf-8", "surrogateescape"), diags
    return _MakeConverter(data, path, offload_arch).run()
