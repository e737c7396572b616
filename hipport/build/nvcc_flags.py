"""nvcc command-line options → hipcc (clang) options.

The mapping itself is data (``nvcc_flags.toml``, one entry per option of ``nvcc --help``); this
module only knows nvcc's *syntax*: long (``--name``) and short (``-name``) spellings, values given
as ``=value`` or as the next argument, values attached to ``-I``/``-D``/``-O``…, and
comma-separated list values.  The same table serves the CLI (``hipport flags``), the CMake and
Makefile converters and the torch rules (``extra_compile_args['nvcc']``).

Translation never guesses silently: a dropped option is reported (``HB002``) unless dropping it
is exactly what HIP already does, an approximate mapping is noted (``HB006``), and an option
nvcc does not know is passed on and noted (``HB003``).  Running the translation over its own
output changes nothing, so converted build files stay stable when converted again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from hipport.diagnostics import INFO, WARNING, register
from hipport import lazy_re

register("HB002", "nvcc option dropped: hipcc has no equivalent")
register("HB003", "not an nvcc option; passed to hipcc unchanged", INFO)
register("HB006", "nvcc option mapped approximately", INFO)
register("HB007", "CUDA GPU architectures replaced by the AMD target list", INFO)

DEFAULT_OFFLOAD_ARCH: tuple[str, ...] = ("gfx90a", "gfx942", "gfx1100")
#: the first HIP release whose compiler (LLVM 17) builds each default target not every HIP knows
_TARGET_SINCE = {"gfx942": (5, 7)}


def default_offload_arch() -> tuple[str, ...]:
    """DEFAULT_OFFLOAD_ARCH, less the targets the installed HIP cannot build: its compiler's
    (Debian's HIP 5.2, on LLVM 15, rejects gfx942) or its device libraries' (that one has none
    for gfx1100); all of them where no HIP is installed."""
    from hipport.installed_hip import installed_device_targets, installed_hip_version

    have = installed_hip_version()
    targets = [t for t in DEFAULT_OFFLOAD_ARCH if have is None or have >= _TARGET_SINCE.get(t, (0, 0))]
    libs = installed_device_targets()
    return tuple([t for t in targets if libs is None or t in libs] or targets)

_QUOTED_VALUE = lazy_re.compile(r'^(\\?["\'])(.*)\1$', re.S)


def _native_target_known() -> bool:
    """`--offload-arch=native` (the GPUs of the building machine) needs LLVM 16 (ROCm 5.5); older
    compilers, such as Debian's HIP 5.2, reject it: `-arch=native` then becomes the target list."""
    from hipport.installed_hip import installed_hip_version

    have = installed_hip_version()
    return have is None or have >= (5, 5)


TABLE_PATH = Path(__file__).with_name("nvcc_flags.toml")

_GFX = lazy_re.compile(r"^(gfx[0-9a-f]{3,5}(:[a-z0-9]+[+-])*|native)$")


@dataclass(frozen=True)
class FlagNote:
    """Something the translation of one option wants the user to know."""

    code: str
    flag: str
    message: str
    hint: str = ""
    severity: str = WARNING

    def format(self) -> str:
        text = f"{self.severity}: {self.message} [{self.code}]"
        return text + (f"\n  hint: {self.hint}" if self.hint else "")


@dataclass
class FlagTranslation:
    flags: list[str] = field(default_factory=list)
    notes: list[FlagNote] = field(default_factory=list)


@dataclass(frozen=True)
class _Option:
    name: str
    arg: str
    action: str
    attached: bool
    to: tuple[str, ...]
    values: dict
    why: str
    hint: str
    note: str


class _Table:
    """The TOML table indexed by every spelling; loaded once per process."""

    def __init__(self, raw: dict):
        raw = dict(raw)
        self.libraries: dict[str, str] = raw.pop("libraries", {})
        self.library_flags: dict[str, str] = raw.pop("library_flags", {})
        self.by_name: dict[str, _Option] = {}
        self.attached: list[tuple[str, _Option]] = []
        outputs: set[str] = {"-fgpu-rdc", "-Werror"}
        prefixes: set[str] = {"--offload-arch=", "-Xarch_", "-Wl,", "-Rpass", "-W", "-f", "-m", "-g"}
        for name, entry in raw.items():
            values = entry.get("values", {})
            opt = _Option(name, entry.get("arg", "none"), entry["action"], bool(entry.get("attached")),
                          tuple(entry.get("to", ())), values, entry.get("why", ""),
                          entry.get("hint", ""), entry.get("note", ""))
            spellings = {name, *entry.get("alias", ())}
            if "short" in entry:
                spellings.add(entry["short"])
            for spelling in spellings:
                if spelling in self.by_name:
                    raise ValueError(f"{TABLE_PATH.name}: nvcc option spelling {spelling!r} listed twice")
                self.by_name[spelling] = opt
            if opt.attached and "short" in entry:
                self.attached.append((entry["short"], opt))
            for template in (*opt.to, *(t for v in values.values() for t in v)):
                if "{value}" in template:
                    prefix = template.split("{value}")[0]
                    if len(prefix) > 2:
                        prefixes.add(prefix)
                else:
                    outputs.add(template)
        self.outputs = frozenset(outputs)
        self.output_prefixes = tuple(sorted(prefixes))


_TABLE: _Table | None = None


def table() -> _Table:
    global _TABLE
    if _TABLE is None:
        try:
            import tomllib
        except ImportError:  # Python 3.10
            import tomli as tomllib  # type: ignore[no-redef]
        _TABLE = _Table(tomllib.loads(TABLE_PATH.read_text(encoding="utf-8")))
    return _TABLE


def parse_offload_arch(offload_arch: str | Iterable[str] | None) -> tuple[str, ...]:
    """Normalize a target list (``"gfx90a,gfx942"``, ``"gfx90a;gfx942"`` or a sequence)."""
    if offload_arch is None:
        return default_offload_arch()
    items = re.split(r"[,;\s]+", offload_arch) if isinstance(offload_arch, str) else list(offload_arch)
    targets: list[str] = []
    for item in items:
        item = item.strip()
        if not item:
            continue
        if not _GFX.match(item):
            raise ValueError(f"not an AMD GPU target: {item!r} (expected e.g. gfx90a, gfx942, gfx1100)")
        if item not in targets:
            targets.append(item)
    if not targets:
        raise ValueError("empty AMD GPU target list")
    return tuple(targets)


def is_hip_flag(flag: str) -> bool:
    """True for flags the translation itself emits (so re-translating them is a no-op)."""
    tab = table()
    return flag in tab.outputs or flag.startswith(tab.output_prefixes)


# Outputs that are nvcc options needing a value, yet complete hipcc options on their own.
_COMPLETE_OUTPUTS = frozenset({"-Werror"})

_CUDA_ARCH = lazy_re.compile(r"(?:sm|compute|lto)_(\d+[a-z]?)")


def translate_nvcc_flags_ex(flags: Sequence[str], *, offload_arch: str | Iterable[str] | None = None
                            ) -> FlagTranslation:
    """Translate an nvcc argument list; returns the hipcc arguments and the notes about them."""
    tab = table()
    targets = parse_offload_arch(offload_arch)
    result = FlagTranslation()
    out, notes = result.flags, result.notes
    arch_emitted = False
    chosen: tuple[str, ...] = targets
    cuda_archs: list[str] = []
    werror_made = False  # a -Werror this translation spelled (not one passed on from an earlier one)
    args = list(flags)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not arg.startswith("-") or arg in ("-", "--") or arg.startswith("$"):
            out.append(arg)  # a file, a build-system variable or stdin
            continue
        dashes = len(arg) - len(arg.lstrip("-"))
        body = arg[dashes:]
        name, eq, value = body.partition("=")
        opt = tab.by_name.get(name) if dashes <= 2 else None
        has_value = bool(eq)
        consumed_next = False
        if opt is None and dashes == 1:
            for short, candidate in tab.attached:
                if body.startswith(short) and len(body) > len(short):
                    opt, value, has_value = candidate, body[len(short):], True
                    break
        if opt is None:
            if not is_hip_flag(arg):
                notes.append(FlagNote("HB003", arg, f"'{arg}' is not an nvcc option; passed to hipcc unchanged",
                                      severity=INFO))
            out.append(arg)
            continue
        if opt.arg == "none":
            if has_value:  # e.g. --use_fast_math=true is not nvcc syntax either
                out.append(arg)
                notes.append(FlagNote("HB003", arg, f"'{arg}' takes no value in nvcc; passed on unchanged",
                                      severity=INFO))
                continue
        elif not has_value:
            takes_dash = opt.action in ("split", "warn") or opt.name == "linker-options"
            known_kind = arg not in _COMPLETE_OUTPUTS or i < len(args) and all(
                v in opt.values for v in args[i].split(","))  # "-Werror a.cu": a.cu is no kind
            if i < len(args) and (takes_dash or not args[i].startswith("-")) and known_kind:
                value = args[i]
                i += 1
                consumed_next = True
            else:
                if arg in _COMPLETE_OUTPUTS:
                    out.append(arg)  # a bare -Werror produced by an earlier translation
                else:
                    notes.append(FlagNote("HB002", arg, f"nvcc option '{arg}' is missing its value; dropped"))
                continue
        spelled = f"{arg} {value}" if consumed_next else arg
        action = opt.action
        if action == "arch":
            if opt.name == "generate-code":
                found = _CUDA_ARCH.findall(value)
            else:
                found = [] if value in ("native", "all", "all-major") else _CUDA_ARCH.findall(value)
                if not found and value not in ("native", "all", "all-major"):
                    found = [value]
            cuda_archs.extend(a for a in found if a not in cuda_archs)
            if not arch_emitted:
                chosen = ("native",) if value == "native" and _native_target_known() else targets
                out.extend(f"--offload-arch={t}" for t in chosen)
                arch_emitted = True
            continue
        items = value.split(",") if opt.arg == "list" else [value]
        if opt.arg == "list" and opt.action != "split" and "" in items:
            # "-lfoo," or "-I a,,b" is not something nvcc accepts either: keep it, say so
            out.extend([arg, value] if consumed_next else [arg])
            notes.append(FlagNote("HB003", spelled, f"malformed nvcc list option '{spelled}'; passed on unchanged",
                                  severity=INFO))
            continue
        if action == "map":
            for item in items:
                for template in opt.to:
                    if len(template) == 9 and template.endswith("{value}"):  # -I{value} and friends
                        out.extend(_emit_attached(tab, template[:2], item))
                    else:
                        out.append(template.replace("{value}", item))
            if opt.note:
                notes.append(FlagNote("HB006", spelled, f"'{spelled}' mapped to '{' '.join(opt.to).replace('{value}', value)}'"
                                      f" approximately", opt.note, INFO))
        elif action == "values":
            for item in items:
                mapped = opt.values.get(item)
                if mapped is None:
                    notes.append(FlagNote("HB002", spelled, f"nvcc option '{spelled}' dropped: "
                                          f"{opt.why or 'value ' + repr(item) + ' has no hipcc equivalent'}"))
                else:
                    out.extend(mapped)
                    werror_made |= "-Werror" in mapped
        elif action == "library":
            for item in items:
                if item in tab.library_flags:
                    out.append(tab.library_flags[item])
                    continue
                mapped = tab.libraries.get(item, item)
                if mapped:
                    out.extend(_emit_attached(tab, "-l", mapped))
        elif action == "split":  # (`-Xcompiler="${CMAKE_CXX_FLAGS}"`: the quotes only group the words)
            host = [item for item in re.split(r"[,\s]+", _QUOTED_VALUE.sub(r"\2", value)) if item]
            out.extend(host)
            werror_made |= "-Werror" in host
        elif action == "drop":
            pass
        elif action == "warn":
            notes.append(FlagNote("HB002", spelled, f"nvcc option '{spelled}' dropped: {opt.why}", opt.hint))
        else:  # pragma: no cover - the table is validated by the tests
            raise ValueError(f"{TABLE_PATH.name}: unknown action {action!r} for {opt.name}")
    if cuda_archs:
        notes.append(FlagNote("HB007", " ".join(cuda_archs),
                              f"CUDA architectures {', '.join(cuda_archs)} replaced by --offload-arch="
                              f"{','.join(chosen)}",
                              "choose the AMD targets with --offload-arch (hipport flags) or offload_arch=",
                              INFO))
    return _nodiscard_not_an_error(_dedupe(result)) if werror_made else _dedupe(result)


def _nodiscard_not_an_error(result: FlagTranslation) -> FlagTranslation:
    """HIP declares its runtime functions [[nodiscard]], CUDA does not: under a `-Werror` that
    reaches hipcc (`-Werror all-warnings`, `-Xcompiler -Wall,-Werror`), every unchecked
    `hipMemcpy(…);` that built with nvcc would stop the build; that one warning stays a warning.
    (Only after a -Werror this translation made: a bare one is an earlier translation's output.)"""
    flags = result.flags
    if "-Werror" in flags and _NODISCARD_WARNING not in flags:
        at = flags.index("-Werror") + 1
        result.flags = flags[:at] + [_NODISCARD_WARNING] + flags[at:]
    return result


_NODISCARD_WARNING = "-Wno-error=unused-result"


def _emit_attached(tab: _Table, prefix: str, value: str) -> list[str]:
    """``-l`` + ``ineinfo`` must not become ``-lineinfo`` (another nvcc option): such a value
    stays a separate argument, so translating the output again reads it the same way."""
    joined = prefix + value
    if tab.by_name.get(joined[1:].partition("=")[0]) is not None \
            and translate_nvcc_flags_ex([joined]).flags != [joined]:
        return [prefix, value]
    return [joined]


def _dedupe(result: FlagTranslation) -> FlagTranslation:
    """Drop repeats of flags that mean the same twice (a list-valued mapping can emit them)."""
    seen: set[str] = set()
    flags: list[str] = []
    for flag in result.flags:
        if flag in ("-fno-hip-fp32-correctly-rounded-divide-sqrt", "-fgpu-rdc", "-fopenmp") or flag.startswith("--offload-arch="):
            if flag in seen:
                continue
            seen.add(flag)
        flags.append(flag)
    result.flags = flags
    return result


def translate_nvcc_flags(flags: Sequence[str], *, offload_arch: str | Iterable[str] | None = None,
                         notes: list[FlagNote] | None = None) -> list[str]:
    """Translate nvcc arguments to hipcc arguments.

    ``offload_arch`` is the AMD target list that replaces ``-arch``/``-gencode`` (default
    gfx90a, gfx942, gfx1100).  Pass a list as ``notes`` to receive what was dropped or
    approximated; the function itself never prints.
    """
    result = translate_nvcc_flags_ex(flags, offload_arch=offload_arch)
    if notes is not None:
        notes.extend(result.notes)
    return result.flags


def translate_option_at(words: Sequence[str], i: int, *, offload_arch=None) -> tuple[int, FlagTranslation]:
    """Translate the one option that starts at ``words[i]``: ``(words it spans, translation)``.

    For build files whose words cannot be translated as one list without losing their layout (a
    comment between two words of a CMake list, a Makefile's words each edited in place): an
    option whose value is the next word (``-maxrregcount 32``, ``-Xptxas -v``) spans both, so that
    dropping it drops its value too.  ``-Werror`` takes the next word only when it is a kind list.
    """
    pair_first = words[i] in ("-Werror", "--Werror") and i + 1 < len(words)
    for span in ((2, 1) if pair_first else (1, 2)):
        group = list(words[i:i + span])
        out = translate_nvcc_flags_ex(group, offload_arch=offload_arch)
        if span == 1 and i + 1 < len(words) and any(
                n.code == "HB002" and "missing its value" in n.message for n in out.notes):
            continue
        if span == 2 and words[i + 1] in out.flags:
            continue  # the next word is no kind list: `-Werror` alone
        return len(group), out
    return len(group), out  # pragma: no cover - the loop always returns


def translate_flag_string(text: str, *, offload_arch=None) -> tuple[str, list[FlagNote]]:
    """Translate a space-separated flag string (CMake/Makefile values); keeps it unchanged
    when nothing changes so that spacing the user chose survives."""
    tokens = text.split()
    result = translate_nvcc_flags_ex(tokens, offload_arch=offload_arch)
    if result.flags == tokens:
        return text, result.notes
    lead = text[: len(text) - len(text.lstrip())]
    trail = text[len(text.rstrip()):]
    return lead + " ".join(result.flags) + trail, result.notes
