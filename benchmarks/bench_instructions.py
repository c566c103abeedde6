"""The whole simulated table's work a hand in instructions, this checkout against another.

Run on demand (not a test; needs Debian's `valgrind`):
    python benchmarks/bench_instructions.py --against DIR [--regions hainan,guangdong] [--rounds N]

CPU time on a shared machine can move by a third between two runs of the same code, far more than
a change worth making; a count of instructions does not.  Each region is played by each checkout
under `valgrind --tool=cachegrind --cache-sim=no` (about 50 times slower), as `run_simulated`
plays it (speed 0, in a process of its own, the win tables built first): once for `--few` hands
and once for `--many`.  A hand's cost is the difference divided by the hands between, so the
start-up (imports, the links' handshakes) drops out.  Columns: millions of user-space instructions
a hand for each checkout, and their ratio; the medians last.

What it does not count: the kernel's part (the syscalls: a tenth or so of the table's CPU), the
controller's scoring worker (a process of its own: about a millisecond of CPU a hand once started;
its start-up, like this process's, drops out of the difference) and how fast the instructions run.
It moves too, though far less than CPU time: the links run in real time, so how many events share
a read (and a turn of the loop, which costs) depends on the timing of the moment; a region's count
a hand moved by up to 15% between two runs.  So the two checkouts
of a region run one after the other, alternating which goes first, `--rounds N` times each, and
each checkout's median count is kept; a comparison holds only within one run of this script.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

PLAY = """
import asyncio, sys
sys.path.insert(0, sys.argv[1])
from firmware.simulated import run_simulated
from rulesets.regions import get_region
try:
    from rulesets.winning import prepare
    prepare()
except ImportError:
    pass
asyncio.run(run_simulated(get_region(sys.argv[2]).resolve({}), hands=int(sys.argv[3]), seed=int(sys.argv[4]), speed=0))
"""


def instructions(code: str, region: str, hands: int, seed: int, script: Path) -> int:
    """User-space instructions of one process playing `hands` hands of `region` with `code`."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", code], capture_output=True, check=False)
    run = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                          sys.executable, str(script), code, region, str(hands), str(seed)],
                         capture_output=True, text=True, check=False, cwd=code)
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    if run.returncode != 0 or found is None:
        tail = run.stderr.strip().splitlines()[-1:] or ["no output"]
        raise SystemExit(f"{code}: {region} did not play under valgrind: {tail[0]}")
    return int(found.group(1).replace(",", ""))


def per_hand(code: str, region: str, args: argparse.Namespace, script: Path) -> float:
    few = instructions(code, region, args.few, args.seed, script)
    many = instructions(code, region, args.many, args.seed, script)
    return (many - few) / (args.many - args.few) / 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="another checkout (e.g. unpacked with git archive)")
    parser.add_argument("--code", default=str(Path(__file__).resolve().parents[1]), help="this checkout")
    parser.add_argument("--regions", default="hainan,guangdong,changchun,sichuan")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--few", type=int, default=2)
    parser.add_argument("--many", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=1, help="runs of each checkout per region (median kept)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {args.rounds}")
    if args.many <= args.few:
        parser.error(f"--many ({args.many}) must be more hands than --few ({args.few})")
    if shutil.which("valgrind") is None:
        print("bench_instructions: valgrind is not installed (apt-get install valgrind); nothing measured")
        return 0
    codes = (str(Path(args.code).resolve()), str(Path(args.against).resolve()))
    print(f"user-space instructions a hand (millions), ({args.many} hands - {args.few}) / "
          f"{args.many - args.few}, seed {args.seed}, speed 0, median of {args.rounds} run(s) each, alternated; "
          f"this: {codes[0]}; other: {codes[1]}")
    print(f"{'region':16}{'this':>9}{'other':>9}{'ratio':>8}")
    ratios, mine, theirs = [], [], []
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "play.py"
        script.write_text(PLAY)
        for n, region in enumerate(args.regions.split(",")):
            order = codes if n % 2 == 0 else codes[::-1]
            counted: dict[str, list[float]] = {code: [] for code in codes}
            for _ in range(args.rounds):
                for code in order:
                    counted[code].append(per_hand(code, region, args, script))
            this, other = (statistics.median(counted[code]) for code in codes)
            ratios.append(this / other)
            mine.append(this)
            theirs.append(other)
            print(f"{region:16}{this:9.0f}{other:9.0f}{this / other:8.2f}", flush=True)
    print(f"{'median':16}{statistics.median(mine):9.0f}{statistics.median(theirs):9.0f}"
          f"{statistics.median(ratios):8.2f}  (median of the ratios)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
