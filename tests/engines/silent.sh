#!/bin/sh
# A UCI engine that never answers a search (and ignores stop).
while read -r line; do
  case "$line" in
    uci) echo "id name silent"; echo "uciok" ;;
    isready) echo "readyok" ;;
    quit) exit 0 ;;
  esac
done
