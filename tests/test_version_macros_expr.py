"""The condition parser/evaluator against a real C preprocessor, and the directive scanner."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from hipport.version_macros import expr, scan
from hipport.version_macros.conditionals import ConditionalMap


def _preprocessor():
    # C++17 mode: digit separators and true/false are C++ preprocessor features
    for cmd in (["cpp", "-P", "-x", "c++", "-std=c++17"], ["clang-cpp", "-P", "-x", "c++", "-std=c++17"],
                ["/usr/lib/llvm-15/bin/clang", "-E", "-P", "-x", "c++", "-std=c++17"]):
        if shutil.which(cmd[0]):
            return cmd
    pytest.skip("no C preprocessor (cpp/clang) installed")


def _random_expr(rng: random.Random, depth: int = 0) -> str:
    if depth > 3 or rng.random() < 0.25:
        kind = rng.randrange(7)
        if kind == 0:
            return rng.choice(["0", "1", "7", "42", "100", "11000", "12000"])
        if kind == 1:
            return rng.choice(["1u", "0U", "3ul", "5LL", "0x1F", "010", "0b101", "1'000", "0xFFFFFFFFFFFFFFFFull"])
        if kind == 2:
            return rng.choice(["'a'", "'\\n'", "'\\x41'", "'0'"])
        if kind == 3:
            return rng.choice(["A", "B", "C"])
        if kind == 4:
            return rng.choice(["defined(A)", "defined B", "defined ( C )"])
        if kind == 5:
            return rng.choice(["true", "false"])
        return "(" + _random_expr(rng, depth + 1) + ")"
    kind = rng.randrange(10)
    sub = lambda: _random_expr(rng, depth + 1)  # noqa: E731
    if kind == 0:
        return rng.choice(["!", "~", "- ", "+ "]) + sub()  # "--x" is a different token
    if kind == 1:
        return f"{sub()} ? {sub()} : {sub()}"
    if kind == 2:
        return f"({sub()}) {rng.choice(['/', '%'])} {rng.choice(['3', '7u', '-2'])}"
    if kind == 3:
        return f"({sub()}) {rng.choice(['<<', '>>'])} {rng.randrange(0, 6)}"
    op = rng.choice(["+", "-", "*", "<", ">", "<=", ">=", "==", "!=", "&", "|", "^", "&&", "||"])
    return f"({sub()}) {op} ({sub()})"


ENVS = [
    {"A": 3, "B": -2},
    {"A": 0},
    {"B": 11000, "C": 1},
]


def test_evaluator_agrees_with_the_c_preprocessor(tmp_path):
    """300 random expressions (suffixes, unsigned promotion, char literals, ?:, shifts) give the
    same truth value as cpp under three macro environments."""
    cpp = _preprocessor()
    rng = random.Random(20240601)
    exprs = []
    while len(exprs) < 300:
        text = _random_expr(rng)
        node = expr.parse_text(text)
        try:
            for env in ENVS:
                expr.evaluate(node, env)
        except expr.EvalError:
            continue
        exprs.append((text, node))
    src = "".join(f"#if {text}\nR{i}=1\n#else\nR{i}=0\n#endif\n" for i, (text, _) in enumerate(exprs))
    (tmp_path / "e.c").write_text(src)
    for env in ENVS:
        defs = [f"-D{k}={v}" for k, v in env.items()]
        out = subprocess.run([*cpp, *defs, str(tmp_path / "e.c")], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr[:2000]
        got = dict(line.split("=") for line in out.stdout.split() if line.startswith("R"))
        assert len(got) == len(exprs)
        for i, (text, node) in enumerate(exprs):
            mine = int(bool(expr.evaluate(node, env)))
            assert mine == int(got[f"R{i}"]), (text, env)


@pytest.mark.parametrize("text,env,value", [
    ("-1 < 0u", {}, 0),                      # usual arithmetic conversions: -1 becomes huge
    ("-1 < 0", {}, 1),
    ("(0 ? 1u : -1) > 0", {}, 1),            # ?: with an unsigned arm is unsigned
    ("CUDA_VERSION >= 11000", {}, 0),        # undefined identifiers are 0
    ("defined CUDA_VERSION && CUDA_VERSION/1000 == 11", {"CUDA_VERSION": 11020}, 1),
    ("__has_include(<cuda.h>) || 1", {}, 1),
    ("0x10 == 16 && 020 == 16 && 0b10000 == 16 && 1'6 == 16", {}, 1),
    ("'A' == 65", {}, 1),
    ("(1, 0)", {}, 0),
    ("-7 / 2 == -3 && -7 % 2 == -1", {}, 1),  # C truncates toward zero
])
def test_evaluation_rules(text, env, value):
    assert expr.evaluate(expr.parse_text(text), env) == value


@pytest.mark.parametrize("bad", ["", "1 +", "(1", "defined", "defined(1)", "1.5 > 1", "09", "A ? B", "1 2", "--A", "A = 1"])
def test_invalid_conditions_raise(bad):
    with pytest.raises(expr.ConditionError):
        expr.parse_text(bad)


def test_offsets_survive_comments_and_continuations():
    data = b"#if defined(CUDA_VERSION) /* c */ && \\\r\n    CUDA_VERSION >= 11000 // tail\nint x;\n"
    (d,) = scan.directives(data)
    node = expr.parse(data, d.body_start, d.end)
    assert node.op == b"&&"
    right = node.args[1]
    assert data[right.start:right.end] == b"CUDA_VERSION >= 11000"
    assert data[node.start:node.end].startswith(b"defined(CUDA_VERSION)")
    assert data[d.end:d.end + 1] == b"\n" and data[d.end + 1:] == b"int x;\n"


def test_directives_in_comments_and_strings_are_not_directives():
    data = (b'/*\n#if CUDA_VERSION >= 1\n#endif\n*/\n'
            b'const char* s = "\\\n#if CUDA_VERSION\\n";\n'
            b'auto r = R"x(\n#if CUDA_VERSION >= 2\n)x";\n'
            b'// a comment \\\n#if CUDA_VERSION >= 3\n'
            b'  #  if REAL >= 4\n#endif\n'
            b'int y = 1\'000; char c = \'#\';\n#ifdef ALSO_REAL\n#endif\n')
    found = [(d.name, d.body(data).strip()) for d in scan.directives(data)]
    assert found == [(b"if", b"REAL >= 4"), (b"endif", b""), (b"ifdef", b"ALSO_REAL"), (b"endif", b"")]


def test_block_comment_continues_a_directive_across_lines():
    data = b"#if A /* spans\n lines */ && B\nint z;\n"
    (d,) = scan.directives(data)
    node = expr.parse(data, d.body_start, d.end)
    assert expr.names(node) == {"A", "B"}


def test_conditional_stack_contexts():
    data = (b"#ifndef USE_ROCM\n#if CUDA_VERSION\n#endif\n"
            b"#elif X > 1\n#else\n#ifdef Y\n#endif\n#endif\n")
    cmap = ConditionalMap(data)
    sites = {data[s.directive.hash:s.directive.end]: s for s in cmap.sites}
    inner = sites[b"#if CUDA_VERSION"].context()
    assert [(repr(n), want) for n, want in inner.items] == [("defined('USE_ROCM')", False)]
    elif_ctx = sites[b"#elif X > 1"].context()
    assert [want for _, want in elif_ctx.items] == [True]  # the #ifndef branch was not taken
    ifdef_ctx = sites[b"#ifdef Y"].context()
    assert [want for _, want in ifdef_ctx.items] == [True, False]  # USE_ROCM defined, X > 1 false
