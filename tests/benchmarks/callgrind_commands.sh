#!/bin/bash
# Instructions a command, counted by callgrind (deterministic: the measure to compare two
# checkouts on a shared, noisy machine). Usage, from the checkout to measure:
#     tests/benchmarks/callgrind_commands.sh tardieu-bombardment 6 [NAME]
# Runs command_cost.py's round robin twice under callgrind (--separate-threads=yes), playing
# and not playing, and prints (played - not played) / commands for the event loop's thread
# (thread 1) and for all threads. Needs valgrind. Output files: ${TMPDIR:-/tmp}/callgrind-NAME-*.
set -euo pipefail
SCENARIO=${1:?scenario}
GAMES=${2:?games}
NAME=${3:-run}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${TMPDIR:-/tmp}/callgrind-$NAME-$SCENARIO
export PYTHONHASHSEED=0 PYTHONPYCACHEPREFIX=${TMPDIR:-/tmp}/callgrind-pyc-$NAME
cd "$ROOT"
.venv/bin/python tests/benchmarks/command_cost.py rounds "$SCENARIO" 3 > /dev/null  # bytecode written first
for PLAY in no-play play; do
  rm -f "$OUT-$PLAY".*
  FLAG=$([ "$PLAY" = no-play ] && echo --no-play || true)
  valgrind --tool=callgrind --separate-threads=yes --dump-instr=no --collect-jumps=no \
    --callgrind-out-file="$OUT-$PLAY.%p" .venv/bin/python tests/benchmarks/command_cost.py rounds \
    "$SCENARIO" "$GAMES" $FLAG > "$OUT-$PLAY.log" 2>&1
done
python3 - "$OUT" <<'PY'
import glob, re, sys
out = sys.argv[1]
def totals(play):
    found = {}
    for path in glob.glob(f"{out}-{play}.*"):
        if path.endswith(".log"):
            continue
        thread = int(m.group(1)) if (m := re.search(r"-(\d+)$", path)) else 1
        for line in open(path):
            if line.startswith(("totals:", "summary:")):
                found[thread] = int(line.split()[1])
                break
    return found
before, after = totals("no-play"), totals("play")
commands = int(re.search(r"commands (\d+)", open(f"{out}-play.log").read()).group(1))
loop = (after.get(1, 0) - before.get(1, 0)) / commands
every = (sum(after.values()) - sum(before.values())) / commands
print(f"{out.rsplit('/', 1)[-1]}: the event loop's thread {loop / 1e6:.4f} M instructions a command,"
      f" all threads {every / 1e6:.4f} M ({commands} commands; threads {sorted(after)})")
PY
