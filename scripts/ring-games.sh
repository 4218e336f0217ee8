#!/usr/bin/env bash
# The data of issue 89 (Strength VI): games played to their real end by Hnefi's attackers
# against a defense that does not crack, the frozen b99f941 at 150,000 nodes a move. No score
# adjudicates them: a game ends by the rules, or as a draw at --max-plies. The attackers play
# at a spread of strengths (shard by shard: 6,000, 15,000, 40,000 and 150,000 nodes), so that
# rings are closed both well and badly.
#
#   scripts/ring-games.sh [--engine BIN] [--defender BIN] [--shards A-B] [--games N]
#       [--plies P] [--seed S] OUTDIR
#
# Shard K plays N games (default 8) from positions/openings-balanced.txt with seed S+K, the
# attackers at the K-th strength of the spread (K mod 4), and writes OUTDIR/shard-K.csv (the
# records, with results) and OUTDIR/shard-K.json (the summary). A shard whose .json exists is
# done and skipped: the run resumes where it was killed, shard by shard. The yardstick's
# positions (positions/stuck-*.fen) are never played here: they stay out of training.
# Niced by the caller if other work shares the machine:
#   nohup nice -n 19 scripts/ring-games.sh --shards 0-999 /work/rings > /work/rings.log 2>&1 &
set -euo pipefail
cd "$(dirname "$0")/.."
engine=target/release/hnefi defender="" shards=0-99 games=8 plies=300 seed=8900 out=""
while [ $# -gt 0 ]; do
    case "$1" in
        --engine) engine=$2; shift 2 ;;
        --defender) defender=$2; shift 2 ;;
        --shards) shards=$2; shift 2 ;;
        --games) games=$2; shift 2 ;;
        --plies) plies=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        -*) echo "ring-games: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) out=$1; shift ;;
    esac
done
[ -n "$out" ] || { echo "ring-games: give an output folder (see --help)" >&2; exit 2; }
[[ "$shards" =~ ^([0-9]+)-([0-9]+)$ ]] || { echo "ring-games: --shards is A-B, not $shards" >&2; exit 2; }
first=${BASH_REMATCH[1]} last=${BASH_REMATCH[2]}
defender=${defender:-$(scripts/build-frozen.sh b99f941)}
for bin in "$engine" "$defender"; do
    [ -x "$bin" ] || { echo "ring-games: $bin is not an executable" >&2; exit 2; }
done
mkdir -p "$out"
engine=$(realpath "$engine")
defender=$(realpath "$defender")
spread=(6000 15000 40000 150000)
for ((k = first; k <= last; k++)); do
    [ -e "$out/shard-$k.json" ] && continue
    nodes=${spread[$((k % 4))]}
    echo "ring-games: shard $k, attackers at $nodes nodes ($(date +%H:%M:%S))" >&2
    rm -f "$out/shard-$k.csv"
    "$engine" match --first-attacks-only \
        --engine cmd="$engine" name="attackers-$nodes" nodes="$nodes" \
        --engine cmd="$defender" name=frozen nodes=150000 \
        --openings positions/openings-balanced.txt --games "$games" --max-plies "$plies" \
        --seed $((seed + k)) --concurrency 1 --records "$out/shard-$k.csv" \
        --json "$out/shard-$k.json.part" > "$out/shard-$k.txt"
    mv "$out/shard-$k.json.part" "$out/shard-$k.json"
done
