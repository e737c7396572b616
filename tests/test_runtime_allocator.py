"""The caching allocator's logic, on the simulated host backend, under ASan and UBSan.

CI has no GPU, so tests/runtime/test_allocator.cpp is linked against the host backend (device
memory = host memory, streams and events simulated) and every C++ TEST runs in its own process:
the allocator is a process-wide singleton configured from the environment at first use.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from hipport import runtime
from tests.conftest import require_tool

HERE = Path(__file__).resolve().parent

TEST_SOURCE = HERE / "runtime" / "test_allocator.cpp"
CASES = re.findall(r"^TEST\((\w+)\)", TEST_SOURCE.read_text(), flags=re.M)

# Cases run by dedicated tests below, with their own environment or expectations.
SPECIAL = {"no_caching", "no_device", "use_after_free_is_poisoned", "snapshot", "stress"}

SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all", "-fno-omit-frame-pointer"]
RUN_ENV_DROP = ("HIPPORT_NO_CACHING", "PYTORCH_NO_CUDA_MEMORY_CACHING", "HIPPORT_HOST_DEVICES",
                "HIPPORT_HOST_MEMORY_LIMIT")


def build_driver(out: Path, sanitize: list[str]) -> Path:
    """Compile the library at -O1 (optimised code is what ships) and the test driver at -O0
    (it only drives), in parallel, with warnings as errors for the shipped sources.  -g1 keeps
    line numbers in sanitizer reports at a third less compile time than -g."""
    gxx = require_tool("g++")
    include = str(runtime.include_dir())
    common = ["-std=c++17", "-g1", "-DHIPPORT_HOST_BACKEND", "-I", include, *sanitize]
    jobs = [
        (src, ["-O1", "-Wall", "-Wextra", "-Werror"]) for src in runtime.sources("host")
    ] + [(TEST_SOURCE, ["-O0", "-Wall"])]

    def compile_one(job):
        src, flags = job
        obj = out / (Path(src).stem + ".o")
        proc = subprocess.run([gxx, *common, *flags, "-c", str(src), "-o", str(obj)],
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, f"{src}:\n{proc.stderr}"
        return obj

    with ThreadPoolExecutor(max_workers=2) as pool:
        objects = list(pool.map(compile_one, jobs))
    exe = out / "test_allocator"
    proc = subprocess.run([gxx, *sanitize, *map(str, objects), "-pthread", "-o", str(exe)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return exe


@pytest.fixture(scope="session")
def allocator_binary(tmp_path_factory) -> Path:
    """The driver under AddressSanitizer and UndefinedBehaviorSanitizer."""
    return build_driver(tmp_path_factory.mktemp("allocator_asan"), SANITIZE)


def run_case(exe: Path, name: str, *args: str, env: dict[str, str] | None = None,
             timeout: int = 120) -> subprocess.CompletedProcess:
    run_env = {k: v for k, v in os.environ.items() if k not in RUN_ENV_DROP}
    run_env.update(ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
                   UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    run_env.update(env or {})
    return subprocess.run([str(exe), name, *args], capture_output=True, text=True, env=run_env,
                          timeout=timeout)


def assert_passed(proc: subprocess.CompletedProcess, name: str) -> None:
    assert proc.returncode == 0 and f"PASS {name}" in proc.stdout, proc.stdout + proc.stderr
    assert "runtime error" not in proc.stderr, proc.stderr  # UBSan diagnostics
    assert "ERROR: AddressSanitizer" not in proc.stderr and "LeakSanitizer" not in proc.stderr, proc.stderr


def test_driver_lists_every_case(allocator_binary):
    listed = subprocess.run([str(allocator_binary), "--list"], capture_output=True, text=True).stdout.split()
    assert sorted(listed) == sorted(CASES)
    assert len(CASES) >= 15


@pytest.mark.parametrize("name", [c for c in CASES if c not in SPECIAL])
def test_allocator_case(allocator_binary, name):
    assert_passed(run_case(allocator_binary, name), name)


def test_unknown_case_fails(allocator_binary):
    proc = run_case(allocator_binary, "no_such_case")
    assert proc.returncode == 2 and "unknown test" in proc.stdout


@pytest.mark.parametrize("variable", ["HIPPORT_NO_CACHING", "PYTORCH_NO_CUDA_MEMORY_CACHING"])
def test_environment_disables_caching(allocator_binary, variable):
    assert_passed(run_case(allocator_binary, "no_caching", env={variable: "1"}), "no_caching")


def test_caching_stays_on_when_variable_is_zero(allocator_binary):
    # the same case must fail on its first check when caching is on
    proc = run_case(allocator_binary, "no_caching", env={"HIPPORT_NO_CACHING": "0"})
    assert proc.returncode == 1 and "!hipportCachingEnabled()" in proc.stdout


def test_no_device_reports_runtime_error(allocator_binary):
    assert_passed(run_case(allocator_binary, "no_device", env={"HIPPORT_HOST_DEVICES": "0"}), "no_device")


def test_cached_free_blocks_are_poisoned(allocator_binary):
    proc = run_case(allocator_binary, "use_after_free_is_poisoned")
    assert proc.returncode != 0
    assert "touching freed block" in proc.stdout and "not reported" not in proc.stdout
    assert "AddressSanitizer: use-after-poison" in proc.stderr


def test_snapshot_json(allocator_binary):
    proc = run_case(allocator_binary, "snapshot")
    assert_passed(proc, "snapshot")
    snap = json.loads(re.search(r"^SNAPSHOT (.*)$", proc.stdout, re.M).group(1))
    a, b, stream = re.search(r"^POINTERS (\S+) (\S+) (\S+)$", proc.stdout, re.M).groups()
    assert snap["caching"] is True
    assert [d["device"] for d in snap["devices"]] == [0, 1]
    assert snap["devices"][1]["segments"] == []
    segments = {int(s["address"], 16): s for s in snap["devices"][0]["segments"]}
    small = segments[int(a, 16)]
    assert small["segment_type"] == "small" and small["total_size"] == 2 << 20
    assert int(small["stream"], 16) == 0
    states = [(blk["size"], blk["state"], blk["requested_size"]) for blk in small["blocks"]]
    assert states == [(1024, "active_allocated", 1000), (512 << 10, "active_pending_free", 0),
                      ((2 << 20) - 1024 - (512 << 10), "inactive", 0)]
    large = segments[int(b, 16)]
    assert large["segment_type"] == "large" and large["total_size"] == 20 << 20
    assert int(large["stream"], 16) == int(stream, 16)
    assert [blk["state"] for blk in large["blocks"]] == ["active_allocated", "inactive"]
    for seg in segments.values():  # blocks tile their segment exactly, in address order
        addr = int(seg["address"], 16)
        for blk in seg["blocks"]:
            assert int(blk["address"], 16) == addr
            addr += blk["size"]
        assert addr == int(seg["address"], 16) + seg["total_size"]
        assert seg["allocated_size"] == sum(x["size"] for x in seg["blocks"] if x["state"] == "active_allocated")


@pytest.mark.parametrize("threads,iterations,seed", [(8, 6000, 12345), (16, 3000, 99), (3, 4000, 777)])
def test_randomized_multithreaded_stress(allocator_binary, threads, iterations, seed):
    proc = run_case(allocator_binary, "stress", str(threads), str(iterations), str(seed), timeout=300)
    assert_passed(proc, "stress")
    fields = dict(kv.split("=") for kv in re.search(r"^STRESS (.*)$", proc.stdout, re.M).group(1).split())
    assert int(fields["threads"]) == threads
    # the memory limit must have pushed the allocator through its free-cache-and-retry path
    assert int(fields["retries"]) > 0
    assert int(fields["device_allocs"]) > 0


def test_stress_under_thread_sanitizer(tmp_path):
    """The locking claims, checked by ThreadSanitizer: no data race in the allocator or the
    simulated runtime while many threads allocate, free and record streams on two devices."""
    exe = build_driver(tmp_path, ["-fsanitize=thread"])
    proc = run_case(exe, "stress", "8", "2000", "4242", timeout=300)
    assert proc.returncode == 0 and "PASS stress" in proc.stdout, proc.stdout + proc.stderr
    assert "ThreadSanitizer" not in proc.stderr, proc.stderr
