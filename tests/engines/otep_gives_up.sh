#!/bin/sh
# An OpenTafl engine that answers every request for a move with the protocol's critical error.
echo hello
while IFS= read -r line; do
  case "$line" in
    play*) echo "error -1 this engine cannot play these rules" ;;
    goodbye) exit 0 ;;
  esac
done
