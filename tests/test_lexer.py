"""The fast regex lexer must classify exactly as clang's own lexer does (libclang tokens)."""

from __future__ import annotations

import glob
import os

import pytest

from hipport.cxx.lexer import COMMENT, IDENT, tokens

CUDA_INCLUDE = "/usr/local/cuda/include"
HIP_INCLUDE = "/usr/include/hip"


def _corpus() -> list[str]:
    files = sorted(glob.glob(os.path.join(CUDA_INCLUDE, "*.h")) + glob.glob(os.path.join(CUDA_INCLUDE, "*.hpp")))
    files += sorted(glob.glob(os.path.join(HIP_INCLUDE, "**", "*.h"), recursive=True))
    return files


def clang_tokens(path: str, data: bytes):
    from clang import cindex

    tu = cindex.TranslationUnit.from_source(
        path, args=["-x", "c++", "-nostdinc", "-E"], unsaved_files=[(path, b"")],
        options=cindex.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD,
    )
    # Tokenize the real bytes through an unsaved copy so offsets are our offsets.
    tu.reparse(unsaved_files=[(path, data)])
    f = tu.get_file(path)
    extent = cindex.SourceRange.from_locations(
        cindex.SourceLocation.from_offset(tu, f, 0), cindex.SourceLocation.from_offset(tu, f, len(data)))
    for tok in tu.get_tokens(extent=extent):
        yield tok.kind.name, tok.extent.start.offset, tok.extent.end.offset


def classify_ours(data: bytes):
    idents, literals, comments = set(), set(), set()
    for tok in tokens(data):
        if tok.kind == IDENT:
            idents.add((tok.start, tok.end))
        elif tok.kind == COMMENT:
            comments.add((tok.start, tok.end))
        elif tok.kind in ("string", "char", "number"):
            literals.add((tok.start, tok.end))
    return idents, literals, comments


def classify_clang(path: str, data: bytes):
    idents, literals, comments = set(), set(), set()
    for kind, start, end in clang_tokens(path, data):
        # clang starts a token at a backslash-newline that precedes it; that is whitespace
        while data.startswith((b"\\\n", b"\\\r\n"), start):
            start += 3 if data[start + 1:start + 2] == b"\r" else 2
        if kind in ("IDENTIFIER", "KEYWORD"):
            idents.add((start, end))
        elif kind == "COMMENT":
            comments.add((start, end))
        elif kind == "LITERAL":
            literals.add((start, end))
    return idents, literals, comments


@pytest.mark.parametrize("path", _corpus()[:400])
def test_lexer_matches_libclang(path):
    data = open(path, "rb").read()
    ours = classify_ours(data)
    theirs = classify_clang(path, data)
    for name, a, b in zip(("identifiers", "literals", "comments"), ours, theirs):
        missing, extra = sorted(b - a)[:3], sorted(a - b)[:3]
        assert not missing and not extra, (
            f"{name}: clang has {[data[s:e][:40] for s, e in missing]}, we have {[data[s:e][:40] for s, e in extra]}")


def test_corpus_is_substantial():
    files = _corpus()
    assert len(files) > 50
    assert sum(os.path.getsize(f) for f in files) > 2_000_000


@pytest.mark.parametrize("source", [
    b'R"x(a "quoted" )" still raw)x" ident',
    b"u8'a' L\"w\" u'\\'' U\"\\\"\" ident",
    b"1'000'000 0x1cu 1.5e+3f .5 ident",
    b"// line \\\n continued\nident",
    b"x; /\\\n* spliced opener, don't */ ident '\\n' /\\\n/ spliced line comment\nident",
    b"#include <cuda_runtime.h>\n#  define X(a) a##b\n",
    b"a<<<g, b>>>(c); x >> y",
])
def test_lexer_edge_cases_match_libclang(tmp_path, source):
    path = str(tmp_path / "edge.cu")
    assert classify_ours(source) == classify_clang(path, source)


def test_unterminated_comment_masks_the_rest():
    """clang drops an unterminated block comment; we keep it a comment so nothing in it is renamed."""
    toks = list(tokens(b"x /* cudaMalloc"))
    assert [t.kind for t in toks] == [IDENT, COMMENT]


@pytest.mark.parametrize("source", [
    b"#if 0\nWe don't call /* cudaMalloc here\n#endif\nint cudaX;\n",  # prose in a skipped block
    b"switch (c) { case'\"': return cudaFree(p); }\n",
    b"int a = 1'000'000, b = 0xFF'FF'u, c = 1'0.5'0; char d = u8'x', e = L'y'; cudaFree(0);\n",
])
def test_quote_after_a_word_opens_a_char_literal_unless_in_a_number(tmp_path, source):
    """The sweep, the full lexer and clang agree where a quote follows a word: a digit separator
    only inside a number."""
    from hipport.cxx.scan import scan

    if not source.startswith(b"#if 0"):  # (libclang's raw tokens see `/*` there; the compilers do not)
        assert classify_ours(source) == classify_clang(str(tmp_path / "q.cu"), source)
    sweep = scan(source, ("cuda",))
    want = {(t.start, t.end) for t in tokens(source) if t.kind in (COMMENT, "string", "char")}
    assert {(s - (source[s - 2:s] == b"u8") * 2 - (source[s - 1:s] == b"L"), e) for s, e in sweep.masked} == want
    assert [source[s:e] for s, e in sweep.idents] == [t for t in (b"cudaX", b"cudaFree") if t in source]


@pytest.mark.parametrize("path", _corpus()[:120])
def test_fast_sweep_agrees_with_full_lexer(path):
    """The bulk sweep sees exactly the lexer's identifiers with a wanted prefix, and masks exactly
    its comments and string/char literals."""
    from hipport.cxx.scan import scan

    data = open(path, "rb").read()
    prefixes = ("cuda", "CU", "cu", "__sh", "make_", "hip")
    sweep = scan(data, prefixes)
    want_idents = set()
    want_masked = set()
    for tok in tokens(data):
        if tok.kind == IDENT and data[tok.start:tok.end].startswith(tuple(p.encode() for p in prefixes)):
            want_idents.add((tok.start, tok.end))
        elif tok.kind in (COMMENT, "string", "char"):
            want_masked.add((tok.start, tok.end))
    assert set(sweep.idents) == want_idents
    # the sweep starts a prefixed literal (L"x", u8R"(x)") at its quote or R: normalise
    normalised = set()
    for s, e in want_masked:
        while data[s:s + 1] in (b"u", b"U", b"L", b"8") and data[s:s + 1] not in (b'"', b"'"):
            s += 1
        if data[s:s + 2] == b'R"' and (s, e) not in sweep.masked:
            pass
        normalised.add((s, e))
    assert set(sweep.masked) == normalised


def test_previous_code_byte_skips_comments_on_any_line_length():
    """prev_nonspace finds a `//` comment's start from the file's line and comment tables (a huge
    one-line file is no longer searched from the line's start for every name)."""
    from hipport.cxx.calls import prev_nonspace

    data = b"a(); // note\nb /* x */ c \\\n d // e // f\n" + b"x + " * 1000 + b"y\n"
    assert data[prev_nonspace(data, data.index(b"b"))] == ord(";")
    assert data[prev_nonspace(data, data.index(b"c"))] == ord("b")
    assert data[prev_nonspace(data, data.index(b"d"))] == ord("c")
    assert data[prev_nonspace(data, data.index(b"x + "))] == ord("d")
    assert data[prev_nonspace(data, data.index(b"y"))] == ord("+")
    assert prev_nonspace(b"// only a comment\n", 17) == -1
