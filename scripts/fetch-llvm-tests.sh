#!/usr/bin/env bash
# Fetch LLVM 19.1.7's own regression tests (the release Debian's opt-19 is built from) and the parts
# of its source worth reading, from Debian's llvm-toolchain-19 source package.
#   usage: scripts/fetch-llvm-tests.sh [DEST]
#   DEST defaults to $LLVMPY_MID_LLVM_SRC, else ~/.cache/llvmpy-mid/llvm-19.1.7 (where tests/oracles.py looks)
# Unpacks DEST/llvm/test/{Transforms,Analysis,Other,Verifier,Assembler,Bitcode} and
# DEST/llvm/{lib,include} (IR, AsmParser, Bitcode, Analysis, Transforms, Passes), prints DEST.
# Cached: a second run returns at once. Needs root for apt (it adds deb-src entries that mirror the
# machine's own Debian 'deb' sources). About 165 MB to download, half a minute.
# LLVM is Apache-2.0 WITH LLVM-exception; nothing fetched is committed to this repository.
set -euo pipefail
release=19.1.7
dest=${1:-${LLVMPY_MID_LLVM_SRC:-$HOME/.cache/llvmpy-mid/llvm-$release}}
stamp="$dest/.fetched-$release"
if [ -f "$stamp" ]; then echo "$dest"; exit 0; fi
command -v apt-get >/dev/null 2>&1 || { echo "fetch-llvm-tests: needs Debian's apt-get" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

have_deb_src() {
  grep -qs '^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null ||
    grep -qs '^Types:.*deb-src' /etc/apt/sources.list.d/*.sources 2>/dev/null
}
if ! have_deb_src; then
  [ "$(id -u)" = 0 ] || { echo "fetch-llvm-tests: no deb-src sources and not root" >&2; exit 1; }
  # One deb-src stanza per Debian 'deb' stanza already configured (same mirrors, suites, keys).
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && grep -q debian "$f" || continue
    awk '/^#/ {next} /^Types:/ {print "Types: deb-src"; next} {print}' "$f"; echo
  done > "$tmp/src.sources"
  [ -s "$tmp/src.sources" ] && cp "$tmp/src.sources" /etc/apt/sources.list.d/llvmpy-mid-src.sources
  if [ -f /etc/apt/sources.list ]; then
    awk '$1 == "deb" && /debian/ {$1 = "deb-src"; print}' /etc/apt/sources.list \
      > /etc/apt/sources.list.d/llvmpy-mid-src.list
  fi
  apt-get update -q >/dev/null 2>&1 || true
fi
# Prefer the exact Debian revision of the installed llvm-19, so the tests match the opt-19 here.
want=$(dpkg-query -W -f='${source:Version}' llvm-19 2>/dev/null || true)
cd "$tmp"
apt-get source --download-only -q "llvm-toolchain-19${want:+=$want}" >/dev/null 2>&1 ||
  apt-get source --download-only -q llvm-toolchain-19 >/dev/null 2>&1 ||
  { echo "fetch-llvm-tests: apt-get source llvm-toolchain-19 failed" >&2; exit 1; }
orig=$(ls llvm-toolchain-19_*.orig.tar.xz 2>/dev/null | head -n 1)
[ -n "$orig" ] || { echo "fetch-llvm-tests: no llvm-toolchain-19 orig tarball downloaded" >&2; exit 1; }
parts=()
for t in Transforms Analysis Other Verifier Assembler Bitcode; do parts+=("*/llvm/test/$t/*"); done
for l in IR AsmParser Bitcode Analysis Transforms Passes; do parts+=("*/llvm/lib/$l/*"); done
parts+=("*/llvm/include/llvm/*" "*/llvm/LICENSE.TXT")
tar -xJf "$orig" --wildcards "${parts[@]}"
top=$(find . -maxdepth 1 -mindepth 1 -type d -name 'llvm-toolchain-19*' | head -n 1)
[ -d "$top/llvm/test" ] || { echo "fetch-llvm-tests: unexpected tarball layout" >&2; exit 1; }
mkdir -p "$dest"
rm -rf "$dest/llvm"
mv "$top/llvm" "$dest/llvm"
touch "$stamp"
echo "$dest"
