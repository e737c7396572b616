"""gitignore semantics used by ``hipport convert``'s walk (hipport.gitignore)."""

from __future__ import annotations

import pytest

from hipport.gitignore import IgnoreStack, match, parse, parse_line


@pytest.mark.parametrize(
    "pattern, path, is_dir, expected",
    [
        ("*.o", "a.o", False, True),
        ("*.o", "deep/dir/a.o", False, True),  # no slash: any depth
        ("*.o", "a.oo", False, None),
        ("build/", "build", True, True),
        ("build/", "build", False, None),  # dir-only pattern does not match a file
        ("build/", "sub/build", True, True),
        ("/top.txt", "top.txt", False, True),  # anchored
        ("/top.txt", "sub/top.txt", False, None),
        ("doc/*.md", "doc/a.md", False, True),  # a middle slash anchors too
        ("doc/*.md", "x/doc/a.md", False, None),
        ("doc/*.md", "doc/sub/a.md", False, None),  # '*' does not cross '/'
        ("**/gen", "gen", True, True),
        ("**/gen", "a/b/gen", True, True),
        ("a/**/b", "a/b", False, True),
        ("a/**/b", "a/x/y/b", False, True),
        ("a/**", "a/x/y", False, True),
        ("a/**", "a", True, None),
        ("file?.txt", "file1.txt", False, True),
        ("file?.txt", "file10.txt", False, None),
        ("[a-c]*.log", "b.log", False, True),
        ("[!a-c]*.log", "b.log", False, None),
        ("[!a-c]*.log", "d.log", False, True),
        ("\\#hash", "#hash", False, True),
        ("\\!bang", "!bang", False, True),
        ("trailing   ", "trailing", False, True),
        ("space\\ ", "space ", False, True),
    ],
)
def test_single_pattern(pattern, path, is_dir, expected):
    assert match(parse(pattern), path, is_dir) is expected


def test_comments_and_blank_lines_are_not_patterns():
    assert parse("# comment\n\n   \n") == []
    assert parse_line("# x") is None and parse_line("") is None


def test_negation_last_match_wins():
    pats = parse("*.log\n!keep.log\n")
    assert match(pats, "a.log", False) is True
    assert match(pats, "keep.log", False) is False
    assert match(parse("!keep.log\n*.log\n"), "keep.log", False) is True


def test_nested_gitignore_is_relative_to_its_directory_and_wins():
    stack = IgnoreStack().push("", parse("*.tmp\n")).push("sub", parse("/local.txt\n!special.tmp\n"))
    assert stack.ignored("sub/local.txt", False)
    assert not stack.ignored("local.txt", False)  # anchored to sub/
    assert not stack.ignored("sub/special.tmp", False)  # deeper file re-includes
    assert stack.ignored("sub/other.tmp", False)
    assert stack.ignored("x.tmp", False)
    assert not stack.ignored("other/local.txt", False)
