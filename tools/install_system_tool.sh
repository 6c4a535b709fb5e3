#!/usr/bin/env bash
# Usage: tools/install_system_tool.sh COMMAND PACKAGE WHY
# Installs PACKAGE from the system's packages when COMMAND is missing; where that cannot be
# done, says so clearly (with WHY: what works without it) and exits 0, so set-up goes on.
set -u
command_name=$1 package=$2 why=${3:-}
if command -v "$command_name" >/dev/null 2>&1; then exit 0; fi
sudo=""
[ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1 && sudo="sudo -n"
echo "installing $package ($command_name) from the system's packages..."
if command -v apt-get >/dev/null 2>&1; then
  $sudo apt-get update -qq >/dev/null 2>&1
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$package" >/dev/null 2>&1
elif command -v dnf >/dev/null 2>&1; then $sudo dnf install -y -q "$package"
elif command -v brew >/dev/null 2>&1; then brew install "$package"
fi
if ! command -v "$command_name" >/dev/null 2>&1; then
  echo "warning: $command_name could not be installed; install the '$package' system package." >&2
  [ -n "$why" ] && echo "         $why" >&2
fi
exit 0
