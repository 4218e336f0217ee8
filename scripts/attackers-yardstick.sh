#!/usr/bin/env bash
# The attackers' yardstick (issues 46 and 73): Hnefi's attackers at 10 ms a move against a
# frozen defense at 500 ms, the deep defense that Hnefi's own equal-time self-play never meets.
# The defense is the build of b99f941 (the network g16), which does not improve with the
# build under test (scripts/build-frozen.sh makes it on first use).
#
#   scripts/attackers-yardstick.sh [--engine BIN] [--defender BIN|self] [--runner BIN]
#       [--part odds|stuck|more|hunt|both|all]
#       [--games N] [--concurrency C] [--fast SECONDS] [--deep SECONDS] [--seed S]
#       [--each 'KEY=VALUE ...'] [--fast-words 'KEY=VALUE ...'] [--deep-words '...'] OUTDIR
#
# odds:  N games (default 100) from positions/openings-balanced.txt, the fast side always
#        attacking, drawn at ply 300.
# stuck: the 16 positions of positions/stuck-attackers.fen, where the fast attackers once
#        surrounded the king and then shuffled, 200 plies each.
# more:  the 48 positions of positions/stuck-more.fen, taken from the drawn games of earlier
#        stuck parts, 200 plies each: three times the games, for changes that the 16 cannot
#        tell apart.
# hunt:  the 18 positions of positions/stuck-hunt.fen, where the ring was broken and the king
#        kept at most two soldiers, yet the attackers drew, 200 plies each: the king hunt.
# `both` plays stuck and odds, `all` all four.
# Each part writes OUTDIR/PART.csv (the games), OUTDIR/PART.json (the summary) and
# OUTDIR/PART.txt (the report: W/D/L as attackers, how the games ended, pieces lost a game).
# A part whose .json exists is finished and skipped: a killed run, run again, starts over
# the part it was in and keeps the ones before.
# --engine is the build under test (default: target/release/hnefi); --defender the deep side
# (default: the frozen b99f941 build; `self`: the engine itself, as before issue 73); --runner
# plays the match
# and needs --first-attacks-only (default: the engine). --each gives both sides `hnefi match`
# engine words (option.Hash=64), --fast-words and --deep-words one side alone. Timing matters:
# give each game a core (concurrency at most the cores). On the lent 16-core machine (the
# `device` tool), copy the builds into an ignored folder of the repository, carry it, and run
#   scripts/attackers-yardstick.sh --engine .dev/hnefi --concurrency 16 $OUT/NAME
# (100 odds games and the 16 stuck positions took about 2 and 1 minutes there for a42efb7).
# On a loaded machine, limit by nodes instead, about as many as those times search:
#   --fast 60 --deep 60 --fast-words nodes=6000 --deep-words nodes=150000
set -euo pipefail
cd "$(dirname "$0")/.."
engine=target/release/hnefi defender="" runner="" part=both games=100 concurrency=1
fast=0.01 deep=0.5 seed=46 out="" each="" fast_words="" deep_words=""
while [ $# -gt 0 ]; do
    case "$1" in
        --engine) engine=$2; shift 2 ;;
        --defender) defender=$2; shift 2 ;;
        --runner) runner=$2; shift 2 ;;
        --part) part=$2; shift 2 ;;
        --games) games=$2; shift 2 ;;
        --concurrency) concurrency=$2; shift 2 ;;
        --fast) fast=$2; shift 2 ;;
        --deep) deep=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --each) each=$2; shift 2 ;;
        --fast-words) fast_words=$2; shift 2 ;;
        --deep-words) deep_words=$2; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
        -*) echo "attackers-yardstick: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) out=$1; shift ;;
    esac
done
[ -n "$out" ] || { echo "attackers-yardstick: give an output folder (see --help)" >&2; exit 2; }
runner=${runner:-$engine}
case "$defender" in
    "") defender=$(scripts/build-frozen.sh b99f941) ;;
    self) defender=$engine ;;
esac
for bin in "$engine" "$defender" "$runner"; do
    [ -x "$bin" ] || { echo "attackers-yardstick: $bin is not an executable" >&2; exit 2; }
done
case "$part" in odds|stuck|more|hunt|both|all) ;; *)
    echo "attackers-yardstick: --part is odds, stuck, more, hunt, both or all, not $part" >&2; exit 2 ;;
esac
mkdir -p "$out"
engine=$(realpath "$engine")
defender=$(realpath "$defender")

play() { # NAME OPENINGS GAMES PLIES
    local name=$1
    if [ -e "$out/$name.json" ]; then
        echo "attackers-yardstick: $out/$name.json exists, $name skipped" >&2
        return
    fi
    rm -f "$out/$name.csv"
    # Word lists split on spaces on purpose: one KEY=VALUE word each.
    # shellcheck disable=SC2086
    "$runner" match --first-attacks-only \
        --engine cmd="$engine" name=fast st="$fast" $fast_words \
        --engine cmd="$defender" name=deep st="$deep" $deep_words \
        ${each:+--each $each} \
        --openings "$2" --games "$3" --max-plies "$4" --seed "$seed" \
        --concurrency "$concurrency" --records "$out/$name.csv" --json "$out/$name.json.part" \
        --report-every 4 | tee "$out/$name.txt"
    mv "$out/$name.json.part" "$out/$name.json"
}

case "$part" in stuck|both|all)
    play stuck positions/stuck-attackers.fen "$(grep -vc '^#' positions/stuck-attackers.fen)" 200 ;;
esac
case "$part" in more|all)
    play more positions/stuck-more.fen "$(grep -vc '^#' positions/stuck-more.fen)" 200 ;;
esac
case "$part" in hunt|all)
    play hunt positions/stuck-hunt.fen "$(grep -vc '^#' positions/stuck-hunt.fen)" 200 ;;
esac
case "$part" in odds|both|all)
    play odds positions/openings-balanced.txt "$games" 300 ;;
esac
