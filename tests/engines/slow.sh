#!/bin/sh
# A UCI engine that thinks too long: it answers 0.3 s after each request.
while read -r line; do
  case "$line" in
    uci) echo "id name slow"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) sleep 0.3; echo "bestmove a1a2" ;;
    quit) exit 0 ;;
  esac
done
