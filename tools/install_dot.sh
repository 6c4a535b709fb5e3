#!/usr/bin/env bash
# Install Graphviz's `dot` from the system's packages; say clearly what to do where we cannot.
set -u
if command -v dot >/dev/null 2>&1; then exit 0; fi
sudo=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo -n"
if command -v apt-get >/dev/null 2>&1; then
  echo "installing Graphviz (dot) with apt-get..."
  $sudo apt-get update -qq >/dev/null 2>&1
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq graphviz >/dev/null 2>&1
elif command -v dnf >/dev/null 2>&1; then $sudo dnf install -y -q graphviz
elif command -v brew >/dev/null 2>&1; then brew install graphviz
fi
if ! command -v dot >/dev/null 2>&1; then
  echo "warning: Graphviz's dot could not be installed; install the 'graphviz' system package." >&2
  echo "         .dot export works without it; .svg/.png export and the tests that render are skipped." >&2
fi
exit 0
