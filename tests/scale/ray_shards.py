"""Ray (docs/scale.md): four Ray tasks each run one `rulecheck --shard K/4`
and return its part file; the driver merges them and checks the merge
equals one run of all the games. Runs under pytest or as a plain script:
    target/ray-venv/bin/python tests/scale/ray_shards.py
Needs `ray` and target/release/rulecheck (RULECHECK names another binary).
"""

import json
import os
import subprocess
import sys
import tempfile
import time

import ray

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RULECHECK = os.environ.get("RULECHECK", os.path.join(ROOT, "target", "release", "rulecheck"))
ARGS = ["rules/tamoul.rules", "--games", "400", "--players", "2,3", "--seed", "11",
        "--explore", "0", "--jobs", "1"]
SHARDS = 4


@ray.remote
def shard(k, n):
    """One shard, run by the rulecheck binary; returns the part file's text."""
    out = subprocess.run([RULECHECK, *ARGS, "--shard", f"{k}/{n}"], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return out.stdout


def strip(v):
    """A JSON report without its time."""
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k != "elapsed_ms"}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


def report(args):
    """rulecheck's JSON report (exit 0 sound, 1 not sound; 2 is an error)."""
    out = subprocess.run([RULECHECK, *args, "--json"], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stderr
    return strip(json.loads(out.stdout))


def test_ray_shards_merge_into_one_run():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        parts = ray.get([shard.remote(k, SHARDS) for k in range(1, SHARDS + 1)])
    finally:
        ray.shutdown()
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for k, text in enumerate(parts, 1):
            path = os.path.join(tmp, f"part_{k}.ron")
            with open(path, "w") as f:
                f.write(text)
            paths.append(path)
        merged = report(["merge", *reversed(paths)])
    one = report(ARGS)
    assert one["files"][0]["simulation"]["games"] == 400
    assert merged == one, "the merge of the Ray shards differs from one run"


if __name__ == "__main__":
    started = time.time()
    test_ray_shards_merge_into_one_run()
    print(f"ray: the merge of {SHARDS} Ray tasks equals one run "
          f"({time.time() - started:.1f} s in all)")
    sys.exit(0)
