#!/usr/bin/env bash
# Where a node of `hnefi bench` goes: instructions a node under cachegrind, and the functions
# that take them, by instructions (cachegrind) and by time (perf, where the kernel allows it).
#
#   scripts/profile.sh [--bin PATH] [--depth N] [--rules RULES] [--top K] [--no-perf]
#                      [--perft DEPTH]
#
# --bin      the binary to profile (default target/release/hnefi; a frozen build such as
#            target/frozen/b99f941/hnefi compares an old node with today's)
# --depth    `hnefi bench DEPTH` (default 4: about 350,000 nodes, a minute under cachegrind)
# --rules    the bench positions of the rules' board (default copenhagen; copenhagen-13 for
#            13x13's node against 11x11's)
# --top      how many functions to list (default 15)
# --perft    also count `hnefi perft DEPTH --threads 1`'s instructions and its leaf parents
# --no-perf  cachegrind only
#
# Instructions are exact and the same on any machine of the architecture: compare builds by
# them. perf's shares are of time, where memory and branches count too.
set -euo pipefail
cd "$(dirname "$0")/.."

bin=target/release/hnefi
depth=4
rules=copenhagen
top=15
perft=""
use_perf=1
while [ $# -gt 0 ]; do
    case "$1" in
        --bin) bin=$2; shift 2 ;;
        --depth) depth=$2; shift 2 ;;
        --rules) rules=$2; shift 2 ;;
        --top) top=$2; shift 2 ;;
        --perft) perft=$2; shift 2 ;;
        --no-perf) use_perf=0; shift ;;
        -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "profile.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
for n in "$depth" "$top" ${perft:+"$perft"}; do
    case "$n" in
        ''|*[!0-9]*|0) echo "profile.sh: '$n' is not a whole number of at least 1" >&2; exit 2 ;;
    esac
done
[ -x "$bin" ] || { echo "profile.sh: no binary at $bin (cargo build --release)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "profile.sh: valgrind is not installed" >&2; exit 1; }

# Builds from before `bench --rules` know only 11x11's positions: ask for others only.
rules_args=()
[ "$rules" = copenhagen ] || rules_args=(--rules "$rules")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The bench runs the refreshed and the incremental network over the same nodes: its node
# count is the sum of both runs' lines.
echo "== $bin bench $depth --rules $rules under cachegrind"
valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$work/bench.cg" \
    "$bin" bench "$depth" "${rules_args[@]}" >"$work/bench.out" 2>"$work/bench.err"
instructions=$(grep -oE 'I[[:space:]]+refs:[[:space:]]+[0-9,]+' "$work/bench.err" | grep -oE '[0-9,]+$' | tr -d ,)
nodes=$(grep -oE '^[a-z ]*: [0-9]+ nodes' "$work/bench.out" | grep -oE '[0-9]+' | paste -sd+ | bc)
echo "instructions: $instructions for $nodes nodes: $((instructions / nodes)) a node"
echo
echo "top $top functions by instructions:"
# The rows under the `file:function` heading, the program's own names without their file.
cg_annotate --show-percs=yes "$work/bench.cg" 2>/dev/null |
    awk '/file:function/ {on=1; next} on && /%\)/ {print} on && /^$/ {exit}' |
    sed 's/ ???:/ /' | head -n "$top"

if [ -n "$perft" ]; then
    echo
    echo "== $bin perft $perft --threads 1 under cachegrind"
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$bin" perft "$perft" --threads 1 >"$work/perft.out" 2>"$work/perft.err"
    p_instr=$(grep -oE 'I[[:space:]]+refs:[[:space:]]+[0-9,]+' "$work/perft.err" | grep -oE '[0-9,]+$' | tr -d ,)
    # The leaf parents are the positions one ply above the leaves: perft(DEPTH - 1)'s count.
    parents=$("$bin" perft $((perft - 1)) --threads 1 | grep "Nodes searched" | grep -oE "[0-9]+")
    echo "instructions: $p_instr; $parents leaf parents: $((p_instr / parents)) each"
fi

if [ "$use_perf" = 1 ] && command -v perf >/dev/null; then
    echo
    echo "== $bin bench $depth --rules $rules under perf: top $top functions by time"
    if perf record -q -F 4000 -g -o "$work/perf.data" "$bin" bench "$depth" "${rules_args[@]}" \
        >/dev/null 2>"$work/perf.err"; then
        perf report -i "$work/perf.data" --no-children --stdio --percent-limit 0.5 2>/dev/null |
            grep -E '^ +[0-9.]+%' | head -n "$top"
    else
        echo "(perf could not record here: $(head -1 "$work/perf.err"))"
    fi
fi
