#!/usr/bin/env bash
# Everything the tests compare against, in one step: LLVM 19's tools and csmith
# (install-llvm-tools.sh), and LLVM 19.1.7's own regression tests (fetch-llvm-tests.sh).
# Idempotent and cached. Without root or Debian it says what it could not set up and exits 0:
# the tests that need a missing oracle skip, with one summary line naming it.
here=$(cd "$(dirname "$0")" && pwd)
status=0
bash "$here/install-llvm-tools.sh" || status=1
bash "$here/fetch-llvm-tests.sh" >/dev/null && echo "fetch-llvm-tests: LLVM 19.1.7 tests ready" || status=1
[ $status = 0 ] || echo "setup-oracles: some oracles are missing; the tests that need them will skip" >&2
exit 0
