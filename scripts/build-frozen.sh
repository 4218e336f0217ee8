#!/usr/bin/env bash
# Builds a frozen Hnefi from a commit of this repository's history, for yardsticks whose
# opponent must not improve with the build under test (issue 73: b99f941, the network g16).
#
#   scripts/build-frozen.sh [COMMIT]     (default b99f941)
#
# The commit's tree is taken with `git archive` (no file from outside the repository) into
# target/frozen/COMMIT/src and built there with its own Cargo.lock; the binary lands in
# target/frozen/COMMIT/hnefi, which the script prints. A binary already there is kept: the
# build is done once per checkout (about 6 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
commit=${1:-b99f941}
full=$(git rev-parse --verify --quiet "$commit^{commit}") || {
    echo "build-frozen: $commit is not a commit of this repository" >&2
    exit 2
}
dir=target/frozen/$commit
if [ -x "$dir/hnefi" ]; then
    echo "$dir/hnefi"
    exit 0
fi
rm -rf "$dir/src"
mkdir -p "$dir/src"
git archive "$full" | tar -x -C "$dir/src"
# Its own target folder: the frozen tree's crates must not overwrite this checkout's.
(cd "$dir/src" && CARGO_TARGET_DIR="$PWD/../target" cargo build --release --locked --quiet --bin hnefi) >&2
cp "$dir/target/release/hnefi" "$dir/hnefi.part"
mv "$dir/hnefi.part" "$dir/hnefi"
echo "$dir/hnefi"
