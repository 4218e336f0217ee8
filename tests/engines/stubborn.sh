#!/bin/sh
# A UCI engine that, once asked for a move, thinks forever: it never answers and never
# notices that its input has closed.
while read -r line; do
  case "$line" in
    uci) echo "id name stubborn"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) while :; do sleep 1; done ;;
    quit) exit 0 ;;
  esac
done
