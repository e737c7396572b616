"""tools/hipify_names.py: the CHECK-line pairing that turns hipify-style tests into name candidates,
and the policy by which the rule generators adopt them (AMD's declarations decide)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def hn():
    sys.path.insert(0, str(ROOT / "tools"))
    spec = importlib.util.spec_from_file_location("hipify_names_tool", ROOT / "tools" / "hipify_names.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


SAMPLE = """// RUN: %run_test hipify "%s" "%t" %hipify_args 1 --experimental %clang_args
// CHECK: #include "hipfoo.h"
#include "cufoo.h"
  // CHECK: hipFooStatus_t st = hipFooCreate(&h);
  // CHECK-NEXT: hipFooKind_t k = HIPFOO_KIND_A;
  cufooStatus_t st = cufooCreate(&h);
  cufooKind_t k = CUFOO_KIND_A;
  // CHECK: x = hipBar(a, b);
  if (c) y = 1;
  // misaligned: the user's own names differ, so nothing is taken from this pair
  // CHECK: int mine = hipOther;
  int yours = cuOther;
"""


def test_pairs_align_each_check_with_its_code_line(hn):
    pairs = set(hn.pairs_of(SAMPLE))
    assert {("cufooStatus_t", "hipFooStatus_t"), ("cufooCreate", "hipFooCreate"),
            ("cufooKind_t", "hipFooKind_t"), ("CUFOO_KIND_A", "HIPFOO_KIND_A")} <= pairs
    assert not any(a == "cuOther" for a, _ in pairs)  # misaligned line rejected
    assert not any("cufoo" == a for a, _ in pairs)  # include lines are header rules, not names
    assert not any(b == "hipBar" for _, b in pairs)  # a CHECK above unrelated code gives nothing


def test_declared_spelling_replaces_ours_undeclared_only_fills_gaps(hn, monkeypatch):
    table = {("cuA", "hip"): ("hipA2", ""), ("cuB", "hip"): ("hipB", "experimental"),
             ("cuC", "hip"): ("hipC_old", ""), ("cuD", "roc"): ("rocd", "experimental")}
    monkeypatch.setattr(hn, "table", lambda: table)
    rules = {"cuA": {"hip": "hipA", "kind": "function"},
             "cuB": {"kind": "function", "status": "unsupported", "note": "none"},
             "cuC": {"hip": "hipC", "kind": "function"},
             "cuD": {"hip": "hipD", "kind": "function"}}
    hn.preferred(rules, {"hipA", "hipA2", "hipC", "hipD"}.__contains__)
    assert rules["cuA"]["hip"] == "hipA2" and "hipA" in rules["cuA"]["note"]
    assert rules["cuB"]["hip"] == "hipB" and rules["cuB"]["status"] == "experimental"  # only with --experimental
    assert rules["cuC"]["hip"] == "hipC"  # ours is declared, hipify's is not: ours stays
    assert rules["cuD"]["roc"] == "rocd"  # --roc target filled where we had none


def test_a_declared_spelling_in_another_case_is_taken_instead(hn, monkeypatch):
    table = {("cuF", "hip"): ("hipFooId", "experimental"), ("cuG", "hip"): ("hipBar", "experimental")}
    monkeypatch.setattr(hn, "table", lambda: table)
    rules = {"cuF": {"kind": "enumerator"}, "cuG": {"kind": "enumerator"}}
    declared = {"hipFooID"}
    hn.preferred(rules, declared.__contains__, spelled=lambda t: {n.lower(): n for n in declared}.get(t.lower()))
    assert rules["cuF"]["hip"] == "hipFooID" and "status" not in rules["cuF"] and "hipFooId" in rules["cuF"]["note"]
    assert rules["cuG"]["status"] == "experimental"  # nothing declared in any case: hipify's, gated


def test_incompatible_targets_and_known_mistakes_are_not_copied(hn, monkeypatch):
    table = {("cuE", "hip"): ("hipE2", ""), ("CUSPARSE_ORDER_COL", "roc"): ("rocsparse_order_row", "")}
    monkeypatch.setattr(hn, "table", lambda: table)
    rules = {"cuE": {"hip": "hipE", "kind": "function"},
             "CUSPARSE_ORDER_COL": {"hip": "HIPSPARSE_ORDER_COL", "roc": "rocsparse_order_column", "kind": "enumerator"}}
    hn.preferred(rules, lambda name: True, compatible=lambda cuda, target: target != "hipE2")
    assert rules["cuE"]["hip"] == "hipE"
    assert rules["CUSPARSE_ORDER_COL"]["roc"] == "rocsparse_order_column"


def test_committed_table_is_well_formed(hn):
    rows = hn.table()
    assert len(rows) > 3000
    assert all(which in ("hip", "roc", "miopen", "hip_type") for _, which in rows)
    assert all(gate in ("", "experimental", "amap") for _, gate in rows.values())
