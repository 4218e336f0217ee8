#!/bin/sh
# A UCI engine that prints junk: stray lines, bytes that are not UTF-8, a 100 kB line,
# and a bestmove that is not a move.
while read -r line; do
  case "$line" in
    uci) echo "id name junk"; echo "garbage before uciok"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      printf 'info \377\376 nonsense\n'
      head -c 100000 /dev/zero | tr '\0' 'x'; echo
      echo "bestmove"
      echo "bestmove !!junk!!" ;;
    quit) exit 0 ;;
  esac
done
