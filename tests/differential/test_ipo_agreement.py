"""The agreement counts of ``ipo_agreement.py``: equal outputs agree fully, and each kind of
difference is counted once where it is."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ipo_agreement  # noqa: E402

SOURCE = """
define internal i32 @g(i32 %x) {
  ret i32 %x
}
define i32 @f(i32 %a) {
  %b = call i32 @g(i32 %a)
  %c = call i32 @g(i32 %b)
  %d = call i32 @h(i32 %c)
  ret i32 %d
}
declare i32 @h(i32)
"""

INLINED = """
define i32 @f(i32 %a) {
  %d = call i32 @h(i32 %a)
  ret i32 %d
}
declare i32 @h(i32)
"""

HALF = """
define internal i32 @g(i32 %x) {
  ret i32 %x
}
define i32 @f(i32 %a) {
  %c = call i32 @g(i32 %a)
  %d = call i32 @h(i32 %c)
  ret i32 %d
}
declare i32 @h(i32)
"""


def test_same_output_agrees_fully() -> None:
    assert ipo_agreement.inline_agreement(SOURCE, INLINED, INLINED) == (3, 3)
    assert ipo_agreement.attribute_agreement(SOURCE, SOURCE) == (2, 2)


def test_inline_disagreement_counts_the_sites() -> None:
    assert ipo_agreement.inline_agreement(SOURCE, INLINED, SOURCE) == (1, 3)
    assert ipo_agreement.inline_agreement(SOURCE, HALF, INLINED) == (2, 3)


def test_attribute_difference_counts_one_function() -> None:
    marked = SOURCE.replace("define i32 @f(i32 %a) {", "define i32 @f(i32 noundef %a) #0 {") + "attributes #0 = { nounwind }\n"
    assert ipo_agreement.attribute_agreement(marked, SOURCE) == (1, 2)
    assert ipo_agreement.attribute_agreement(SOURCE, marked) == (1, 2)
