#!/bin/sh
# An engine behind a wrapper script: the real engine (stubborn.sh) runs as a child of this
# shell, not in its place, as launchers of Java or Python engines often do.
sh "$(dirname "$0")/stubborn.sh"
