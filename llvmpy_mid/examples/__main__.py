"""``python -m llvmpy_mid.examples [NAME]``: the path of a shipped example file (for the shell),
or, without a name, the list of shipped ``.ll`` examples."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main(argv: list[str]) -> int:
    examples = sorted(p.name for p in HERE.glob("*.ll"))
    if not argv:
        print("\n".join(examples))
        return 0
    path = HERE / argv[0]
    if argv[0] not in examples:
        print("no example '%s' (shipped: %s)" % (argv[0], ", ".join(examples)), file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
