#!/bin/sh
# A UCI engine that answers every search with an illegal move (a1 is an empty corner).
while read -r line; do
  case "$line" in
    uci) echo "id name illegal"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "bestmove a1a2" ;;
    quit) exit 0 ;;
  esac
done
