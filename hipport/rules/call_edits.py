"""Argument edits for calls whose HIP, --roc or --miopen target takes other parameters than CUDA's.

Why a table of its own: a rename alone turns ``cusparseScsrilu02(..., policy, buffer)`` into a
``rocsparse_scsrilu0`` call that compiles against the wrong parameter, or not at all.  Each entry
of ``hipport/rules/arguments/<library>.toml`` names the target and the edits (insert, replace,
remove, cast, copy, move, swap, declare) that make the call fit; the translator applies them only
where it writes that target, and the rule generator adopts a target only when the edited
argument count is the one AMD declares.  The files are read only when a file names one of those
libraries, so most translations pay nothing for them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from hipport.rules import RuleError, read_toml

ARGUMENTS_DIR = Path(__file__).resolve().parent / "arguments"
OPTIONS = ("hip", "roc", "miopen")  # "hip": the default translation
# op name -> the types of its operands after the name
OP_SHAPES = {
    "insert": (int, str), "replace": (int, str), "remove": (int,), "cast": (int, str),
    "copy": (int, int), "move": (int, int, int), "swap": (int, int, int), "declare": (str, str),
}


@dataclass(frozen=True)
class CallEdit:
    cuda: str
    target: str
    option: str  # the translation option under which *target* is written: "hip", "roc" or "miopen"
    ops: tuple[tuple, ...]
    args: int  # the CUDA argument count the ops expect
    note: str = ""
    warn: str = ""
    other_counts: str = "report"  # a call with another argument count: "report" it (HP007) or "leave" it
    include: str = ""  # a shim header the edited call needs (an overload that takes CUDA's argument types)

    @property
    def target_args(self) -> int:
        """The argument count of the edited call."""
        count = self.args
        for op in self.ops:
            if op[0] == "insert":
                count += op[2].count(",") + 1
            elif op[0] in ("copy", "declare"):
                count += 1
            elif op[0] == "remove":
                count -= 1
        return count


def _parse(path: Path) -> dict[str, CallEdit]:
    data = read_toml(path)
    option = data.get("target")
    if option not in OPTIONS:
        raise RuleError(f"{path}: 'target' must be one of {OPTIONS}, not {option!r}")
    out = {}
    for cuda, entry in data.get("functions", {}).items():
        where = f"{path.name}: {cuda}"
        unknown = set(entry) - {"target", "ops", "args", "note", "warn", "other_counts", "include"}
        if unknown:
            raise RuleError(f"{where}: unknown field(s) {sorted(unknown)}")
        if not isinstance(entry.get("target"), str) or not isinstance(entry.get("args"), int):
            raise RuleError(f"{where}: needs a target name and the CUDA argument count 'args'")
        if entry.get("other_counts", "report") not in ("report", "leave"):
            raise RuleError(f"{where}: 'other_counts' must be 'report' or 'leave'")
        ops = []
        for op in entry.get("ops", []):
            shape = OP_SHAPES.get(op[0] if op else None)
            if shape is None or len(op) != len(shape) + 1 or not all(
                    isinstance(v, t) and not isinstance(v, bool) for v, t in zip(op[1:], shape)):
                raise RuleError(f"{where}: bad op {op!r}; expected one of {sorted(OP_SHAPES)} with {OP_SHAPES}")
            if op[0] != "declare" and op[1] >= entry["args"] and op[0] not in ("insert", "copy"):
                raise RuleError(f"{where}: op {op!r} names argument {op[1]} of a {entry['args']}-argument call")
            ops.append(tuple(op))
        touched = [op[1] for op in ops if op[0] in ("replace", "remove", "cast")]
        if len(touched) != len(set(touched)):
            raise RuleError(f"{where}: two ops rewrite the same argument")
        out[cuda] = CallEdit(cuda, entry["target"], option, tuple(ops), entry["args"],
                             entry.get("note", ""), entry.get("warn", ""), entry.get("other_counts", "report"),
                             entry.get("include", ""))
    return out


@lru_cache(maxsize=1)
def call_edits() -> dict[str, CallEdit]:
    """CUDA function -> its edits, from every file in ``hipport/rules/arguments``."""
    out: dict[str, CallEdit] = {}
    for path in sorted(ARGUMENTS_DIR.glob("*.toml")):
        for cuda, edit in _parse(path).items():
            if cuda in out:
                raise RuleError(f"{path.name}: {cuda} is already edited in another file")
            out[cuda] = edit
    return out
