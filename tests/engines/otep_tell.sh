#!/bin/sh
# An OpenTafl engine that writes every line it is told into the file $1, and dies when asked
# for a move.
echo hello
while IFS= read -r line; do
  printf '%s\n' "$line" >> "$1"
  case "$line" in
    play*) exit 3 ;;
  esac
done
