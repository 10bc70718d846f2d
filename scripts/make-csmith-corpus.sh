#!/usr/bin/env bash
# Random C programs as LLVM 19 IR, with the output each must print.
#   usage: scripts/make-csmith-corpus.sh OUT_DIR FIRST_SEED COUNT
# For each seed: csmith writes sSEED.c; clang-19 compiles it to sSEED.O0.ll (-O0 without optnone,
# so passes may run on it), sSEED.O2.ll (-O2, value names kept) and sSEED.O2g.ll (-O2 -g); lli-19
# runs the -O0 IR and its output (csmith's checksum line) goes to sSEED.expected.
# A seed whose program does not compile or does not finish under lli-19 in 10 s is left out.
# Seeds already complete in OUT_DIR are kept as they are.
set -euo pipefail
out=${1:?usage: make-csmith-corpus.sh OUT_DIR FIRST_SEED COUNT}
first=${2:?first seed}; count=${3:?count}
mkdir -p "$out"; out=$(cd "$out" && pwd)
cd "$out"   # csmith drops platform.info in its working folder
include=/usr/include/csmith
made=0
for ((seed = first; seed < first + count; seed++)); do
  stem="$out/s$seed"
  if [ -s "$stem.expected" ] && [ -s "$stem.O2g.ll" ]; then made=$((made + 1)); continue; fi
  keep=1
  csmith --seed "$seed" --max-funcs 12 > "$stem.c" 2>/dev/null || keep=0
  common=(-I"$include" -w -S -emit-llvm)
  [ $keep = 1 ] && clang-19 "${common[@]}" -O0 -Xclang -disable-O0-optnone "$stem.c" -o "$stem.O0.ll" 2>/dev/null || keep=0
  [ $keep = 1 ] && clang-19 "${common[@]}" -O2 -fno-discard-value-names "$stem.c" -o "$stem.O2.ll" 2>/dev/null || keep=0
  [ $keep = 1 ] && clang-19 "${common[@]}" -O2 -g "$stem.c" -o "$stem.O2g.ll" 2>/dev/null || keep=0
  [ $keep = 1 ] && timeout 10 lli-19 "$stem.O0.ll" > "$stem.expected" 2>/dev/null || keep=0
  if [ $keep = 1 ]; then made=$((made + 1)); else rm -f "$stem.c" "$stem".O0.ll "$stem".O2.ll "$stem".O2g.ll "$stem.expected"; fi
done
echo "make-csmith-corpus: $made programs in $out"
