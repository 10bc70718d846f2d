#!/usr/bin/env bash
# Install the test oracles: LLVM 19's command-line tools (opt-19, llvm-as-19, FileCheck-19, lli-19,
# clang-19, llvm-stress-19) and csmith with its header, from Debian's packages.
# Safe to run again: when everything is present it only says so. Needs root and apt-get; on any
# other machine it explains what is missing and exits 1 (the tests then skip what needs them).
set -euo pipefail
tools=(opt-19 llvm-as-19 FileCheck-19 lli-19 clang-19 llvm-stress-19 csmith)
absent() {
  local t
  for t in "${tools[@]}"; do command -v "$t" >/dev/null 2>&1 || echo "$t"; done
  [ -f /usr/include/csmith/csmith.h ] || echo "csmith.h"
}
todo=$(absent)
if [ -z "$todo" ]; then echo "install-llvm-tools: all present"; exit 0; fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-llvm-tools: missing $(echo $todo); install Debian's clang-19 llvm-19 llvm-19-tools csmith libcsmith-dev as root" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends \
  clang-19 llvm-19 llvm-19-tools csmith libcsmith-dev >/dev/null
todo=$(absent)
if [ -n "$todo" ]; then echo "install-llvm-tools: still missing $(echo $todo)" >&2; exit 1; fi
echo "install-llvm-tools: installed"
