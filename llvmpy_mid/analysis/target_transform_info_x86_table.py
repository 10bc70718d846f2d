"""Measured x86-64 scalar costs for :mod:`llvmpy_mid.analysis.target_transform_info_x86`.

Each row is ``KIND FIELDS... THROUGHPUT LATENCY CODE-SIZE SIZE-LATENCY``: the cost
opt-19 (LLVM 19.1.7, ``X86TTIImpl`` of the generic x86-64 CPU, no ``-mcpu``)
reports with ``print<cost-model>`` for that instruction shape on
``x86_64-unknown-linux-gnu``. Kinds:

- ``bin OPCODE TYPE CLASS``: a binary operator whose second operand is a variable
  (``v``), a constant (``c``), a power of two (``p``) or a negated power of two (``n``);
  floating-point rows only have ``v`` (the constant does not change the answer).
- ``fneg TYPE``, ``icmp TYPE`` (every predicate, constant or not), ``fcmp PRED TYPE``,
  ``select TYPE`` (an ``i1`` condition), ``load TYPE``, ``store TYPE``, ``freeze TYPE``.
- ``cast OPCODE DST SRC``; ``castL OPCODE DST SRC`` when the operand is a load
  (LLVM's ``CastContextHint::Normal``: an extending load may make the cast free).
- vectors (``v4i32`` is ``<4 x i32>``, ``v2f64`` ``<2 x double>``): ``bin`` rows also
  have ``k`` (a constant vector that is not a splat) and ``kp`` (the same, every lane a
  power of two); ``vicmp PRED TYPE`` and ``fcmp PRED TYPE`` (``vicmpz``/``vicmpc``: an integer compare
  with zero / another constant on the right); ``vselect PRED TYPE``, a
  select whose condition is a compare of its own type; ``extractelement TYPE INDEX``
  and ``insertelement TYPE INDEX`` (a constant lane or ``x``, a variable one).
- ``intr NAME TYPE EXTRA``: an intrinsic call on ``TYPE`` (its first operand's type;
  for ``fptosi.sat``/``fptoui.sat`` the result type, the operand's type in
  ``EXTRA``); ``EXTRA`` is the ``i1`` flag of ``ctlz``/``cttz``/``abs``, the result
  type of ``lrint``-like calls, else ``-``.

The rows were produced by ``tests/analysis/test_target_transform_info_x86.py
--regenerate`` (probe IR through opt-19), and the same test checks them against
opt-19 whenever it is installed.
"""

from __future__ import annotations

X86_64_COST_ROWS = """\
bin add i1 v 1 1 1 1
bin add i1 c 1 1 1 1
bin add i1 p 1 1 1 1
bin sub i1 v 1 1 1 1
bin sub i1 c 1 1 1 1
bin sub i1 p 1 1 1 1
bin mul i1 v 3 4 1 1
bin mul i1 c 3 4 1 1
bin mul i1 p 1 1 1 1
bin udiv i1 v 1 4 4 4
bin udiv i1 c 1 4 4 4
bin udiv i1 p 1 1 1 1
bin sdiv i1 v 1 4 4 4
bin sdiv i1 c 1 4 4 4
bin sdiv i1 p 4 4 4 4
bin urem i1 v 5 4 4 4
bin urem i1 c 5 4 4 4
bin urem i1 p 1 1 1 1
bin srem i1 v 5 4 4 4
bin srem i1 c 5 4 4 4
bin srem i1 p 8 9 6 6
bin shl i1 v 1 1 1 1
bin shl i1 c 1 1 1 1
bin shl i1 p 1 1 1 1
bin lshr i1 v 1 1 1 1
bin lshr i1 c 1 1 1 1
bin lshr i1 p 1 1 1 1
bin ashr i1 v 1 1 1 1
bin ashr i1 c 1 1 1 1
bin ashr i1 p 1 1 1 1
bin and i1 v 1 1 1 1
bin and i1 c 1 1 1 1
bin and i1 p 1 1 1 1
bin or i1 v 1 1 1 1
bin or i1 c 1 1 1 1
bin or i1 p 1 1 1 1
bin xor i1 v 1 1 1 1
bin xor i1 c 1 1 1 1
bin xor i1 p 1 1 1 1
icmp i1 1 1 1 1
bin add i8 v 1 1 1 1
bin add i8 c 1 1 1 1
bin add i8 p 1 1 1 1
bin add i8 n 1 1 1 1
bin sub i8 v 1 1 1 1
bin sub i8 c 1 1 1 1
bin sub i8 p 1 1 1 1
bin sub i8 n 1 1 1 1
bin mul i8 v 3 4 1 1
bin mul i8 c 3 4 1 1
bin mul i8 p 1 1 1 1
bin mul i8 n 2 2 2 2
bin udiv i8 v 1 4 4 4
bin udiv i8 c 1 4 4 4
bin udiv i8 p 1 1 1 1
bin udiv i8 n 1 4 4 4
bin sdiv i8 v 1 4 4 4
bin sdiv i8 c 1 4 4 4
bin sdiv i8 p 4 4 4 4
bin sdiv i8 n 1 4 4 4
bin urem i8 v 5 4 4 4
bin urem i8 c 5 4 4 4
bin urem i8 p 1 1 1 1
bin urem i8 n 5 4 4 4
bin srem i8 v 5 4 4 4
bin srem i8 c 5 4 4 4
bin srem i8 p 8 9 6 6
bin srem i8 n 5 4 4 4
bin shl i8 v 1 1 1 1
bin shl i8 c 1 1 1 1
bin shl i8 p 1 1 1 1
bin shl i8 n 1 1 1 1
bin lshr i8 v 1 1 1 1
bin lshr i8 c 1 1 1 1
bin lshr i8 p 1 1 1 1
bin lshr i8 n 1 1 1 1
bin ashr i8 v 1 1 1 1
bin ashr i8 c 1 1 1 1
bin ashr i8 p 1 1 1 1
bin ashr i8 n 1 1 1 1
bin and i8 v 1 1 1 1
bin and i8 c 1 1 1 1
bin and i8 p 1 1 1 1
bin and i8 n 1 1 1 1
bin or i8 v 1 1 1 1
bin or i8 c 1 1 1 1
bin or i8 p 1 1 1 1
bin or i8 n 1 1 1 1
bin xor i8 v 1 1 1 1
bin xor i8 c 1 1 1 1
bin xor i8 p 1 1 1 1
bin xor i8 n 1 1 1 1
icmp i8 1 1 1 1
bin add i16 v 1 1 1 1
bin add i16 c 1 1 1 1
bin add i16 p 1 1 1 1
bin add i16 n 1 1 1 1
bin sub i16 v 1 1 1 1
bin sub i16 c 1 1 1 1
bin sub i16 p 1 1 1 1
bin sub i16 n 1 1 1 1
bin mul i16 v 2 4 1 1
bin mul i16 c 2 4 1 1
bin mul i16 p 1 1 1 1
bin mul i16 n 2 2 2 2
bin udiv i16 v 1 4 4 4
bin udiv i16 c 1 4 4 4
bin udiv i16 p 1 1 1 1
bin udiv i16 n 1 4 4 4
bin sdiv i16 v 1 4 4 4
bin sdiv i16 c 1 4 4 4
bin sdiv i16 p 4 4 4 4
bin sdiv i16 n 1 4 4 4
bin urem i16 v 4 4 4 4
bin urem i16 c 4 4 4 4
bin urem i16 p 1 1 1 1
bin urem i16 n 4 4 4 4
bin srem i16 v 4 4 4 4
bin srem i16 c 4 4 4 4
bin srem i16 p 7 9 6 6
bin srem i16 n 4 4 4 4
bin shl i16 v 1 1 1 1
bin shl i16 c 1 1 1 1
bin shl i16 p 1 1 1 1
bin shl i16 n 1 1 1 1
bin lshr i16 v 1 1 1 1
bin lshr i16 c 1 1 1 1
bin lshr i16 p 1 1 1 1
bin lshr i16 n 1 1 1 1
bin ashr i16 v 1 1 1 1
bin ashr i16 c 1 1 1 1
bin ashr i16 p 1 1 1 1
bin ashr i16 n 1 1 1 1
bin and i16 v 1 1 1 1
bin and i16 c 1 1 1 1
bin and i16 p 1 1 1 1
bin and i16 n 1 1 1 1
bin or i16 v 1 1 1 1
bin or i16 c 1 1 1 1
bin or i16 p 1 1 1 1
bin or i16 n 1 1 1 1
bin xor i16 v 1 1 1 1
bin xor i16 c 1 1 1 1
bin xor i16 p 1 1 1 1
bin xor i16 n 1 1 1 1
icmp i16 1 1 1 1
bin add i32 v 1 1 1 1
bin add i32 c 1 1 1 1
bin add i32 p 1 1 1 1
bin add i32 n 1 1 1 1
bin sub i32 v 1 1 1 1
bin sub i32 c 1 1 1 1
bin sub i32 p 1 1 1 1
bin sub i32 n 1 1 1 1
bin mul i32 v 1 4 1 1
bin mul i32 c 1 4 1 1
bin mul i32 p 1 1 1 1
bin mul i32 n 2 2 2 2
bin udiv i32 v 1 4 4 4
bin udiv i32 c 1 4 4 4
bin udiv i32 p 1 1 1 1
bin udiv i32 n 1 4 4 4
bin sdiv i32 v 1 4 4 4
bin sdiv i32 c 1 4 4 4
bin sdiv i32 p 4 4 4 4
bin sdiv i32 n 1 4 4 4
bin urem i32 v 3 4 4 4
bin urem i32 c 3 4 4 4
bin urem i32 p 1 1 1 1
bin urem i32 n 3 4 4 4
bin srem i32 v 3 4 4 4
bin srem i32 c 3 4 4 4
bin srem i32 p 6 9 6 6
bin srem i32 n 3 4 4 4
bin shl i32 v 1 1 1 1
bin shl i32 c 1 1 1 1
bin shl i32 p 1 1 1 1
bin shl i32 n 1 1 1 1
bin lshr i32 v 1 1 1 1
bin lshr i32 c 1 1 1 1
bin lshr i32 p 1 1 1 1
bin lshr i32 n 1 1 1 1
bin ashr i32 v 1 1 1 1
bin ashr i32 c 1 1 1 1
bin ashr i32 p 1 1 1 1
bin ashr i32 n 1 1 1 1
bin and i32 v 1 1 1 1
bin and i32 c 1 1 1 1
bin and i32 p 1 1 1 1
bin and i32 n 1 1 1 1
bin or i32 v 1 1 1 1
bin or i32 c 1 1 1 1
bin or i32 p 1 1 1 1
bin or i32 n 1 1 1 1
bin xor i32 v 1 1 1 1
bin xor i32 c 1 1 1 1
bin xor i32 p 1 1 1 1
bin xor i32 n 1 1 1 1
icmp i32 1 1 1 1
bin add i64 v 1 1 1 1
bin add i64 c 1 1 1 1
bin add i64 p 1 1 1 1
bin add i64 n 1 1 1 1
bin sub i64 v 1 1 1 1
bin sub i64 c 1 1 1 1
bin sub i64 p 1 1 1 1
bin sub i64 n 1 1 1 1
bin mul i64 v 2 6 1 2
bin mul i64 c 2 6 1 2
bin mul i64 p 1 1 1 1
bin mul i64 n 2 2 2 2
bin udiv i64 v 1 4 4 4
bin udiv i64 c 1 4 4 4
bin udiv i64 p 1 1 1 1
bin udiv i64 n 1 4 4 4
bin sdiv i64 v 1 4 4 4
bin sdiv i64 c 1 4 4 4
bin sdiv i64 p 4 4 4 4
bin sdiv i64 n 1 4 4 4
bin urem i64 v 4 4 4 4
bin urem i64 c 4 4 4 4
bin urem i64 p 1 1 1 1
bin urem i64 n 4 4 4 4
bin srem i64 v 4 4 4 4
bin srem i64 c 4 4 4 4
bin srem i64 p 7 11 6 7
bin srem i64 n 4 4 4 4
bin shl i64 v 1 1 1 1
bin shl i64 c 1 1 1 1
bin shl i64 p 1 1 1 1
bin shl i64 n 1 1 1 1
bin lshr i64 v 1 1 1 1
bin lshr i64 c 1 1 1 1
bin lshr i64 p 1 1 1 1
bin lshr i64 n 1 1 1 1
bin ashr i64 v 1 1 1 1
bin ashr i64 c 1 1 1 1
bin ashr i64 p 1 1 1 1
bin ashr i64 n 1 1 1 1
bin and i64 v 1 1 1 1
bin and i64 c 1 1 1 1
bin and i64 p 1 1 1 1
bin and i64 n 1 1 1 1
bin or i64 v 1 1 1 1
bin or i64 c 1 1 1 1
bin or i64 p 1 1 1 1
bin or i64 n 1 1 1 1
bin xor i64 v 1 1 1 1
bin xor i64 c 1 1 1 1
bin xor i64 p 1 1 1 1
bin xor i64 n 1 1 1 1
icmp i64 1 1 1 1
bin add i128 v 2 1 1 1
bin add i128 c 2 1 1 1
bin add i128 p 2 1 1 1
bin add i128 n 2 1 1 1
bin sub i128 v 2 1 1 1
bin sub i128 c 2 1 1 1
bin sub i128 p 2 1 1 1
bin sub i128 n 2 1 1 1
bin mul i128 v 4 12 2 4
bin mul i128 c 4 12 2 4
bin mul i128 p 2 1 1 1
bin mul i128 n 4 2 2 2
bin udiv i128 v 1 4 4 4
bin udiv i128 c 1 4 4 4
bin udiv i128 p 2 1 1 1
bin udiv i128 n 1 4 4 4
bin sdiv i128 v 1 4 4 4
bin sdiv i128 c 1 4 4 4
bin sdiv i128 p 8 4 4 4
bin sdiv i128 n 1 4 4 4
bin urem i128 v 7 4 4 4
bin urem i128 c 7 4 4 4
bin urem i128 p 2 1 2 1
bin urem i128 n 7 4 4 4
bin srem i128 v 7 4 4 4
bin srem i128 c 7 4 4 4
bin srem i128 p 14 17 7 9
bin srem i128 n 7 4 4 4
bin shl i128 v 2 1 1 1
bin shl i128 c 2 1 1 1
bin shl i128 p 2 1 1 1
bin shl i128 n 2 1 1 1
bin lshr i128 v 2 1 1 1
bin lshr i128 c 2 1 1 1
bin lshr i128 p 2 1 1 1
bin lshr i128 n 2 1 1 1
bin ashr i128 v 2 1 1 1
bin ashr i128 c 2 1 1 1
bin ashr i128 p 2 1 1 1
bin ashr i128 n 2 1 1 1
bin and i128 v 2 1 2 1
bin and i128 c 2 1 2 1
bin and i128 p 2 1 2 1
bin and i128 n 2 1 2 1
bin or i128 v 2 1 2 1
bin or i128 c 2 1 2 1
bin or i128 p 2 1 2 1
bin or i128 n 2 1 2 1
bin xor i128 v 2 1 2 1
bin xor i128 c 2 1 2 1
bin xor i128 p 2 1 2 1
bin xor i128 n 2 1 2 1
icmp i128 2 1 1 1
bin add i256 v 4 1 1 1
bin add i256 c 4 1 1 1
bin add i256 p 4 1 1 1
bin add i256 n 4 1 1 1
bin sub i256 v 4 1 1 1
bin sub i256 c 4 1 1 1
bin sub i256 p 4 1 1 1
bin sub i256 n 4 1 1 1
bin mul i256 v 8 24 4 8
bin mul i256 c 8 24 4 8
bin mul i256 p 4 1 1 1
bin mul i256 n 8 2 2 2
bin udiv i256 v 1 4 4 4
bin udiv i256 c 1 4 4 4
bin udiv i256 p 4 1 1 1
bin udiv i256 n 1 4 4 4
bin sdiv i256 v 1 4 4 4
bin sdiv i256 c 1 4 4 4
bin sdiv i256 p 16 4 4 4
bin sdiv i256 n 1 4 4 4
bin urem i256 v 13 4 4 4
bin urem i256 c 13 4 4 4
bin urem i256 p 4 1 4 1
bin urem i256 n 13 4 4 4
bin srem i256 v 13 4 4 4
bin srem i256 c 13 4 4 4
bin srem i256 p 28 29 9 13
bin srem i256 n 13 4 4 4
bin shl i256 v 4 1 1 1
bin shl i256 c 4 1 1 1
bin shl i256 p 4 1 1 1
bin shl i256 n 4 1 1 1
bin lshr i256 v 4 1 1 1
bin lshr i256 c 4 1 1 1
bin lshr i256 p 4 1 1 1
bin lshr i256 n 4 1 1 1
bin ashr i256 v 4 1 1 1
bin ashr i256 c 4 1 1 1
bin ashr i256 p 4 1 1 1
bin ashr i256 n 4 1 1 1
bin and i256 v 4 1 4 1
bin and i256 c 4 1 4 1
bin and i256 p 4 1 4 1
bin and i256 n 4 1 4 1
bin or i256 v 4 1 4 1
bin or i256 c 4 1 4 1
bin or i256 p 4 1 4 1
bin or i256 n 4 1 4 1
bin xor i256 v 4 1 4 1
bin xor i256 c 4 1 4 1
bin xor i256 p 4 1 4 1
bin xor i256 n 4 1 4 1
icmp i256 4 1 1 1
bin add i512 v 8 1 1 1
bin add i512 c 8 1 1 1
bin add i512 p 8 1 1 1
bin add i512 n 8 1 1 1
bin sub i512 v 8 1 1 1
bin sub i512 c 8 1 1 1
bin sub i512 p 8 1 1 1
bin sub i512 n 8 1 1 1
bin mul i512 v 16 48 8 16
bin mul i512 c 16 48 8 16
bin mul i512 p 8 1 1 1
bin mul i512 n 16 2 2 2
bin udiv i512 v 1 4 4 4
bin udiv i512 c 1 4 4 4
bin udiv i512 p 8 1 1 1
bin udiv i512 n 1 4 4 4
bin sdiv i512 v 1 4 4 4
bin sdiv i512 c 1 4 4 4
bin sdiv i512 p 32 4 4 4
bin sdiv i512 n 1 4 4 4
bin urem i512 v 25 4 4 4
bin urem i512 c 25 4 4 4
bin urem i512 p 8 1 8 1
bin urem i512 n 25 4 4 4
bin srem i512 v 25 4 4 4
bin srem i512 c 25 4 4 4
bin srem i512 p 56 53 13 21
bin srem i512 n 25 4 4 4
bin shl i512 v 8 1 1 1
bin shl i512 c 8 1 1 1
bin shl i512 p 8 1 1 1
bin shl i512 n 8 1 1 1
bin lshr i512 v 8 1 1 1
bin lshr i512 c 8 1 1 1
bin lshr i512 p 8 1 1 1
bin lshr i512 n 8 1 1 1
bin ashr i512 v 8 1 1 1
bin ashr i512 c 8 1 1 1
bin ashr i512 p 8 1 1 1
bin ashr i512 n 8 1 1 1
bin and i512 v 8 1 8 1
bin and i512 c 8 1 8 1
bin and i512 p 8 1 8 1
bin and i512 n 8 1 8 1
bin or i512 v 8 1 8 1
bin or i512 c 8 1 8 1
bin or i512 p 8 1 8 1
bin or i512 n 8 1 8 1
bin xor i512 v 8 1 8 1
bin xor i512 c 8 1 8 1
bin xor i512 p 8 1 8 1
bin xor i512 n 8 1 8 1
icmp i512 8 1 1 1
icmp ptr 1 1 1 1
bin fadd half v 2 3 1 1
bin fsub half v 2 3 1 1
bin fmul half v 2 3 1 1
bin fdiv half v 2 4 1 4
bin frem half v 2 4 4 4
fneg half 2 3 1 1
fcmp false half 1 1 1 1
fcmp oeq half 1 1 1 1
fcmp ogt half 1 1 1 1
fcmp oge half 1 1 1 1
fcmp olt half 1 1 1 1
fcmp ole half 1 1 1 1
fcmp one half 1 1 1 1
fcmp ord half 1 1 1 1
fcmp ueq half 1 1 1 1
fcmp ugt half 1 1 1 1
fcmp uge half 1 1 1 1
fcmp ult half 1 1 1 1
fcmp ule half 1 1 1 1
fcmp une half 1 1 1 1
fcmp uno half 1 1 1 1
fcmp true half 1 1 1 1
bin fadd float v 2 3 1 1
bin fsub float v 2 3 1 1
bin fmul float v 2 5 1 1
bin fdiv float v 23 23 1 1
bin frem float v 2 4 4 4
fneg float 1 1 1 1
fcmp false float 1 5 1 1
fcmp oeq float 1 5 1 1
fcmp ogt float 1 5 1 1
fcmp oge float 1 5 1 1
fcmp olt float 1 5 1 1
fcmp ole float 1 5 1 1
fcmp one float 1 5 1 1
fcmp ord float 1 5 1 1
fcmp ueq float 1 5 1 1
fcmp ugt float 1 5 1 1
fcmp uge float 1 5 1 1
fcmp ult float 1 5 1 1
fcmp ule float 1 5 1 1
fcmp une float 1 5 1 1
fcmp uno float 1 5 1 1
fcmp true float 1 5 1 1
bin fadd double v 2 3 1 1
bin fsub double v 2 3 1 1
bin fmul double v 2 5 1 1
bin fdiv double v 38 38 1 1
bin frem double v 2 4 4 4
fneg double 1 1 1 1
fcmp false double 1 5 1 1
fcmp oeq double 1 5 1 1
fcmp ogt double 1 5 1 1
fcmp oge double 1 5 1 1
fcmp olt double 1 5 1 1
fcmp ole double 1 5 1 1
fcmp one double 1 5 1 1
fcmp ord double 1 5 1 1
fcmp ueq double 1 5 1 1
fcmp ugt double 1 5 1 1
fcmp uge double 1 5 1 1
fcmp ult double 1 5 1 1
fcmp ule double 1 5 1 1
fcmp une double 1 5 1 1
fcmp uno double 1 5 1 1
fcmp true double 1 5 1 1
bin fadd x86_fp80 v 2 3 1 1
bin fsub x86_fp80 v 2 3 1 1
bin fmul x86_fp80 v 2 3 1 1
bin fdiv x86_fp80 v 2 4 1 4
bin frem x86_fp80 v 2 4 4 4
fneg x86_fp80 2 3 1 1
fcmp false x86_fp80 1 1 1 1
fcmp oeq x86_fp80 1 1 1 1
fcmp ogt x86_fp80 1 1 1 1
fcmp oge x86_fp80 1 1 1 1
fcmp olt x86_fp80 1 1 1 1
fcmp ole x86_fp80 1 1 1 1
fcmp one x86_fp80 1 1 1 1
fcmp ord x86_fp80 1 1 1 1
fcmp ueq x86_fp80 1 1 1 1
fcmp ugt x86_fp80 1 1 1 1
fcmp uge x86_fp80 1 1 1 1
fcmp ult x86_fp80 1 1 1 1
fcmp ule x86_fp80 1 1 1 1
fcmp une x86_fp80 1 1 1 1
fcmp uno x86_fp80 1 1 1 1
fcmp true x86_fp80 1 1 1 1
bin fadd fp128 v 4 3 1 1
bin fsub fp128 v 4 3 1 1
bin fmul fp128 v 4 3 1 1
bin fdiv fp128 v 4 4 1 4
bin frem fp128 v 2 4 4 4
fneg fp128 4 3 1 1
fcmp false fp128 1 1 1 1
fcmp oeq fp128 1 1 1 1
fcmp ogt fp128 1 1 1 1
fcmp oge fp128 1 1 1 1
fcmp olt fp128 1 1 1 1
fcmp ole fp128 1 1 1 1
fcmp one fp128 1 1 1 1
fcmp ord fp128 1 1 1 1
fcmp ueq fp128 1 1 1 1
fcmp ugt fp128 1 1 1 1
fcmp uge fp128 1 1 1 1
fcmp ult fp128 1 1 1 1
fcmp ule fp128 1 1 1 1
fcmp une fp128 1 1 1 1
fcmp uno fp128 1 1 1 1
fcmp true fp128 1 1 1 1
select i1 1 1 1 1
load i1 1 4 1 1
store i1 1 1 1 1
freeze i1 0 0 0 0
select i8 1 1 1 1
load i8 1 4 1 1
store i8 1 1 1 1
freeze i8 0 0 0 0
select i16 1 1 1 1
load i16 1 4 1 1
store i16 1 1 1 1
freeze i16 0 0 0 0
select i32 1 1 1 1
load i32 1 4 1 1
store i32 1 1 1 1
freeze i32 0 0 0 0
select i64 1 1 1 1
load i64 1 4 1 1
store i64 1 1 1 1
freeze i64 0 0 0 0
select i128 2 1 1 1
load i128 2 4 1 1
store i128 2 1 1 1
freeze i128 0 0 0 0
select i256 4 1 1 1
load i256 4 4 1 1
store i256 4 1 1 1
freeze i256 0 0 0 0
select i512 8 1 1 1
load i512 8 4 1 1
store i512 8 1 1 1
freeze i512 0 0 0 0
select half 1 3 1 1
load half 1 4 1 1
store half 1 1 1 1
freeze half 0 0 0 0
select float 2 2 3 3
load float 1 4 1 1
store float 1 1 1 1
freeze float 0 0 0 0
select double 2 2 3 3
load double 1 4 1 1
store double 1 1 1 1
freeze double 0 0 0 0
select x86_fp80 1 3 1 1
load x86_fp80 1 4 1 1
store x86_fp80 1 1 1 1
freeze x86_fp80 0 0 0 0
select fp128 1 3 1 1
load fp128 1 4 1 1
store fp128 1 1 1 1
freeze fp128 0 0 0 0
select ptr 1 1 1 1
load ptr 1 4 1 1
store ptr 1 1 1 1
freeze ptr 0 0 0 0
cast zext i8 i1 1 1 1 1
cast sext i8 i1 1 1 1 1
castL zext i8 i1 0 0 0 0
castL sext i8 i1 1 1 1 1
cast zext i16 i1 1 1 1 1
cast sext i16 i1 1 1 1 1
castL zext i16 i1 0 0 0 0
castL sext i16 i1 1 1 1 1
cast zext i32 i1 1 1 1 1
cast sext i32 i1 1 1 1 1
castL zext i32 i1 0 0 0 0
castL sext i32 i1 1 1 1 1
cast zext i64 i1 1 1 1 1
cast sext i64 i1 1 1 1 1
castL zext i64 i1 0 0 0 0
castL sext i64 i1 1 1 1 1
cast zext i128 i1 1 1 1 1
cast sext i128 i1 1 1 1 1
castL zext i128 i1 1 1 1 1
castL sext i128 i1 1 1 1 1
cast zext i256 i1 1 1 1 1
cast sext i256 i1 1 1 1 1
castL zext i256 i1 1 1 1 1
castL sext i256 i1 1 1 1 1
cast zext i512 i1 1 1 1 1
cast sext i512 i1 1 1 1 1
castL zext i512 i1 1 1 1 1
castL sext i512 i1 1 1 1 1
cast sitofp half i1 1 1 1 1
cast uitofp half i1 1 1 1 1
cast fptosi i1 half 1 1 1 1
cast fptoui i1 half 1 1 1 1
cast sitofp float i1 1 1 1 1
cast uitofp float i1 1 1 1 1
cast fptosi i1 float 1 1 1 1
cast fptoui i1 float 1 1 1 1
cast sitofp double i1 1 1 1 1
cast uitofp double i1 1 1 1 1
cast fptosi i1 double 1 1 1 1
cast fptoui i1 double 1 1 1 1
cast sitofp x86_fp80 i1 1 1 1 1
cast uitofp x86_fp80 i1 1 1 1 1
cast fptosi i1 x86_fp80 1 1 1 1
cast fptoui i1 x86_fp80 1 1 1 1
cast sitofp fp128 i1 1 1 1 1
cast uitofp fp128 i1 1 1 1 1
cast fptosi i1 fp128 1 1 1 1
cast fptoui i1 fp128 1 1 1 1
cast ptrtoint i1 ptr 1 1 1 1
cast inttoptr ptr i1 1 1 1 1
cast trunc i1 i8 0 0 0 0
cast zext i16 i8 1 1 1 1
cast sext i16 i8 1 1 1 1
castL zext i16 i8 0 0 0 0
castL sext i16 i8 0 0 0 0
cast zext i32 i8 1 1 1 1
cast sext i32 i8 1 1 1 1
castL zext i32 i8 0 0 0 0
castL sext i32 i8 0 0 0 0
cast zext i64 i8 1 1 1 1
cast sext i64 i8 1 1 1 1
castL zext i64 i8 0 0 0 0
castL sext i64 i8 0 0 0 0
cast zext i128 i8 1 1 1 1
cast sext i128 i8 1 1 1 1
castL zext i128 i8 1 1 1 1
castL sext i128 i8 1 1 1 1
cast zext i256 i8 1 1 1 1
cast sext i256 i8 1 1 1 1
castL zext i256 i8 1 1 1 1
castL sext i256 i8 1 1 1 1
cast zext i512 i8 1 1 1 1
cast sext i512 i8 1 1 1 1
castL zext i512 i8 1 1 1 1
castL sext i512 i8 1 1 1 1
cast sitofp half i8 2 2 2 2
cast uitofp half i8 2 2 2 2
cast fptosi i8 half 1 1 1 1
cast fptoui i8 half 1 1 1 1
cast sitofp float i8 4 2 2 2
cast uitofp float i8 4 2 2 2
cast fptosi i8 float 4 1 1 1
cast fptoui i8 float 4 1 1 1
cast sitofp double i8 4 2 2 2
cast uitofp double i8 4 2 2 2
cast fptosi i8 double 4 1 1 1
cast fptoui i8 double 4 1 1 1
cast sitofp x86_fp80 i8 2 2 2 2
cast uitofp x86_fp80 i8 2 2 2 2
cast fptosi i8 x86_fp80 1 1 1 1
cast fptoui i8 x86_fp80 1 1 1 1
cast sitofp fp128 i8 2 2 2 2
cast uitofp fp128 i8 2 2 2 2
cast fptosi i8 fp128 1 1 1 1
cast fptoui i8 fp128 1 1 1 1
cast ptrtoint i8 ptr 1 1 1 1
cast inttoptr ptr i8 0 0 0 0
cast trunc i1 i16 0 0 0 0
cast trunc i8 i16 0 0 0 0
cast zext i32 i16 1 1 1 1
cast sext i32 i16 1 1 1 1
castL zext i32 i16 0 0 0 0
castL sext i32 i16 0 0 0 0
cast zext i64 i16 1 1 1 1
cast sext i64 i16 1 1 1 1
castL zext i64 i16 0 0 0 0
castL sext i64 i16 0 0 0 0
cast zext i128 i16 1 1 1 1
cast sext i128 i16 1 1 1 1
castL zext i128 i16 1 1 1 1
castL sext i128 i16 1 1 1 1
cast zext i256 i16 1 1 1 1
cast sext i256 i16 1 1 1 1
castL zext i256 i16 1 1 1 1
castL sext i256 i16 1 1 1 1
cast zext i512 i16 1 1 1 1
cast sext i512 i16 1 1 1 1
castL zext i512 i16 1 1 1 1
castL sext i512 i16 1 1 1 1
cast sitofp half i16 2 2 2 2
cast uitofp half i16 2 2 2 2
cast fptosi i16 half 1 1 1 1
cast fptoui i16 half 1 1 1 1
cast sitofp float i16 4 2 2 2
cast uitofp float i16 4 2 2 2
cast fptosi i16 float 4 1 1 1
cast fptoui i16 float 4 1 1 1
cast sitofp double i16 4 2 2 2
cast uitofp double i16 4 2 2 2
cast fptosi i16 double 4 1 1 1
cast fptoui i16 double 4 1 1 1
cast sitofp x86_fp80 i16 2 2 2 2
cast uitofp x86_fp80 i16 2 2 2 2
cast fptosi i16 x86_fp80 1 1 1 1
cast fptoui i16 x86_fp80 1 1 1 1
cast sitofp fp128 i16 2 2 2 2
cast uitofp fp128 i16 2 2 2 2
cast fptosi i16 fp128 1 1 1 1
cast fptoui i16 fp128 1 1 1 1
cast ptrtoint i16 ptr 1 1 1 1
cast inttoptr ptr i16 0 0 0 0
cast trunc i1 i32 0 0 0 0
cast trunc i8 i32 0 0 0 0
cast trunc i16 i32 0 0 0 0
cast zext i64 i32 0 0 0 0
cast sext i64 i32 1 1 1 1
castL zext i64 i32 0 0 0 0
castL sext i64 i32 0 0 0 0
cast zext i128 i32 0 0 0 0
cast sext i128 i32 1 1 1 1
castL zext i128 i32 0 0 0 0
castL sext i128 i32 1 1 1 1
cast zext i256 i32 0 0 0 0
cast sext i256 i32 1 1 1 1
castL zext i256 i32 0 0 0 0
castL sext i256 i32 1 1 1 1
cast zext i512 i32 0 0 0 0
cast sext i512 i32 1 1 1 1
castL zext i512 i32 0 0 0 0
castL sext i512 i32 1 1 1 1
cast sitofp half i32 1 1 1 1
cast uitofp half i32 1 1 1 1
cast fptosi i32 half 1 1 1 1
cast fptoui i32 half 1 1 1 1
cast sitofp float i32 3 1 1 1
cast uitofp float i32 3 1 1 1
cast fptosi i32 float 4 1 1 1
cast fptoui i32 float 4 1 1 1
cast sitofp double i32 3 1 1 1
cast uitofp double i32 3 1 1 1
cast fptosi i32 double 4 1 1 1
cast fptoui i32 double 4 1 1 1
cast sitofp x86_fp80 i32 1 1 1 1
cast uitofp x86_fp80 i32 1 1 1 1
cast fptosi i32 x86_fp80 1 1 1 1
cast fptoui i32 x86_fp80 1 1 1 1
cast sitofp fp128 i32 1 1 1 1
cast uitofp fp128 i32 1 1 1 1
cast fptosi i32 fp128 1 1 1 1
cast fptoui i32 fp128 1 1 1 1
cast ptrtoint i32 ptr 1 1 1 1
cast inttoptr ptr i32 0 0 0 0
cast trunc i1 i64 0 0 0 0
cast trunc i8 i64 0 0 0 0
cast trunc i16 i64 0 0 0 0
cast trunc i32 i64 0 0 0 0
cast zext i128 i64 1 1 1 1
cast sext i128 i64 1 1 1 1
castL zext i128 i64 1 1 1 1
castL sext i128 i64 1 1 1 1
cast zext i256 i64 1 1 1 1
cast sext i256 i64 1 1 1 1
castL zext i256 i64 1 1 1 1
castL sext i256 i64 1 1 1 1
cast zext i512 i64 1 1 1 1
cast sext i512 i64 1 1 1 1
castL zext i512 i64 1 1 1 1
castL sext i512 i64 1 1 1 1
cast sitofp half i64 1 1 1 1
cast uitofp half i64 1 1 1 1
cast fptosi i64 half 1 1 1 1
cast fptoui i64 half 1 1 1 1
cast sitofp float i64 3 1 1 1
cast uitofp float i64 8 1 1 1
cast fptosi i64 float 4 1 1 1
cast fptoui i64 float 4 1 1 1
cast sitofp double i64 3 1 1 1
cast uitofp double i64 9 1 1 1
cast fptosi i64 double 4 1 1 1
cast fptoui i64 double 15 1 1 1
cast sitofp x86_fp80 i64 1 1 1 1
cast uitofp x86_fp80 i64 1 1 1 1
cast fptosi i64 x86_fp80 1 1 1 1
cast fptoui i64 x86_fp80 1 1 1 1
cast sitofp fp128 i64 1 1 1 1
cast uitofp fp128 i64 1 1 1 1
cast fptosi i64 fp128 1 1 1 1
cast fptoui i64 fp128 1 1 1 1
cast ptrtoint i64 ptr 0 0 0 0
cast inttoptr ptr i64 0 0 0 0
cast trunc i1 i128 0 0 0 0
cast trunc i8 i128 0 0 0 0
cast trunc i16 i128 0 0 0 0
cast trunc i32 i128 0 0 0 0
cast trunc i64 i128 0 0 0 0
cast zext i256 i128 1 1 1 1
cast sext i256 i128 1 1 1 1
castL zext i256 i128 1 1 1 1
castL sext i256 i128 1 1 1 1
cast zext i512 i128 1 1 1 1
cast sext i512 i128 1 1 1 1
castL zext i512 i128 1 1 1 1
castL sext i512 i128 1 1 1 1
cast sitofp half i128 1 1 1 1
cast uitofp half i128 1 1 1 1
cast fptosi i128 half 1 1 1 1
cast fptoui i128 half 1 1 1 1
cast sitofp float i128 6 2 2 2
cast uitofp float i128 16 2 2 2
cast fptosi i128 float 8 2 2 2
cast fptoui i128 float 8 2 2 2
cast sitofp double i128 6 2 2 2
cast uitofp double i128 18 2 2 2
cast fptosi i128 double 8 2 2 2
cast fptoui i128 double 30 2 2 2
cast sitofp x86_fp80 i128 1 1 1 1
cast uitofp x86_fp80 i128 1 1 1 1
cast fptosi i128 x86_fp80 1 1 1 1
cast fptoui i128 x86_fp80 1 1 1 1
cast sitofp fp128 i128 1 1 1 1
cast uitofp fp128 i128 1 1 1 1
cast fptosi i128 fp128 1 1 1 1
cast fptoui i128 fp128 1 1 1 1
cast ptrtoint i128 ptr 1 1 1 1
cast inttoptr ptr i128 1 1 1 1
cast trunc i1 i256 0 0 0 0
cast trunc i8 i256 0 0 0 0
cast trunc i16 i256 0 0 0 0
cast trunc i32 i256 0 0 0 0
cast trunc i64 i256 0 0 0 0
cast trunc i128 i256 0 0 0 0
cast zext i512 i256 1 1 1 1
cast sext i512 i256 1 1 1 1
castL zext i512 i256 1 1 1 1
castL sext i512 i256 1 1 1 1
cast sitofp half i256 1 1 1 1
cast uitofp half i256 1 1 1 1
cast fptosi i256 half 1 1 1 1
cast fptoui i256 half 1 1 1 1
cast sitofp float i256 12 4 4 4
cast uitofp float i256 32 4 4 4
cast fptosi i256 float 16 4 4 4
cast fptoui i256 float 16 4 4 4
cast sitofp double i256 12 4 4 4
cast uitofp double i256 36 4 4 4
cast fptosi i256 double 16 4 4 4
cast fptoui i256 double 60 4 4 4
cast sitofp x86_fp80 i256 1 1 1 1
cast uitofp x86_fp80 i256 1 1 1 1
cast fptosi i256 x86_fp80 1 1 1 1
cast fptoui i256 x86_fp80 1 1 1 1
cast sitofp fp128 i256 1 1 1 1
cast uitofp fp128 i256 1 1 1 1
cast fptosi i256 fp128 1 1 1 1
cast fptoui i256 fp128 1 1 1 1
cast ptrtoint i256 ptr 1 1 1 1
cast inttoptr ptr i256 1 1 1 1
cast trunc i1 i512 0 0 0 0
cast trunc i8 i512 0 0 0 0
cast trunc i16 i512 0 0 0 0
cast trunc i32 i512 0 0 0 0
cast trunc i64 i512 0 0 0 0
cast trunc i128 i512 0 0 0 0
cast trunc i256 i512 0 0 0 0
cast sitofp half i512 1 1 1 1
cast uitofp half i512 1 1 1 1
cast fptosi i512 half 1 1 1 1
cast fptoui i512 half 1 1 1 1
cast sitofp float i512 24 8 8 8
cast uitofp float i512 64 8 8 8
cast fptosi i512 float 32 8 8 8
cast fptoui i512 float 32 8 8 8
cast sitofp double i512 24 8 8 8
cast uitofp double i512 72 8 8 8
cast fptosi i512 double 32 8 8 8
cast fptoui i512 double 120 8 8 8
cast sitofp x86_fp80 i512 1 1 1 1
cast uitofp x86_fp80 i512 1 1 1 1
cast fptosi i512 x86_fp80 1 1 1 1
cast fptoui i512 x86_fp80 1 1 1 1
cast sitofp fp128 i512 1 1 1 1
cast uitofp fp128 i512 1 1 1 1
cast fptosi i512 fp128 1 1 1 1
cast fptoui i512 fp128 1 1 1 1
cast ptrtoint i512 ptr 1 1 1 1
cast inttoptr ptr i512 1 1 1 1
cast fpext float half 1 1 1 1
castL fpext float half 1 1 1 1
cast fpext double half 1 1 1 1
castL fpext double half 1 1 1 1
cast fpext x86_fp80 half 1 1 1 1
castL fpext x86_fp80 half 1 1 1 1
cast fpext fp128 half 1 1 1 1
castL fpext fp128 half 1 1 1 1
cast fptrunc half float 1 1 1 1
cast fpext double float 1 1 1 1
castL fpext double float 1 1 1 1
cast fpext x86_fp80 float 1 1 1 1
castL fpext x86_fp80 float 1 1 1 1
cast fpext fp128 float 1 1 1 1
castL fpext fp128 float 1 1 1 1
cast fptrunc half double 1 1 1 1
cast fptrunc float double 1 1 1 1
cast fpext x86_fp80 double 1 1 1 1
castL fpext x86_fp80 double 1 1 1 1
cast fpext fp128 double 1 1 1 1
castL fpext fp128 double 1 1 1 1
cast fptrunc half x86_fp80 1 1 1 1
cast fptrunc float x86_fp80 1 1 1 1
cast fptrunc double x86_fp80 1 1 1 1
cast fptrunc half fp128 1 1 1 1
cast fptrunc float fp128 1 1 1 1
cast fptrunc double fp128 1 1 1 1
cast bitcast i16 half 1 1 1 1
cast bitcast half i16 1 1 1 1
cast bitcast i32 float 1 1 1 1
cast bitcast float i32 1 1 1 1
cast bitcast i64 double 1 1 1 1
cast bitcast double i64 1 1 1 1
cast bitcast i128 fp128 1 1 1 1
cast bitcast fp128 i128 1 1 1 1
cast bitcast ptr ptr 0 0 0 0
intr llvm.ctlz i1 false 4 2 2 2
intr llvm.ctlz i1 true 2 2 3 3
intr llvm.cttz i1 false 3 1 1 1
intr llvm.cttz i1 true 2 2 1 1
intr llvm.abs i1 false 2 4 4 3
intr llvm.abs i1 true 2 4 4 3
intr llvm.ctpop i1 - 7 6 6 6
intr llvm.bitreverse i1 - 7 9 13 14
intr llvm.smin i1 - 1 4 2 4
intr llvm.smax i1 - 1 4 2 4
intr llvm.umin i1 - 1 4 2 4
intr llvm.umax i1 - 1 4 2 4
intr llvm.sadd.sat i1 - 4 7 7 7
intr llvm.uadd.sat i1 - 2 3 3 3
intr llvm.ssub.sat i1 - 4 7 7 7
intr llvm.usub.sat i1 - 2 3 3 3
intr llvm.ushl.sat i1 - 1 1 1 1
intr llvm.sshl.sat i1 - 1 1 1 1
intr llvm.fshl i1 - 4 4 2 5
intr llvm.fshr i1 - 4 4 2 5
intr llvm.sadd.with.overflow i1 - 1 4 4 4
intr llvm.uadd.with.overflow i1 - 1 2 2 2
intr llvm.ssub.with.overflow i1 - 1 4 4 4
intr llvm.usub.with.overflow i1 - 1 2 2 2
intr llvm.smul.with.overflow i1 - 2 9 6 6
intr llvm.umul.with.overflow i1 - 2 8 5 5
intr llvm.ctlz i8 false 4 2 2 2
intr llvm.ctlz i8 true 2 2 3 3
intr llvm.cttz i8 false 3 1 1 1
intr llvm.cttz i8 true 2 2 1 1
intr llvm.abs i8 false 2 4 4 3
intr llvm.abs i8 true 2 4 4 3
intr llvm.ctpop i8 - 7 6 6 6
intr llvm.bitreverse i8 - 7 9 13 14
intr llvm.smin i8 - 1 4 2 4
intr llvm.smax i8 - 1 4 2 4
intr llvm.umin i8 - 1 4 2 4
intr llvm.umax i8 - 1 4 2 4
intr llvm.sadd.sat i8 - 4 7 7 7
intr llvm.uadd.sat i8 - 2 3 3 3
intr llvm.ssub.sat i8 - 4 7 7 7
intr llvm.usub.sat i8 - 2 3 3 3
intr llvm.ushl.sat i8 - 1 1 1 1
intr llvm.sshl.sat i8 - 1 1 1 1
intr llvm.fshl i8 - 4 4 2 5
intr llvm.fshr i8 - 4 4 2 5
intr llvm.sadd.with.overflow i8 - 1 4 4 4
intr llvm.uadd.with.overflow i8 - 1 2 2 2
intr llvm.ssub.with.overflow i8 - 1 4 4 4
intr llvm.usub.with.overflow i8 - 1 2 2 2
intr llvm.smul.with.overflow i8 - 2 9 6 6
intr llvm.umul.with.overflow i8 - 2 8 5 5
intr llvm.ctlz i16 false 4 2 2 2
intr llvm.ctlz i16 true 2 2 3 3
intr llvm.cttz i16 false 3 1 1 1
intr llvm.cttz i16 true 2 2 1 1
intr llvm.abs i16 false 2 2 3 3
intr llvm.abs i16 true 2 2 3 3
intr llvm.ctpop i16 - 9 8 17 17
intr llvm.bitreverse i16 - 9 12 17 19
intr llvm.bswap i16 - 1 2 1 2
intr llvm.smin i16 - 1 4 2 4
intr llvm.smax i16 - 1 4 2 4
intr llvm.umin i16 - 1 4 2 4
intr llvm.umax i16 - 1 4 2 4
intr llvm.sadd.sat i16 - 4 7 7 7
intr llvm.uadd.sat i16 - 2 3 3 3
intr llvm.ssub.sat i16 - 4 7 7 7
intr llvm.usub.sat i16 - 2 3 3 3
intr llvm.ushl.sat i16 - 1 1 1 1
intr llvm.sshl.sat i16 - 1 1 1 1
intr llvm.fshl i16 - 4 4 2 5
intr llvm.fshr i16 - 4 4 2 5
intr llvm.sadd.with.overflow i16 - 1 4 4 4
intr llvm.uadd.with.overflow i16 - 1 2 2 2
intr llvm.ssub.with.overflow i16 - 1 4 4 4
intr llvm.usub.with.overflow i16 - 1 2 2 2
intr llvm.smul.with.overflow i16 - 2 9 6 6
intr llvm.umul.with.overflow i16 - 2 8 5 5
intr llvm.ctlz i32 false 4 2 2 2
intr llvm.ctlz i32 true 1 1 1 1
intr llvm.cttz i32 false 3 2 2 2
intr llvm.cttz i32 true 1 1 1 1
intr llvm.abs i32 false 1 2 3 3
intr llvm.abs i32 true 1 2 3 3
intr llvm.ctpop i32 - 8 7 15 15
intr llvm.bitreverse i32 - 9 12 17 19
intr llvm.bswap i32 - 1 1 1 1
intr llvm.smin i32 - 1 2 2 3
intr llvm.smax i32 - 1 2 2 3
intr llvm.umin i32 - 1 2 2 3
intr llvm.umax i32 - 1 2 2 3
intr llvm.sadd.sat i32 - 4 7 7 7
intr llvm.uadd.sat i32 - 2 3 3 3
intr llvm.ssub.sat i32 - 4 7 7 7
intr llvm.usub.sat i32 - 2 3 3 3
intr llvm.ushl.sat i32 - 1 1 1 1
intr llvm.sshl.sat i32 - 1 1 1 1
intr llvm.fshl i32 - 4 4 1 4
intr llvm.fshr i32 - 4 4 1 4
intr llvm.sadd.with.overflow i32 - 1 4 4 4
intr llvm.uadd.with.overflow i32 - 1 2 2 2
intr llvm.ssub.with.overflow i32 - 1 4 4 4
intr llvm.usub.with.overflow i32 - 1 2 2 2
intr llvm.smul.with.overflow i32 - 2 11 6 7
intr llvm.umul.with.overflow i32 - 2 8 3 4
intr llvm.ctlz i64 false 4 2 2 2
intr llvm.ctlz i64 true 1 1 1 1
intr llvm.cttz i64 false 3 2 2 2
intr llvm.cttz i64 true 1 1 1 1
intr llvm.abs i64 false 1 2 3 3
intr llvm.abs i64 true 1 2 3 3
intr llvm.ctpop i64 - 10 6 19 19
intr llvm.bitreverse i64 - 10 12 20 22
intr llvm.bswap i64 - 1 2 1 2
intr llvm.smin i64 - 1 3 2 3
intr llvm.smax i64 - 1 3 2 3
intr llvm.umin i64 - 1 3 2 3
intr llvm.umax i64 - 1 3 2 3
intr llvm.sadd.sat i64 - 4 7 7 7
intr llvm.uadd.sat i64 - 2 3 3 3
intr llvm.ssub.sat i64 - 4 7 7 7
intr llvm.usub.sat i64 - 2 3 3 3
intr llvm.ushl.sat i64 - 1 1 1 1
intr llvm.sshl.sat i64 - 1 1 1 1
intr llvm.fshl i64 - 4 4 1 4
intr llvm.fshr i64 - 4 4 1 4
intr llvm.sadd.with.overflow i64 - 1 4 4 4
intr llvm.uadd.with.overflow i64 - 1 2 2 2
intr llvm.ssub.with.overflow i64 - 1 4 4 4
intr llvm.usub.with.overflow i64 - 1 2 2 2
intr llvm.smul.with.overflow i64 - 2 17 7 9
intr llvm.umul.with.overflow i64 - 2 16 6 8
intr llvm.ctlz i128 false 8 4 4 4
intr llvm.ctlz i128 true 2 2 2 2
intr llvm.cttz i128 false 6 4 4 4
intr llvm.cttz i128 true 2 2 2 2
intr llvm.abs i128 false 2 4 6 6
intr llvm.abs i128 true 2 4 6 6
intr llvm.ctpop i128 - 20 12 38 38
intr llvm.bitreverse i128 - 20 24 40 44
intr llvm.bswap i128 - 2 4 2 4
intr llvm.smin i128 - 2 6 4 6
intr llvm.smax i128 - 2 6 4 6
intr llvm.umin i128 - 2 6 4 6
intr llvm.umax i128 - 2 6 4 6
intr llvm.sadd.sat i128 - 8 7 7 7
intr llvm.uadd.sat i128 - 4 3 3 3
intr llvm.ssub.sat i128 - 8 7 7 7
intr llvm.usub.sat i128 - 4 3 3 3
intr llvm.ushl.sat i128 - 1 1 1 1
intr llvm.sshl.sat i128 - 1 1 1 1
intr llvm.fshl i128 - 8 8 2 8
intr llvm.fshr i128 - 8 8 2 8
intr llvm.sadd.with.overflow i128 - 2 4 4 4
intr llvm.uadd.with.overflow i128 - 2 2 2 2
intr llvm.ssub.with.overflow i128 - 2 4 4 4
intr llvm.usub.with.overflow i128 - 2 2 2 2
intr llvm.smul.with.overflow i128 - 4 29 9 13
intr llvm.umul.with.overflow i128 - 4 28 8 12
intr llvm.ctlz i256 false 16 8 8 8
intr llvm.ctlz i256 true 4 4 4 4
intr llvm.cttz i256 false 12 8 8 8
intr llvm.cttz i256 true 4 4 4 4
intr llvm.abs i256 false 4 8 12 12
intr llvm.abs i256 true 4 8 12 12
intr llvm.ctpop i256 - 40 24 76 76
intr llvm.bitreverse i256 - 40 48 80 88
intr llvm.bswap i256 - 4 8 4 8
intr llvm.smin i256 - 4 12 8 12
intr llvm.smax i256 - 4 12 8 12
intr llvm.umin i256 - 4 12 8 12
intr llvm.umax i256 - 4 12 8 12
intr llvm.sadd.sat i256 - 16 7 7 7
intr llvm.uadd.sat i256 - 8 3 3 3
intr llvm.ssub.sat i256 - 16 7 7 7
intr llvm.usub.sat i256 - 8 3 3 3
intr llvm.ushl.sat i256 - 1 1 1 1
intr llvm.sshl.sat i256 - 1 1 1 1
intr llvm.fshl i256 - 16 16 4 16
intr llvm.fshr i256 - 16 16 4 16
intr llvm.sadd.with.overflow i256 - 4 4 4 4
intr llvm.uadd.with.overflow i256 - 4 2 2 2
intr llvm.ssub.with.overflow i256 - 4 4 4 4
intr llvm.usub.with.overflow i256 - 4 2 2 2
intr llvm.smul.with.overflow i256 - 8 53 13 21
intr llvm.umul.with.overflow i256 - 8 52 12 20
intr llvm.ctlz i512 false 32 16 16 16
intr llvm.ctlz i512 true 8 8 8 8
intr llvm.cttz i512 false 24 16 16 16
intr llvm.cttz i512 true 8 8 8 8
intr llvm.abs i512 false 8 16 24 24
intr llvm.abs i512 true 8 16 24 24
intr llvm.ctpop i512 - 80 48 152 152
intr llvm.bitreverse i512 - 80 96 160 176
intr llvm.bswap i512 - 8 16 8 16
intr llvm.smin i512 - 8 24 16 24
intr llvm.smax i512 - 8 24 16 24
intr llvm.umin i512 - 8 24 16 24
intr llvm.umax i512 - 8 24 16 24
intr llvm.sadd.sat i512 - 32 7 7 7
intr llvm.uadd.sat i512 - 16 3 3 3
intr llvm.ssub.sat i512 - 32 7 7 7
intr llvm.usub.sat i512 - 16 3 3 3
intr llvm.ushl.sat i512 - 1 1 1 1
intr llvm.sshl.sat i512 - 1 1 1 1
intr llvm.fshl i512 - 32 32 8 32
intr llvm.fshr i512 - 32 32 8 32
intr llvm.sadd.with.overflow i512 - 8 4 4 4
intr llvm.uadd.with.overflow i512 - 8 2 2 2
intr llvm.ssub.with.overflow i512 - 8 4 4 4
intr llvm.usub.with.overflow i512 - 8 2 2 2
intr llvm.smul.with.overflow i512 - 16 101 21 37
intr llvm.umul.with.overflow i512 - 16 100 20 36
intr llvm.fabs half - 1 1 1 1
intr llvm.sqrt half - 1 1 1 1
intr llvm.floor half - 1 1 1 1
intr llvm.ceil half - 1 1 1 1
intr llvm.trunc half - 1 1 1 1
intr llvm.rint half - 1 1 1 1
intr llvm.nearbyint half - 1 1 1 1
intr llvm.round half - 1 1 1 1
intr llvm.roundeven half - 1 1 1 1
intr llvm.canonicalize half - 1 1 1 1
intr llvm.sin half - 1 1 1 1
intr llvm.cos half - 1 1 1 1
intr llvm.exp half - 1 1 1 1
intr llvm.exp2 half - 1 1 1 1
intr llvm.log half - 1 1 1 1
intr llvm.log2 half - 1 1 1 1
intr llvm.log10 half - 1 1 1 1
intr llvm.minnum half - 1 1 1 1
intr llvm.maxnum half - 1 1 1 1
intr llvm.copysign half - 10 10 1 10
intr llvm.pow half - 1 1 1 1
intr llvm.minimum half - 1 1 1 1
intr llvm.maximum half - 1 1 1 1
intr llvm.fma half - 1 1 1 1
intr llvm.fmuladd half - 1 1 1 1
intr llvm.powi half - 1 1 1 1
intr llvm.lrint half i64 1 1 1 1
intr llvm.llrint half i64 1 1 1 1
intr llvm.lround half i64 1 1 1 1
intr llvm.llround half i64 1 1 1 1
intr llvm.fptosi.sat i32 half 5 5 5 5
intr llvm.fptosi.sat i64 half 5 5 5 5
intr llvm.fptoui.sat i32 half 3 3 3 3
intr llvm.fptoui.sat i64 half 3 3 3 3
intr llvm.fabs float - 2 2 2 2
intr llvm.sqrt float - 28 30 1 2
intr llvm.floor float - 10 10 1 10
intr llvm.ceil float - 10 10 1 10
intr llvm.trunc float - 10 10 1 10
intr llvm.rint float - 10 10 1 10
intr llvm.nearbyint float - 10 10 1 10
intr llvm.round float - 10 10 1 10
intr llvm.roundeven float - 10 10 1 10
intr llvm.canonicalize float - 1 1 1 1
intr llvm.sin float - 10 10 1 10
intr llvm.cos float - 10 10 1 10
intr llvm.exp float - 10 10 1 10
intr llvm.exp2 float - 10 10 1 10
intr llvm.log float - 10 10 1 10
intr llvm.log2 float - 10 10 1 10
intr llvm.log10 float - 10 10 1 10
intr llvm.minnum float - 5 5 7 7
intr llvm.maxnum float - 5 5 7 7
intr llvm.copysign float - 2 2 2 2
intr llvm.pow float - 10 10 1 10
intr llvm.minimum float - 2 2 2 2
intr llvm.maximum float - 2 2 2 2
intr llvm.fma float - 10 10 1 10
intr llvm.fmuladd float - 4 8 2 2
intr llvm.powi float - 1 1 1 1
intr llvm.lrint float i64 4 1 1 1
intr llvm.llrint float i64 4 1 1 1
intr llvm.lround float i64 1 1 1 1
intr llvm.llround float i64 1 1 1 1
intr llvm.fptosi.sat i32 float 16 17 17 17
intr llvm.fptosi.sat i64 float 16 17 17 17
intr llvm.fptoui.sat i32 float 14 11 15 15
intr llvm.fptoui.sat i64 float 14 11 15 15
intr llvm.fabs double - 2 2 2 2
intr llvm.sqrt double - 32 32 1 1
intr llvm.floor double - 10 10 1 10
intr llvm.ceil double - 10 10 1 10
intr llvm.trunc double - 10 10 1 10
intr llvm.rint double - 10 10 1 10
intr llvm.nearbyint double - 10 10 1 10
intr llvm.round double - 10 10 1 10
intr llvm.roundeven double - 10 10 1 10
intr llvm.canonicalize double - 1 1 1 1
intr llvm.sin double - 10 10 1 10
intr llvm.cos double - 10 10 1 10
intr llvm.exp double - 10 10 1 10
intr llvm.exp2 double - 10 10 1 10
intr llvm.log double - 10 10 1 10
intr llvm.log2 double - 10 10 1 10
intr llvm.log10 double - 10 10 1 10
intr llvm.minnum double - 5 5 7 7
intr llvm.maxnum double - 5 5 7 7
intr llvm.copysign double - 2 2 2 2
intr llvm.pow double - 10 10 1 10
intr llvm.minimum double - 2 2 2 2
intr llvm.maximum double - 2 2 2 2
intr llvm.fma double - 10 10 1 10
intr llvm.fmuladd double - 4 8 2 2
intr llvm.powi double - 1 1 1 1
intr llvm.lrint double i64 4 1 1 1
intr llvm.llrint double i64 4 1 1 1
intr llvm.lround double i64 1 1 1 1
intr llvm.llround double i64 1 1 1 1
intr llvm.fptosi.sat i32 double 16 17 17 17
intr llvm.fptosi.sat i64 double 16 17 17 17
intr llvm.fptoui.sat i32 double 14 11 15 15
intr llvm.fptoui.sat i64 double 25 11 15 15
intr llvm.fabs x86_fp80 - 1 1 1 1
intr llvm.sqrt x86_fp80 - 1 1 1 1
intr llvm.floor x86_fp80 - 10 10 1 10
intr llvm.ceil x86_fp80 - 10 10 1 10
intr llvm.trunc x86_fp80 - 10 10 1 10
intr llvm.rint x86_fp80 - 10 10 1 10
intr llvm.nearbyint x86_fp80 - 10 10 1 10
intr llvm.round x86_fp80 - 10 10 1 10
intr llvm.roundeven x86_fp80 - 10 10 1 10
intr llvm.canonicalize x86_fp80 - 1 1 1 1
intr llvm.sin x86_fp80 - 10 10 1 10
intr llvm.cos x86_fp80 - 10 10 1 10
intr llvm.exp x86_fp80 - 10 10 1 10
intr llvm.exp2 x86_fp80 - 10 10 1 10
intr llvm.log x86_fp80 - 10 10 1 10
intr llvm.log2 x86_fp80 - 10 10 1 10
intr llvm.log10 x86_fp80 - 10 10 1 10
intr llvm.minnum x86_fp80 - 10 10 1 10
intr llvm.maxnum x86_fp80 - 10 10 1 10
intr llvm.copysign x86_fp80 - 10 10 1 10
intr llvm.pow x86_fp80 - 10 10 1 10
intr llvm.minimum x86_fp80 - 10 10 1 10
intr llvm.maximum x86_fp80 - 10 10 1 10
intr llvm.fma x86_fp80 - 10 10 1 10
intr llvm.fmuladd x86_fp80 - 4 6 2 2
intr llvm.powi x86_fp80 - 1 1 1 1
intr llvm.lrint x86_fp80 i64 1 1 1 1
intr llvm.llrint x86_fp80 i64 1 1 1 1
intr llvm.lround x86_fp80 i64 1 1 1 1
intr llvm.llround x86_fp80 i64 1 1 1 1
intr llvm.fptosi.sat i32 x86_fp80 23 23 5 23
intr llvm.fptosi.sat i64 x86_fp80 23 23 5 23
intr llvm.fptoui.sat i32 x86_fp80 21 21 3 21
intr llvm.fptoui.sat i64 x86_fp80 21 21 3 21
intr llvm.fabs fp128 - 2 2 2 2
intr llvm.sqrt fp128 - 2 2 1 2
intr llvm.floor fp128 - 10 10 1 10
intr llvm.ceil fp128 - 10 10 1 10
intr llvm.trunc fp128 - 10 10 1 10
intr llvm.rint fp128 - 10 10 1 10
intr llvm.nearbyint fp128 - 10 10 1 10
intr llvm.round fp128 - 10 10 1 10
intr llvm.roundeven fp128 - 10 10 1 10
intr llvm.canonicalize fp128 - 1 1 1 1
intr llvm.sin fp128 - 2 2 2 2
intr llvm.cos fp128 - 2 2 2 2
intr llvm.exp fp128 - 10 10 1 10
intr llvm.exp2 fp128 - 10 10 1 10
intr llvm.log fp128 - 10 10 1 10
intr llvm.log2 fp128 - 10 10 1 10
intr llvm.log10 fp128 - 10 10 1 10
intr llvm.minnum fp128 - 10 10 1 10
intr llvm.maxnum fp128 - 10 10 1 10
intr llvm.copysign fp128 - 2 2 2 2
intr llvm.pow fp128 - 10 10 1 10
intr llvm.minimum fp128 - 10 10 1 10
intr llvm.maximum fp128 - 10 10 1 10
intr llvm.fma fp128 - 2 2 2 2
intr llvm.fmuladd fp128 - 2 2 2 2
intr llvm.powi fp128 - 1 1 1 1
intr llvm.lrint fp128 i64 1 1 1 1
intr llvm.llrint fp128 i64 1 1 1 1
intr llvm.lround fp128 i64 1 1 1 1
intr llvm.llround fp128 i64 1 1 1 1
intr llvm.fptosi.sat i32 fp128 23 23 5 23
intr llvm.fptosi.sat i64 fp128 23 23 5 23
intr llvm.fptoui.sat i32 fp128 21 21 3 21
intr llvm.fptoui.sat i64 fp128 21 21 3 21
bin add v16i8 v 1 1 1 1
bin add v16i8 c 1 1 1 1
bin add v16i8 p 1 1 1 1
bin add v16i8 n 1 1 1 1
bin add v16i8 k 1 1 1 1
bin add v16i8 kp 1 1 1 1
bin sub v16i8 v 1 1 1 1
bin sub v16i8 c 1 1 1 1
bin sub v16i8 p 1 1 1 1
bin sub v16i8 n 1 1 1 1
bin sub v16i8 k 1 1 1 1
bin sub v16i8 kp 1 1 1 1
bin mul v16i8 v 6 18 12 12
bin mul v16i8 c 6 18 12 12
bin mul v16i8 p 1 7 2 3
bin mul v16i8 n 2 8 3 4
bin mul v16i8 k 6 18 12 12
bin mul v16i8 kp 13 21 26 28
bin udiv v16i8 v 320 4 4 4
bin udiv v16i8 c 14 4 4 4
bin udiv v16i8 p 1 7 2 3
bin udiv v16i8 n 14 4 4 4
bin udiv v16i8 k 14 4 4 4
bin udiv v16i8 kp 14 28 27 30
bin sdiv v16i8 v 320 4 4 4
bin sdiv v16i8 c 14 4 4 4
bin sdiv v16i8 p 8 26 13 16
bin sdiv v16i8 n 14 4 4 4
bin sdiv v16i8 k 14 4 4 4
bin sdiv v16i8 kp 69 89 136 139
bin urem v16i8 v 1600 4 4 4
bin urem v16i8 c 16 4 4 4
bin urem v16i8 p 1 1 1 1
bin urem v16i8 n 16 4 4 4
bin urem v16i8 k 16 4 4 4
bin urem v16i8 kp 1 1 1 1
bin srem v16i8 v 1600 4 4 4
bin srem v16i8 c 16 4 4 4
bin srem v16i8 p 15 45 26 29
bin srem v16i8 n 16 4 4 4
bin srem v16i8 k 16 4 4 4
bin srem v16i8 kp 76 108 149 152
bin shl v16i8 v 13 21 26 28
bin shl v16i8 c 1 7 2 3
bin shl v16i8 p 1 7 2 3
bin shl v16i8 n 1 7 2 3
bin shl v16i8 k 13 21 26 28
bin shl v16i8 kp 13 21 26 28
bin lshr v16i8 v 14 28 27 30
bin lshr v16i8 c 1 7 2 3
bin lshr v16i8 p 1 7 2 3
bin lshr v16i8 n 1 7 2 3
bin lshr v16i8 k 14 28 27 30
bin lshr v16i8 kp 14 28 27 30
bin ashr v16i8 v 27 30 54 54
bin ashr v16i8 c 3 9 5 6
bin ashr v16i8 p 3 9 5 6
bin ashr v16i8 n 3 9 5 6
bin ashr v16i8 k 27 30 54 54
bin ashr v16i8 kp 27 30 54 54
bin and v16i8 v 1 1 1 1
bin and v16i8 c 1 1 1 1
bin and v16i8 p 1 1 1 1
bin and v16i8 n 1 1 1 1
bin and v16i8 k 1 1 1 1
bin and v16i8 kp 1 1 1 1
bin or v16i8 v 1 1 1 1
bin or v16i8 c 1 1 1 1
bin or v16i8 p 1 1 1 1
bin or v16i8 n 1 1 1 1
bin or v16i8 k 1 1 1 1
bin or v16i8 kp 1 1 1 1
bin xor v16i8 v 1 1 1 1
bin xor v16i8 c 1 1 1 1
bin xor v16i8 p 1 1 1 1
bin xor v16i8 n 1 1 1 1
bin xor v16i8 k 1 1 1 1
bin xor v16i8 kp 1 1 1 1
vicmp eq v16i8 1 1 1 1
vicmp ne v16i8 2 2 2 2
vicmp ugt v16i8 3 3 3 3
vicmp uge v16i8 2 2 2 2
vicmp ult v16i8 3 3 3 3
vicmp ule v16i8 2 2 2 2
vicmp sgt v16i8 1 1 1 1
vicmp sge v16i8 2 2 2 2
vicmp slt v16i8 1 1 1 1
vicmp sle v16i8 2 2 2 2
vicmpz eq v16i8 1 1 1 1
vicmpz ne v16i8 1 1 1 1
vicmpz ugt v16i8 2 2 2 2
vicmpz uge v16i8 2 2 2 2
vicmpz ult v16i8 2 2 2 2
vicmpz ule v16i8 2 2 2 2
vicmpz sgt v16i8 1 1 1 1
vicmpz sge v16i8 1 1 1 1
vicmpz slt v16i8 1 1 1 1
vicmpz sle v16i8 1 1 1 1
vicmpc eq v16i8 1 1 1 1
vicmpc ne v16i8 1 1 1 1
vicmpc ugt v16i8 2 2 2 2
vicmpc uge v16i8 2 2 2 2
vicmpc ult v16i8 2 2 2 2
vicmpc ule v16i8 2 2 2 2
vicmpc sgt v16i8 1 1 1 1
vicmpc sge v16i8 1 1 1 1
vicmpc slt v16i8 1 1 1 1
vicmpc sle v16i8 1 1 1 1
vselect eq v16i8 2 2 3 3
vselect ne v16i8 2 2 3 3
vselect ugt v16i8 2 2 3 3
vselect uge v16i8 2 2 3 3
vselect ult v16i8 2 2 3 3
vselect ule v16i8 2 2 3 3
vselect sgt v16i8 2 2 3 3
vselect sge v16i8 2 2 3 3
vselect slt v16i8 2 2 3 3
vselect sle v16i8 2 2 3 3
select v16i8 2 2 3 3
load v16i8 1 4 1 1
store v16i8 1 1 1 1
extractelement v16i8 0 1 1 1 1
insertelement v16i8 0 14 14 14 14
extractelement v16i8 1 2 2 2 2
insertelement v16i8 1 14 14 14 14
extractelement v16i8 2 2 2 2 2
insertelement v16i8 2 14 14 14 14
extractelement v16i8 3 2 2 2 2
insertelement v16i8 3 14 14 14 14
extractelement v16i8 4 2 2 2 2
insertelement v16i8 4 14 14 14 14
extractelement v16i8 5 2 2 2 2
insertelement v16i8 5 14 14 14 14
extractelement v16i8 6 2 2 2 2
insertelement v16i8 6 14 14 14 14
extractelement v16i8 7 2 2 2 2
insertelement v16i8 7 14 14 14 14
extractelement v16i8 8 2 2 2 2
insertelement v16i8 8 14 14 14 14
extractelement v16i8 9 2 2 2 2
insertelement v16i8 9 14 14 14 14
extractelement v16i8 10 2 2 2 2
insertelement v16i8 10 14 14 14 14
extractelement v16i8 11 2 2 2 2
insertelement v16i8 11 14 14 14 14
extractelement v16i8 12 2 2 2 2
insertelement v16i8 12 14 14 14 14
extractelement v16i8 13 2 2 2 2
insertelement v16i8 13 14 14 14 14
extractelement v16i8 14 2 2 2 2
insertelement v16i8 14 14 14 14 14
extractelement v16i8 15 2 2 2 2
insertelement v16i8 15 14 14 14 14
extractelement v16i8 x 2 2 2 2
insertelement v16i8 x 3 3 3 3
bin add v8i16 v 1 1 1 1
bin add v8i16 c 1 1 1 1
bin add v8i16 p 1 1 1 1
bin add v8i16 n 1 1 1 1
bin add v8i16 k 1 1 1 1
bin add v8i16 kp 1 1 1 1
bin sub v8i16 v 1 1 1 1
bin sub v8i16 c 1 1 1 1
bin sub v8i16 p 1 1 1 1
bin sub v8i16 n 1 1 1 1
bin sub v8i16 k 1 1 1 1
bin sub v8i16 kp 1 1 1 1
bin mul v8i16 v 1 5 1 1
bin mul v8i16 c 1 5 1 1
bin mul v8i16 p 1 1 1 1
bin mul v8i16 n 2 2 2 2
bin mul v8i16 k 1 5 1 1
bin mul v8i16 kp 1 5 1 1
bin udiv v8i16 v 160 4 4 4
bin udiv v8i16 c 6 4 4 4
bin udiv v8i16 p 1 1 1 1
bin udiv v8i16 n 6 4 4 4
bin udiv v8i16 k 6 4 4 4
bin udiv v8i16 kp 16 19 31 31
bin sdiv v8i16 v 160 4 4 4
bin sdiv v8i16 c 6 4 4 4
bin sdiv v8i16 p 4 4 4 4
bin sdiv v8i16 n 6 4 4 4
bin sdiv v8i16 k 6 4 4 4
bin sdiv v8i16 kp 49 58 94 94
bin urem v8i16 v 640 4 4 4
bin urem v8i16 c 8 4 4 4
bin urem v8i16 p 1 1 1 1
bin urem v8i16 n 8 4 4 4
bin urem v8i16 k 8 4 4 4
bin urem v8i16 kp 1 1 1 1
bin srem v8i16 v 640 4 4 4
bin srem v8i16 c 8 4 4 4
bin srem v8i16 p 6 10 6 6
bin srem v8i16 n 8 4 4 4
bin srem v8i16 k 8 4 4 4
bin srem v8i16 kp 51 64 96 96
bin shl v8i16 v 24 27 16 20
bin shl v8i16 c 1 1 1 1
bin shl v8i16 p 1 1 1 1
bin shl v8i16 n 1 1 1 1
bin shl v8i16 k 1 5 1 1
bin shl v8i16 kp 1 5 1 1
bin lshr v8i16 v 16 19 31 31
bin lshr v8i16 c 1 1 1 1
bin lshr v8i16 p 1 1 1 1
bin lshr v8i16 n 1 1 1 1
bin lshr v8i16 k 16 19 31 31
bin lshr v8i16 kp 16 19 31 31
bin ashr v8i16 v 16 19 31 31
bin ashr v8i16 c 1 1 1 1
bin ashr v8i16 p 1 1 1 1
bin ashr v8i16 n 1 1 1 1
bin ashr v8i16 k 16 19 31 31
bin ashr v8i16 kp 16 19 31 31
bin and v8i16 v 1 1 1 1
bin and v8i16 c 1 1 1 1
bin and v8i16 p 1 1 1 1
bin and v8i16 n 1 1 1 1
bin and v8i16 k 1 1 1 1
bin and v8i16 kp 1 1 1 1
bin or v8i16 v 1 1 1 1
bin or v8i16 c 1 1 1 1
bin or v8i16 p 1 1 1 1
bin or v8i16 n 1 1 1 1
bin or v8i16 k 1 1 1 1
bin or v8i16 kp 1 1 1 1
bin xor v8i16 v 1 1 1 1
bin xor v8i16 c 1 1 1 1
bin xor v8i16 p 1 1 1 1
bin xor v8i16 n 1 1 1 1
bin xor v8i16 k 1 1 1 1
bin xor v8i16 kp 1 1 1 1
vicmp eq v8i16 1 1 1 1
vicmp ne v8i16 2 2 2 2
vicmp ugt v8i16 3 3 3 3
vicmp uge v8i16 2 2 2 2
vicmp ult v8i16 3 3 3 3
vicmp ule v8i16 2 2 2 2
vicmp sgt v8i16 1 1 1 1
vicmp sge v8i16 2 2 2 2
vicmp slt v8i16 1 1 1 1
vicmp sle v8i16 2 2 2 2
vicmpz eq v8i16 1 1 1 1
vicmpz ne v8i16 1 1 1 1
vicmpz ugt v8i16 2 2 2 2
vicmpz uge v8i16 2 2 2 2
vicmpz ult v8i16 2 2 2 2
vicmpz ule v8i16 2 2 2 2
vicmpz sgt v8i16 1 1 1 1
vicmpz sge v8i16 1 1 1 1
vicmpz slt v8i16 1 1 1 1
vicmpz sle v8i16 1 1 1 1
vicmpc eq v8i16 1 1 1 1
vicmpc ne v8i16 1 1 1 1
vicmpc ugt v8i16 2 2 2 2
vicmpc uge v8i16 2 2 2 2
vicmpc ult v8i16 2 2 2 2
vicmpc ule v8i16 2 2 2 2
vicmpc sgt v8i16 1 1 1 1
vicmpc sge v8i16 1 1 1 1
vicmpc slt v8i16 1 1 1 1
vicmpc sle v8i16 1 1 1 1
vselect eq v8i16 2 2 3 3
vselect ne v8i16 2 2 3 3
vselect ugt v8i16 2 2 3 3
vselect uge v8i16 2 2 3 3
vselect ult v8i16 2 2 3 3
vselect ule v8i16 2 2 3 3
vselect sgt v8i16 2 2 3 3
vselect sge v8i16 2 2 3 3
vselect slt v8i16 2 2 3 3
vselect sle v8i16 2 2 3 3
select v8i16 2 2 3 3
load v8i16 1 4 1 1
store v8i16 1 1 1 1
extractelement v8i16 0 1 1 1 1
insertelement v8i16 0 1 1 1 1
extractelement v8i16 1 1 1 1 1
insertelement v8i16 1 1 1 1 1
extractelement v8i16 2 1 1 1 1
insertelement v8i16 2 1 1 1 1
extractelement v8i16 3 1 1 1 1
insertelement v8i16 3 1 1 1 1
extractelement v8i16 4 1 1 1 1
insertelement v8i16 4 1 1 1 1
extractelement v8i16 5 1 1 1 1
insertelement v8i16 5 1 1 1 1
extractelement v8i16 6 1 1 1 1
insertelement v8i16 6 1 1 1 1
extractelement v8i16 7 1 1 1 1
insertelement v8i16 7 1 1 1 1
extractelement v8i16 x 2 2 2 2
insertelement v8i16 x 3 3 3 3
bin add v4i32 v 1 1 1 1
bin add v4i32 c 1 1 1 1
bin add v4i32 p 1 1 1 1
bin add v4i32 n 1 1 1 1
bin add v4i32 k 1 1 1 1
bin add v4i32 kp 1 1 1 1
bin sub v4i32 v 1 1 1 1
bin sub v4i32 c 1 1 1 1
bin sub v4i32 p 1 1 1 1
bin sub v4i32 n 1 1 1 1
bin sub v4i32 k 1 1 1 1
bin sub v4i32 kp 1 1 1 1
bin mul v4i32 v 6 8 7 7
bin mul v4i32 c 6 8 7 7
bin mul v4i32 p 1 1 1 1
bin mul v4i32 n 2 2 2 2
bin mul v4i32 k 6 8 7 7
bin mul v4i32 kp 6 8 7 7
bin udiv v4i32 v 80 4 4 4
bin udiv v4i32 c 5 4 4 4
bin udiv v4i32 p 1 1 1 1
bin udiv v4i32 n 5 4 4 4
bin udiv v4i32 k 15 4 4 4
bin udiv v4i32 kp 12 12 15 19
bin sdiv v4i32 v 80 4 4 4
bin sdiv v4i32 c 6 4 4 4
bin sdiv v4i32 p 4 4 4 4
bin sdiv v4i32 n 6 4 4 4
bin sdiv v4i32 k 19 4 4 4
bin sdiv v4i32 kp 37 37 46 58
bin urem v4i32 v 240 4 4 4
bin urem v4i32 c 7 4 4 4
bin urem v4i32 p 1 1 1 1
bin urem v4i32 n 7 4 4 4
bin urem v4i32 k 20 4 4 4
bin urem v4i32 kp 1 1 1 1
bin srem v4i32 v 240 4 4 4
bin srem v4i32 c 8 4 4 4
bin srem v4i32 p 11 13 12 12
bin srem v4i32 n 8 4 4 4
bin srem v4i32 k 24 4 4 4
bin srem v4i32 kp 44 46 54 66
bin shl v4i32 v 17 19 10 12
bin shl v4i32 c 1 1 1 1
bin shl v4i32 p 1 1 1 1
bin shl v4i32 n 1 1 1 1
bin shl v4i32 k 6 8 7 7
bin shl v4i32 kp 6 8 7 7
bin lshr v4i32 v 12 12 15 19
bin lshr v4i32 c 1 1 1 1
bin lshr v4i32 p 1 1 1 1
bin lshr v4i32 n 1 1 1 1
bin lshr v4i32 k 12 12 15 19
bin lshr v4i32 kp 12 12 15 19
bin ashr v4i32 v 12 12 15 19
bin ashr v4i32 c 1 1 1 1
bin ashr v4i32 p 1 1 1 1
bin ashr v4i32 n 1 1 1 1
bin ashr v4i32 k 12 12 15 19
bin ashr v4i32 kp 12 12 15 19
bin and v4i32 v 1 1 1 1
bin and v4i32 c 1 1 1 1
bin and v4i32 p 1 1 1 1
bin and v4i32 n 1 1 1 1
bin and v4i32 k 1 1 1 1
bin and v4i32 kp 1 1 1 1
bin or v4i32 v 1 1 1 1
bin or v4i32 c 1 1 1 1
bin or v4i32 p 1 1 1 1
bin or v4i32 n 1 1 1 1
bin or v4i32 k 1 1 1 1
bin or v4i32 kp 1 1 1 1
bin xor v4i32 v 1 1 1 1
bin xor v4i32 c 1 1 1 1
bin xor v4i32 p 1 1 1 1
bin xor v4i32 n 1 1 1 1
bin xor v4i32 k 1 1 1 1
bin xor v4i32 kp 1 1 1 1
vicmp eq v4i32 1 1 1 1
vicmp ne v4i32 2 2 2 2
vicmp ugt v4i32 3 3 3 3
vicmp uge v4i32 4 4 4 4
vicmp ult v4i32 3 3 3 3
vicmp ule v4i32 4 4 4 4
vicmp sgt v4i32 1 1 1 1
vicmp sge v4i32 2 2 2 2
vicmp slt v4i32 1 1 1 1
vicmp sle v4i32 2 2 2 2
vicmpz eq v4i32 1 1 1 1
vicmpz ne v4i32 1 1 1 1
vicmpz ugt v4i32 2 2 2 2
vicmpz uge v4i32 3 3 3 3
vicmpz ult v4i32 2 2 2 2
vicmpz ule v4i32 3 3 3 3
vicmpz sgt v4i32 1 1 1 1
vicmpz sge v4i32 1 1 1 1
vicmpz slt v4i32 1 1 1 1
vicmpz sle v4i32 1 1 1 1
vicmpc eq v4i32 1 1 1 1
vicmpc ne v4i32 1 1 1 1
vicmpc ugt v4i32 2 2 2 2
vicmpc uge v4i32 3 3 3 3
vicmpc ult v4i32 2 2 2 2
vicmpc ule v4i32 3 3 3 3
vicmpc sgt v4i32 1 1 1 1
vicmpc sge v4i32 1 1 1 1
vicmpc slt v4i32 1 1 1 1
vicmpc sle v4i32 1 1 1 1
vselect eq v4i32 2 2 3 3
vselect ne v4i32 2 2 3 3
vselect ugt v4i32 2 2 3 3
vselect uge v4i32 2 2 3 3
vselect ult v4i32 2 2 3 3
vselect ule v4i32 2 2 3 3
vselect sgt v4i32 2 2 3 3
vselect sge v4i32 2 2 3 3
vselect slt v4i32 2 2 3 3
vselect sle v4i32 2 2 3 3
select v4i32 2 2 3 3
load v4i32 1 4 1 1
store v4i32 1 1 1 1
extractelement v4i32 0 1 1 1 1
insertelement v4i32 0 3 3 3 3
extractelement v4i32 1 2 2 2 2
insertelement v4i32 1 3 3 3 3
extractelement v4i32 2 2 2 2 2
insertelement v4i32 2 3 3 3 3
extractelement v4i32 3 2 2 2 2
insertelement v4i32 3 3 3 3 3
extractelement v4i32 x 2 2 2 2
insertelement v4i32 x 3 3 3 3
bin add v2i64 v 1 2 1 2
bin add v2i64 c 1 2 1 2
bin add v2i64 p 1 2 1 2
bin add v2i64 n 1 2 1 2
bin add v2i64 k 1 2 1 2
bin add v2i64 kp 1 2 1 2
bin sub v2i64 v 1 2 1 2
bin sub v2i64 c 1 2 1 2
bin sub v2i64 p 1 2 1 2
bin sub v2i64 n 1 2 1 2
bin sub v2i64 k 1 2 1 2
bin sub v2i64 kp 1 2 1 2
bin mul v2i64 v 7 10 10 10
bin mul v2i64 c 7 10 10 10
bin mul v2i64 p 1 1 1 1
bin mul v2i64 n 2 3 2 3
bin mul v2i64 k 7 10 10 10
bin mul v2i64 kp 4 6 5 7
bin udiv v2i64 v 40 4 4 4
bin udiv v2i64 c 40 4 4 4
bin udiv v2i64 p 1 1 1 1
bin udiv v2i64 n 40 4 4 4
bin udiv v2i64 k 40 4 4 4
bin udiv v2i64 kp 4 6 5 7
bin sdiv v2i64 v 40 4 4 4
bin sdiv v2i64 c 40 4 4 4
bin sdiv v2i64 p 8 13 14 15
bin sdiv v2i64 n 40 4 4 4
bin sdiv v2i64 k 40 4 4 4
bin sdiv v2i64 kp 21 30 30 41
bin urem v2i64 v 160 4 4 4
bin urem v2i64 c 160 4 4 4
bin urem v2i64 p 1 1 1 1
bin urem v2i64 n 160 4 4 4
bin urem v2i64 k 160 4 4 4
bin urem v2i64 kp 1 1 1 1
bin srem v2i64 v 160 4 4 4
bin srem v2i64 c 160 4 4 4
bin srem v2i64 p 16 25 25 27
bin srem v2i64 n 160 4 4 4
bin srem v2i64 k 160 4 4 4
bin srem v2i64 kp 29 42 41 53
bin shl v2i64 v 4 6 5 7
bin shl v2i64 c 1 1 1 1
bin shl v2i64 p 1 1 1 1
bin shl v2i64 n 1 1 1 1
bin shl v2i64 k 4 6 5 7
bin shl v2i64 kp 4 6 5 7
bin lshr v2i64 v 4 6 5 7
bin lshr v2i64 c 1 1 1 1
bin lshr v2i64 p 1 1 1 1
bin lshr v2i64 n 1 1 1 1
bin lshr v2i64 k 4 6 5 7
bin lshr v2i64 kp 4 6 5 7
bin ashr v2i64 v 8 11 12 16
bin ashr v2i64 c 3 5 6 6
bin ashr v2i64 p 3 5 6 6
bin ashr v2i64 n 3 5 6 6
bin ashr v2i64 k 8 11 12 16
bin ashr v2i64 kp 8 11 12 16
bin and v2i64 v 1 1 1 1
bin and v2i64 c 1 1 1 1
bin and v2i64 p 1 1 1 1
bin and v2i64 n 1 1 1 1
bin and v2i64 k 1 1 1 1
bin and v2i64 kp 1 1 1 1
bin or v2i64 v 1 1 1 1
bin or v2i64 c 1 1 1 1
bin or v2i64 p 1 1 1 1
bin or v2i64 n 1 1 1 1
bin or v2i64 k 1 1 1 1
bin or v2i64 kp 1 1 1 1
bin xor v2i64 v 1 1 1 1
bin xor v2i64 c 1 1 1 1
bin xor v2i64 p 1 1 1 1
bin xor v2i64 n 1 1 1 1
bin xor v2i64 k 1 1 1 1
bin xor v2i64 kp 1 1 1 1
vicmp eq v2i64 5 4 5 5
vicmp ne v2i64 6 5 6 6
vicmp ugt v2i64 7 6 7 7
vicmp uge v2i64 8 7 8 8
vicmp ult v2i64 7 6 7 7
vicmp ule v2i64 8 7 8 8
vicmp sgt v2i64 5 4 5 5
vicmp sge v2i64 6 5 6 6
vicmp slt v2i64 5 4 5 5
vicmp sle v2i64 6 5 6 6
vicmpz eq v2i64 5 4 5 5
vicmpz ne v2i64 5 4 5 5
vicmpz ugt v2i64 6 5 6 6
vicmpz uge v2i64 7 6 7 7
vicmpz ult v2i64 6 5 6 6
vicmpz ule v2i64 7 6 7 7
vicmpz sgt v2i64 5 4 5 5
vicmpz sge v2i64 5 4 5 5
vicmpz slt v2i64 5 4 5 5
vicmpz sle v2i64 5 4 5 5
vicmpc eq v2i64 5 4 5 5
vicmpc ne v2i64 5 4 5 5
vicmpc ugt v2i64 6 5 6 6
vicmpc uge v2i64 7 6 7 7
vicmpc ult v2i64 6 5 6 6
vicmpc ule v2i64 7 6 7 7
vicmpc sgt v2i64 5 4 5 5
vicmpc sge v2i64 5 4 5 5
vicmpc slt v2i64 5 4 5 5
vicmpc sle v2i64 5 4 5 5
vselect eq v2i64 2 2 3 3
vselect ne v2i64 2 2 3 3
vselect ugt v2i64 2 2 3 3
vselect uge v2i64 2 2 3 3
vselect ult v2i64 2 2 3 3
vselect ule v2i64 2 2 3 3
vselect sgt v2i64 2 2 3 3
vselect sge v2i64 2 2 3 3
vselect slt v2i64 2 2 3 3
vselect sle v2i64 2 2 3 3
select v2i64 2 2 3 3
load v2i64 1 4 1 1
store v2i64 1 1 1 1
extractelement v2i64 0 1 1 1 1
insertelement v2i64 0 2 2 2 2
extractelement v2i64 1 2 2 2 2
insertelement v2i64 1 2 2 2 2
extractelement v2i64 x 2 2 2 2
insertelement v2i64 x 3 3 3 3
bin fadd v4f32 v 2 3 1 1
bin fsub v4f32 v 2 3 1 1
bin fmul v4f32 v 2 5 1 1
bin fdiv v4f32 v 39 39 1 1
bin frem v4f32 v 17 4 4 4
fneg v4f32 1 1 1 1
fcmp false v4f32 2 5 1 1
fcmp oeq v4f32 2 5 1 1
fcmp ogt v4f32 2 5 1 1
fcmp oge v4f32 2 5 1 1
fcmp olt v4f32 2 5 1 1
fcmp ole v4f32 2 5 1 1
fcmp one v4f32 5 11 3 3
fcmp ord v4f32 2 5 1 1
fcmp ueq v4f32 5 11 3 3
fcmp ugt v4f32 2 5 1 1
fcmp uge v4f32 2 5 1 1
fcmp ult v4f32 2 5 1 1
fcmp ule v4f32 2 5 1 1
fcmp une v4f32 2 5 1 1
fcmp uno v4f32 2 5 1 1
fcmp true v4f32 2 5 1 1
vselect false v4f32 2 2 3 3
vselect oeq v4f32 2 2 3 3
vselect ogt v4f32 2 2 3 3
vselect oge v4f32 2 2 3 3
vselect olt v4f32 2 2 3 3
vselect ole v4f32 2 2 3 3
vselect one v4f32 2 2 3 3
vselect ord v4f32 2 2 3 3
vselect ueq v4f32 2 2 3 3
vselect ugt v4f32 2 2 3 3
vselect uge v4f32 2 2 3 3
vselect ult v4f32 2 2 3 3
vselect ule v4f32 2 2 3 3
vselect une v4f32 2 2 3 3
vselect uno v4f32 2 2 3 3
vselect true v4f32 2 2 3 3
select v4f32 2 2 3 3
load v4f32 1 4 1 1
store v4f32 1 1 1 1
extractelement v4f32 0 0 0 0 0
insertelement v4f32 0 2 2 2 2
extractelement v4f32 1 1 1 1 1
insertelement v4f32 1 2 2 2 2
extractelement v4f32 2 1 1 1 1
insertelement v4f32 2 2 2 2 2
extractelement v4f32 3 1 1 1 1
insertelement v4f32 3 2 2 2 2
extractelement v4f32 x 2 2 2 2
insertelement v4f32 x 3 3 3 3
bin fadd v2f64 v 2 3 1 1
bin fsub v2f64 v 2 3 1 1
bin fmul v2f64 v 2 5 1 1
bin fdiv v2f64 v 69 69 1 1
bin frem v2f64 v 7 4 4 4
fneg v2f64 1 1 1 1
fcmp false v2f64 2 5 1 1
fcmp oeq v2f64 2 5 1 1
fcmp ogt v2f64 2 5 1 1
fcmp oge v2f64 2 5 1 1
fcmp olt v2f64 2 5 1 1
fcmp ole v2f64 2 5 1 1
fcmp one v2f64 5 11 3 3
fcmp ord v2f64 2 5 1 1
fcmp ueq v2f64 5 11 3 3
fcmp ugt v2f64 2 5 1 1
fcmp uge v2f64 2 5 1 1
fcmp ult v2f64 2 5 1 1
fcmp ule v2f64 2 5 1 1
fcmp une v2f64 2 5 1 1
fcmp uno v2f64 2 5 1 1
fcmp true v2f64 2 5 1 1
vselect false v2f64 2 2 3 3
vselect oeq v2f64 2 2 3 3
vselect ogt v2f64 2 2 3 3
vselect oge v2f64 2 2 3 3
vselect olt v2f64 2 2 3 3
vselect ole v2f64 2 2 3 3
vselect one v2f64 2 2 3 3
vselect ord v2f64 2 2 3 3
vselect ueq v2f64 2 2 3 3
vselect ugt v2f64 2 2 3 3
vselect uge v2f64 2 2 3 3
vselect ult v2f64 2 2 3 3
vselect ule v2f64 2 2 3 3
vselect une v2f64 2 2 3 3
vselect uno v2f64 2 2 3 3
vselect true v2f64 2 2 3 3
select v2f64 2 2 3 3
load v2f64 1 4 1 1
store v2f64 1 1 1 1
extractelement v2f64 0 0 0 0 0
insertelement v2f64 0 1 1 1 1
extractelement v2f64 1 1 1 1 1
insertelement v2f64 1 1 1 1 1
extractelement v2f64 x 2 2 2 2
insertelement v2f64 x 3 3 3 3
bin add v2i8 v 1 1 1 1
bin add v2i8 c 1 1 1 1
bin add v2i8 p 1 1 1 1
bin add v2i8 n 1 1 1 1
bin add v2i8 k 1 1 1 1
bin add v2i8 kp 1 1 1 1
bin sub v2i8 v 1 1 1 1
bin sub v2i8 c 1 1 1 1
bin sub v2i8 p 1 1 1 1
bin sub v2i8 n 1 1 1 1
bin sub v2i8 k 1 1 1 1
bin sub v2i8 kp 1 1 1 1
bin mul v2i8 v 4 7 3 3
bin mul v2i8 c 4 7 3 3
bin mul v2i8 p 4 3 3 3
bin mul v2i8 n 5 4 4 4
bin mul v2i8 k 4 7 3 3
bin mul v2i8 kp 4 7 3 3
bin udiv v2i8 v 320 4 4 4
bin udiv v2i8 c 14 4 4 4
bin udiv v2i8 p 1 7 2 3
bin udiv v2i8 n 14 4 4 4
bin udiv v2i8 k 14 4 4 4
bin udiv v2i8 kp 14 28 27 30
bin sdiv v2i8 v 320 4 4 4
bin sdiv v2i8 c 14 4 4 4
bin sdiv v2i8 p 8 26 13 16
bin sdiv v2i8 n 14 4 4 4
bin sdiv v2i8 k 14 4 4 4
bin sdiv v2i8 kp 69 89 136 139
bin urem v2i8 v 1600 4 4 4
bin urem v2i8 c 16 4 4 4
bin urem v2i8 p 1 1 1 1
bin urem v2i8 n 16 4 4 4
bin urem v2i8 k 16 4 4 4
bin urem v2i8 kp 1 1 1 1
bin srem v2i8 v 1600 4 4 4
bin srem v2i8 c 16 4 4 4
bin srem v2i8 p 13 34 17 20
bin srem v2i8 n 16 4 4 4
bin srem v2i8 k 16 4 4 4
bin srem v2i8 kp 74 97 140 143
bin shl v2i8 v 13 21 26 28
bin shl v2i8 c 1 7 2 3
bin shl v2i8 p 1 7 2 3
bin shl v2i8 n 1 7 2 3
bin shl v2i8 k 13 21 26 28
bin shl v2i8 kp 13 21 26 28
bin lshr v2i8 v 14 28 27 30
bin lshr v2i8 c 1 7 2 3
bin lshr v2i8 p 1 7 2 3
bin lshr v2i8 n 1 7 2 3
bin lshr v2i8 k 14 28 27 30
bin lshr v2i8 kp 14 28 27 30
bin ashr v2i8 v 27 30 54 54
bin ashr v2i8 c 3 9 5 6
bin ashr v2i8 p 3 9 5 6
bin ashr v2i8 n 3 9 5 6
bin ashr v2i8 k 27 30 54 54
bin ashr v2i8 kp 27 30 54 54
bin and v2i8 v 1 1 1 1
bin and v2i8 c 1 1 1 1
bin and v2i8 p 1 1 1 1
bin and v2i8 n 1 1 1 1
bin and v2i8 k 1 1 1 1
bin and v2i8 kp 1 1 1 1
bin or v2i8 v 1 1 1 1
bin or v2i8 c 1 1 1 1
bin or v2i8 p 1 1 1 1
bin or v2i8 n 1 1 1 1
bin or v2i8 k 1 1 1 1
bin or v2i8 kp 1 1 1 1
bin xor v2i8 v 1 1 1 1
bin xor v2i8 c 1 1 1 1
bin xor v2i8 p 1 1 1 1
bin xor v2i8 n 1 1 1 1
bin xor v2i8 k 1 1 1 1
bin xor v2i8 kp 1 1 1 1
vicmp eq v2i8 1 1 1 1
vicmp ne v2i8 2 2 2 2
vicmp ugt v2i8 3 3 3 3
vicmp uge v2i8 2 2 2 2
vicmp ult v2i8 3 3 3 3
vicmp ule v2i8 2 2 2 2
vicmp sgt v2i8 1 1 1 1
vicmp sge v2i8 2 2 2 2
vicmp slt v2i8 1 1 1 1
vicmp sle v2i8 2 2 2 2
vicmpz eq v2i8 1 1 1 1
vicmpz ne v2i8 1 1 1 1
vicmpz ugt v2i8 2 2 2 2
vicmpz uge v2i8 2 2 2 2
vicmpz ult v2i8 2 2 2 2
vicmpz ule v2i8 2 2 2 2
vicmpz sgt v2i8 1 1 1 1
vicmpz sge v2i8 1 1 1 1
vicmpz slt v2i8 1 1 1 1
vicmpz sle v2i8 1 1 1 1
vicmpc eq v2i8 1 1 1 1
vicmpc ne v2i8 1 1 1 1
vicmpc ugt v2i8 2 2 2 2
vicmpc uge v2i8 2 2 2 2
vicmpc ult v2i8 2 2 2 2
vicmpc ule v2i8 2 2 2 2
vicmpc sgt v2i8 1 1 1 1
vicmpc sge v2i8 1 1 1 1
vicmpc slt v2i8 1 1 1 1
vicmpc sle v2i8 1 1 1 1
vselect eq v2i8 2 2 3 3
vselect ne v2i8 2 2 3 3
vselect ugt v2i8 2 2 3 3
vselect uge v2i8 2 2 3 3
vselect ult v2i8 2 2 3 3
vselect ule v2i8 2 2 3 3
vselect sgt v2i8 2 2 3 3
vselect sge v2i8 2 2 3 3
vselect slt v2i8 2 2 3 3
vselect sle v2i8 2 2 3 3
select v2i8 2 2 3 3
load v2i8 2 4 1 1
store v2i8 2 1 1 1
extractelement v2i8 0 1 1 1 1
insertelement v2i8 0 3 3 3 3
extractelement v2i8 1 2 2 2 2
insertelement v2i8 1 3 3 3 3
extractelement v2i8 x 3 2 2 2
insertelement v2i8 x 5 3 3 3
bin add v4i8 v 1 1 1 1
bin add v4i8 c 1 1 1 1
bin add v4i8 p 1 1 1 1
bin add v4i8 n 1 1 1 1
bin add v4i8 k 1 1 1 1
bin add v4i8 kp 1 1 1 1
bin sub v4i8 v 1 1 1 1
bin sub v4i8 c 1 1 1 1
bin sub v4i8 p 1 1 1 1
bin sub v4i8 n 1 1 1 1
bin sub v4i8 k 1 1 1 1
bin sub v4i8 kp 1 1 1 1
bin mul v4i8 v 4 7 3 3
bin mul v4i8 c 4 7 3 3
bin mul v4i8 p 4 3 3 3
bin mul v4i8 n 5 4 4 4
bin mul v4i8 k 4 7 3 3
bin mul v4i8 kp 4 7 3 3
bin udiv v4i8 v 320 4 4 4
bin udiv v4i8 c 14 4 4 4
bin udiv v4i8 p 1 7 2 3
bin udiv v4i8 n 14 4 4 4
bin udiv v4i8 k 14 4 4 4
bin udiv v4i8 kp 14 28 27 30
bin sdiv v4i8 v 320 4 4 4
bin sdiv v4i8 c 14 4 4 4
bin sdiv v4i8 p 8 26 13 16
bin sdiv v4i8 n 14 4 4 4
bin sdiv v4i8 k 14 4 4 4
bin sdiv v4i8 kp 69 89 136 139
bin urem v4i8 v 1600 4 4 4
bin urem v4i8 c 16 4 4 4
bin urem v4i8 p 1 1 1 1
bin urem v4i8 n 16 4 4 4
bin urem v4i8 k 16 4 4 4
bin urem v4i8 kp 1 1 1 1
bin srem v4i8 v 1600 4 4 4
bin srem v4i8 c 16 4 4 4
bin srem v4i8 p 13 34 17 20
bin srem v4i8 n 16 4 4 4
bin srem v4i8 k 16 4 4 4
bin srem v4i8 kp 74 97 140 143
bin shl v4i8 v 13 21 26 28
bin shl v4i8 c 1 7 2 3
bin shl v4i8 p 1 7 2 3
bin shl v4i8 n 1 7 2 3
bin shl v4i8 k 13 21 26 28
bin shl v4i8 kp 13 21 26 28
bin lshr v4i8 v 14 28 27 30
bin lshr v4i8 c 1 7 2 3
bin lshr v4i8 p 1 7 2 3
bin lshr v4i8 n 1 7 2 3
bin lshr v4i8 k 14 28 27 30
bin lshr v4i8 kp 14 28 27 30
bin ashr v4i8 v 27 30 54 54
bin ashr v4i8 c 3 9 5 6
bin ashr v4i8 p 3 9 5 6
bin ashr v4i8 n 3 9 5 6
bin ashr v4i8 k 27 30 54 54
bin ashr v4i8 kp 27 30 54 54
bin and v4i8 v 1 1 1 1
bin and v4i8 c 1 1 1 1
bin and v4i8 p 1 1 1 1
bin and v4i8 n 1 1 1 1
bin and v4i8 k 1 1 1 1
bin and v4i8 kp 1 1 1 1
bin or v4i8 v 1 1 1 1
bin or v4i8 c 1 1 1 1
bin or v4i8 p 1 1 1 1
bin or v4i8 n 1 1 1 1
bin or v4i8 k 1 1 1 1
bin or v4i8 kp 1 1 1 1
bin xor v4i8 v 1 1 1 1
bin xor v4i8 c 1 1 1 1
bin xor v4i8 p 1 1 1 1
bin xor v4i8 n 1 1 1 1
bin xor v4i8 k 1 1 1 1
bin xor v4i8 kp 1 1 1 1
vicmp eq v4i8 1 1 1 1
vicmp ne v4i8 2 2 2 2
vicmp ugt v4i8 3 3 3 3
vicmp uge v4i8 2 2 2 2
vicmp ult v4i8 3 3 3 3
vicmp ule v4i8 2 2 2 2
vicmp sgt v4i8 1 1 1 1
vicmp sge v4i8 2 2 2 2
vicmp slt v4i8 1 1 1 1
vicmp sle v4i8 2 2 2 2
vicmpz eq v4i8 1 1 1 1
vicmpz ne v4i8 1 1 1 1
vicmpz ugt v4i8 2 2 2 2
vicmpz uge v4i8 2 2 2 2
vicmpz ult v4i8 2 2 2 2
vicmpz ule v4i8 2 2 2 2
vicmpz sgt v4i8 1 1 1 1
vicmpz sge v4i8 1 1 1 1
vicmpz slt v4i8 1 1 1 1
vicmpz sle v4i8 1 1 1 1
vicmpc eq v4i8 1 1 1 1
vicmpc ne v4i8 1 1 1 1
vicmpc ugt v4i8 2 2 2 2
vicmpc uge v4i8 2 2 2 2
vicmpc ult v4i8 2 2 2 2
vicmpc ule v4i8 2 2 2 2
vicmpc sgt v4i8 1 1 1 1
vicmpc sge v4i8 1 1 1 1
vicmpc slt v4i8 1 1 1 1
vicmpc sle v4i8 1 1 1 1
vselect eq v4i8 2 2 3 3
vselect ne v4i8 2 2 3 3
vselect ugt v4i8 2 2 3 3
vselect uge v4i8 2 2 3 3
vselect ult v4i8 2 2 3 3
vselect ule v4i8 2 2 3 3
vselect sgt v4i8 2 2 3 3
vselect sge v4i8 2 2 3 3
vselect slt v4i8 2 2 3 3
vselect sle v4i8 2 2 3 3
select v4i8 2 2 3 3
load v4i8 1 4 1 1
store v4i8 1 1 1 1
extractelement v4i8 0 1 1 1 1
insertelement v4i8 0 5 5 5 5
extractelement v4i8 1 2 2 2 2
insertelement v4i8 1 5 5 5 5
extractelement v4i8 2 2 2 2 2
insertelement v4i8 2 5 5 5 5
extractelement v4i8 3 2 2 2 2
insertelement v4i8 3 5 5 5 5
extractelement v4i8 x 2 2 2 2
insertelement v4i8 x 3 3 3 3
bin add v8i8 v 1 1 1 1
bin add v8i8 c 1 1 1 1
bin add v8i8 p 1 1 1 1
bin add v8i8 n 1 1 1 1
bin add v8i8 k 1 1 1 1
bin add v8i8 kp 1 1 1 1
bin sub v8i8 v 1 1 1 1
bin sub v8i8 c 1 1 1 1
bin sub v8i8 p 1 1 1 1
bin sub v8i8 n 1 1 1 1
bin sub v8i8 k 1 1 1 1
bin sub v8i8 kp 1 1 1 1
bin mul v8i8 v 4 7 3 3
bin mul v8i8 c 4 7 3 3
bin mul v8i8 p 4 3 3 3
bin mul v8i8 n 5 4 4 4
bin mul v8i8 k 4 7 3 3
bin mul v8i8 kp 4 7 3 3
bin udiv v8i8 v 320 4 4 4
bin udiv v8i8 c 14 4 4 4
bin udiv v8i8 p 1 7 2 3
bin udiv v8i8 n 14 4 4 4
bin udiv v8i8 k 14 4 4 4
bin udiv v8i8 kp 14 28 27 30
bin sdiv v8i8 v 320 4 4 4
bin sdiv v8i8 c 14 4 4 4
bin sdiv v8i8 p 8 26 13 16
bin sdiv v8i8 n 14 4 4 4
bin sdiv v8i8 k 14 4 4 4
bin sdiv v8i8 kp 69 89 136 139
bin urem v8i8 v 1600 4 4 4
bin urem v8i8 c 16 4 4 4
bin urem v8i8 p 1 1 1 1
bin urem v8i8 n 16 4 4 4
bin urem v8i8 k 16 4 4 4
bin urem v8i8 kp 1 1 1 1
bin srem v8i8 v 1600 4 4 4
bin srem v8i8 c 16 4 4 4
bin srem v8i8 p 13 34 17 20
bin srem v8i8 n 16 4 4 4
bin srem v8i8 k 16 4 4 4
bin srem v8i8 kp 74 97 140 143
bin shl v8i8 v 13 21 26 28
bin shl v8i8 c 1 7 2 3
bin shl v8i8 p 1 7 2 3
bin shl v8i8 n 1 7 2 3
bin shl v8i8 k 13 21 26 28
bin shl v8i8 kp 13 21 26 28
bin lshr v8i8 v 14 28 27 30
bin lshr v8i8 c 1 7 2 3
bin lshr v8i8 p 1 7 2 3
bin lshr v8i8 n 1 7 2 3
bin lshr v8i8 k 14 28 27 30
bin lshr v8i8 kp 14 28 27 30
bin ashr v8i8 v 27 30 54 54
bin ashr v8i8 c 3 9 5 6
bin ashr v8i8 p 3 9 5 6
bin ashr v8i8 n 3 9 5 6
bin ashr v8i8 k 27 30 54 54
bin ashr v8i8 kp 27 30 54 54
bin and v8i8 v 1 1 1 1
bin and v8i8 c 1 1 1 1
bin and v8i8 p 1 1 1 1
bin and v8i8 n 1 1 1 1
bin and v8i8 k 1 1 1 1
bin and v8i8 kp 1 1 1 1
bin or v8i8 v 1 1 1 1
bin or v8i8 c 1 1 1 1
bin or v8i8 p 1 1 1 1
bin or v8i8 n 1 1 1 1
bin or v8i8 k 1 1 1 1
bin or v8i8 kp 1 1 1 1
bin xor v8i8 v 1 1 1 1
bin xor v8i8 c 1 1 1 1
bin xor v8i8 p 1 1 1 1
bin xor v8i8 n 1 1 1 1
bin xor v8i8 k 1 1 1 1
bin xor v8i8 kp 1 1 1 1
vicmp eq v8i8 1 1 1 1
vicmp ne v8i8 2 2 2 2
vicmp ugt v8i8 3 3 3 3
vicmp uge v8i8 2 2 2 2
vicmp ult v8i8 3 3 3 3
vicmp ule v8i8 2 2 2 2
vicmp sgt v8i8 1 1 1 1
vicmp sge v8i8 2 2 2 2
vicmp slt v8i8 1 1 1 1
vicmp sle v8i8 2 2 2 2
vicmpz eq v8i8 1 1 1 1
vicmpz ne v8i8 1 1 1 1
vicmpz ugt v8i8 2 2 2 2
vicmpz uge v8i8 2 2 2 2
vicmpz ult v8i8 2 2 2 2
vicmpz ule v8i8 2 2 2 2
vicmpz sgt v8i8 1 1 1 1
vicmpz sge v8i8 1 1 1 1
vicmpz slt v8i8 1 1 1 1
vicmpz sle v8i8 1 1 1 1
vicmpc eq v8i8 1 1 1 1
vicmpc ne v8i8 1 1 1 1
vicmpc ugt v8i8 2 2 2 2
vicmpc uge v8i8 2 2 2 2
vicmpc ult v8i8 2 2 2 2
vicmpc ule v8i8 2 2 2 2
vicmpc sgt v8i8 1 1 1 1
vicmpc sge v8i8 1 1 1 1
vicmpc slt v8i8 1 1 1 1
vicmpc sle v8i8 1 1 1 1
vselect eq v8i8 2 2 3 3
vselect ne v8i8 2 2 3 3
vselect ugt v8i8 2 2 3 3
vselect uge v8i8 2 2 3 3
vselect ult v8i8 2 2 3 3
vselect ule v8i8 2 2 3 3
vselect sgt v8i8 2 2 3 3
vselect sge v8i8 2 2 3 3
vselect slt v8i8 2 2 3 3
vselect sle v8i8 2 2 3 3
select v8i8 2 2 3 3
load v8i8 1 4 1 1
store v8i8 1 1 1 1
extractelement v8i8 0 1 1 1 1
insertelement v8i8 0 8 8 8 8
extractelement v8i8 1 2 2 2 2
insertelement v8i8 1 8 8 8 8
extractelement v8i8 2 2 2 2 2
insertelement v8i8 2 8 8 8 8
extractelement v8i8 3 2 2 2 2
insertelement v8i8 3 8 8 8 8
extractelement v8i8 4 2 2 2 2
insertelement v8i8 4 8 8 8 8
extractelement v8i8 5 2 2 2 2
insertelement v8i8 5 8 8 8 8
extractelement v8i8 6 2 2 2 2
insertelement v8i8 6 8 8 8 8
extractelement v8i8 7 2 2 2 2
insertelement v8i8 7 8 8 8 8
extractelement v8i8 x 2 2 2 2
insertelement v8i8 x 3 3 3 3
bin add v2i16 v 1 1 1 1
bin add v2i16 c 1 1 1 1
bin add v2i16 p 1 1 1 1
bin add v2i16 n 1 1 1 1
bin add v2i16 k 1 1 1 1
bin add v2i16 kp 1 1 1 1
bin sub v2i16 v 1 1 1 1
bin sub v2i16 c 1 1 1 1
bin sub v2i16 p 1 1 1 1
bin sub v2i16 n 1 1 1 1
bin sub v2i16 k 1 1 1 1
bin sub v2i16 kp 1 1 1 1
bin mul v2i16 v 1 5 1 1
bin mul v2i16 c 1 5 1 1
bin mul v2i16 p 1 1 1 1
bin mul v2i16 n 2 2 2 2
bin mul v2i16 k 1 5 1 1
bin mul v2i16 kp 1 5 1 1
bin udiv v2i16 v 160 4 4 4
bin udiv v2i16 c 6 4 4 4
bin udiv v2i16 p 1 1 1 1
bin udiv v2i16 n 6 4 4 4
bin udiv v2i16 k 6 4 4 4
bin udiv v2i16 kp 16 19 31 31
bin sdiv v2i16 v 160 4 4 4
bin sdiv v2i16 c 6 4 4 4
bin sdiv v2i16 p 4 4 4 4
bin sdiv v2i16 n 6 4 4 4
bin sdiv v2i16 k 6 4 4 4
bin sdiv v2i16 kp 49 58 94 94
bin urem v2i16 v 640 4 4 4
bin urem v2i16 c 8 4 4 4
bin urem v2i16 p 1 1 1 1
bin urem v2i16 n 8 4 4 4
bin urem v2i16 k 8 4 4 4
bin urem v2i16 kp 1 1 1 1
bin srem v2i16 v 640 4 4 4
bin srem v2i16 c 8 4 4 4
bin srem v2i16 p 6 10 6 6
bin srem v2i16 n 8 4 4 4
bin srem v2i16 k 8 4 4 4
bin srem v2i16 kp 51 64 96 96
bin shl v2i16 v 24 27 16 20
bin shl v2i16 c 1 1 1 1
bin shl v2i16 p 1 1 1 1
bin shl v2i16 n 1 1 1 1
bin shl v2i16 k 1 5 1 1
bin shl v2i16 kp 1 5 1 1
bin lshr v2i16 v 16 19 31 31
bin lshr v2i16 c 1 1 1 1
bin lshr v2i16 p 1 1 1 1
bin lshr v2i16 n 1 1 1 1
bin lshr v2i16 k 16 19 31 31
bin lshr v2i16 kp 16 19 31 31
bin ashr v2i16 v 16 19 31 31
bin ashr v2i16 c 1 1 1 1
bin ashr v2i16 p 1 1 1 1
bin ashr v2i16 n 1 1 1 1
bin ashr v2i16 k 16 19 31 31
bin ashr v2i16 kp 16 19 31 31
bin and v2i16 v 1 1 1 1
bin and v2i16 c 1 1 1 1
bin and v2i16 p 1 1 1 1
bin and v2i16 n 1 1 1 1
bin and v2i16 k 1 1 1 1
bin and v2i16 kp 1 1 1 1
bin or v2i16 v 1 1 1 1
bin or v2i16 c 1 1 1 1
bin or v2i16 p 1 1 1 1
bin or v2i16 n 1 1 1 1
bin or v2i16 k 1 1 1 1
bin or v2i16 kp 1 1 1 1
bin xor v2i16 v 1 1 1 1
bin xor v2i16 c 1 1 1 1
bin xor v2i16 p 1 1 1 1
bin xor v2i16 n 1 1 1 1
bin xor v2i16 k 1 1 1 1
bin xor v2i16 kp 1 1 1 1
vicmp eq v2i16 1 1 1 1
vicmp ne v2i16 2 2 2 2
vicmp ugt v2i16 3 3 3 3
vicmp uge v2i16 2 2 2 2
vicmp ult v2i16 3 3 3 3
vicmp ule v2i16 2 2 2 2
vicmp sgt v2i16 1 1 1 1
vicmp sge v2i16 2 2 2 2
vicmp slt v2i16 1 1 1 1
vicmp sle v2i16 2 2 2 2
vicmpz eq v2i16 1 1 1 1
vicmpz ne v2i16 1 1 1 1
vicmpz ugt v2i16 2 2 2 2
vicmpz uge v2i16 2 2 2 2
vicmpz ult v2i16 2 2 2 2
vicmpz ule v2i16 2 2 2 2
vicmpz sgt v2i16 1 1 1 1
vicmpz sge v2i16 1 1 1 1
vicmpz slt v2i16 1 1 1 1
vicmpz sle v2i16 1 1 1 1
vicmpc eq v2i16 1 1 1 1
vicmpc ne v2i16 1 1 1 1
vicmpc ugt v2i16 2 2 2 2
vicmpc uge v2i16 2 2 2 2
vicmpc ult v2i16 2 2 2 2
vicmpc ule v2i16 2 2 2 2
vicmpc sgt v2i16 1 1 1 1
vicmpc sge v2i16 1 1 1 1
vicmpc slt v2i16 1 1 1 1
vicmpc sle v2i16 1 1 1 1
vselect eq v2i16 2 2 3 3
vselect ne v2i16 2 2 3 3
vselect ugt v2i16 2 2 3 3
vselect uge v2i16 2 2 3 3
vselect ult v2i16 2 2 3 3
vselect ule v2i16 2 2 3 3
vselect sgt v2i16 2 2 3 3
vselect sge v2i16 2 2 3 3
vselect slt v2i16 2 2 3 3
vselect sle v2i16 2 2 3 3
select v2i16 2 2 3 3
load v2i16 1 4 1 1
store v2i16 1 1 1 1
extractelement v2i16 0 1 1 1 1
insertelement v2i16 0 1 1 1 1
extractelement v2i16 1 1 1 1 1
insertelement v2i16 1 1 1 1 1
extractelement v2i16 x 2 2 2 2
insertelement v2i16 x 3 3 3 3
bin add v4i16 v 1 1 1 1
bin add v4i16 c 1 1 1 1
bin add v4i16 p 1 1 1 1
bin add v4i16 n 1 1 1 1
bin add v4i16 k 1 1 1 1
bin add v4i16 kp 1 1 1 1
bin sub v4i16 v 1 1 1 1
bin sub v4i16 c 1 1 1 1
bin sub v4i16 p 1 1 1 1
bin sub v4i16 n 1 1 1 1
bin sub v4i16 k 1 1 1 1
bin sub v4i16 kp 1 1 1 1
bin mul v4i16 v 1 5 1 1
bin mul v4i16 c 1 5 1 1
bin mul v4i16 p 1 1 1 1
bin mul v4i16 n 2 2 2 2
bin mul v4i16 k 1 5 1 1
bin mul v4i16 kp 1 5 1 1
bin udiv v4i16 v 160 4 4 4
bin udiv v4i16 c 6 4 4 4
bin udiv v4i16 p 1 1 1 1
bin udiv v4i16 n 6 4 4 4
bin udiv v4i16 k 6 4 4 4
bin udiv v4i16 kp 16 19 31 31
bin sdiv v4i16 v 160 4 4 4
bin sdiv v4i16 c 6 4 4 4
bin sdiv v4i16 p 4 4 4 4
bin sdiv v4i16 n 6 4 4 4
bin sdiv v4i16 k 6 4 4 4
bin sdiv v4i16 kp 49 58 94 94
bin urem v4i16 v 640 4 4 4
bin urem v4i16 c 8 4 4 4
bin urem v4i16 p 1 1 1 1
bin urem v4i16 n 8 4 4 4
bin urem v4i16 k 8 4 4 4
bin urem v4i16 kp 1 1 1 1
bin srem v4i16 v 640 4 4 4
bin srem v4i16 c 8 4 4 4
bin srem v4i16 p 6 10 6 6
bin srem v4i16 n 8 4 4 4
bin srem v4i16 k 8 4 4 4
bin srem v4i16 kp 51 64 96 96
bin shl v4i16 v 24 27 16 20
bin shl v4i16 c 1 1 1 1
bin shl v4i16 p 1 1 1 1
bin shl v4i16 n 1 1 1 1
bin shl v4i16 k 1 5 1 1
bin shl v4i16 kp 1 5 1 1
bin lshr v4i16 v 16 19 31 31
bin lshr v4i16 c 1 1 1 1
bin lshr v4i16 p 1 1 1 1
bin lshr v4i16 n 1 1 1 1
bin lshr v4i16 k 16 19 31 31
bin lshr v4i16 kp 16 19 31 31
bin ashr v4i16 v 16 19 31 31
bin ashr v4i16 c 1 1 1 1
bin ashr v4i16 p 1 1 1 1
bin ashr v4i16 n 1 1 1 1
bin ashr v4i16 k 16 19 31 31
bin ashr v4i16 kp 16 19 31 31
bin and v4i16 v 1 1 1 1
bin and v4i16 c 1 1 1 1
bin and v4i16 p 1 1 1 1
bin and v4i16 n 1 1 1 1
bin and v4i16 k 1 1 1 1
bin and v4i16 kp 1 1 1 1
bin or v4i16 v 1 1 1 1
bin or v4i16 c 1 1 1 1
bin or v4i16 p 1 1 1 1
bin or v4i16 n 1 1 1 1
bin or v4i16 k 1 1 1 1
bin or v4i16 kp 1 1 1 1
bin xor v4i16 v 1 1 1 1
bin xor v4i16 c 1 1 1 1
bin xor v4i16 p 1 1 1 1
bin xor v4i16 n 1 1 1 1
bin xor v4i16 k 1 1 1 1
bin xor v4i16 kp 1 1 1 1
vicmp eq v4i16 1 1 1 1
vicmp ne v4i16 2 2 2 2
vicmp ugt v4i16 3 3 3 3
vicmp uge v4i16 2 2 2 2
vicmp ult v4i16 3 3 3 3
vicmp ule v4i16 2 2 2 2
vicmp sgt v4i16 1 1 1 1
vicmp sge v4i16 2 2 2 2
vicmp slt v4i16 1 1 1 1
vicmp sle v4i16 2 2 2 2
vicmpz eq v4i16 1 1 1 1
vicmpz ne v4i16 1 1 1 1
vicmpz ugt v4i16 2 2 2 2
vicmpz uge v4i16 2 2 2 2
vicmpz ult v4i16 2 2 2 2
vicmpz ule v4i16 2 2 2 2
vicmpz sgt v4i16 1 1 1 1
vicmpz sge v4i16 1 1 1 1
vicmpz slt v4i16 1 1 1 1
vicmpz sle v4i16 1 1 1 1
vicmpc eq v4i16 1 1 1 1
vicmpc ne v4i16 1 1 1 1
vicmpc ugt v4i16 2 2 2 2
vicmpc uge v4i16 2 2 2 2
vicmpc ult v4i16 2 2 2 2
vicmpc ule v4i16 2 2 2 2
vicmpc sgt v4i16 1 1 1 1
vicmpc sge v4i16 1 1 1 1
vicmpc slt v4i16 1 1 1 1
vicmpc sle v4i16 1 1 1 1
vselect eq v4i16 2 2 3 3
vselect ne v4i16 2 2 3 3
vselect ugt v4i16 2 2 3 3
vselect uge v4i16 2 2 3 3
vselect ult v4i16 2 2 3 3
vselect ule v4i16 2 2 3 3
vselect sgt v4i16 2 2 3 3
vselect sge v4i16 2 2 3 3
vselect slt v4i16 2 2 3 3
vselect sle v4i16 2 2 3 3
select v4i16 2 2 3 3
load v4i16 1 4 1 1
store v4i16 1 1 1 1
extractelement v4i16 0 1 1 1 1
insertelement v4i16 0 1 1 1 1
extractelement v4i16 1 1 1 1 1
insertelement v4i16 1 1 1 1 1
extractelement v4i16 2 1 1 1 1
insertelement v4i16 2 1 1 1 1
extractelement v4i16 3 1 1 1 1
insertelement v4i16 3 1 1 1 1
extractelement v4i16 x 2 2 2 2
insertelement v4i16 x 3 3 3 3
bin add v2i32 v 1 1 1 1
bin add v2i32 c 1 1 1 1
bin add v2i32 p 1 1 1 1
bin add v2i32 n 1 1 1 1
bin add v2i32 k 1 1 1 1
bin add v2i32 kp 1 1 1 1
bin sub v2i32 v 1 1 1 1
bin sub v2i32 c 1 1 1 1
bin sub v2i32 p 1 1 1 1
bin sub v2i32 n 1 1 1 1
bin sub v2i32 k 1 1 1 1
bin sub v2i32 kp 1 1 1 1
bin mul v2i32 v 6 8 7 7
bin mul v2i32 c 6 8 7 7
bin mul v2i32 p 1 1 1 1
bin mul v2i32 n 2 2 2 2
bin mul v2i32 k 6 8 7 7
bin mul v2i32 kp 6 8 7 7
bin udiv v2i32 v 80 4 4 4
bin udiv v2i32 c 5 4 4 4
bin udiv v2i32 p 1 1 1 1
bin udiv v2i32 n 5 4 4 4
bin udiv v2i32 k 15 4 4 4
bin udiv v2i32 kp 12 12 15 19
bin sdiv v2i32 v 80 4 4 4
bin sdiv v2i32 c 6 4 4 4
bin sdiv v2i32 p 4 4 4 4
bin sdiv v2i32 n 6 4 4 4
bin sdiv v2i32 k 19 4 4 4
bin sdiv v2i32 kp 37 37 46 58
bin urem v2i32 v 240 4 4 4
bin urem v2i32 c 7 4 4 4
bin urem v2i32 p 1 1 1 1
bin urem v2i32 n 7 4 4 4
bin urem v2i32 k 20 4 4 4
bin urem v2i32 kp 1 1 1 1
bin srem v2i32 v 240 4 4 4
bin srem v2i32 c 8 4 4 4
bin srem v2i32 p 11 13 12 12
bin srem v2i32 n 8 4 4 4
bin srem v2i32 k 24 4 4 4
bin srem v2i32 kp 44 46 54 66
bin shl v2i32 v 17 19 10 12
bin shl v2i32 c 1 1 1 1
bin shl v2i32 p 1 1 1 1
bin shl v2i32 n 1 1 1 1
bin shl v2i32 k 6 8 7 7
bin shl v2i32 kp 6 8 7 7
bin lshr v2i32 v 12 12 15 19
bin lshr v2i32 c 1 1 1 1
bin lshr v2i32 p 1 1 1 1
bin lshr v2i32 n 1 1 1 1
bin lshr v2i32 k 12 12 15 19
bin lshr v2i32 kp 12 12 15 19
bin ashr v2i32 v 12 12 15 19
bin ashr v2i32 c 1 1 1 1
bin ashr v2i32 p 1 1 1 1
bin ashr v2i32 n 1 1 1 1
bin ashr v2i32 k 12 12 15 19
bin ashr v2i32 kp 12 12 15 19
bin and v2i32 v 1 1 1 1
bin and v2i32 c 1 1 1 1
bin and v2i32 p 1 1 1 1
bin and v2i32 n 1 1 1 1
bin and v2i32 k 1 1 1 1
bin and v2i32 kp 1 1 1 1
bin or v2i32 v 1 1 1 1
bin or v2i32 c 1 1 1 1
bin or v2i32 p 1 1 1 1
bin or v2i32 n 1 1 1 1
bin or v2i32 k 1 1 1 1
bin or v2i32 kp 1 1 1 1
bin xor v2i32 v 1 1 1 1
bin xor v2i32 c 1 1 1 1
bin xor v2i32 p 1 1 1 1
bin xor v2i32 n 1 1 1 1
bin xor v2i32 k 1 1 1 1
bin xor v2i32 kp 1 1 1 1
vicmp eq v2i32 1 1 1 1
vicmp ne v2i32 2 2 2 2
vicmp ugt v2i32 3 3 3 3
vicmp uge v2i32 4 4 4 4
vicmp ult v2i32 3 3 3 3
vicmp ule v2i32 4 4 4 4
vicmp sgt v2i32 1 1 1 1
vicmp sge v2i32 2 2 2 2
vicmp slt v2i32 1 1 1 1
vicmp sle v2i32 2 2 2 2
vicmpz eq v2i32 1 1 1 1
vicmpz ne v2i32 1 1 1 1
vicmpz ugt v2i32 2 2 2 2
vicmpz uge v2i32 3 3 3 3
vicmpz ult v2i32 2 2 2 2
vicmpz ule v2i32 3 3 3 3
vicmpz sgt v2i32 1 1 1 1
vicmpz sge v2i32 1 1 1 1
vicmpz slt v2i32 1 1 1 1
vicmpz sle v2i32 1 1 1 1
vicmpc eq v2i32 1 1 1 1
vicmpc ne v2i32 1 1 1 1
vicmpc ugt v2i32 2 2 2 2
vicmpc uge v2i32 3 3 3 3
vicmpc ult v2i32 2 2 2 2
vicmpc ule v2i32 3 3 3 3
vicmpc sgt v2i32 1 1 1 1
vicmpc sge v2i32 1 1 1 1
vicmpc slt v2i32 1 1 1 1
vicmpc sle v2i32 1 1 1 1
vselect eq v2i32 2 2 3 3
vselect ne v2i32 2 2 3 3
vselect ugt v2i32 2 2 3 3
vselect uge v2i32 2 2 3 3
vselect ult v2i32 2 2 3 3
vselect ule v2i32 2 2 3 3
vselect sgt v2i32 2 2 3 3
vselect sge v2i32 2 2 3 3
vselect slt v2i32 2 2 3 3
vselect sle v2i32 2 2 3 3
select v2i32 2 2 3 3
load v2i32 1 4 1 1
store v2i32 1 1 1 1
extractelement v2i32 0 1 1 1 1
insertelement v2i32 0 3 3 3 3
extractelement v2i32 1 2 2 2 2
insertelement v2i32 1 3 3 3 3
extractelement v2i32 x 2 2 2 2
insertelement v2i32 x 3 3 3 3
bin add v32i8 v 2 1 1 1
bin add v32i8 c 2 1 1 1
bin add v32i8 p 2 1 1 1
bin add v32i8 n 2 1 1 1
bin add v32i8 k 2 1 1 1
bin add v32i8 kp 2 1 1 1
bin sub v32i8 v 2 1 1 1
bin sub v32i8 c 2 1 1 1
bin sub v32i8 p 2 1 1 1
bin sub v32i8 n 2 1 1 1
bin sub v32i8 k 2 1 1 1
bin sub v32i8 kp 2 1 1 1
bin mul v32i8 v 12 36 24 24
bin mul v32i8 c 12 36 24 24
bin mul v32i8 p 2 14 4 6
bin mul v32i8 n 4 15 5 7
bin mul v32i8 k 12 36 24 24
bin mul v32i8 kp 26 42 52 56
bin udiv v32i8 v 640 4 4 4
bin udiv v32i8 c 28 4 4 4
bin udiv v32i8 p 2 14 4 6
bin udiv v32i8 n 28 4 4 4
bin udiv v32i8 k 28 4 4 4
bin udiv v32i8 kp 28 56 54 60
bin sdiv v32i8 v 640 4 4 4
bin sdiv v32i8 c 28 4 4 4
bin sdiv v32i8 p 16 51 25 31
bin sdiv v32i8 n 28 4 4 4
bin sdiv v32i8 k 28 4 4 4
bin sdiv v32i8 kp 138 177 271 277
bin urem v32i8 v 3200 4 4 4
bin urem v32i8 c 32 4 4 4
bin urem v32i8 p 2 2 2 2
bin urem v32i8 n 32 4 4 4
bin urem v32i8 k 32 4 4 4
bin urem v32i8 kp 2 2 2 2
bin srem v32i8 v 3200 4 4 4
bin srem v32i8 c 32 4 4 4
bin srem v32i8 p 30 88 50 56
bin srem v32i8 n 32 4 4 4
bin srem v32i8 k 32 4 4 4
bin srem v32i8 kp 152 214 296 302
bin shl v32i8 v 26 42 52 56
bin shl v32i8 c 2 14 4 6
bin shl v32i8 p 2 14 4 6
bin shl v32i8 n 2 14 4 6
bin shl v32i8 k 26 42 52 56
bin shl v32i8 kp 26 42 52 56
bin lshr v32i8 v 28 56 54 60
bin lshr v32i8 c 2 14 4 6
bin lshr v32i8 p 2 14 4 6
bin lshr v32i8 n 2 14 4 6
bin lshr v32i8 k 28 56 54 60
bin lshr v32i8 kp 28 56 54 60
bin ashr v32i8 v 54 60 108 108
bin ashr v32i8 c 6 18 10 12
bin ashr v32i8 p 6 18 10 12
bin ashr v32i8 n 6 18 10 12
bin ashr v32i8 k 54 60 108 108
bin ashr v32i8 kp 54 60 108 108
bin and v32i8 v 2 2 2 2
bin and v32i8 c 2 2 2 2
bin and v32i8 p 2 2 2 2
bin and v32i8 n 2 2 2 2
bin and v32i8 k 2 2 2 2
bin and v32i8 kp 2 2 2 2
bin or v32i8 v 2 2 2 2
bin or v32i8 c 2 2 2 2
bin or v32i8 p 2 2 2 2
bin or v32i8 n 2 2 2 2
bin or v32i8 k 2 2 2 2
bin or v32i8 kp 2 2 2 2
bin xor v32i8 v 2 2 2 2
bin xor v32i8 c 2 2 2 2
bin xor v32i8 p 2 2 2 2
bin xor v32i8 n 2 2 2 2
bin xor v32i8 k 2 2 2 2
bin xor v32i8 kp 2 2 2 2
vicmp eq v32i8 2 2 2 2
vicmp ne v32i8 4 4 4 4
vicmp ugt v32i8 6 6 6 6
vicmp uge v32i8 4 4 4 4
vicmp ult v32i8 6 6 6 6
vicmp ule v32i8 4 4 4 4
vicmp sgt v32i8 2 2 2 2
vicmp sge v32i8 4 4 4 4
vicmp slt v32i8 2 2 2 2
vicmp sle v32i8 4 4 4 4
vicmpz eq v32i8 2 2 2 2
vicmpz ne v32i8 2 2 2 2
vicmpz ugt v32i8 4 4 4 4
vicmpz uge v32i8 4 4 4 4
vicmpz ult v32i8 4 4 4 4
vicmpz ule v32i8 4 4 4 4
vicmpz sgt v32i8 2 2 2 2
vicmpz sge v32i8 2 2 2 2
vicmpz slt v32i8 2 2 2 2
vicmpz sle v32i8 2 2 2 2
vicmpc eq v32i8 2 2 2 2
vicmpc ne v32i8 2 2 2 2
vicmpc ugt v32i8 4 4 4 4
vicmpc uge v32i8 4 4 4 4
vicmpc ult v32i8 4 4 4 4
vicmpc ule v32i8 4 4 4 4
vicmpc sgt v32i8 2 2 2 2
vicmpc sge v32i8 2 2 2 2
vicmpc slt v32i8 2 2 2 2
vicmpc sle v32i8 2 2 2 2
vselect eq v32i8 4 4 6 6
vselect ne v32i8 4 4 6 6
vselect ugt v32i8 4 4 6 6
vselect uge v32i8 4 4 6 6
vselect ult v32i8 4 4 6 6
vselect ule v32i8 4 4 6 6
vselect sgt v32i8 4 4 6 6
vselect sge v32i8 4 4 6 6
vselect slt v32i8 4 4 6 6
vselect sle v32i8 4 4 6 6
select v32i8 4 4 6 6
load v32i8 2 4 1 1
store v32i8 2 1 1 1
extractelement v32i8 0 1 1 1 1
insertelement v32i8 0 14 14 14 14
extractelement v32i8 1 2 2 2 2
insertelement v32i8 1 14 14 14 14
extractelement v32i8 2 2 2 2 2
insertelement v32i8 2 14 14 14 14
extractelement v32i8 3 2 2 2 2
insertelement v32i8 3 14 14 14 14
extractelement v32i8 4 2 2 2 2
insertelement v32i8 4 14 14 14 14
extractelement v32i8 5 2 2 2 2
insertelement v32i8 5 14 14 14 14
extractelement v32i8 6 2 2 2 2
insertelement v32i8 6 14 14 14 14
extractelement v32i8 7 2 2 2 2
insertelement v32i8 7 14 14 14 14
extractelement v32i8 8 2 2 2 2
insertelement v32i8 8 14 14 14 14
extractelement v32i8 9 2 2 2 2
insertelement v32i8 9 14 14 14 14
extractelement v32i8 10 2 2 2 2
insertelement v32i8 10 14 14 14 14
extractelement v32i8 11 2 2 2 2
insertelement v32i8 11 14 14 14 14
extractelement v32i8 12 2 2 2 2
insertelement v32i8 12 14 14 14 14
extractelement v32i8 13 2 2 2 2
insertelement v32i8 13 14 14 14 14
extractelement v32i8 14 2 2 2 2
insertelement v32i8 14 14 14 14 14
extractelement v32i8 15 2 2 2 2
insertelement v32i8 15 14 14 14 14
extractelement v32i8 16 1 1 1 1
insertelement v32i8 16 14 14 14 14
extractelement v32i8 17 2 2 2 2
insertelement v32i8 17 14 14 14 14
extractelement v32i8 18 2 2 2 2
insertelement v32i8 18 14 14 14 14
extractelement v32i8 19 2 2 2 2
insertelement v32i8 19 14 14 14 14
extractelement v32i8 20 2 2 2 2
insertelement v32i8 20 14 14 14 14
extractelement v32i8 21 2 2 2 2
insertelement v32i8 21 14 14 14 14
extractelement v32i8 22 2 2 2 2
insertelement v32i8 22 14 14 14 14
extractelement v32i8 23 2 2 2 2
insertelement v32i8 23 14 14 14 14
extractelement v32i8 24 2 2 2 2
insertelement v32i8 24 14 14 14 14
extractelement v32i8 25 2 2 2 2
insertelement v32i8 25 14 14 14 14
extractelement v32i8 26 2 2 2 2
insertelement v32i8 26 14 14 14 14
extractelement v32i8 27 2 2 2 2
insertelement v32i8 27 14 14 14 14
extractelement v32i8 28 2 2 2 2
insertelement v32i8 28 14 14 14 14
extractelement v32i8 29 2 2 2 2
insertelement v32i8 29 14 14 14 14
extractelement v32i8 30 2 2 2 2
insertelement v32i8 30 14 14 14 14
extractelement v32i8 31 2 2 2 2
insertelement v32i8 31 14 14 14 14
extractelement v32i8 x 3 2 2 2
insertelement v32i8 x 5 3 3 3
bin add v16i16 v 2 1 1 1
bin add v16i16 c 2 1 1 1
bin add v16i16 p 2 1 1 1
bin add v16i16 n 2 1 1 1
bin add v16i16 k 2 1 1 1
bin add v16i16 kp 2 1 1 1
bin sub v16i16 v 2 1 1 1
bin sub v16i16 c 2 1 1 1
bin sub v16i16 p 2 1 1 1
bin sub v16i16 n 2 1 1 1
bin sub v16i16 k 2 1 1 1
bin sub v16i16 kp 2 1 1 1
bin mul v16i16 v 2 10 2 2
bin mul v16i16 c 2 10 2 2
bin mul v16i16 p 2 2 2 2
bin mul v16i16 n 4 3 3 3
bin mul v16i16 k 2 10 2 2
bin mul v16i16 kp 2 10 2 2
bin udiv v16i16 v 320 4 4 4
bin udiv v16i16 c 12 4 4 4
bin udiv v16i16 p 2 2 2 2
bin udiv v16i16 n 12 4 4 4
bin udiv v16i16 k 12 4 4 4
bin udiv v16i16 kp 32 38 62 62
bin sdiv v16i16 v 320 4 4 4
bin sdiv v16i16 c 12 4 4 4
bin sdiv v16i16 p 8 7 7 7
bin sdiv v16i16 n 12 4 4 4
bin sdiv v16i16 k 12 4 4 4
bin sdiv v16i16 kp 98 115 187 187
bin urem v16i16 v 1280 4 4 4
bin urem v16i16 c 16 4 4 4
bin urem v16i16 p 2 2 2 2
bin urem v16i16 n 16 4 4 4
bin urem v16i16 k 16 4 4 4
bin urem v16i16 kp 2 2 2 2
bin srem v16i16 v 1280 4 4 4
bin srem v16i16 c 16 4 4 4
bin srem v16i16 p 12 18 10 10
bin srem v16i16 n 16 4 4 4
bin srem v16i16 k 16 4 4 4
bin srem v16i16 kp 102 126 190 190
bin shl v16i16 v 48 54 32 40
bin shl v16i16 c 2 2 2 2
bin shl v16i16 p 2 2 2 2
bin shl v16i16 n 2 2 2 2
bin shl v16i16 k 2 10 2 2
bin shl v16i16 kp 2 10 2 2
bin lshr v16i16 v 32 38 62 62
bin lshr v16i16 c 2 2 2 2
bin lshr v16i16 p 2 2 2 2
bin lshr v16i16 n 2 2 2 2
bin lshr v16i16 k 32 38 62 62
bin lshr v16i16 kp 32 38 62 62
bin ashr v16i16 v 32 38 62 62
bin ashr v16i16 c 2 2 2 2
bin ashr v16i16 p 2 2 2 2
bin ashr v16i16 n 2 2 2 2
bin ashr v16i16 k 32 38 62 62
bin ashr v16i16 kp 32 38 62 62
bin and v16i16 v 2 2 2 2
bin and v16i16 c 2 2 2 2
bin and v16i16 p 2 2 2 2
bin and v16i16 n 2 2 2 2
bin and v16i16 k 2 2 2 2
bin and v16i16 kp 2 2 2 2
bin or v16i16 v 2 2 2 2
bin or v16i16 c 2 2 2 2
bin or v16i16 p 2 2 2 2
bin or v16i16 n 2 2 2 2
bin or v16i16 k 2 2 2 2
bin or v16i16 kp 2 2 2 2
bin xor v16i16 v 2 2 2 2
bin xor v16i16 c 2 2 2 2
bin xor v16i16 p 2 2 2 2
bin xor v16i16 n 2 2 2 2
bin xor v16i16 k 2 2 2 2
bin xor v16i16 kp 2 2 2 2
vicmp eq v16i16 2 2 2 2
vicmp ne v16i16 4 4 4 4
vicmp ugt v16i16 6 6 6 6
vicmp uge v16i16 4 4 4 4
vicmp ult v16i16 6 6 6 6
vicmp ule v16i16 4 4 4 4
vicmp sgt v16i16 2 2 2 2
vicmp sge v16i16 4 4 4 4
vicmp slt v16i16 2 2 2 2
vicmp sle v16i16 4 4 4 4
vicmpz eq v16i16 2 2 2 2
vicmpz ne v16i16 2 2 2 2
vicmpz ugt v16i16 4 4 4 4
vicmpz uge v16i16 4 4 4 4
vicmpz ult v16i16 4 4 4 4
vicmpz ule v16i16 4 4 4 4
vicmpz sgt v16i16 2 2 2 2
vicmpz sge v16i16 2 2 2 2
vicmpz slt v16i16 2 2 2 2
vicmpz sle v16i16 2 2 2 2
vicmpc eq v16i16 2 2 2 2
vicmpc ne v16i16 2 2 2 2
vicmpc ugt v16i16 4 4 4 4
vicmpc uge v16i16 4 4 4 4
vicmpc ult v16i16 4 4 4 4
vicmpc ule v16i16 4 4 4 4
vicmpc sgt v16i16 2 2 2 2
vicmpc sge v16i16 2 2 2 2
vicmpc slt v16i16 2 2 2 2
vicmpc sle v16i16 2 2 2 2
vselect eq v16i16 4 4 6 6
vselect ne v16i16 4 4 6 6
vselect ugt v16i16 4 4 6 6
vselect uge v16i16 4 4 6 6
vselect ult v16i16 4 4 6 6
vselect ule v16i16 4 4 6 6
vselect sgt v16i16 4 4 6 6
vselect sge v16i16 4 4 6 6
vselect slt v16i16 4 4 6 6
vselect sle v16i16 4 4 6 6
select v16i16 4 4 6 6
load v16i16 2 4 1 1
store v16i16 2 1 1 1
extractelement v16i16 0 1 1 1 1
insertelement v16i16 0 1 1 1 1
extractelement v16i16 1 1 1 1 1
insertelement v16i16 1 1 1 1 1
extractelement v16i16 2 1 1 1 1
insertelement v16i16 2 1 1 1 1
extractelement v16i16 3 1 1 1 1
insertelement v16i16 3 1 1 1 1
extractelement v16i16 4 1 1 1 1
insertelement v16i16 4 1 1 1 1
extractelement v16i16 5 1 1 1 1
insertelement v16i16 5 1 1 1 1
extractelement v16i16 6 1 1 1 1
insertelement v16i16 6 1 1 1 1
extractelement v16i16 7 1 1 1 1
insertelement v16i16 7 1 1 1 1
extractelement v16i16 8 1 1 1 1
insertelement v16i16 8 1 1 1 1
extractelement v16i16 9 1 1 1 1
insertelement v16i16 9 1 1 1 1
extractelement v16i16 10 1 1 1 1
insertelement v16i16 10 1 1 1 1
extractelement v16i16 11 1 1 1 1
insertelement v16i16 11 1 1 1 1
extractelement v16i16 12 1 1 1 1
insertelement v16i16 12 1 1 1 1
extractelement v16i16 13 1 1 1 1
insertelement v16i16 13 1 1 1 1
extractelement v16i16 14 1 1 1 1
insertelement v16i16 14 1 1 1 1
extractelement v16i16 15 1 1 1 1
insertelement v16i16 15 1 1 1 1
extractelement v16i16 x 3 2 2 2
insertelement v16i16 x 5 3 3 3
bin add v8i32 v 2 1 1 1
bin add v8i32 c 2 1 1 1
bin add v8i32 p 2 1 1 1
bin add v8i32 n 2 1 1 1
bin add v8i32 k 2 1 1 1
bin add v8i32 kp 2 1 1 1
bin sub v8i32 v 2 1 1 1
bin sub v8i32 c 2 1 1 1
bin sub v8i32 p 2 1 1 1
bin sub v8i32 n 2 1 1 1
bin sub v8i32 k 2 1 1 1
bin sub v8i32 kp 2 1 1 1
bin mul v8i32 v 12 16 14 14
bin mul v8i32 c 12 16 14 14
bin mul v8i32 p 2 2 2 2
bin mul v8i32 n 4 3 3 3
bin mul v8i32 k 12 16 14 14
bin mul v8i32 kp 12 16 14 14
bin udiv v8i32 v 160 4 4 4
bin udiv v8i32 c 10 4 4 4
bin udiv v8i32 p 2 2 2 2
bin udiv v8i32 n 10 4 4 4
bin udiv v8i32 k 30 4 4 4
bin udiv v8i32 kp 24 24 30 38
bin sdiv v8i32 v 160 4 4 4
bin sdiv v8i32 c 12 4 4 4
bin sdiv v8i32 p 8 7 7 7
bin sdiv v8i32 n 12 4 4 4
bin sdiv v8i32 k 38 4 4 4
bin sdiv v8i32 kp 74 73 91 115
bin urem v8i32 v 480 4 4 4
bin urem v8i32 c 14 4 4 4
bin urem v8i32 p 2 2 2 2
bin urem v8i32 n 14 4 4 4
bin urem v8i32 k 40 4 4 4
bin urem v8i32 kp 2 2 2 2
bin srem v8i32 v 480 4 4 4
bin srem v8i32 c 16 4 4 4
bin srem v8i32 p 22 24 22 22
bin srem v8i32 n 16 4 4 4
bin srem v8i32 k 48 4 4 4
bin srem v8i32 kp 88 90 106 130
bin shl v8i32 v 34 38 20 24
bin shl v8i32 c 2 2 2 2
bin shl v8i32 p 2 2 2 2
bin shl v8i32 n 2 2 2 2
bin shl v8i32 k 12 16 14 14
bin shl v8i32 kp 12 16 14 14
bin lshr v8i32 v 24 24 30 38
bin lshr v8i32 c 2 2 2 2
bin lshr v8i32 p 2 2 2 2
bin lshr v8i32 n 2 2 2 2
bin lshr v8i32 k 24 24 30 38
bin lshr v8i32 kp 24 24 30 38
bin ashr v8i32 v 24 24 30 38
bin ashr v8i32 c 2 2 2 2
bin ashr v8i32 p 2 2 2 2
bin ashr v8i32 n 2 2 2 2
bin ashr v8i32 k 24 24 30 38
bin ashr v8i32 kp 24 24 30 38
bin and v8i32 v 2 2 2 2
bin and v8i32 c 2 2 2 2
bin and v8i32 p 2 2 2 2
bin and v8i32 n 2 2 2 2
bin and v8i32 k 2 2 2 2
bin and v8i32 kp 2 2 2 2
bin or v8i32 v 2 2 2 2
bin or v8i32 c 2 2 2 2
bin or v8i32 p 2 2 2 2
bin or v8i32 n 2 2 2 2
bin or v8i32 k 2 2 2 2
bin or v8i32 kp 2 2 2 2
bin xor v8i32 v 2 2 2 2
bin xor v8i32 c 2 2 2 2
bin xor v8i32 p 2 2 2 2
bin xor v8i32 n 2 2 2 2
bin xor v8i32 k 2 2 2 2
bin xor v8i32 kp 2 2 2 2
vicmp eq v8i32 2 2 2 2
vicmp ne v8i32 4 4 4 4
vicmp ugt v8i32 6 6 6 6
vicmp uge v8i32 8 8 8 8
vicmp ult v8i32 6 6 6 6
vicmp ule v8i32 8 8 8 8
vicmp sgt v8i32 2 2 2 2
vicmp sge v8i32 4 4 4 4
vicmp slt v8i32 2 2 2 2
vicmp sle v8i32 4 4 4 4
vicmpz eq v8i32 2 2 2 2
vicmpz ne v8i32 2 2 2 2
vicmpz ugt v8i32 4 4 4 4
vicmpz uge v8i32 6 6 6 6
vicmpz ult v8i32 4 4 4 4
vicmpz ule v8i32 6 6 6 6
vicmpz sgt v8i32 2 2 2 2
vicmpz sge v8i32 2 2 2 2
vicmpz slt v8i32 2 2 2 2
vicmpz sle v8i32 2 2 2 2
vicmpc eq v8i32 2 2 2 2
vicmpc ne v8i32 2 2 2 2
vicmpc ugt v8i32 4 4 4 4
vicmpc uge v8i32 6 6 6 6
vicmpc ult v8i32 4 4 4 4
vicmpc ule v8i32 6 6 6 6
vicmpc sgt v8i32 2 2 2 2
vicmpc sge v8i32 2 2 2 2
vicmpc slt v8i32 2 2 2 2
vicmpc sle v8i32 2 2 2 2
vselect eq v8i32 4 4 6 6
vselect ne v8i32 4 4 6 6
vselect ugt v8i32 4 4 6 6
vselect uge v8i32 4 4 6 6
vselect ult v8i32 4 4 6 6
vselect ule v8i32 4 4 6 6
vselect sgt v8i32 4 4 6 6
vselect sge v8i32 4 4 6 6
vselect slt v8i32 4 4 6 6
vselect sle v8i32 4 4 6 6
select v8i32 4 4 6 6
load v8i32 2 4 1 1
store v8i32 2 1 1 1
extractelement v8i32 0 1 1 1 1
insertelement v8i32 0 3 3 3 3
extractelement v8i32 1 2 2 2 2
insertelement v8i32 1 3 3 3 3
extractelement v8i32 2 2 2 2 2
insertelement v8i32 2 3 3 3 3
extractelement v8i32 3 2 2 2 2
insertelement v8i32 3 3 3 3 3
extractelement v8i32 4 1 1 1 1
insertelement v8i32 4 3 3 3 3
extractelement v8i32 5 2 2 2 2
insertelement v8i32 5 3 3 3 3
extractelement v8i32 6 2 2 2 2
insertelement v8i32 6 3 3 3 3
extractelement v8i32 7 2 2 2 2
insertelement v8i32 7 3 3 3 3
extractelement v8i32 x 3 2 2 2
insertelement v8i32 x 5 3 3 3
bin add v4i64 v 2 4 2 4
bin add v4i64 c 2 4 2 4
bin add v4i64 p 2 4 2 4
bin add v4i64 n 2 4 2 4
bin add v4i64 k 2 4 2 4
bin add v4i64 kp 2 4 2 4
bin sub v4i64 v 2 4 2 4
bin sub v4i64 c 2 4 2 4
bin sub v4i64 p 2 4 2 4
bin sub v4i64 n 2 4 2 4
bin sub v4i64 k 2 4 2 4
bin sub v4i64 kp 2 4 2 4
bin mul v4i64 v 14 20 20 20
bin mul v4i64 c 14 20 20 20
bin mul v4i64 p 2 2 2 2
bin mul v4i64 n 4 6 4 6
bin mul v4i64 k 14 20 20 20
bin mul v4i64 kp 8 12 10 14
bin udiv v4i64 v 80 4 4 4
bin udiv v4i64 c 80 4 4 4
bin udiv v4i64 p 2 2 2 2
bin udiv v4i64 n 80 4 4 4
bin udiv v4i64 k 80 4 4 4
bin udiv v4i64 kp 8 12 10 14
bin sdiv v4i64 v 80 4 4 4
bin sdiv v4i64 c 80 4 4 4
bin sdiv v4i64 p 16 26 28 30
bin sdiv v4i64 n 80 4 4 4
bin sdiv v4i64 k 80 4 4 4
bin sdiv v4i64 kp 42 60 60 82
bin urem v4i64 v 320 4 4 4
bin urem v4i64 c 320 4 4 4
bin urem v4i64 p 2 2 2 2
bin urem v4i64 n 320 4 4 4
bin urem v4i64 k 320 4 4 4
bin urem v4i64 kp 2 2 2 2
bin srem v4i64 v 320 4 4 4
bin srem v4i64 c 320 4 4 4
bin srem v4i64 p 32 50 50 54
bin srem v4i64 n 320 4 4 4
bin srem v4i64 k 320 4 4 4
bin srem v4i64 kp 58 84 82 106
bin shl v4i64 v 8 12 10 14
bin shl v4i64 c 2 2 2 2
bin shl v4i64 p 2 2 2 2
bin shl v4i64 n 2 2 2 2
bin shl v4i64 k 8 12 10 14
bin shl v4i64 kp 8 12 10 14
bin lshr v4i64 v 8 12 10 14
bin lshr v4i64 c 2 2 2 2
bin lshr v4i64 p 2 2 2 2
bin lshr v4i64 n 2 2 2 2
bin lshr v4i64 k 8 12 10 14
bin lshr v4i64 kp 8 12 10 14
bin ashr v4i64 v 16 22 24 32
bin ashr v4i64 c 6 10 12 12
bin ashr v4i64 p 6 10 12 12
bin ashr v4i64 n 6 10 12 12
bin ashr v4i64 k 16 22 24 32
bin ashr v4i64 kp 16 22 24 32
bin and v4i64 v 2 2 2 2
bin and v4i64 c 2 2 2 2
bin and v4i64 p 2 2 2 2
bin and v4i64 n 2 2 2 2
bin and v4i64 k 2 2 2 2
bin and v4i64 kp 2 2 2 2
bin or v4i64 v 2 2 2 2
bin or v4i64 c 2 2 2 2
bin or v4i64 p 2 2 2 2
bin or v4i64 n 2 2 2 2
bin or v4i64 k 2 2 2 2
bin or v4i64 kp 2 2 2 2
bin xor v4i64 v 2 2 2 2
bin xor v4i64 c 2 2 2 2
bin xor v4i64 p 2 2 2 2
bin xor v4i64 n 2 2 2 2
bin xor v4i64 k 2 2 2 2
bin xor v4i64 kp 2 2 2 2
vicmp eq v4i64 10 8 10 10
vicmp ne v4i64 12 10 12 12
vicmp ugt v4i64 14 12 14 14
vicmp uge v4i64 16 14 16 16
vicmp ult v4i64 14 12 14 14
vicmp ule v4i64 16 14 16 16
vicmp sgt v4i64 10 8 10 10
vicmp sge v4i64 12 10 12 12
vicmp slt v4i64 10 8 10 10
vicmp sle v4i64 12 10 12 12
vicmpz eq v4i64 10 8 10 10
vicmpz ne v4i64 10 8 10 10
vicmpz ugt v4i64 12 10 12 12
vicmpz uge v4i64 14 12 14 14
vicmpz ult v4i64 12 10 12 12
vicmpz ule v4i64 14 12 14 14
vicmpz sgt v4i64 10 8 10 10
vicmpz sge v4i64 10 8 10 10
vicmpz slt v4i64 10 8 10 10
vicmpz sle v4i64 10 8 10 10
vicmpc eq v4i64 10 8 10 10
vicmpc ne v4i64 10 8 10 10
vicmpc ugt v4i64 12 10 12 12
vicmpc uge v4i64 14 12 14 14
vicmpc ult v4i64 12 10 12 12
vicmpc ule v4i64 14 12 14 14
vicmpc sgt v4i64 10 8 10 10
vicmpc sge v4i64 10 8 10 10
vicmpc slt v4i64 10 8 10 10
vicmpc sle v4i64 10 8 10 10
vselect eq v4i64 4 4 6 6
vselect ne v4i64 4 4 6 6
vselect ugt v4i64 4 4 6 6
vselect uge v4i64 4 4 6 6
vselect ult v4i64 4 4 6 6
vselect ule v4i64 4 4 6 6
vselect sgt v4i64 4 4 6 6
vselect sge v4i64 4 4 6 6
vselect slt v4i64 4 4 6 6
vselect sle v4i64 4 4 6 6
select v4i64 4 4 6 6
load v4i64 2 4 1 1
store v4i64 2 1 1 1
extractelement v4i64 0 1 1 1 1
insertelement v4i64 0 2 2 2 2
extractelement v4i64 1 2 2 2 2
insertelement v4i64 1 2 2 2 2
extractelement v4i64 2 1 1 1 1
insertelement v4i64 2 2 2 2 2
extractelement v4i64 3 2 2 2 2
insertelement v4i64 3 2 2 2 2
extractelement v4i64 x 3 2 2 2
insertelement v4i64 x 5 3 3 3
bin fadd v8f32 v 4 6 2 2
bin fsub v8f32 v 4 6 2 2
bin fmul v8f32 v 4 10 2 2
bin fdiv v8f32 v 78 78 2 2
bin frem v8f32 v 34 4 4 4
fneg v8f32 2 2 2 2
fcmp false v8f32 4 10 2 2
fcmp oeq v8f32 4 10 2 2
fcmp ogt v8f32 4 10 2 2
fcmp oge v8f32 4 10 2 2
fcmp olt v8f32 4 10 2 2
fcmp ole v8f32 4 10 2 2
fcmp one v8f32 9 21 5 5
fcmp ord v8f32 4 10 2 2
fcmp ueq v8f32 9 21 5 5
fcmp ugt v8f32 4 10 2 2
fcmp uge v8f32 4 10 2 2
fcmp ult v8f32 4 10 2 2
fcmp ule v8f32 4 10 2 2
fcmp une v8f32 4 10 2 2
fcmp uno v8f32 4 10 2 2
fcmp true v8f32 4 10 2 2
vselect false v8f32 4 4 6 6
vselect oeq v8f32 4 4 6 6
vselect ogt v8f32 4 4 6 6
vselect oge v8f32 4 4 6 6
vselect olt v8f32 4 4 6 6
vselect ole v8f32 4 4 6 6
vselect one v8f32 4 4 6 6
vselect ord v8f32 4 4 6 6
vselect ueq v8f32 4 4 6 6
vselect ugt v8f32 4 4 6 6
vselect uge v8f32 4 4 6 6
vselect ult v8f32 4 4 6 6
vselect ule v8f32 4 4 6 6
vselect une v8f32 4 4 6 6
vselect uno v8f32 4 4 6 6
vselect true v8f32 4 4 6 6
select v8f32 4 4 6 6
load v8f32 2 4 1 1
store v8f32 2 1 1 1
extractelement v8f32 0 0 0 0 0
insertelement v8f32 0 2 2 2 2
extractelement v8f32 1 1 1 1 1
insertelement v8f32 1 2 2 2 2
extractelement v8f32 2 1 1 1 1
insertelement v8f32 2 2 2 2 2
extractelement v8f32 3 1 1 1 1
insertelement v8f32 3 2 2 2 2
extractelement v8f32 4 0 0 0 0
insertelement v8f32 4 2 2 2 2
extractelement v8f32 5 1 1 1 1
insertelement v8f32 5 2 2 2 2
extractelement v8f32 6 1 1 1 1
insertelement v8f32 6 2 2 2 2
extractelement v8f32 7 1 1 1 1
insertelement v8f32 7 2 2 2 2
extractelement v8f32 x 3 2 2 2
insertelement v8f32 x 5 3 3 3
bin fadd v4f64 v 4 6 2 2
bin fsub v4f64 v 4 6 2 2
bin fmul v4f64 v 4 10 2 2
bin fdiv v4f64 v 138 138 2 2
bin frem v4f64 v 14 4 4 4
fneg v4f64 2 2 2 2
fcmp false v4f64 4 10 2 2
fcmp oeq v4f64 4 10 2 2
fcmp ogt v4f64 4 10 2 2
fcmp oge v4f64 4 10 2 2
fcmp olt v4f64 4 10 2 2
fcmp ole v4f64 4 10 2 2
fcmp one v4f64 9 21 5 5
fcmp ord v4f64 4 10 2 2
fcmp ueq v4f64 9 21 5 5
fcmp ugt v4f64 4 10 2 2
fcmp uge v4f64 4 10 2 2
fcmp ult v4f64 4 10 2 2
fcmp ule v4f64 4 10 2 2
fcmp une v4f64 4 10 2 2
fcmp uno v4f64 4 10 2 2
fcmp true v4f64 4 10 2 2
vselect false v4f64 4 4 6 6
vselect oeq v4f64 4 4 6 6
vselect ogt v4f64 4 4 6 6
vselect oge v4f64 4 4 6 6
vselect olt v4f64 4 4 6 6
vselect ole v4f64 4 4 6 6
vselect one v4f64 4 4 6 6
vselect ord v4f64 4 4 6 6
vselect ueq v4f64 4 4 6 6
vselect ugt v4f64 4 4 6 6
vselect uge v4f64 4 4 6 6
vselect ult v4f64 4 4 6 6
vselect ule v4f64 4 4 6 6
vselect une v4f64 4 4 6 6
vselect uno v4f64 4 4 6 6
vselect true v4f64 4 4 6 6
select v4f64 4 4 6 6
load v4f64 2 4 1 1
store v4f64 2 1 1 1
extractelement v4f64 0 0 0 0 0
insertelement v4f64 0 1 1 1 1
extractelement v4f64 1 1 1 1 1
insertelement v4f64 1 1 1 1 1
extractelement v4f64 2 0 0 0 0
insertelement v4f64 2 1 1 1 1
extractelement v4f64 3 1 1 1 1
insertelement v4f64 3 1 1 1 1
extractelement v4f64 x 3 2 2 2
insertelement v4f64 x 5 3 3 3
bin fadd v2f32 v 2 3 1 1
bin fsub v2f32 v 2 3 1 1
bin fmul v2f32 v 2 5 1 1
bin fdiv v2f32 v 39 39 1 1
bin frem v2f32 v 7 4 4 4
fneg v2f32 1 1 1 1
fcmp false v2f32 2 5 1 1
fcmp oeq v2f32 2 5 1 1
fcmp ogt v2f32 2 5 1 1
fcmp oge v2f32 2 5 1 1
fcmp olt v2f32 2 5 1 1
fcmp ole v2f32 2 5 1 1
fcmp one v2f32 5 11 3 3
fcmp ord v2f32 2 5 1 1
fcmp ueq v2f32 5 11 3 3
fcmp ugt v2f32 2 5 1 1
fcmp uge v2f32 2 5 1 1
fcmp ult v2f32 2 5 1 1
fcmp ule v2f32 2 5 1 1
fcmp une v2f32 2 5 1 1
fcmp uno v2f32 2 5 1 1
fcmp true v2f32 2 5 1 1
vselect false v2f32 2 2 3 3
vselect oeq v2f32 2 2 3 3
vselect ogt v2f32 2 2 3 3
vselect oge v2f32 2 2 3 3
vselect olt v2f32 2 2 3 3
vselect ole v2f32 2 2 3 3
vselect one v2f32 2 2 3 3
vselect ord v2f32 2 2 3 3
vselect ueq v2f32 2 2 3 3
vselect ugt v2f32 2 2 3 3
vselect uge v2f32 2 2 3 3
vselect ult v2f32 2 2 3 3
vselect ule v2f32 2 2 3 3
vselect une v2f32 2 2 3 3
vselect uno v2f32 2 2 3 3
vselect true v2f32 2 2 3 3
select v2f32 2 2 3 3
load v2f32 1 4 1 1
store v2f32 1 1 1 1
extractelement v2f32 0 0 0 0 0
insertelement v2f32 0 2 2 2 2
extractelement v2f32 1 1 1 1 1
insertelement v2f32 1 2 2 2 2
extractelement v2f32 x 2 2 2 2
insertelement v2f32 x 3 3 3 3
bin add v64i8 v 4 1 1 1
bin add v64i8 c 4 1 1 1
bin add v64i8 p 4 1 1 1
bin add v64i8 n 4 1 1 1
bin add v64i8 k 4 1 1 1
bin add v64i8 kp 4 1 1 1
bin sub v64i8 v 4 1 1 1
bin sub v64i8 c 4 1 1 1
bin sub v64i8 p 4 1 1 1
bin sub v64i8 n 4 1 1 1
bin sub v64i8 k 4 1 1 1
bin sub v64i8 kp 4 1 1 1
bin mul v64i8 v 24 72 48 48
bin mul v64i8 c 24 72 48 48
bin mul v64i8 p 4 28 8 12
bin mul v64i8 n 8 29 9 13
bin mul v64i8 k 24 72 48 48
bin mul v64i8 kp 52 84 104 112
bin udiv v64i8 v 1280 4 4 4
bin udiv v64i8 c 56 4 4 4
bin udiv v64i8 p 4 28 8 12
bin udiv v64i8 n 56 4 4 4
bin udiv v64i8 k 56 4 4 4
bin udiv v64i8 kp 56 112 108 120
bin sdiv v64i8 v 1280 4 4 4
bin sdiv v64i8 c 56 4 4 4
bin sdiv v64i8 p 32 101 49 61
bin sdiv v64i8 n 56 4 4 4
bin sdiv v64i8 k 56 4 4 4
bin sdiv v64i8 kp 276 353 541 553
bin urem v64i8 v 6400 4 4 4
bin urem v64i8 c 64 4 4 4
bin urem v64i8 p 4 4 4 4
bin urem v64i8 n 64 4 4 4
bin urem v64i8 k 64 4 4 4
bin urem v64i8 kp 4 4 4 4
bin srem v64i8 v 6400 4 4 4
bin srem v64i8 c 64 4 4 4
bin srem v64i8 p 60 174 98 110
bin srem v64i8 n 64 4 4 4
bin srem v64i8 k 64 4 4 4
bin srem v64i8 kp 304 426 590 602
bin shl v64i8 v 52 84 104 112
bin shl v64i8 c 4 28 8 12
bin shl v64i8 p 4 28 8 12
bin shl v64i8 n 4 28 8 12
bin shl v64i8 k 52 84 104 112
bin shl v64i8 kp 52 84 104 112
bin lshr v64i8 v 56 112 108 120
bin lshr v64i8 c 4 28 8 12
bin lshr v64i8 p 4 28 8 12
bin lshr v64i8 n 4 28 8 12
bin lshr v64i8 k 56 112 108 120
bin lshr v64i8 kp 56 112 108 120
bin ashr v64i8 v 108 120 216 216
bin ashr v64i8 c 12 36 20 24
bin ashr v64i8 p 12 36 20 24
bin ashr v64i8 n 12 36 20 24
bin ashr v64i8 k 108 120 216 216
bin ashr v64i8 kp 108 120 216 216
bin and v64i8 v 4 4 4 4
bin and v64i8 c 4 4 4 4
bin and v64i8 p 4 4 4 4
bin and v64i8 n 4 4 4 4
bin and v64i8 k 4 4 4 4
bin and v64i8 kp 4 4 4 4
bin or v64i8 v 4 4 4 4
bin or v64i8 c 4 4 4 4
bin or v64i8 p 4 4 4 4
bin or v64i8 n 4 4 4 4
bin or v64i8 k 4 4 4 4
bin or v64i8 kp 4 4 4 4
bin xor v64i8 v 4 4 4 4
bin xor v64i8 c 4 4 4 4
bin xor v64i8 p 4 4 4 4
bin xor v64i8 n 4 4 4 4
bin xor v64i8 k 4 4 4 4
bin xor v64i8 kp 4 4 4 4
vicmp eq v64i8 4 4 4 4
vicmp ne v64i8 8 8 8 8
vicmp ugt v64i8 12 12 12 12
vicmp uge v64i8 8 8 8 8
vicmp ult v64i8 12 12 12 12
vicmp ule v64i8 8 8 8 8
vicmp sgt v64i8 4 4 4 4
vicmp sge v64i8 8 8 8 8
vicmp slt v64i8 4 4 4 4
vicmp sle v64i8 8 8 8 8
vicmpz eq v64i8 4 4 4 4
vicmpz ne v64i8 4 4 4 4
vicmpz ugt v64i8 8 8 8 8
vicmpz uge v64i8 8 8 8 8
vicmpz ult v64i8 8 8 8 8
vicmpz ule v64i8 8 8 8 8
vicmpz sgt v64i8 4 4 4 4
vicmpz sge v64i8 4 4 4 4
vicmpz slt v64i8 4 4 4 4
vicmpz sle v64i8 4 4 4 4
vicmpc eq v64i8 4 4 4 4
vicmpc ne v64i8 4 4 4 4
vicmpc ugt v64i8 8 8 8 8
vicmpc uge v64i8 8 8 8 8
vicmpc ult v64i8 8 8 8 8
vicmpc ule v64i8 8 8 8 8
vicmpc sgt v64i8 4 4 4 4
vicmpc sge v64i8 4 4 4 4
vicmpc slt v64i8 4 4 4 4
vicmpc sle v64i8 4 4 4 4
vselect eq v64i8 8 8 12 12
vselect ne v64i8 8 8 12 12
vselect ugt v64i8 8 8 12 12
vselect uge v64i8 8 8 12 12
vselect ult v64i8 8 8 12 12
vselect ule v64i8 8 8 12 12
vselect sgt v64i8 8 8 12 12
vselect sge v64i8 8 8 12 12
vselect slt v64i8 8 8 12 12
vselect sle v64i8 8 8 12 12
select v64i8 8 8 12 12
load v64i8 4 4 1 1
store v64i8 4 1 1 1
extractelement v64i8 0 1 1 1 1
insertelement v64i8 0 14 14 14 14
extractelement v64i8 1 2 2 2 2
insertelement v64i8 1 14 14 14 14
extractelement v64i8 2 2 2 2 2
insertelement v64i8 2 14 14 14 14
extractelement v64i8 3 2 2 2 2
insertelement v64i8 3 14 14 14 14
extractelement v64i8 4 2 2 2 2
insertelement v64i8 4 14 14 14 14
extractelement v64i8 5 2 2 2 2
insertelement v64i8 5 14 14 14 14
extractelement v64i8 6 2 2 2 2
insertelement v64i8 6 14 14 14 14
extractelement v64i8 7 2 2 2 2
insertelement v64i8 7 14 14 14 14
extractelement v64i8 8 2 2 2 2
insertelement v64i8 8 14 14 14 14
extractelement v64i8 9 2 2 2 2
insertelement v64i8 9 14 14 14 14
extractelement v64i8 10 2 2 2 2
insertelement v64i8 10 14 14 14 14
extractelement v64i8 11 2 2 2 2
insertelement v64i8 11 14 14 14 14
extractelement v64i8 12 2 2 2 2
insertelement v64i8 12 14 14 14 14
extractelement v64i8 13 2 2 2 2
insertelement v64i8 13 14 14 14 14
extractelement v64i8 14 2 2 2 2
insertelement v64i8 14 14 14 14 14
extractelement v64i8 15 2 2 2 2
insertelement v64i8 15 14 14 14 14
extractelement v64i8 16 1 1 1 1
insertelement v64i8 16 14 14 14 14
extractelement v64i8 17 2 2 2 2
insertelement v64i8 17 14 14 14 14
extractelement v64i8 18 2 2 2 2
insertelement v64i8 18 14 14 14 14
extractelement v64i8 19 2 2 2 2
insertelement v64i8 19 14 14 14 14
extractelement v64i8 20 2 2 2 2
insertelement v64i8 20 14 14 14 14
extractelement v64i8 21 2 2 2 2
insertelement v64i8 21 14 14 14 14
extractelement v64i8 22 2 2 2 2
insertelement v64i8 22 14 14 14 14
extractelement v64i8 23 2 2 2 2
insertelement v64i8 23 14 14 14 14
extractelement v64i8 24 2 2 2 2
insertelement v64i8 24 14 14 14 14
extractelement v64i8 25 2 2 2 2
insertelement v64i8 25 14 14 14 14
extractelement v64i8 26 2 2 2 2
insertelement v64i8 26 14 14 14 14
extractelement v64i8 27 2 2 2 2
insertelement v64i8 27 14 14 14 14
extractelement v64i8 28 2 2 2 2
insertelement v64i8 28 14 14 14 14
extractelement v64i8 29 2 2 2 2
insertelement v64i8 29 14 14 14 14
extractelement v64i8 30 2 2 2 2
insertelement v64i8 30 14 14 14 14
extractelement v64i8 31 2 2 2 2
insertelement v64i8 31 14 14 14 14
extractelement v64i8 32 1 1 1 1
insertelement v64i8 32 14 14 14 14
extractelement v64i8 33 2 2 2 2
insertelement v64i8 33 14 14 14 14
extractelement v64i8 34 2 2 2 2
insertelement v64i8 34 14 14 14 14
extractelement v64i8 35 2 2 2 2
insertelement v64i8 35 14 14 14 14
extractelement v64i8 36 2 2 2 2
insertelement v64i8 36 14 14 14 14
extractelement v64i8 37 2 2 2 2
insertelement v64i8 37 14 14 14 14
extractelement v64i8 38 2 2 2 2
insertelement v64i8 38 14 14 14 14
extractelement v64i8 39 2 2 2 2
insertelement v64i8 39 14 14 14 14
extractelement v64i8 40 2 2 2 2
insertelement v64i8 40 14 14 14 14
extractelement v64i8 41 2 2 2 2
insertelement v64i8 41 14 14 14 14
extractelement v64i8 42 2 2 2 2
insertelement v64i8 42 14 14 14 14
extractelement v64i8 43 2 2 2 2
insertelement v64i8 43 14 14 14 14
extractelement v64i8 44 2 2 2 2
insertelement v64i8 44 14 14 14 14
extractelement v64i8 45 2 2 2 2
insertelement v64i8 45 14 14 14 14
extractelement v64i8 46 2 2 2 2
insertelement v64i8 46 14 14 14 14
extractelement v64i8 47 2 2 2 2
insertelement v64i8 47 14 14 14 14
extractelement v64i8 48 1 1 1 1
insertelement v64i8 48 14 14 14 14
extractelement v64i8 49 2 2 2 2
insertelement v64i8 49 14 14 14 14
extractelement v64i8 50 2 2 2 2
insertelement v64i8 50 14 14 14 14
extractelement v64i8 51 2 2 2 2
insertelement v64i8 51 14 14 14 14
extractelement v64i8 52 2 2 2 2
insertelement v64i8 52 14 14 14 14
extractelement v64i8 53 2 2 2 2
insertelement v64i8 53 14 14 14 14
extractelement v64i8 54 2 2 2 2
insertelement v64i8 54 14 14 14 14
extractelement v64i8 55 2 2 2 2
insertelement v64i8 55 14 14 14 14
extractelement v64i8 56 2 2 2 2
insertelement v64i8 56 14 14 14 14
extractelement v64i8 57 2 2 2 2
insertelement v64i8 57 14 14 14 14
extractelement v64i8 58 2 2 2 2
insertelement v64i8 58 14 14 14 14
extractelement v64i8 59 2 2 2 2
insertelement v64i8 59 14 14 14 14
extractelement v64i8 60 2 2 2 2
insertelement v64i8 60 14 14 14 14
extractelement v64i8 61 2 2 2 2
insertelement v64i8 61 14 14 14 14
extractelement v64i8 62 2 2 2 2
insertelement v64i8 62 14 14 14 14
extractelement v64i8 63 2 2 2 2
insertelement v64i8 63 14 14 14 14
extractelement v64i8 x 5 2 2 2
insertelement v64i8 x 9 3 3 3
bin add v32i16 v 4 1 1 1
bin add v32i16 c 4 1 1 1
bin add v32i16 p 4 1 1 1
bin add v32i16 n 4 1 1 1
bin add v32i16 k 4 1 1 1
bin add v32i16 kp 4 1 1 1
bin sub v32i16 v 4 1 1 1
bin sub v32i16 c 4 1 1 1
bin sub v32i16 p 4 1 1 1
bin sub v32i16 n 4 1 1 1
bin sub v32i16 k 4 1 1 1
bin sub v32i16 kp 4 1 1 1
bin mul v32i16 v 4 20 4 4
bin mul v32i16 c 4 20 4 4
bin mul v32i16 p 4 4 4 4
bin mul v32i16 n 8 5 5 5
bin mul v32i16 k 4 20 4 4
bin mul v32i16 kp 4 20 4 4
bin udiv v32i16 v 640 4 4 4
bin udiv v32i16 c 24 4 4 4
bin udiv v32i16 p 4 4 4 4
bin udiv v32i16 n 24 4 4 4
bin udiv v32i16 k 24 4 4 4
bin udiv v32i16 kp 64 76 124 124
bin sdiv v32i16 v 640 4 4 4
bin sdiv v32i16 c 24 4 4 4
bin sdiv v32i16 p 16 13 13 13
bin sdiv v32i16 n 24 4 4 4
bin sdiv v32i16 k 24 4 4 4
bin sdiv v32i16 kp 196 229 373 373
bin urem v32i16 v 2560 4 4 4
bin urem v32i16 c 32 4 4 4
bin urem v32i16 p 4 4 4 4
bin urem v32i16 n 32 4 4 4
bin urem v32i16 k 32 4 4 4
bin urem v32i16 kp 4 4 4 4
bin srem v32i16 v 2560 4 4 4
bin srem v32i16 c 32 4 4 4
bin srem v32i16 p 24 34 18 18
bin srem v32i16 n 32 4 4 4
bin srem v32i16 k 32 4 4 4
bin srem v32i16 kp 204 250 378 378
bin shl v32i16 v 96 108 64 80
bin shl v32i16 c 4 4 4 4
bin shl v32i16 p 4 4 4 4
bin shl v32i16 n 4 4 4 4
bin shl v32i16 k 4 20 4 4
bin shl v32i16 kp 4 20 4 4
bin lshr v32i16 v 64 76 124 124
bin lshr v32i16 c 4 4 4 4
bin lshr v32i16 p 4 4 4 4
bin lshr v32i16 n 4 4 4 4
bin lshr v32i16 k 64 76 124 124
bin lshr v32i16 kp 64 76 124 124
bin ashr v32i16 v 64 76 124 124
bin ashr v32i16 c 4 4 4 4
bin ashr v32i16 p 4 4 4 4
bin ashr v32i16 n 4 4 4 4
bin ashr v32i16 k 64 76 124 124
bin ashr v32i16 kp 64 76 124 124
bin and v32i16 v 4 4 4 4
bin and v32i16 c 4 4 4 4
bin and v32i16 p 4 4 4 4
bin and v32i16 n 4 4 4 4
bin and v32i16 k 4 4 4 4
bin and v32i16 kp 4 4 4 4
bin or v32i16 v 4 4 4 4
bin or v32i16 c 4 4 4 4
bin or v32i16 p 4 4 4 4
bin or v32i16 n 4 4 4 4
bin or v32i16 k 4 4 4 4
bin or v32i16 kp 4 4 4 4
bin xor v32i16 v 4 4 4 4
bin xor v32i16 c 4 4 4 4
bin xor v32i16 p 4 4 4 4
bin xor v32i16 n 4 4 4 4
bin xor v32i16 k 4 4 4 4
bin xor v32i16 kp 4 4 4 4
vicmp eq v32i16 4 4 4 4
vicmp ne v32i16 8 8 8 8
vicmp ugt v32i16 12 12 12 12
vicmp uge v32i16 8 8 8 8
vicmp ult v32i16 12 12 12 12
vicmp ule v32i16 8 8 8 8
vicmp sgt v32i16 4 4 4 4
vicmp sge v32i16 8 8 8 8
vicmp slt v32i16 4 4 4 4
vicmp sle v32i16 8 8 8 8
vicmpz eq v32i16 4 4 4 4
vicmpz ne v32i16 4 4 4 4
vicmpz ugt v32i16 8 8 8 8
vicmpz uge v32i16 8 8 8 8
vicmpz ult v32i16 8 8 8 8
vicmpz ule v32i16 8 8 8 8
vicmpz sgt v32i16 4 4 4 4
vicmpz sge v32i16 4 4 4 4
vicmpz slt v32i16 4 4 4 4
vicmpz sle v32i16 4 4 4 4
vicmpc eq v32i16 4 4 4 4
vicmpc ne v32i16 4 4 4 4
vicmpc ugt v32i16 8 8 8 8
vicmpc uge v32i16 8 8 8 8
vicmpc ult v32i16 8 8 8 8
vicmpc ule v32i16 8 8 8 8
vicmpc sgt v32i16 4 4 4 4
vicmpc sge v32i16 4 4 4 4
vicmpc slt v32i16 4 4 4 4
vicmpc sle v32i16 4 4 4 4
vselect eq v32i16 8 8 12 12
vselect ne v32i16 8 8 12 12
vselect ugt v32i16 8 8 12 12
vselect uge v32i16 8 8 12 12
vselect ult v32i16 8 8 12 12
vselect ule v32i16 8 8 12 12
vselect sgt v32i16 8 8 12 12
vselect sge v32i16 8 8 12 12
vselect slt v32i16 8 8 12 12
vselect sle v32i16 8 8 12 12
select v32i16 8 8 12 12
load v32i16 4 4 1 1
store v32i16 4 1 1 1
extractelement v32i16 0 1 1 1 1
insertelement v32i16 0 1 1 1 1
extractelement v32i16 1 1 1 1 1
insertelement v32i16 1 1 1 1 1
extractelement v32i16 2 1 1 1 1
insertelement v32i16 2 1 1 1 1
extractelement v32i16 3 1 1 1 1
insertelement v32i16 3 1 1 1 1
extractelement v32i16 4 1 1 1 1
insertelement v32i16 4 1 1 1 1
extractelement v32i16 5 1 1 1 1
insertelement v32i16 5 1 1 1 1
extractelement v32i16 6 1 1 1 1
insertelement v32i16 6 1 1 1 1
extractelement v32i16 7 1 1 1 1
insertelement v32i16 7 1 1 1 1
extractelement v32i16 8 1 1 1 1
insertelement v32i16 8 1 1 1 1
extractelement v32i16 9 1 1 1 1
insertelement v32i16 9 1 1 1 1
extractelement v32i16 10 1 1 1 1
insertelement v32i16 10 1 1 1 1
extractelement v32i16 11 1 1 1 1
insertelement v32i16 11 1 1 1 1
extractelement v32i16 12 1 1 1 1
insertelement v32i16 12 1 1 1 1
extractelement v32i16 13 1 1 1 1
insertelement v32i16 13 1 1 1 1
extractelement v32i16 14 1 1 1 1
insertelement v32i16 14 1 1 1 1
extractelement v32i16 15 1 1 1 1
insertelement v32i16 15 1 1 1 1
extractelement v32i16 16 1 1 1 1
insertelement v32i16 16 1 1 1 1
extractelement v32i16 17 1 1 1 1
insertelement v32i16 17 1 1 1 1
extractelement v32i16 18 1 1 1 1
insertelement v32i16 18 1 1 1 1
extractelement v32i16 19 1 1 1 1
insertelement v32i16 19 1 1 1 1
extractelement v32i16 20 1 1 1 1
insertelement v32i16 20 1 1 1 1
extractelement v32i16 21 1 1 1 1
insertelement v32i16 21 1 1 1 1
extractelement v32i16 22 1 1 1 1
insertelement v32i16 22 1 1 1 1
extractelement v32i16 23 1 1 1 1
insertelement v32i16 23 1 1 1 1
extractelement v32i16 24 1 1 1 1
insertelement v32i16 24 1 1 1 1
extractelement v32i16 25 1 1 1 1
insertelement v32i16 25 1 1 1 1
extractelement v32i16 26 1 1 1 1
insertelement v32i16 26 1 1 1 1
extractelement v32i16 27 1 1 1 1
insertelement v32i16 27 1 1 1 1
extractelement v32i16 28 1 1 1 1
insertelement v32i16 28 1 1 1 1
extractelement v32i16 29 1 1 1 1
insertelement v32i16 29 1 1 1 1
extractelement v32i16 30 1 1 1 1
insertelement v32i16 30 1 1 1 1
extractelement v32i16 31 1 1 1 1
insertelement v32i16 31 1 1 1 1
extractelement v32i16 x 5 2 2 2
insertelement v32i16 x 9 3 3 3
bin add v16i32 v 4 1 1 1
bin add v16i32 c 4 1 1 1
bin add v16i32 p 4 1 1 1
bin add v16i32 n 4 1 1 1
bin add v16i32 k 4 1 1 1
bin add v16i32 kp 4 1 1 1
bin sub v16i32 v 4 1 1 1
bin sub v16i32 c 4 1 1 1
bin sub v16i32 p 4 1 1 1
bin sub v16i32 n 4 1 1 1
bin sub v16i32 k 4 1 1 1
bin sub v16i32 kp 4 1 1 1
bin mul v16i32 v 24 32 28 28
bin mul v16i32 c 24 32 28 28
bin mul v16i32 p 4 4 4 4
bin mul v16i32 n 8 5 5 5
bin mul v16i32 k 24 32 28 28
bin mul v16i32 kp 24 32 28 28
bin udiv v16i32 v 320 4 4 4
bin udiv v16i32 c 20 4 4 4
bin udiv v16i32 p 4 4 4 4
bin udiv v16i32 n 20 4 4 4
bin udiv v16i32 k 60 4 4 4
bin udiv v16i32 kp 48 48 60 76
bin sdiv v16i32 v 320 4 4 4
bin sdiv v16i32 c 24 4 4 4
bin sdiv v16i32 p 16 13 13 13
bin sdiv v16i32 n 24 4 4 4
bin sdiv v16i32 k 76 4 4 4
bin sdiv v16i32 kp 148 145 181 229
bin urem v16i32 v 960 4 4 4
bin urem v16i32 c 28 4 4 4
bin urem v16i32 p 4 4 4 4
bin urem v16i32 n 28 4 4 4
bin urem v16i32 k 80 4 4 4
bin urem v16i32 kp 4 4 4 4
bin srem v16i32 v 960 4 4 4
bin srem v16i32 c 32 4 4 4
bin srem v16i32 p 44 46 42 42
bin srem v16i32 n 32 4 4 4
bin srem v16i32 k 96 4 4 4
bin srem v16i32 kp 176 178 210 258
bin shl v16i32 v 68 76 40 48
bin shl v16i32 c 4 4 4 4
bin shl v16i32 p 4 4 4 4
bin shl v16i32 n 4 4 4 4
bin shl v16i32 k 24 32 28 28
bin shl v16i32 kp 24 32 28 28
bin lshr v16i32 v 48 48 60 76
bin lshr v16i32 c 4 4 4 4
bin lshr v16i32 p 4 4 4 4
bin lshr v16i32 n 4 4 4 4
bin lshr v16i32 k 48 48 60 76
bin lshr v16i32 kp 48 48 60 76
bin ashr v16i32 v 48 48 60 76
bin ashr v16i32 c 4 4 4 4
bin ashr v16i32 p 4 4 4 4
bin ashr v16i32 n 4 4 4 4
bin ashr v16i32 k 48 48 60 76
bin ashr v16i32 kp 48 48 60 76
bin and v16i32 v 4 4 4 4
bin and v16i32 c 4 4 4 4
bin and v16i32 p 4 4 4 4
bin and v16i32 n 4 4 4 4
bin and v16i32 k 4 4 4 4
bin and v16i32 kp 4 4 4 4
bin or v16i32 v 4 4 4 4
bin or v16i32 c 4 4 4 4
bin or v16i32 p 4 4 4 4
bin or v16i32 n 4 4 4 4
bin or v16i32 k 4 4 4 4
bin or v16i32 kp 4 4 4 4
bin xor v16i32 v 4 4 4 4
bin xor v16i32 c 4 4 4 4
bin xor v16i32 p 4 4 4 4
bin xor v16i32 n 4 4 4 4
bin xor v16i32 k 4 4 4 4
bin xor v16i32 kp 4 4 4 4
vicmp eq v16i32 4 4 4 4
vicmp ne v16i32 8 8 8 8
vicmp ugt v16i32 12 12 12 12
vicmp uge v16i32 16 16 16 16
vicmp ult v16i32 12 12 12 12
vicmp ule v16i32 16 16 16 16
vicmp sgt v16i32 4 4 4 4
vicmp sge v16i32 8 8 8 8
vicmp slt v16i32 4 4 4 4
vicmp sle v16i32 8 8 8 8
vicmpz eq v16i32 4 4 4 4
vicmpz ne v16i32 4 4 4 4
vicmpz ugt v16i32 8 8 8 8
vicmpz uge v16i32 12 12 12 12
vicmpz ult v16i32 8 8 8 8
vicmpz ule v16i32 12 12 12 12
vicmpz sgt v16i32 4 4 4 4
vicmpz sge v16i32 4 4 4 4
vicmpz slt v16i32 4 4 4 4
vicmpz sle v16i32 4 4 4 4
vicmpc eq v16i32 4 4 4 4
vicmpc ne v16i32 4 4 4 4
vicmpc ugt v16i32 8 8 8 8
vicmpc uge v16i32 12 12 12 12
vicmpc ult v16i32 8 8 8 8
vicmpc ule v16i32 12 12 12 12
vicmpc sgt v16i32 4 4 4 4
vicmpc sge v16i32 4 4 4 4
vicmpc slt v16i32 4 4 4 4
vicmpc sle v16i32 4 4 4 4
vselect eq v16i32 8 8 12 12
vselect ne v16i32 8 8 12 12
vselect ugt v16i32 8 8 12 12
vselect uge v16i32 8 8 12 12
vselect ult v16i32 8 8 12 12
vselect ule v16i32 8 8 12 12
vselect sgt v16i32 8 8 12 12
vselect sge v16i32 8 8 12 12
vselect slt v16i32 8 8 12 12
vselect sle v16i32 8 8 12 12
select v16i32 8 8 12 12
load v16i32 4 4 1 1
store v16i32 4 1 1 1
extractelement v16i32 0 1 1 1 1
insertelement v16i32 0 3 3 3 3
extractelement v16i32 1 2 2 2 2
insertelement v16i32 1 3 3 3 3
extractelement v16i32 2 2 2 2 2
insertelement v16i32 2 3 3 3 3
extractelement v16i32 3 2 2 2 2
insertelement v16i32 3 3 3 3 3
extractelement v16i32 4 1 1 1 1
insertelement v16i32 4 3 3 3 3
extractelement v16i32 5 2 2 2 2
insertelement v16i32 5 3 3 3 3
extractelement v16i32 6 2 2 2 2
insertelement v16i32 6 3 3 3 3
extractelement v16i32 7 2 2 2 2
insertelement v16i32 7 3 3 3 3
extractelement v16i32 8 1 1 1 1
insertelement v16i32 8 3 3 3 3
extractelement v16i32 9 2 2 2 2
insertelement v16i32 9 3 3 3 3
extractelement v16i32 10 2 2 2 2
insertelement v16i32 10 3 3 3 3
extractelement v16i32 11 2 2 2 2
insertelement v16i32 11 3 3 3 3
extractelement v16i32 12 1 1 1 1
insertelement v16i32 12 3 3 3 3
extractelement v16i32 13 2 2 2 2
insertelement v16i32 13 3 3 3 3
extractelement v16i32 14 2 2 2 2
insertelement v16i32 14 3 3 3 3
extractelement v16i32 15 2 2 2 2
insertelement v16i32 15 3 3 3 3
extractelement v16i32 x 5 2 2 2
insertelement v16i32 x 9 3 3 3
bin add v8i64 v 4 8 4 8
bin add v8i64 c 4 8 4 8
bin add v8i64 p 4 8 4 8
bin add v8i64 n 4 8 4 8
bin add v8i64 k 4 8 4 8
bin add v8i64 kp 4 8 4 8
bin sub v8i64 v 4 8 4 8
bin sub v8i64 c 4 8 4 8
bin sub v8i64 p 4 8 4 8
bin sub v8i64 n 4 8 4 8
bin sub v8i64 k 4 8 4 8
bin sub v8i64 kp 4 8 4 8
bin mul v8i64 v 28 40 40 40
bin mul v8i64 c 28 40 40 40
bin mul v8i64 p 4 4 4 4
bin mul v8i64 n 8 12 8 12
bin mul v8i64 k 28 40 40 40
bin mul v8i64 kp 16 24 20 28
bin udiv v8i64 v 160 4 4 4
bin udiv v8i64 c 160 4 4 4
bin udiv v8i64 p 4 4 4 4
bin udiv v8i64 n 160 4 4 4
bin udiv v8i64 k 160 4 4 4
bin udiv v8i64 kp 16 24 20 28
bin sdiv v8i64 v 160 4 4 4
bin sdiv v8i64 c 160 4 4 4
bin sdiv v8i64 p 32 52 56 60
bin sdiv v8i64 n 160 4 4 4
bin sdiv v8i64 k 160 4 4 4
bin sdiv v8i64 kp 84 120 120 164
bin urem v8i64 v 640 4 4 4
bin urem v8i64 c 640 4 4 4
bin urem v8i64 p 4 4 4 4
bin urem v8i64 n 640 4 4 4
bin urem v8i64 k 640 4 4 4
bin urem v8i64 kp 4 4 4 4
bin srem v8i64 v 640 4 4 4
bin srem v8i64 c 640 4 4 4
bin srem v8i64 p 64 100 100 108
bin srem v8i64 n 640 4 4 4
bin srem v8i64 k 640 4 4 4
bin srem v8i64 kp 116 168 164 212
bin shl v8i64 v 16 24 20 28
bin shl v8i64 c 4 4 4 4
bin shl v8i64 p 4 4 4 4
bin shl v8i64 n 4 4 4 4
bin shl v8i64 k 16 24 20 28
bin shl v8i64 kp 16 24 20 28
bin lshr v8i64 v 16 24 20 28
bin lshr v8i64 c 4 4 4 4
bin lshr v8i64 p 4 4 4 4
bin lshr v8i64 n 4 4 4 4
bin lshr v8i64 k 16 24 20 28
bin lshr v8i64 kp 16 24 20 28
bin ashr v8i64 v 32 44 48 64
bin ashr v8i64 c 12 20 24 24
bin ashr v8i64 p 12 20 24 24
bin ashr v8i64 n 12 20 24 24
bin ashr v8i64 k 32 44 48 64
bin ashr v8i64 kp 32 44 48 64
bin and v8i64 v 4 4 4 4
bin and v8i64 c 4 4 4 4
bin and v8i64 p 4 4 4 4
bin and v8i64 n 4 4 4 4
bin and v8i64 k 4 4 4 4
bin and v8i64 kp 4 4 4 4
bin or v8i64 v 4 4 4 4
bin or v8i64 c 4 4 4 4
bin or v8i64 p 4 4 4 4
bin or v8i64 n 4 4 4 4
bin or v8i64 k 4 4 4 4
bin or v8i64 kp 4 4 4 4
bin xor v8i64 v 4 4 4 4
bin xor v8i64 c 4 4 4 4
bin xor v8i64 p 4 4 4 4
bin xor v8i64 n 4 4 4 4
bin xor v8i64 k 4 4 4 4
bin xor v8i64 kp 4 4 4 4
vicmp eq v8i64 20 16 20 20
vicmp ne v8i64 24 20 24 24
vicmp ugt v8i64 28 24 28 28
vicmp uge v8i64 32 28 32 32
vicmp ult v8i64 28 24 28 28
vicmp ule v8i64 32 28 32 32
vicmp sgt v8i64 20 16 20 20
vicmp sge v8i64 24 20 24 24
vicmp slt v8i64 20 16 20 20
vicmp sle v8i64 24 20 24 24
vicmpz eq v8i64 20 16 20 20
vicmpz ne v8i64 20 16 20 20
vicmpz ugt v8i64 24 20 24 24
vicmpz uge v8i64 28 24 28 28
vicmpz ult v8i64 24 20 24 24
vicmpz ule v8i64 28 24 28 28
vicmpz sgt v8i64 20 16 20 20
vicmpz sge v8i64 20 16 20 20
vicmpz slt v8i64 20 16 20 20
vicmpz sle v8i64 20 16 20 20
vicmpc eq v8i64 20 16 20 20
vicmpc ne v8i64 20 16 20 20
vicmpc ugt v8i64 24 20 24 24
vicmpc uge v8i64 28 24 28 28
vicmpc ult v8i64 24 20 24 24
vicmpc ule v8i64 28 24 28 28
vicmpc sgt v8i64 20 16 20 20
vicmpc sge v8i64 20 16 20 20
vicmpc slt v8i64 20 16 20 20
vicmpc sle v8i64 20 16 20 20
vselect eq v8i64 8 8 12 12
vselect ne v8i64 8 8 12 12
vselect ugt v8i64 8 8 12 12
vselect uge v8i64 8 8 12 12
vselect ult v8i64 8 8 12 12
vselect ule v8i64 8 8 12 12
vselect sgt v8i64 8 8 12 12
vselect sge v8i64 8 8 12 12
vselect slt v8i64 8 8 12 12
vselect sle v8i64 8 8 12 12
select v8i64 8 8 12 12
load v8i64 4 4 1 1
store v8i64 4 1 1 1
extractelement v8i64 0 1 1 1 1
insertelement v8i64 0 2 2 2 2
extractelement v8i64 1 2 2 2 2
insertelement v8i64 1 2 2 2 2
extractelement v8i64 2 1 1 1 1
insertelement v8i64 2 2 2 2 2
extractelement v8i64 3 2 2 2 2
insertelement v8i64 3 2 2 2 2
extractelement v8i64 4 1 1 1 1
insertelement v8i64 4 2 2 2 2
extractelement v8i64 5 2 2 2 2
insertelement v8i64 5 2 2 2 2
extractelement v8i64 6 1 1 1 1
insertelement v8i64 6 2 2 2 2
extractelement v8i64 7 2 2 2 2
insertelement v8i64 7 2 2 2 2
extractelement v8i64 x 5 2 2 2
insertelement v8i64 x 9 3 3 3
bin fadd v16f32 v 8 12 4 4
bin fsub v16f32 v 8 12 4 4
bin fmul v16f32 v 8 20 4 4
bin fdiv v16f32 v 156 156 4 4
bin frem v16f32 v 68 4 4 4
fneg v16f32 4 4 4 4
fcmp false v16f32 8 20 4 4
fcmp oeq v16f32 8 20 4 4
fcmp ogt v16f32 8 20 4 4
fcmp oge v16f32 8 20 4 4
fcmp olt v16f32 8 20 4 4
fcmp ole v16f32 8 20 4 4
fcmp one v16f32 17 41 9 9
fcmp ord v16f32 8 20 4 4
fcmp ueq v16f32 17 41 9 9
fcmp ugt v16f32 8 20 4 4
fcmp uge v16f32 8 20 4 4
fcmp ult v16f32 8 20 4 4
fcmp ule v16f32 8 20 4 4
fcmp une v16f32 8 20 4 4
fcmp uno v16f32 8 20 4 4
fcmp true v16f32 8 20 4 4
vselect false v16f32 8 8 12 12
vselect oeq v16f32 8 8 12 12
vselect ogt v16f32 8 8 12 12
vselect oge v16f32 8 8 12 12
vselect olt v16f32 8 8 12 12
vselect ole v16f32 8 8 12 12
vselect one v16f32 8 8 12 12
vselect ord v16f32 8 8 12 12
vselect ueq v16f32 8 8 12 12
vselect ugt v16f32 8 8 12 12
vselect uge v16f32 8 8 12 12
vselect ult v16f32 8 8 12 12
vselect ule v16f32 8 8 12 12
vselect une v16f32 8 8 12 12
vselect uno v16f32 8 8 12 12
vselect true v16f32 8 8 12 12
select v16f32 8 8 12 12
load v16f32 4 4 1 1
store v16f32 4 1 1 1
extractelement v16f32 0 0 0 0 0
insertelement v16f32 0 2 2 2 2
extractelement v16f32 1 1 1 1 1
insertelement v16f32 1 2 2 2 2
extractelement v16f32 2 1 1 1 1
insertelement v16f32 2 2 2 2 2
extractelement v16f32 3 1 1 1 1
insertelement v16f32 3 2 2 2 2
extractelement v16f32 4 0 0 0 0
insertelement v16f32 4 2 2 2 2
extractelement v16f32 5 1 1 1 1
insertelement v16f32 5 2 2 2 2
extractelement v16f32 6 1 1 1 1
insertelement v16f32 6 2 2 2 2
extractelement v16f32 7 1 1 1 1
insertelement v16f32 7 2 2 2 2
extractelement v16f32 8 0 0 0 0
insertelement v16f32 8 2 2 2 2
extractelement v16f32 9 1 1 1 1
insertelement v16f32 9 2 2 2 2
extractelement v16f32 10 1 1 1 1
insertelement v16f32 10 2 2 2 2
extractelement v16f32 11 1 1 1 1
insertelement v16f32 11 2 2 2 2
extractelement v16f32 12 0 0 0 0
insertelement v16f32 12 2 2 2 2
extractelement v16f32 13 1 1 1 1
insertelement v16f32 13 2 2 2 2
extractelement v16f32 14 1 1 1 1
insertelement v16f32 14 2 2 2 2
extractelement v16f32 15 1 1 1 1
insertelement v16f32 15 2 2 2 2
extractelement v16f32 x 5 2 2 2
insertelement v16f32 x 9 3 3 3
bin fadd v8f64 v 8 12 4 4
bin fsub v8f64 v 8 12 4 4
bin fmul v8f64 v 8 20 4 4
bin fdiv v8f64 v 276 276 4 4
bin frem v8f64 v 28 4 4 4
fneg v8f64 4 4 4 4
fcmp false v8f64 8 20 4 4
fcmp oeq v8f64 8 20 4 4
fcmp ogt v8f64 8 20 4 4
fcmp oge v8f64 8 20 4 4
fcmp olt v8f64 8 20 4 4
fcmp ole v8f64 8 20 4 4
fcmp one v8f64 17 41 9 9
fcmp ord v8f64 8 20 4 4
fcmp ueq v8f64 17 41 9 9
fcmp ugt v8f64 8 20 4 4
fcmp uge v8f64 8 20 4 4
fcmp ult v8f64 8 20 4 4
fcmp ule v8f64 8 20 4 4
fcmp une v8f64 8 20 4 4
fcmp uno v8f64 8 20 4 4
fcmp true v8f64 8 20 4 4
vselect false v8f64 8 8 12 12
vselect oeq v8f64 8 8 12 12
vselect ogt v8f64 8 8 12 12
vselect oge v8f64 8 8 12 12
vselect olt v8f64 8 8 12 12
vselect ole v8f64 8 8 12 12
vselect one v8f64 8 8 12 12
vselect ord v8f64 8 8 12 12
vselect ueq v8f64 8 8 12 12
vselect ugt v8f64 8 8 12 12
vselect uge v8f64 8 8 12 12
vselect ult v8f64 8 8 12 12
vselect ule v8f64 8 8 12 12
vselect une v8f64 8 8 12 12
vselect uno v8f64 8 8 12 12
vselect true v8f64 8 8 12 12
select v8f64 8 8 12 12
load v8f64 4 4 1 1
store v8f64 4 1 1 1
extractelement v8f64 0 0 0 0 0
insertelement v8f64 0 1 1 1 1
extractelement v8f64 1 1 1 1 1
insertelement v8f64 1 1 1 1 1
extractelement v8f64 2 0 0 0 0
insertelement v8f64 2 1 1 1 1
extractelement v8f64 3 1 1 1 1
insertelement v8f64 3 1 1 1 1
extractelement v8f64 4 0 0 0 0
insertelement v8f64 4 1 1 1 1
extractelement v8f64 5 1 1 1 1
insertelement v8f64 5 1 1 1 1
extractelement v8f64 6 0 0 0 0
insertelement v8f64 6 1 1 1 1
extractelement v8f64 7 1 1 1 1
insertelement v8f64 7 1 1 1 1
extractelement v8f64 x 5 2 2 2
insertelement v8f64 x 9 3 3 3
bin add v1i8 v 1 1 1 1
bin add v1i8 c 1 1 1 1
bin add v1i8 p 1 1 1 1
bin add v1i8 n 1 1 1 1
bin add v1i8 k 1 1 1 1
bin add v1i8 kp 1 1 1 1
bin sub v1i8 v 1 1 1 1
bin sub v1i8 c 1 1 1 1
bin sub v1i8 p 1 1 1 1
bin sub v1i8 n 1 1 1 1
bin sub v1i8 k 1 1 1 1
bin sub v1i8 kp 1 1 1 1
bin mul v1i8 v 3 5 2 2
bin mul v1i8 c 3 5 2 2
bin mul v1i8 p 2 2 2 2
bin mul v1i8 n 3 3 3 3
bin mul v1i8 k 3 5 2 2
bin mul v1i8 kp 2 2 2 2
bin udiv v1i8 v 1 4 4 4
bin udiv v1i8 c 1 4 4 4
bin udiv v1i8 p 1 1 1 1
bin udiv v1i8 n 1 4 4 4
bin udiv v1i8 k 1 4 4 4
bin udiv v1i8 kp 1 1 1 1
bin sdiv v1i8 v 1 4 4 4
bin sdiv v1i8 c 1 4 4 4
bin sdiv v1i8 p 4 4 4 4
bin sdiv v1i8 n 1 4 4 4
bin sdiv v1i8 k 1 4 4 4
bin sdiv v1i8 kp 4 4 4 4
bin urem v1i8 v 5 4 4 4
bin urem v1i8 c 5 4 4 4
bin urem v1i8 p 1 1 1 1
bin urem v1i8 n 5 4 4 4
bin urem v1i8 k 5 4 4 4
bin urem v1i8 kp 1 1 1 1
bin srem v1i8 v 5 4 4 4
bin srem v1i8 c 5 4 4 4
bin srem v1i8 p 8 10 7 7
bin srem v1i8 n 5 4 4 4
bin srem v1i8 k 5 4 4 4
bin srem v1i8 kp 8 10 7 7
bin shl v1i8 v 1 1 1 1
bin shl v1i8 c 1 1 1 1
bin shl v1i8 p 1 1 1 1
bin shl v1i8 n 1 1 1 1
bin shl v1i8 k 1 1 1 1
bin shl v1i8 kp 1 1 1 1
bin lshr v1i8 v 1 1 1 1
bin lshr v1i8 c 1 1 1 1
bin lshr v1i8 p 1 1 1 1
bin lshr v1i8 n 1 1 1 1
bin lshr v1i8 k 1 1 1 1
bin lshr v1i8 kp 1 1 1 1
bin ashr v1i8 v 1 1 1 1
bin ashr v1i8 c 1 1 1 1
bin ashr v1i8 p 1 1 1 1
bin ashr v1i8 n 1 1 1 1
bin ashr v1i8 k 1 1 1 1
bin ashr v1i8 kp 1 1 1 1
bin and v1i8 v 1 1 1 1
bin and v1i8 c 1 1 1 1
bin and v1i8 p 1 1 1 1
bin and v1i8 n 1 1 1 1
bin and v1i8 k 1 1 1 1
bin and v1i8 kp 1 1 1 1
bin or v1i8 v 1 1 1 1
bin or v1i8 c 1 1 1 1
bin or v1i8 p 1 1 1 1
bin or v1i8 n 1 1 1 1
bin or v1i8 k 1 1 1 1
bin or v1i8 kp 1 1 1 1
bin xor v1i8 v 1 1 1 1
bin xor v1i8 c 1 1 1 1
bin xor v1i8 p 1 1 1 1
bin xor v1i8 n 1 1 1 1
bin xor v1i8 k 1 1 1 1
bin xor v1i8 kp 1 1 1 1
vicmp eq v1i8 1 1 1 1
vicmp ne v1i8 1 1 1 1
vicmp ugt v1i8 1 1 1 1
vicmp uge v1i8 1 1 1 1
vicmp ult v1i8 1 1 1 1
vicmp ule v1i8 1 1 1 1
vicmp sgt v1i8 1 1 1 1
vicmp sge v1i8 1 1 1 1
vicmp slt v1i8 1 1 1 1
vicmp sle v1i8 1 1 1 1
vicmpz eq v1i8 1 1 1 1
vicmpz ne v1i8 1 1 1 1
vicmpz ugt v1i8 1 1 1 1
vicmpz uge v1i8 1 1 1 1
vicmpz ult v1i8 1 1 1 1
vicmpz ule v1i8 1 1 1 1
vicmpz sgt v1i8 1 1 1 1
vicmpz sge v1i8 1 1 1 1
vicmpz slt v1i8 1 1 1 1
vicmpz sle v1i8 1 1 1 1
vicmpc eq v1i8 1 1 1 1
vicmpc ne v1i8 1 1 1 1
vicmpc ugt v1i8 1 1 1 1
vicmpc uge v1i8 1 1 1 1
vicmpc ult v1i8 1 1 1 1
vicmpc ule v1i8 1 1 1 1
vicmpc sgt v1i8 1 1 1 1
vicmpc sge v1i8 1 1 1 1
vicmpc slt v1i8 1 1 1 1
vicmpc sle v1i8 1 1 1 1
vselect eq v1i8 1 1 1 1
vselect ne v1i8 1 1 1 1
vselect ugt v1i8 1 1 1 1
vselect uge v1i8 1 1 1 1
vselect ult v1i8 1 1 1 1
vselect ule v1i8 1 1 1 1
vselect sgt v1i8 1 1 1 1
vselect sge v1i8 1 1 1 1
vselect slt v1i8 1 1 1 1
vselect sle v1i8 1 1 1 1
select v1i8 1 1 1 1
load v1i8 1 4 1 1
store v1i8 1 1 1 1
extractelement v1i8 0 0 0 0 0
insertelement v1i8 0 0 0 0 0
extractelement v1i8 x 2 2 2 2
insertelement v1i8 x 3 3 3 3
bin add v1i16 v 1 1 1 1
bin add v1i16 c 1 1 1 1
bin add v1i16 p 1 1 1 1
bin add v1i16 n 1 1 1 1
bin add v1i16 k 1 1 1 1
bin add v1i16 kp 1 1 1 1
bin sub v1i16 v 1 1 1 1
bin sub v1i16 c 1 1 1 1
bin sub v1i16 p 1 1 1 1
bin sub v1i16 n 1 1 1 1
bin sub v1i16 k 1 1 1 1
bin sub v1i16 kp 1 1 1 1
bin mul v1i16 v 2 4 1 1
bin mul v1i16 c 2 4 1 1
bin mul v1i16 p 1 1 1 1
bin mul v1i16 n 2 2 2 2
bin mul v1i16 k 2 4 1 1
bin mul v1i16 kp 1 1 1 1
bin udiv v1i16 v 1 4 4 4
bin udiv v1i16 c 1 4 4 4
bin udiv v1i16 p 1 1 1 1
bin udiv v1i16 n 1 4 4 4
bin udiv v1i16 k 1 4 4 4
bin udiv v1i16 kp 1 1 1 1
bin sdiv v1i16 v 1 4 4 4
bin sdiv v1i16 c 1 4 4 4
bin sdiv v1i16 p 4 4 4 4
bin sdiv v1i16 n 1 4 4 4
bin sdiv v1i16 k 1 4 4 4
bin sdiv v1i16 kp 4 4 4 4
bin urem v1i16 v 4 4 4 4
bin urem v1i16 c 4 4 4 4
bin urem v1i16 p 1 1 1 1
bin urem v1i16 n 4 4 4 4
bin urem v1i16 k 4 4 4 4
bin urem v1i16 kp 1 1 1 1
bin srem v1i16 v 4 4 4 4
bin srem v1i16 c 4 4 4 4
bin srem v1i16 p 7 9 6 6
bin srem v1i16 n 4 4 4 4
bin srem v1i16 k 4 4 4 4
bin srem v1i16 kp 7 9 6 6
bin shl v1i16 v 1 1 1 1
bin shl v1i16 c 1 1 1 1
bin shl v1i16 p 1 1 1 1
bin shl v1i16 n 1 1 1 1
bin shl v1i16 k 1 1 1 1
bin shl v1i16 kp 1 1 1 1
bin lshr v1i16 v 1 1 1 1
bin lshr v1i16 c 1 1 1 1
bin lshr v1i16 p 1 1 1 1
bin lshr v1i16 n 1 1 1 1
bin lshr v1i16 k 1 1 1 1
bin lshr v1i16 kp 1 1 1 1
bin ashr v1i16 v 1 1 1 1
bin ashr v1i16 c 1 1 1 1
bin ashr v1i16 p 1 1 1 1
bin ashr v1i16 n 1 1 1 1
bin ashr v1i16 k 1 1 1 1
bin ashr v1i16 kp 1 1 1 1
bin and v1i16 v 1 1 1 1
bin and v1i16 c 1 1 1 1
bin and v1i16 p 1 1 1 1
bin and v1i16 n 1 1 1 1
bin and v1i16 k 1 1 1 1
bin and v1i16 kp 1 1 1 1
bin or v1i16 v 1 1 1 1
bin or v1i16 c 1 1 1 1
bin or v1i16 p 1 1 1 1
bin or v1i16 n 1 1 1 1
bin or v1i16 k 1 1 1 1
bin or v1i16 kp 1 1 1 1
bin xor v1i16 v 1 1 1 1
bin xor v1i16 c 1 1 1 1
bin xor v1i16 p 1 1 1 1
bin xor v1i16 n 1 1 1 1
bin xor v1i16 k 1 1 1 1
bin xor v1i16 kp 1 1 1 1
vicmp eq v1i16 1 1 1 1
vicmp ne v1i16 1 1 1 1
vicmp ugt v1i16 1 1 1 1
vicmp uge v1i16 1 1 1 1
vicmp ult v1i16 1 1 1 1
vicmp ule v1i16 1 1 1 1
vicmp sgt v1i16 1 1 1 1
vicmp sge v1i16 1 1 1 1
vicmp slt v1i16 1 1 1 1
vicmp sle v1i16 1 1 1 1
vicmpz eq v1i16 1 1 1 1
vicmpz ne v1i16 1 1 1 1
vicmpz ugt v1i16 1 1 1 1
vicmpz uge v1i16 1 1 1 1
vicmpz ult v1i16 1 1 1 1
vicmpz ule v1i16 1 1 1 1
vicmpz sgt v1i16 1 1 1 1
vicmpz sge v1i16 1 1 1 1
vicmpz slt v1i16 1 1 1 1
vicmpz sle v1i16 1 1 1 1
vicmpc eq v1i16 1 1 1 1
vicmpc ne v1i16 1 1 1 1
vicmpc ugt v1i16 1 1 1 1
vicmpc uge v1i16 1 1 1 1
vicmpc ult v1i16 1 1 1 1
vicmpc ule v1i16 1 1 1 1
vicmpc sgt v1i16 1 1 1 1
vicmpc sge v1i16 1 1 1 1
vicmpc slt v1i16 1 1 1 1
vicmpc sle v1i16 1 1 1 1
vselect eq v1i16 1 1 1 1
vselect ne v1i16 1 1 1 1
vselect ugt v1i16 1 1 1 1
vselect uge v1i16 1 1 1 1
vselect ult v1i16 1 1 1 1
vselect ule v1i16 1 1 1 1
vselect sgt v1i16 1 1 1 1
vselect sge v1i16 1 1 1 1
vselect slt v1i16 1 1 1 1
vselect sle v1i16 1 1 1 1
select v1i16 1 1 1 1
load v1i16 1 4 1 1
store v1i16 1 1 1 1
extractelement v1i16 0 0 0 0 0
insertelement v1i16 0 0 0 0 0
extractelement v1i16 x 2 2 2 2
insertelement v1i16 x 3 3 3 3
bin add v1i32 v 1 1 1 1
bin add v1i32 c 1 1 1 1
bin add v1i32 p 1 1 1 1
bin add v1i32 n 1 1 1 1
bin add v1i32 k 1 1 1 1
bin add v1i32 kp 1 1 1 1
bin sub v1i32 v 1 1 1 1
bin sub v1i32 c 1 1 1 1
bin sub v1i32 p 1 1 1 1
bin sub v1i32 n 1 1 1 1
bin sub v1i32 k 1 1 1 1
bin sub v1i32 kp 1 1 1 1
bin mul v1i32 v 1 4 1 1
bin mul v1i32 c 1 4 1 1
bin mul v1i32 p 1 1 1 1
bin mul v1i32 n 2 2 2 2
bin mul v1i32 k 1 4 1 1
bin mul v1i32 kp 1 1 1 1
bin udiv v1i32 v 1 4 4 4
bin udiv v1i32 c 1 4 4 4
bin udiv v1i32 p 1 1 1 1
bin udiv v1i32 n 1 4 4 4
bin udiv v1i32 k 1 4 4 4
bin udiv v1i32 kp 1 1 1 1
bin sdiv v1i32 v 1 4 4 4
bin sdiv v1i32 c 1 4 4 4
bin sdiv v1i32 p 4 4 4 4
bin sdiv v1i32 n 1 4 4 4
bin sdiv v1i32 k 1 4 4 4
bin sdiv v1i32 kp 4 4 4 4
bin urem v1i32 v 3 4 4 4
bin urem v1i32 c 3 4 4 4
bin urem v1i32 p 1 1 1 1
bin urem v1i32 n 3 4 4 4
bin urem v1i32 k 3 4 4 4
bin urem v1i32 kp 1 1 1 1
bin srem v1i32 v 3 4 4 4
bin srem v1i32 c 3 4 4 4
bin srem v1i32 p 6 9 6 6
bin srem v1i32 n 3 4 4 4
bin srem v1i32 k 3 4 4 4
bin srem v1i32 kp 6 9 6 6
bin shl v1i32 v 1 1 1 1
bin shl v1i32 c 1 1 1 1
bin shl v1i32 p 1 1 1 1
bin shl v1i32 n 1 1 1 1
bin shl v1i32 k 1 1 1 1
bin shl v1i32 kp 1 1 1 1
bin lshr v1i32 v 1 1 1 1
bin lshr v1i32 c 1 1 1 1
bin lshr v1i32 p 1 1 1 1
bin lshr v1i32 n 1 1 1 1
bin lshr v1i32 k 1 1 1 1
bin lshr v1i32 kp 1 1 1 1
bin ashr v1i32 v 1 1 1 1
bin ashr v1i32 c 1 1 1 1
bin ashr v1i32 p 1 1 1 1
bin ashr v1i32 n 1 1 1 1
bin ashr v1i32 k 1 1 1 1
bin ashr v1i32 kp 1 1 1 1
bin and v1i32 v 1 1 1 1
bin and v1i32 c 1 1 1 1
bin and v1i32 p 1 1 1 1
bin and v1i32 n 1 1 1 1
bin and v1i32 k 1 1 1 1
bin and v1i32 kp 1 1 1 1
bin or v1i32 v 1 1 1 1
bin or v1i32 c 1 1 1 1
bin or v1i32 p 1 1 1 1
bin or v1i32 n 1 1 1 1
bin or v1i32 k 1 1 1 1
bin or v1i32 kp 1 1 1 1
bin xor v1i32 v 1 1 1 1
bin xor v1i32 c 1 1 1 1
bin xor v1i32 p 1 1 1 1
bin xor v1i32 n 1 1 1 1
bin xor v1i32 k 1 1 1 1
bin xor v1i32 kp 1 1 1 1
vicmp eq v1i32 1 1 1 1
vicmp ne v1i32 1 1 1 1
vicmp ugt v1i32 1 1 1 1
vicmp uge v1i32 1 1 1 1
vicmp ult v1i32 1 1 1 1
vicmp ule v1i32 1 1 1 1
vicmp sgt v1i32 1 1 1 1
vicmp sge v1i32 1 1 1 1
vicmp slt v1i32 1 1 1 1
vicmp sle v1i32 1 1 1 1
vicmpz eq v1i32 1 1 1 1
vicmpz ne v1i32 1 1 1 1
vicmpz ugt v1i32 1 1 1 1
vicmpz uge v1i32 1 1 1 1
vicmpz ult v1i32 1 1 1 1
vicmpz ule v1i32 1 1 1 1
vicmpz sgt v1i32 1 1 1 1
vicmpz sge v1i32 1 1 1 1
vicmpz slt v1i32 1 1 1 1
vicmpz sle v1i32 1 1 1 1
vicmpc eq v1i32 1 1 1 1
vicmpc ne v1i32 1 1 1 1
vicmpc ugt v1i32 1 1 1 1
vicmpc uge v1i32 1 1 1 1
vicmpc ult v1i32 1 1 1 1
vicmpc ule v1i32 1 1 1 1
vicmpc sgt v1i32 1 1 1 1
vicmpc sge v1i32 1 1 1 1
vicmpc slt v1i32 1 1 1 1
vicmpc sle v1i32 1 1 1 1
vselect eq v1i32 1 1 1 1
vselect ne v1i32 1 1 1 1
vselect ugt v1i32 1 1 1 1
vselect uge v1i32 1 1 1 1
vselect ult v1i32 1 1 1 1
vselect ule v1i32 1 1 1 1
vselect sgt v1i32 1 1 1 1
vselect sge v1i32 1 1 1 1
vselect slt v1i32 1 1 1 1
vselect sle v1i32 1 1 1 1
select v1i32 1 1 1 1
load v1i32 1 4 1 1
store v1i32 1 1 1 1
extractelement v1i32 0 0 0 0 0
insertelement v1i32 0 0 0 0 0
extractelement v1i32 x 2 2 2 2
insertelement v1i32 x 3 3 3 3
bin add v1i64 v 1 1 1 1
bin add v1i64 c 1 1 1 1
bin add v1i64 p 1 1 1 1
bin add v1i64 n 1 1 1 1
bin add v1i64 k 1 1 1 1
bin add v1i64 kp 1 1 1 1
bin sub v1i64 v 1 1 1 1
bin sub v1i64 c 1 1 1 1
bin sub v1i64 p 1 1 1 1
bin sub v1i64 n 1 1 1 1
bin sub v1i64 k 1 1 1 1
bin sub v1i64 kp 1 1 1 1
bin mul v1i64 v 2 6 1 2
bin mul v1i64 c 2 6 1 2
bin mul v1i64 p 1 1 1 1
bin mul v1i64 n 2 2 2 2
bin mul v1i64 k 2 6 1 2
bin mul v1i64 kp 1 1 1 1
bin udiv v1i64 v 1 4 4 4
bin udiv v1i64 c 1 4 4 4
bin udiv v1i64 p 1 1 1 1
bin udiv v1i64 n 1 4 4 4
bin udiv v1i64 k 1 4 4 4
bin udiv v1i64 kp 1 1 1 1
bin sdiv v1i64 v 1 4 4 4
bin sdiv v1i64 c 1 4 4 4
bin sdiv v1i64 p 4 4 4 4
bin sdiv v1i64 n 1 4 4 4
bin sdiv v1i64 k 1 4 4 4
bin sdiv v1i64 kp 4 4 4 4
bin urem v1i64 v 4 4 4 4
bin urem v1i64 c 4 4 4 4
bin urem v1i64 p 1 1 1 1
bin urem v1i64 n 4 4 4 4
bin urem v1i64 k 4 4 4 4
bin urem v1i64 kp 1 1 1 1
bin srem v1i64 v 4 4 4 4
bin srem v1i64 c 4 4 4 4
bin srem v1i64 p 7 11 6 7
bin srem v1i64 n 4 4 4 4
bin srem v1i64 k 4 4 4 4
bin srem v1i64 kp 7 11 6 7
bin shl v1i64 v 1 1 1 1
bin shl v1i64 c 1 1 1 1
bin shl v1i64 p 1 1 1 1
bin shl v1i64 n 1 1 1 1
bin shl v1i64 k 1 1 1 1
bin shl v1i64 kp 1 1 1 1
bin lshr v1i64 v 1 1 1 1
bin lshr v1i64 c 1 1 1 1
bin lshr v1i64 p 1 1 1 1
bin lshr v1i64 n 1 1 1 1
bin lshr v1i64 k 1 1 1 1
bin lshr v1i64 kp 1 1 1 1
bin ashr v1i64 v 1 1 1 1
bin ashr v1i64 c 1 1 1 1
bin ashr v1i64 p 1 1 1 1
bin ashr v1i64 n 1 1 1 1
bin ashr v1i64 k 1 1 1 1
bin ashr v1i64 kp 1 1 1 1
bin and v1i64 v 1 1 1 1
bin and v1i64 c 1 1 1 1
bin and v1i64 p 1 1 1 1
bin and v1i64 n 1 1 1 1
bin and v1i64 k 1 1 1 1
bin and v1i64 kp 1 1 1 1
bin or v1i64 v 1 1 1 1
bin or v1i64 c 1 1 1 1
bin or v1i64 p 1 1 1 1
bin or v1i64 n 1 1 1 1
bin or v1i64 k 1 1 1 1
bin or v1i64 kp 1 1 1 1
bin xor v1i64 v 1 1 1 1
bin xor v1i64 c 1 1 1 1
bin xor v1i64 p 1 1 1 1
bin xor v1i64 n 1 1 1 1
bin xor v1i64 k 1 1 1 1
bin xor v1i64 kp 1 1 1 1
vicmp eq v1i64 1 1 1 1
vicmp ne v1i64 1 1 1 1
vicmp ugt v1i64 1 1 1 1
vicmp uge v1i64 1 1 1 1
vicmp ult v1i64 1 1 1 1
vicmp ule v1i64 1 1 1 1
vicmp sgt v1i64 1 1 1 1
vicmp sge v1i64 1 1 1 1
vicmp slt v1i64 1 1 1 1
vicmp sle v1i64 1 1 1 1
vicmpz eq v1i64 1 1 1 1
vicmpz ne v1i64 1 1 1 1
vicmpz ugt v1i64 1 1 1 1
vicmpz uge v1i64 1 1 1 1
vicmpz ult v1i64 1 1 1 1
vicmpz ule v1i64 1 1 1 1
vicmpz sgt v1i64 1 1 1 1
vicmpz sge v1i64 1 1 1 1
vicmpz slt v1i64 1 1 1 1
vicmpz sle v1i64 1 1 1 1
vicmpc eq v1i64 1 1 1 1
vicmpc ne v1i64 1 1 1 1
vicmpc ugt v1i64 1 1 1 1
vicmpc uge v1i64 1 1 1 1
vicmpc ult v1i64 1 1 1 1
vicmpc ule v1i64 1 1 1 1
vicmpc sgt v1i64 1 1 1 1
vicmpc sge v1i64 1 1 1 1
vicmpc slt v1i64 1 1 1 1
vicmpc sle v1i64 1 1 1 1
vselect eq v1i64 1 1 1 1
vselect ne v1i64 1 1 1 1
vselect ugt v1i64 1 1 1 1
vselect uge v1i64 1 1 1 1
vselect ult v1i64 1 1 1 1
vselect ule v1i64 1 1 1 1
vselect sgt v1i64 1 1 1 1
vselect sge v1i64 1 1 1 1
vselect slt v1i64 1 1 1 1
vselect sle v1i64 1 1 1 1
select v1i64 1 1 1 1
load v1i64 1 4 1 1
store v1i64 1 1 1 1
extractelement v1i64 0 0 0 0 0
insertelement v1i64 0 0 0 0 0
extractelement v1i64 x 2 2 2 2
insertelement v1i64 x 3 3 3 3
bin fadd v1f32 v 2 3 1 1
bin fsub v1f32 v 2 3 1 1
bin fmul v1f32 v 2 5 1 1
bin fdiv v1f32 v 23 23 1 1
bin frem v1f32 v 2 4 4 4
fneg v1f32 1 1 1 1
fcmp false v1f32 1 5 1 1
fcmp oeq v1f32 1 5 1 1
fcmp ogt v1f32 1 5 1 1
fcmp oge v1f32 1 5 1 1
fcmp olt v1f32 1 5 1 1
fcmp ole v1f32 1 5 1 1
fcmp one v1f32 1 5 1 1
fcmp ord v1f32 1 5 1 1
fcmp ueq v1f32 1 5 1 1
fcmp ugt v1f32 1 5 1 1
fcmp uge v1f32 1 5 1 1
fcmp ult v1f32 1 5 1 1
fcmp ule v1f32 1 5 1 1
fcmp une v1f32 1 5 1 1
fcmp uno v1f32 1 5 1 1
fcmp true v1f32 1 5 1 1
vselect false v1f32 2 2 3 3
vselect oeq v1f32 2 2 3 3
vselect ogt v1f32 2 2 3 3
vselect oge v1f32 2 2 3 3
vselect olt v1f32 2 2 3 3
vselect ole v1f32 2 2 3 3
vselect one v1f32 2 2 3 3
vselect ord v1f32 2 2 3 3
vselect ueq v1f32 2 2 3 3
vselect ugt v1f32 2 2 3 3
vselect uge v1f32 2 2 3 3
vselect ult v1f32 2 2 3 3
vselect ule v1f32 2 2 3 3
vselect une v1f32 2 2 3 3
vselect uno v1f32 2 2 3 3
vselect true v1f32 2 2 3 3
select v1f32 2 2 3 3
load v1f32 1 4 1 1
store v1f32 1 1 1 1
extractelement v1f32 0 0 0 0 0
insertelement v1f32 0 0 0 0 0
extractelement v1f32 x 2 2 2 2
insertelement v1f32 x 3 3 3 3
bin fadd v1f64 v 2 3 1 1
bin fsub v1f64 v 2 3 1 1
bin fmul v1f64 v 2 5 1 1
bin fdiv v1f64 v 38 38 1 1
bin frem v1f64 v 2 4 4 4
fneg v1f64 1 1 1 1
fcmp false v1f64 1 5 1 1
fcmp oeq v1f64 1 5 1 1
fcmp ogt v1f64 1 5 1 1
fcmp oge v1f64 1 5 1 1
fcmp olt v1f64 1 5 1 1
fcmp ole v1f64 1 5 1 1
fcmp one v1f64 1 5 1 1
fcmp ord v1f64 1 5 1 1
fcmp ueq v1f64 1 5 1 1
fcmp ugt v1f64 1 5 1 1
fcmp uge v1f64 1 5 1 1
fcmp ult v1f64 1 5 1 1
fcmp ule v1f64 1 5 1 1
fcmp une v1f64 1 5 1 1
fcmp uno v1f64 1 5 1 1
fcmp true v1f64 1 5 1 1
vselect false v1f64 2 2 3 3
vselect oeq v1f64 2 2 3 3
vselect ogt v1f64 2 2 3 3
vselect oge v1f64 2 2 3 3
vselect olt v1f64 2 2 3 3
vselect ole v1f64 2 2 3 3
vselect one v1f64 2 2 3 3
vselect ord v1f64 2 2 3 3
vselect ueq v1f64 2 2 3 3
vselect ugt v1f64 2 2 3 3
vselect uge v1f64 2 2 3 3
vselect ult v1f64 2 2 3 3
vselect ule v1f64 2 2 3 3
vselect une v1f64 2 2 3 3
vselect uno v1f64 2 2 3 3
vselect true v1f64 2 2 3 3
select v1f64 2 2 3 3
load v1f64 1 4 1 1
store v1f64 1 1 1 1
extractelement v1f64 0 0 0 0 0
insertelement v1f64 0 0 0 0 0
extractelement v1f64 x 2 2 2 2
insertelement v1f64 x 3 3 3 3
bin add v2i1 v 1 2 1 2
bin add v2i1 c 1 2 1 2
bin add v2i1 p 1 2 1 2
bin add v2i1 k 1 2 1 2
bin add v2i1 kp 1 2 1 2
bin sub v2i1 v 1 2 1 2
bin sub v2i1 c 1 2 1 2
bin sub v2i1 p 1 2 1 2
bin sub v2i1 k 1 2 1 2
bin sub v2i1 kp 1 2 1 2
bin mul v2i1 v 1 5 1 1
bin mul v2i1 c 1 5 1 1
bin mul v2i1 p 1 1 1 1
bin mul v2i1 k 7 10 10 10
bin mul v2i1 kp 1 1 1 1
bin udiv v2i1 v 40 4 4 4
bin udiv v2i1 c 40 4 4 4
bin udiv v2i1 p 1 1 1 1
bin udiv v2i1 k 40 4 4 4
bin udiv v2i1 kp 1 1 1 1
bin sdiv v2i1 v 40 4 4 4
bin sdiv v2i1 c 40 4 4 4
bin sdiv v2i1 p 8 13 14 15
bin sdiv v2i1 k 40 4 4 4
bin sdiv v2i1 kp 8 13 14 15
bin urem v2i1 v 200 4 4 4
bin urem v2i1 c 200 4 4 4
bin urem v2i1 p 1 1 1 1
bin urem v2i1 k 200 4 4 4
bin urem v2i1 kp 1 1 1 1
bin srem v2i1 v 200 4 4 4
bin srem v2i1 c 200 4 4 4
bin srem v2i1 p 16 25 25 27
bin srem v2i1 k 200 4 4 4
bin srem v2i1 kp 16 25 25 27
bin shl v2i1 v 4 6 5 7
bin shl v2i1 c 4 6 5 7
bin shl v2i1 p 1 1 1 1
bin shl v2i1 k 4 6 5 7
bin shl v2i1 kp 1 1 1 1
bin lshr v2i1 v 4 6 5 7
bin lshr v2i1 c 4 6 5 7
bin lshr v2i1 p 1 1 1 1
bin lshr v2i1 k 4 6 5 7
bin lshr v2i1 kp 1 1 1 1
bin ashr v2i1 v 8 11 12 16
bin ashr v2i1 c 8 11 12 16
bin ashr v2i1 p 3 5 6 6
bin ashr v2i1 k 8 11 12 16
bin ashr v2i1 kp 3 5 6 6
bin and v2i1 v 1 1 1 1
bin and v2i1 c 1 1 1 1
bin and v2i1 p 1 1 1 1
bin and v2i1 k 1 1 1 1
bin and v2i1 kp 1 1 1 1
bin or v2i1 v 1 1 1 1
bin or v2i1 c 1 1 1 1
bin or v2i1 p 1 1 1 1
bin or v2i1 k 1 1 1 1
bin or v2i1 kp 1 1 1 1
bin xor v2i1 v 1 1 1 1
bin xor v2i1 c 1 1 1 1
bin xor v2i1 p 1 1 1 1
bin xor v2i1 k 1 1 1 1
bin xor v2i1 kp 1 1 1 1
vicmp eq v2i1 5 4 5 5
vicmp ne v2i1 6 5 6 6
vicmp ugt v2i1 7 6 7 7
vicmp uge v2i1 8 7 8 8
vicmp ult v2i1 7 6 7 7
vicmp ule v2i1 8 7 8 8
vicmp sgt v2i1 5 4 5 5
vicmp sge v2i1 6 5 6 6
vicmp slt v2i1 5 4 5 5
vicmp sle v2i1 6 5 6 6
vicmpz eq v2i1 5 4 5 5
vicmpz ne v2i1 5 4 5 5
vicmpz ugt v2i1 6 5 6 6
vicmpz uge v2i1 7 6 7 7
vicmpz ult v2i1 6 5 6 6
vicmpz ule v2i1 7 6 7 7
vicmpz sgt v2i1 5 4 5 5
vicmpz sge v2i1 5 4 5 5
vicmpz slt v2i1 5 4 5 5
vicmpz sle v2i1 5 4 5 5
vicmpc eq v2i1 5 4 5 5
vicmpc ne v2i1 5 4 5 5
vicmpc ugt v2i1 6 5 6 6
vicmpc uge v2i1 7 6 7 7
vicmpc ult v2i1 6 5 6 6
vicmpc ule v2i1 7 6 7 7
vicmpc sgt v2i1 5 4 5 5
vicmpc sge v2i1 5 4 5 5
vicmpc slt v2i1 5 4 5 5
vicmpc sle v2i1 5 4 5 5
vselect eq v2i1 2 2 3 3
vselect ne v2i1 2 2 3 3
vselect ugt v2i1 2 2 3 3
vselect uge v2i1 2 2 3 3
vselect ult v2i1 2 2 3 3
vselect ule v2i1 2 2 3 3
vselect sgt v2i1 2 2 3 3
vselect sge v2i1 2 2 3 3
vselect slt v2i1 2 2 3 3
vselect sle v2i1 2 2 3 3
select v2i1 2 2 3 3
load v2i1 2 4 1 1
store v2i1 2 1 1 1
extractelement v2i1 0 1 1 1 1
insertelement v2i1 0 2 2 2 2
extractelement v2i1 1 1 1 1 1
insertelement v2i1 1 2 2 2 2
extractelement v2i1 x 3 2 2 2
insertelement v2i1 x 5 3 3 3
bin add v4i1 v 1 1 1 1
bin add v4i1 c 1 1 1 1
bin add v4i1 p 1 1 1 1
bin add v4i1 k 1 1 1 1
bin add v4i1 kp 1 1 1 1
bin sub v4i1 v 1 1 1 1
bin sub v4i1 c 1 1 1 1
bin sub v4i1 p 1 1 1 1
bin sub v4i1 k 1 1 1 1
bin sub v4i1 kp 1 1 1 1
bin mul v4i1 v 1 5 1 1
bin mul v4i1 c 1 5 1 1
bin mul v4i1 p 1 1 1 1
bin mul v4i1 k 1 5 1 1
bin mul v4i1 kp 1 1 1 1
bin udiv v4i1 v 80 4 4 4
bin udiv v4i1 c 80 4 4 4
bin udiv v4i1 p 1 1 1 1
bin udiv v4i1 k 15 4 4 4
bin udiv v4i1 kp 1 1 1 1
bin sdiv v4i1 v 80 4 4 4
bin sdiv v4i1 c 80 4 4 4
bin sdiv v4i1 p 4 4 4 4
bin sdiv v4i1 k 19 4 4 4
bin sdiv v4i1 kp 4 4 4 4
bin urem v4i1 v 400 4 4 4
bin urem v4i1 c 400 4 4 4
bin urem v4i1 p 1 1 1 1
bin urem v4i1 k 20 4 4 4
bin urem v4i1 kp 1 1 1 1
bin srem v4i1 v 400 4 4 4
bin srem v4i1 c 400 4 4 4
bin srem v4i1 p 11 13 12 12
bin srem v4i1 k 24 4 4 4
bin srem v4i1 kp 11 13 12 12
bin shl v4i1 v 17 19 10 12
bin shl v4i1 c 17 19 10 12
bin shl v4i1 p 1 1 1 1
bin shl v4i1 k 6 8 7 7
bin shl v4i1 kp 1 1 1 1
bin lshr v4i1 v 12 12 15 19
bin lshr v4i1 c 12 12 15 19
bin lshr v4i1 p 1 1 1 1
bin lshr v4i1 k 12 12 15 19
bin lshr v4i1 kp 1 1 1 1
bin ashr v4i1 v 12 12 15 19
bin ashr v4i1 c 12 12 15 19
bin ashr v4i1 p 1 1 1 1
bin ashr v4i1 k 12 12 15 19
bin ashr v4i1 kp 1 1 1 1
bin and v4i1 v 1 1 1 1
bin and v4i1 c 1 1 1 1
bin and v4i1 p 1 1 1 1
bin and v4i1 k 1 1 1 1
bin and v4i1 kp 1 1 1 1
bin or v4i1 v 1 1 1 1
bin or v4i1 c 1 1 1 1
bin or v4i1 p 1 1 1 1
bin or v4i1 k 1 1 1 1
bin or v4i1 kp 1 1 1 1
bin xor v4i1 v 1 1 1 1
bin xor v4i1 c 1 1 1 1
bin xor v4i1 p 1 1 1 1
bin xor v4i1 k 1 1 1 1
bin xor v4i1 kp 1 1 1 1
vicmp eq v4i1 1 1 1 1
vicmp ne v4i1 2 2 2 2
vicmp ugt v4i1 3 3 3 3
vicmp uge v4i1 4 4 4 4
vicmp ult v4i1 3 3 3 3
vicmp ule v4i1 4 4 4 4
vicmp sgt v4i1 1 1 1 1
vicmp sge v4i1 2 2 2 2
vicmp slt v4i1 1 1 1 1
vicmp sle v4i1 2 2 2 2
vicmpz eq v4i1 1 1 1 1
vicmpz ne v4i1 1 1 1 1
vicmpz ugt v4i1 2 2 2 2
vicmpz uge v4i1 3 3 3 3
vicmpz ult v4i1 2 2 2 2
vicmpz ule v4i1 3 3 3 3
vicmpz sgt v4i1 1 1 1 1
vicmpz sge v4i1 1 1 1 1
vicmpz slt v4i1 1 1 1 1
vicmpz sle v4i1 1 1 1 1
vicmpc eq v4i1 1 1 1 1
vicmpc ne v4i1 1 1 1 1
vicmpc ugt v4i1 2 2 2 2
vicmpc uge v4i1 3 3 3 3
vicmpc ult v4i1 2 2 2 2
vicmpc ule v4i1 3 3 3 3
vicmpc sgt v4i1 1 1 1 1
vicmpc sge v4i1 1 1 1 1
vicmpc slt v4i1 1 1 1 1
vicmpc sle v4i1 1 1 1 1
vselect eq v4i1 2 2 3 3
vselect ne v4i1 2 2 3 3
vselect ugt v4i1 2 2 3 3
vselect uge v4i1 2 2 3 3
vselect ult v4i1 2 2 3 3
vselect ule v4i1 2 2 3 3
vselect sgt v4i1 2 2 3 3
vselect sge v4i1 2 2 3 3
vselect slt v4i1 2 2 3 3
vselect sle v4i1 2 2 3 3
select v4i1 2 2 3 3
load v4i1 2 4 1 1
store v4i1 2 1 1 1
extractelement v4i1 0 1 1 1 1
insertelement v4i1 0 3 3 3 3
extractelement v4i1 1 1 1 1 1
insertelement v4i1 1 3 3 3 3
extractelement v4i1 2 1 1 1 1
insertelement v4i1 2 3 3 3 3
extractelement v4i1 3 1 1 1 1
insertelement v4i1 3 3 3 3 3
extractelement v4i1 x 3 2 2 2
insertelement v4i1 x 5 3 3 3
bin add v8i1 v 1 1 1 1
bin add v8i1 c 1 1 1 1
bin add v8i1 p 1 1 1 1
bin add v8i1 k 1 1 1 1
bin add v8i1 kp 1 1 1 1
bin sub v8i1 v 1 1 1 1
bin sub v8i1 c 1 1 1 1
bin sub v8i1 p 1 1 1 1
bin sub v8i1 k 1 1 1 1
bin sub v8i1 kp 1 1 1 1
bin mul v8i1 v 1 5 1 1
bin mul v8i1 c 1 5 1 1
bin mul v8i1 p 1 1 1 1
bin mul v8i1 k 1 5 1 1
bin mul v8i1 kp 1 1 1 1
bin udiv v8i1 v 160 4 4 4
bin udiv v8i1 c 160 4 4 4
bin udiv v8i1 p 1 1 1 1
bin udiv v8i1 k 6 4 4 4
bin udiv v8i1 kp 1 1 1 1
bin sdiv v8i1 v 160 4 4 4
bin sdiv v8i1 c 160 4 4 4
bin sdiv v8i1 p 4 4 4 4
bin sdiv v8i1 k 6 4 4 4
bin sdiv v8i1 kp 4 4 4 4
bin urem v8i1 v 800 4 4 4
bin urem v8i1 c 800 4 4 4
bin urem v8i1 p 1 1 1 1
bin urem v8i1 k 8 4 4 4
bin urem v8i1 kp 1 1 1 1
bin srem v8i1 v 800 4 4 4
bin srem v8i1 c 800 4 4 4
bin srem v8i1 p 6 10 6 6
bin srem v8i1 k 8 4 4 4
bin srem v8i1 kp 6 10 6 6
bin shl v8i1 v 24 27 16 20
bin shl v8i1 c 24 27 16 20
bin shl v8i1 p 1 1 1 1
bin shl v8i1 k 1 5 1 1
bin shl v8i1 kp 1 1 1 1
bin lshr v8i1 v 16 19 31 31
bin lshr v8i1 c 16 19 31 31
bin lshr v8i1 p 1 1 1 1
bin lshr v8i1 k 16 19 31 31
bin lshr v8i1 kp 1 1 1 1
bin ashr v8i1 v 16 19 31 31
bin ashr v8i1 c 16 19 31 31
bin ashr v8i1 p 1 1 1 1
bin ashr v8i1 k 16 19 31 31
bin ashr v8i1 kp 1 1 1 1
bin and v8i1 v 1 1 1 1
bin and v8i1 c 1 1 1 1
bin and v8i1 p 1 1 1 1
bin and v8i1 k 1 1 1 1
bin and v8i1 kp 1 1 1 1
bin or v8i1 v 1 1 1 1
bin or v8i1 c 1 1 1 1
bin or v8i1 p 1 1 1 1
bin or v8i1 k 1 1 1 1
bin or v8i1 kp 1 1 1 1
bin xor v8i1 v 1 1 1 1
bin xor v8i1 c 1 1 1 1
bin xor v8i1 p 1 1 1 1
bin xor v8i1 k 1 1 1 1
bin xor v8i1 kp 1 1 1 1
vicmp eq v8i1 1 1 1 1
vicmp ne v8i1 2 2 2 2
vicmp ugt v8i1 3 3 3 3
vicmp uge v8i1 2 2 2 2
vicmp ult v8i1 3 3 3 3
vicmp ule v8i1 2 2 2 2
vicmp sgt v8i1 1 1 1 1
vicmp sge v8i1 2 2 2 2
vicmp slt v8i1 1 1 1 1
vicmp sle v8i1 2 2 2 2
vicmpz eq v8i1 1 1 1 1
vicmpz ne v8i1 1 1 1 1
vicmpz ugt v8i1 2 2 2 2
vicmpz uge v8i1 2 2 2 2
vicmpz ult v8i1 2 2 2 2
vicmpz ule v8i1 2 2 2 2
vicmpz sgt v8i1 1 1 1 1
vicmpz sge v8i1 1 1 1 1
vicmpz slt v8i1 1 1 1 1
vicmpz sle v8i1 1 1 1 1
vicmpc eq v8i1 1 1 1 1
vicmpc ne v8i1 1 1 1 1
vicmpc ugt v8i1 2 2 2 2
vicmpc uge v8i1 2 2 2 2
vicmpc ult v8i1 2 2 2 2
vicmpc ule v8i1 2 2 2 2
vicmpc sgt v8i1 1 1 1 1
vicmpc sge v8i1 1 1 1 1
vicmpc slt v8i1 1 1 1 1
vicmpc sle v8i1 1 1 1 1
vselect eq v8i1 2 2 3 3
vselect ne v8i1 2 2 3 3
vselect ugt v8i1 2 2 3 3
vselect uge v8i1 2 2 3 3
vselect ult v8i1 2 2 3 3
vselect ule v8i1 2 2 3 3
vselect sgt v8i1 2 2 3 3
vselect sge v8i1 2 2 3 3
vselect slt v8i1 2 2 3 3
vselect sle v8i1 2 2 3 3
select v8i1 2 2 3 3
load v8i1 2 4 1 1
store v8i1 2 1 1 1
extractelement v8i1 0 1 1 1 1
insertelement v8i1 0 1 1 1 1
extractelement v8i1 1 1 1 1 1
insertelement v8i1 1 1 1 1 1
extractelement v8i1 2 1 1 1 1
insertelement v8i1 2 1 1 1 1
extractelement v8i1 3 1 1 1 1
insertelement v8i1 3 1 1 1 1
extractelement v8i1 4 1 1 1 1
insertelement v8i1 4 1 1 1 1
extractelement v8i1 5 1 1 1 1
insertelement v8i1 5 1 1 1 1
extractelement v8i1 6 1 1 1 1
insertelement v8i1 6 1 1 1 1
extractelement v8i1 7 1 1 1 1
insertelement v8i1 7 1 1 1 1
extractelement v8i1 x 3 2 2 2
insertelement v8i1 x 5 3 3 3
bin add v16i1 v 1 1 1 1
bin add v16i1 c 1 1 1 1
bin add v16i1 p 1 1 1 1
bin add v16i1 k 1 1 1 1
bin add v16i1 kp 1 1 1 1
bin sub v16i1 v 1 1 1 1
bin sub v16i1 c 1 1 1 1
bin sub v16i1 p 1 1 1 1
bin sub v16i1 k 1 1 1 1
bin sub v16i1 kp 1 1 1 1
bin mul v16i1 v 6 18 12 12
bin mul v16i1 c 6 18 12 12
bin mul v16i1 p 1 7 2 3
bin mul v16i1 k 6 18 12 12
bin mul v16i1 kp 1 7 2 3
bin udiv v16i1 v 320 4 4 4
bin udiv v16i1 c 320 4 4 4
bin udiv v16i1 p 1 7 2 3
bin udiv v16i1 k 14 4 4 4
bin udiv v16i1 kp 1 7 2 3
bin sdiv v16i1 v 320 4 4 4
bin sdiv v16i1 c 320 4 4 4
bin sdiv v16i1 p 8 26 13 16
bin sdiv v16i1 k 14 4 4 4
bin sdiv v16i1 kp 8 26 13 16
bin urem v16i1 v 1600 4 4 4
bin urem v16i1 c 1600 4 4 4
bin urem v16i1 p 1 1 1 1
bin urem v16i1 k 16 4 4 4
bin urem v16i1 kp 1 1 1 1
bin srem v16i1 v 1600 4 4 4
bin srem v16i1 c 1600 4 4 4
bin srem v16i1 p 15 45 26 29
bin srem v16i1 k 16 4 4 4
bin srem v16i1 kp 15 45 26 29
bin shl v16i1 v 13 21 26 28
bin shl v16i1 c 13 21 26 28
bin shl v16i1 p 1 7 2 3
bin shl v16i1 k 13 21 26 28
bin shl v16i1 kp 1 7 2 3
bin lshr v16i1 v 14 28 27 30
bin lshr v16i1 c 14 28 27 30
bin lshr v16i1 p 1 7 2 3
bin lshr v16i1 k 14 28 27 30
bin lshr v16i1 kp 1 7 2 3
bin ashr v16i1 v 27 30 54 54
bin ashr v16i1 c 27 30 54 54
bin ashr v16i1 p 3 9 5 6
bin ashr v16i1 k 27 30 54 54
bin ashr v16i1 kp 3 9 5 6
bin and v16i1 v 1 1 1 1
bin and v16i1 c 1 1 1 1
bin and v16i1 p 1 1 1 1
bin and v16i1 k 1 1 1 1
bin and v16i1 kp 1 1 1 1
bin or v16i1 v 1 1 1 1
bin or v16i1 c 1 1 1 1
bin or v16i1 p 1 1 1 1
bin or v16i1 k 1 1 1 1
bin or v16i1 kp 1 1 1 1
bin xor v16i1 v 1 1 1 1
bin xor v16i1 c 1 1 1 1
bin xor v16i1 p 1 1 1 1
bin xor v16i1 k 1 1 1 1
bin xor v16i1 kp 1 1 1 1
vicmp eq v16i1 1 1 1 1
vicmp ne v16i1 2 2 2 2
vicmp ugt v16i1 3 3 3 3
vicmp uge v16i1 2 2 2 2
vicmp ult v16i1 3 3 3 3
vicmp ule v16i1 2 2 2 2
vicmp sgt v16i1 1 1 1 1
vicmp sge v16i1 2 2 2 2
vicmp slt v16i1 1 1 1 1
vicmp sle v16i1 2 2 2 2
vicmpz eq v16i1 1 1 1 1
vicmpz ne v16i1 1 1 1 1
vicmpz ugt v16i1 2 2 2 2
vicmpz uge v16i1 2 2 2 2
vicmpz ult v16i1 2 2 2 2
vicmpz ule v16i1 2 2 2 2
vicmpz sgt v16i1 1 1 1 1
vicmpz sge v16i1 1 1 1 1
vicmpz slt v16i1 1 1 1 1
vicmpz sle v16i1 1 1 1 1
vicmpc eq v16i1 1 1 1 1
vicmpc ne v16i1 1 1 1 1
vicmpc ugt v16i1 2 2 2 2
vicmpc uge v16i1 2 2 2 2
vicmpc ult v16i1 2 2 2 2
vicmpc ule v16i1 2 2 2 2
vicmpc sgt v16i1 1 1 1 1
vicmpc sge v16i1 1 1 1 1
vicmpc slt v16i1 1 1 1 1
vicmpc sle v16i1 1 1 1 1
vselect eq v16i1 2 2 3 3
vselect ne v16i1 2 2 3 3
vselect ugt v16i1 2 2 3 3
vselect uge v16i1 2 2 3 3
vselect ult v16i1 2 2 3 3
vselect ule v16i1 2 2 3 3
vselect sgt v16i1 2 2 3 3
vselect sge v16i1 2 2 3 3
vselect slt v16i1 2 2 3 3
vselect sle v16i1 2 2 3 3
select v16i1 2 2 3 3
load v16i1 2 4 1 1
store v16i1 2 1 1 1
extractelement v16i1 0 1 1 1 1
insertelement v16i1 0 14 14 14 14
extractelement v16i1 1 1 1 1 1
insertelement v16i1 1 14 14 14 14
extractelement v16i1 2 1 1 1 1
insertelement v16i1 2 14 14 14 14
extractelement v16i1 3 1 1 1 1
insertelement v16i1 3 14 14 14 14
extractelement v16i1 4 1 1 1 1
insertelement v16i1 4 14 14 14 14
extractelement v16i1 5 1 1 1 1
insertelement v16i1 5 14 14 14 14
extractelement v16i1 6 1 1 1 1
insertelement v16i1 6 14 14 14 14
extractelement v16i1 7 1 1 1 1
insertelement v16i1 7 14 14 14 14
extractelement v16i1 8 1 1 1 1
insertelement v16i1 8 14 14 14 14
extractelement v16i1 9 1 1 1 1
insertelement v16i1 9 14 14 14 14
extractelement v16i1 10 1 1 1 1
insertelement v16i1 10 14 14 14 14
extractelement v16i1 11 1 1 1 1
insertelement v16i1 11 14 14 14 14
extractelement v16i1 12 1 1 1 1
insertelement v16i1 12 14 14 14 14
extractelement v16i1 13 1 1 1 1
insertelement v16i1 13 14 14 14 14
extractelement v16i1 14 1 1 1 1
insertelement v16i1 14 14 14 14 14
extractelement v16i1 15 1 1 1 1
insertelement v16i1 15 14 14 14 14
extractelement v16i1 x 3 2 2 2
insertelement v16i1 x 5 3 3 3
bin add v32i1 v 2 1 1 1
bin add v32i1 c 2 1 1 1
bin add v32i1 p 2 1 1 1
bin add v32i1 k 2 1 1 1
bin add v32i1 kp 2 1 1 1
bin sub v32i1 v 2 1 1 1
bin sub v32i1 c 2 1 1 1
bin sub v32i1 p 2 1 1 1
bin sub v32i1 k 2 1 1 1
bin sub v32i1 kp 2 1 1 1
bin mul v32i1 v 12 36 24 24
bin mul v32i1 c 12 36 24 24
bin mul v32i1 p 2 14 4 6
bin mul v32i1 k 12 36 24 24
bin mul v32i1 kp 2 14 4 6
bin udiv v32i1 v 640 4 4 4
bin udiv v32i1 c 640 4 4 4
bin udiv v32i1 p 2 14 4 6
bin udiv v32i1 k 28 4 4 4
bin udiv v32i1 kp 2 14 4 6
bin sdiv v32i1 v 640 4 4 4
bin sdiv v32i1 c 640 4 4 4
bin sdiv v32i1 p 16 51 25 31
bin sdiv v32i1 k 28 4 4 4
bin sdiv v32i1 kp 16 51 25 31
bin urem v32i1 v 3200 4 4 4
bin urem v32i1 c 3200 4 4 4
bin urem v32i1 p 2 2 2 2
bin urem v32i1 k 32 4 4 4
bin urem v32i1 kp 2 2 2 2
bin srem v32i1 v 3200 4 4 4
bin srem v32i1 c 3200 4 4 4
bin srem v32i1 p 30 88 50 56
bin srem v32i1 k 32 4 4 4
bin srem v32i1 kp 30 88 50 56
bin shl v32i1 v 26 42 52 56
bin shl v32i1 c 26 42 52 56
bin shl v32i1 p 2 14 4 6
bin shl v32i1 k 26 42 52 56
bin shl v32i1 kp 2 14 4 6
bin lshr v32i1 v 28 56 54 60
bin lshr v32i1 c 28 56 54 60
bin lshr v32i1 p 2 14 4 6
bin lshr v32i1 k 28 56 54 60
bin lshr v32i1 kp 2 14 4 6
bin ashr v32i1 v 54 60 108 108
bin ashr v32i1 c 54 60 108 108
bin ashr v32i1 p 6 18 10 12
bin ashr v32i1 k 54 60 108 108
bin ashr v32i1 kp 6 18 10 12
bin and v32i1 v 2 2 2 2
bin and v32i1 c 2 2 2 2
bin and v32i1 p 2 2 2 2
bin and v32i1 k 2 2 2 2
bin and v32i1 kp 2 2 2 2
bin or v32i1 v 2 2 2 2
bin or v32i1 c 2 2 2 2
bin or v32i1 p 2 2 2 2
bin or v32i1 k 2 2 2 2
bin or v32i1 kp 2 2 2 2
bin xor v32i1 v 2 2 2 2
bin xor v32i1 c 2 2 2 2
bin xor v32i1 p 2 2 2 2
bin xor v32i1 k 2 2 2 2
bin xor v32i1 kp 2 2 2 2
vicmp eq v32i1 2 2 2 2
vicmp ne v32i1 4 4 4 4
vicmp ugt v32i1 6 6 6 6
vicmp uge v32i1 4 4 4 4
vicmp ult v32i1 6 6 6 6
vicmp ule v32i1 4 4 4 4
vicmp sgt v32i1 2 2 2 2
vicmp sge v32i1 4 4 4 4
vicmp slt v32i1 2 2 2 2
vicmp sle v32i1 4 4 4 4
vicmpz eq v32i1 2 2 2 2
vicmpz ne v32i1 2 2 2 2
vicmpz ugt v32i1 4 4 4 4
vicmpz uge v32i1 4 4 4 4
vicmpz ult v32i1 4 4 4 4
vicmpz ule v32i1 4 4 4 4
vicmpz sgt v32i1 2 2 2 2
vicmpz sge v32i1 2 2 2 2
vicmpz slt v32i1 2 2 2 2
vicmpz sle v32i1 2 2 2 2
vicmpc eq v32i1 2 2 2 2
vicmpc ne v32i1 2 2 2 2
vicmpc ugt v32i1 4 4 4 4
vicmpc uge v32i1 4 4 4 4
vicmpc ult v32i1 4 4 4 4
vicmpc ule v32i1 4 4 4 4
vicmpc sgt v32i1 2 2 2 2
vicmpc sge v32i1 2 2 2 2
vicmpc slt v32i1 2 2 2 2
vicmpc sle v32i1 2 2 2 2
vselect eq v32i1 4 4 6 6
vselect ne v32i1 4 4 6 6
vselect ugt v32i1 4 4 6 6
vselect uge v32i1 4 4 6 6
vselect ult v32i1 4 4 6 6
vselect ule v32i1 4 4 6 6
vselect sgt v32i1 4 4 6 6
vselect sge v32i1 4 4 6 6
vselect slt v32i1 4 4 6 6
vselect sle v32i1 4 4 6 6
select v32i1 4 4 6 6
load v32i1 1 4 1 1
store v32i1 1 1 1 1
extractelement v32i1 0 1 1 1 1
insertelement v32i1 0 14 14 14 14
extractelement v32i1 1 1 1 1 1
insertelement v32i1 1 14 14 14 14
extractelement v32i1 2 1 1 1 1
insertelement v32i1 2 14 14 14 14
extractelement v32i1 3 1 1 1 1
insertelement v32i1 3 14 14 14 14
extractelement v32i1 4 1 1 1 1
insertelement v32i1 4 14 14 14 14
extractelement v32i1 5 1 1 1 1
insertelement v32i1 5 14 14 14 14
extractelement v32i1 6 1 1 1 1
insertelement v32i1 6 14 14 14 14
extractelement v32i1 7 1 1 1 1
insertelement v32i1 7 14 14 14 14
extractelement v32i1 8 1 1 1 1
insertelement v32i1 8 14 14 14 14
extractelement v32i1 9 1 1 1 1
insertelement v32i1 9 14 14 14 14
extractelement v32i1 10 1 1 1 1
insertelement v32i1 10 14 14 14 14
extractelement v32i1 11 1 1 1 1
insertelement v32i1 11 14 14 14 14
extractelement v32i1 12 1 1 1 1
insertelement v32i1 12 14 14 14 14
extractelement v32i1 13 1 1 1 1
insertelement v32i1 13 14 14 14 14
extractelement v32i1 14 1 1 1 1
insertelement v32i1 14 14 14 14 14
extractelement v32i1 15 1 1 1 1
insertelement v32i1 15 14 14 14 14
extractelement v32i1 16 1 1 1 1
insertelement v32i1 16 14 14 14 14
extractelement v32i1 17 1 1 1 1
insertelement v32i1 17 14 14 14 14
extractelement v32i1 18 1 1 1 1
insertelement v32i1 18 14 14 14 14
extractelement v32i1 19 1 1 1 1
insertelement v32i1 19 14 14 14 14
extractelement v32i1 20 1 1 1 1
insertelement v32i1 20 14 14 14 14
extractelement v32i1 21 1 1 1 1
insertelement v32i1 21 14 14 14 14
extractelement v32i1 22 1 1 1 1
insertelement v32i1 22 14 14 14 14
extractelement v32i1 23 1 1 1 1
insertelement v32i1 23 14 14 14 14
extractelement v32i1 24 1 1 1 1
insertelement v32i1 24 14 14 14 14
extractelement v32i1 25 1 1 1 1
insertelement v32i1 25 14 14 14 14
extractelement v32i1 26 1 1 1 1
insertelement v32i1 26 14 14 14 14
extractelement v32i1 27 1 1 1 1
insertelement v32i1 27 14 14 14 14
extractelement v32i1 28 1 1 1 1
insertelement v32i1 28 14 14 14 14
extractelement v32i1 29 1 1 1 1
insertelement v32i1 29 14 14 14 14
extractelement v32i1 30 1 1 1 1
insertelement v32i1 30 14 14 14 14
extractelement v32i1 31 1 1 1 1
insertelement v32i1 31 14 14 14 14
extractelement v32i1 x 2 2 2 2
insertelement v32i1 x 3 3 3 3
bin add v1i1 v 1 1 1 1
bin add v1i1 c 1 1 1 1
bin add v1i1 p 1 1 1 1
bin add v1i1 kp 1 1 1 1
bin sub v1i1 v 1 1 1 1
bin sub v1i1 c 1 1 1 1
bin sub v1i1 p 1 1 1 1
bin sub v1i1 kp 1 1 1 1
bin mul v1i1 v 3 4 1 1
bin mul v1i1 c 3 4 1 1
bin mul v1i1 p 1 1 1 1
bin mul v1i1 kp 1 1 1 1
bin udiv v1i1 v 3 4 4 4
bin udiv v1i1 c 2 4 4 4
bin udiv v1i1 p 1 1 1 1
bin udiv v1i1 kp 1 1 1 1
bin sdiv v1i1 v 3 4 4 4
bin sdiv v1i1 c 2 4 4 4
bin sdiv v1i1 p 4 4 4 4
bin sdiv v1i1 kp 4 4 4 4
bin urem v1i1 v 6 4 4 4
bin urem v1i1 c 6 4 4 4
bin urem v1i1 p 1 1 1 1
bin urem v1i1 kp 1 1 1 1
bin srem v1i1 v 6 4 4 4
bin srem v1i1 c 6 4 4 4
bin srem v1i1 p 8 9 6 6
bin srem v1i1 kp 8 9 6 6
bin shl v1i1 v 1 1 1 1
bin shl v1i1 c 1 1 1 1
bin shl v1i1 p 1 1 1 1
bin shl v1i1 kp 1 1 1 1
bin lshr v1i1 v 1 1 1 1
bin lshr v1i1 c 1 1 1 1
bin lshr v1i1 p 1 1 1 1
bin lshr v1i1 kp 1 1 1 1
bin ashr v1i1 v 1 1 1 1
bin ashr v1i1 c 1 1 1 1
bin ashr v1i1 p 1 1 1 1
bin ashr v1i1 kp 1 1 1 1
bin and v1i1 v 1 1 1 1
bin and v1i1 c 1 1 1 1
bin and v1i1 p 1 1 1 1
bin and v1i1 kp 1 1 1 1
bin or v1i1 v 1 1 1 1
bin or v1i1 c 1 1 1 1
bin or v1i1 p 1 1 1 1
bin or v1i1 kp 1 1 1 1
bin xor v1i1 v 1 1 1 1
bin xor v1i1 c 1 1 1 1
bin xor v1i1 p 1 1 1 1
bin xor v1i1 kp 1 1 1 1
vicmp eq v1i1 1 1 1 1
vicmp ne v1i1 1 1 1 1
vicmp ugt v1i1 1 1 1 1
vicmp uge v1i1 1 1 1 1
vicmp ult v1i1 1 1 1 1
vicmp ule v1i1 1 1 1 1
vicmp sgt v1i1 1 1 1 1
vicmp sge v1i1 1 1 1 1
vicmp slt v1i1 1 1 1 1
vicmp sle v1i1 1 1 1 1
vicmpz eq v1i1 1 1 1 1
vicmpz ne v1i1 1 1 1 1
vicmpz ugt v1i1 1 1 1 1
vicmpz uge v1i1 1 1 1 1
vicmpz ult v1i1 1 1 1 1
vicmpz ule v1i1 1 1 1 1
vicmpz sgt v1i1 1 1 1 1
vicmpz sge v1i1 1 1 1 1
vicmpz slt v1i1 1 1 1 1
vicmpz sle v1i1 1 1 1 1
vicmpc eq v1i1 1 1 1 1
vicmpc ne v1i1 1 1 1 1
vicmpc ugt v1i1 1 1 1 1
vicmpc uge v1i1 1 1 1 1
vicmpc ult v1i1 1 1 1 1
vicmpc ule v1i1 1 1 1 1
vicmpc sgt v1i1 1 1 1 1
vicmpc sge v1i1 1 1 1 1
vicmpc slt v1i1 1 1 1 1
vicmpc sle v1i1 1 1 1 1
vselect eq v1i1 1 1 1 1
vselect ne v1i1 1 1 1 1
vselect ugt v1i1 1 1 1 1
vselect uge v1i1 1 1 1 1
vselect ult v1i1 1 1 1 1
vselect ule v1i1 1 1 1 1
vselect sgt v1i1 1 1 1 1
vselect sge v1i1 1 1 1 1
vselect slt v1i1 1 1 1 1
vselect sle v1i1 1 1 1 1
select v1i1 1 1 1 1
load v1i1 1 4 1 1
store v1i1 1 1 1 1
extractelement v1i1 0 0 0 0 0
insertelement v1i1 0 0 0 0 0
extractelement v1i1 x 2 2 2 2
insertelement v1i1 x 3 3 3 3
bin fadd v16f64 v 16 24 8 8
bin fsub v16f64 v 16 24 8 8
bin fmul v16f64 v 16 40 8 8
bin fdiv v16f64 v 552 552 8 8
bin frem v16f64 v 56 4 4 4
fneg v16f64 8 8 8 8
fcmp false v16f64 16 40 8 8
fcmp oeq v16f64 16 40 8 8
fcmp ogt v16f64 16 40 8 8
fcmp oge v16f64 16 40 8 8
fcmp olt v16f64 16 40 8 8
fcmp ole v16f64 16 40 8 8
fcmp one v16f64 33 81 17 17
fcmp ord v16f64 16 40 8 8
fcmp ueq v16f64 33 81 17 17
fcmp ugt v16f64 16 40 8 8
fcmp uge v16f64 16 40 8 8
fcmp ult v16f64 16 40 8 8
fcmp ule v16f64 16 40 8 8
fcmp une v16f64 16 40 8 8
fcmp uno v16f64 16 40 8 8
fcmp true v16f64 16 40 8 8
vselect false v16f64 16 16 24 24
vselect oeq v16f64 16 16 24 24
vselect ogt v16f64 16 16 24 24
vselect oge v16f64 16 16 24 24
vselect olt v16f64 16 16 24 24
vselect ole v16f64 16 16 24 24
vselect one v16f64 16 16 24 24
vselect ord v16f64 16 16 24 24
vselect ueq v16f64 16 16 24 24
vselect ugt v16f64 16 16 24 24
vselect uge v16f64 16 16 24 24
vselect ult v16f64 16 16 24 24
vselect ule v16f64 16 16 24 24
vselect une v16f64 16 16 24 24
vselect uno v16f64 16 16 24 24
vselect true v16f64 16 16 24 24
select v16f64 16 16 24 24
load v16f64 8 4 1 1
store v16f64 8 1 1 1
extractelement v16f64 0 0 0 0 0
insertelement v16f64 0 1 1 1 1
extractelement v16f64 1 1 1 1 1
insertelement v16f64 1 1 1 1 1
extractelement v16f64 2 0 0 0 0
insertelement v16f64 2 1 1 1 1
extractelement v16f64 3 1 1 1 1
insertelement v16f64 3 1 1 1 1
extractelement v16f64 4 0 0 0 0
insertelement v16f64 4 1 1 1 1
extractelement v16f64 5 1 1 1 1
insertelement v16f64 5 1 1 1 1
extractelement v16f64 6 0 0 0 0
insertelement v16f64 6 1 1 1 1
extractelement v16f64 7 1 1 1 1
insertelement v16f64 7 1 1 1 1
extractelement v16f64 8 0 0 0 0
insertelement v16f64 8 1 1 1 1
extractelement v16f64 9 1 1 1 1
insertelement v16f64 9 1 1 1 1
extractelement v16f64 10 0 0 0 0
insertelement v16f64 10 1 1 1 1
extractelement v16f64 11 1 1 1 1
insertelement v16f64 11 1 1 1 1
extractelement v16f64 12 0 0 0 0
insertelement v16f64 12 1 1 1 1
extractelement v16f64 13 1 1 1 1
insertelement v16f64 13 1 1 1 1
extractelement v16f64 14 0 0 0 0
insertelement v16f64 14 1 1 1 1
extractelement v16f64 15 1 1 1 1
insertelement v16f64 15 1 1 1 1
extractelement v16f64 x 9 2 2 2
insertelement v16f64 x 17 3 3 3
cast zext v16i16 v16i8 2 2 2 2
cast sext v16i16 v16i8 4 2 2 2
castL zext v16i16 v16i8 2 2 2 2
castL sext v16i16 v16i8 4 2 2 2
cast zext v16i32 v16i8 8 4 4 4
cast sext v16i32 v16i8 12 4 4 4
castL zext v16i32 v16i8 8 4 4 4
castL sext v16i32 v16i8 12 4 4 4
cast sitofp v16f32 v16i8 12 4 4 4
cast uitofp v16f32 v16i8 16 4 4 4
cast trunc v16i1 v16i8 0 0 0 0
cast sitofp v16f64 v16i8 32 8 8 8
cast uitofp v16f64 v16i8 32 8 8 8
cast trunc v16i8 v16i16 3 1 1 1
cast zext v16i32 v16i16 4 4 4 4
cast sext v16i32 v16i16 8 4 4 4
castL zext v16i32 v16i16 4 4 4 4
castL sext v16i32 v16i16 8 4 4 4
cast sitofp v16f32 v16i16 12 4 4 4
cast uitofp v16f32 v16i16 16 4 4 4
cast trunc v16i1 v16i16 4 2 2 2
cast sitofp v16f64 v16i16 32 8 8 8
cast uitofp v16f64 v16i16 32 8 8 8
cast trunc v16i8 v16i32 7 1 1 1
cast trunc v16i16 v16i32 10 1 1 1
cast sitofp v16f32 v16i32 12 4 4 4
cast uitofp v16f32 v16i32 20 4 4 4
cast bitcast v16f32 v16i32 0 0 0 0
cast trunc v16i1 v16i32 12 4 4 4
cast sitofp v16f64 v16i32 32 8 8 8
cast uitofp v16f64 v16i32 56 8 8 8
cast fptosi v16i8 v16f32 24 4 4 4
cast fptoui v16i8 v16f32 24 4 4 4
cast fptosi v16i16 v16f32 20 4 4 4
cast fptoui v16i16 v16f32 20 4 4 4
cast fptosi v16i32 v16f32 16 4 4 4
cast fptoui v16i32 v16f32 32 4 4 4
cast bitcast v16i32 v16f32 0 0 0 0
cast fptosi v16i1 v16f32 24 4 4 4
cast fptoui v16i1 v16f32 24 4 4 4
cast fpext v16f64 v16f32 12 1 1 1
cast zext v16i8 v16i1 1 1 1 1
cast sext v16i8 v16i1 2 1 1 1
castL zext v16i8 v16i1 1 1 1 1
castL sext v16i8 v16i1 2 1 1 1
cast zext v16i16 v16i1 2 2 2 2
cast sext v16i16 v16i1 4 2 2 2
castL zext v16i16 v16i1 2 2 2 2
castL sext v16i16 v16i1 4 2 2 2
cast zext v16i32 v16i1 8 4 4 4
cast sext v16i32 v16i1 12 4 4 4
castL zext v16i32 v16i1 8 4 4 4
castL sext v16i32 v16i1 12 4 4 4
cast sitofp v16f32 v16i1 12 4 4 4
cast uitofp v16f32 v16i1 16 4 4 4
cast sitofp v16f64 v16i1 32 8 8 8
cast uitofp v16f64 v16i1 32 8 8 8
cast fptosi v16i8 v16f64 48 8 8 8
cast fptoui v16i8 v16f64 48 8 8 8
cast fptosi v16i16 v16f64 40 8 8 8
cast fptoui v16i16 v16f64 40 8 8 8
cast fptosi v16i32 v16f64 32 8 8 8
cast fptoui v16i32 v16f64 64 8 8 8
cast fptrunc v16f32 v16f64 12 1 1 1
cast fptosi v16i1 v16f64 48 8 8 8
cast fptoui v16i1 v16f64 48 8 8 8
cast trunc v8i8 v8i16 2 1 1 1
cast zext v8i32 v8i16 2 2 2 2
cast sext v8i32 v8i16 4 2 2 2
castL zext v8i32 v8i16 2 2 2 2
castL sext v8i32 v8i16 4 2 2 2
cast sitofp v8f32 v8i16 6 2 2 2
cast uitofp v8f32 v8i16 8 2 2 2
cast zext v8i64 v8i16 8 4 4 4
cast sext v8i64 v8i16 12 4 4 4
castL zext v8i64 v8i16 8 4 4 4
castL sext v8i64 v8i16 12 4 4 4
cast sitofp v8f64 v8i16 16 4 4 4
cast uitofp v8f64 v8i16 16 4 4 4
cast trunc v8i1 v8i16 0 0 0 0
cast zext v8i16 v8i8 1 1 1 1
cast sext v8i16 v8i8 2 1 1 1
castL zext v8i16 v8i8 1 1 1 1
castL sext v8i16 v8i8 2 1 1 1
cast zext v8i32 v8i8 4 2 2 2
cast sext v8i32 v8i8 6 2 2 2
castL zext v8i32 v8i8 4 2 2 2
castL sext v8i32 v8i8 6 2 2 2
cast sitofp v8f32 v8i8 6 2 2 2
cast uitofp v8f32 v8i8 8 2 2 2
cast zext v8i64 v8i8 16 4 4 4
cast sext v8i64 v8i8 16 4 4 4
castL zext v8i64 v8i8 16 4 4 4
castL sext v8i64 v8i8 16 4 4 4
cast sitofp v8f64 v8i8 16 4 4 4
cast uitofp v8f64 v8i8 16 4 4 4
cast trunc v8i1 v8i8 1 1 1 1
cast trunc v8i16 v8i32 5 1 1 1
cast trunc v8i8 v8i32 6 2 2 2
cast sitofp v8f32 v8i32 6 2 2 2
cast uitofp v8f32 v8i32 10 2 2 2
cast bitcast v8f32 v8i32 0 0 0 0
cast zext v8i64 v8i32 4 4 4 4
cast sext v8i64 v8i32 8 4 4 4
castL zext v8i64 v8i32 4 4 4 4
castL sext v8i64 v8i32 8 4 4 4
cast sitofp v8f64 v8i32 16 4 4 4
cast uitofp v8f64 v8i32 28 4 4 4
cast trunc v8i1 v8i32 6 2 2 2
cast fptosi v8i16 v8f32 10 2 2 2
cast fptoui v8i16 v8f32 10 2 2 2
cast fptosi v8i8 v8f32 12 2 2 2
cast fptoui v8i8 v8f32 12 2 2 2
cast fptosi v8i32 v8f32 8 2 2 2
cast fptoui v8i32 v8f32 16 2 2 2
cast bitcast v8i32 v8f32 0 0 0 0
cast fptosi v8i64 v8f32 58 1 1 1
cast fptoui v8i64 v8f32 58 1 1 1
cast fpext v8f64 v8f32 6 1 1 1
cast fptosi v8i1 v8f32 10 2 2 2
cast fptoui v8i1 v8f32 10 2 2 2
cast trunc v8i16 v8i64 8 4 4 4
cast trunc v8i8 v8i64 16 4 4 4
cast trunc v8i32 v8i64 4 4 4 4
cast sitofp v8f32 v8i64 32 4 4 4
cast uitofp v8f32 v8i64 72 4 4 4
cast sitofp v8f64 v8i64 32 4 4 4
cast uitofp v8f64 v8i64 60 4 4 4
cast bitcast v8f64 v8i64 0 0 0 0
cast trunc v8i1 v8i64 8 4 4 4
cast fptosi v8i16 v8f64 20 4 4 4
cast fptoui v8i16 v8f64 20 4 4 4
cast fptosi v8i8 v8f64 24 4 4 4
cast fptoui v8i8 v8f64 24 4 4 4
cast fptosi v8i32 v8f64 16 4 4 4
cast fptoui v8i32 v8f64 32 4 4 4
cast fptrunc v8f32 v8f64 6 1 1 1
cast fptosi v8i64 v8f64 56 1 1 1
cast fptoui v8i64 v8f64 144 1 1 1
cast bitcast v8i64 v8f64 0 0 0 0
cast fptosi v8i1 v8f64 20 4 4 4
cast fptoui v8i1 v8f64 20 4 4 4
cast zext v8i16 v8i1 1 1 1 1
cast sext v8i16 v8i1 2 1 1 1
castL zext v8i16 v8i1 1 1 1 1
castL sext v8i16 v8i1 2 1 1 1
cast zext v8i8 v8i1 1 1 1 1
cast sext v8i8 v8i1 2 1 1 1
castL zext v8i8 v8i1 1 1 1 1
castL sext v8i8 v8i1 2 1 1 1
cast zext v8i32 v8i1 2 2 2 2
cast sext v8i32 v8i1 4 2 2 2
castL zext v8i32 v8i1 2 2 2 2
castL sext v8i32 v8i1 4 2 2 2
cast sitofp v8f32 v8i1 6 2 2 2
cast uitofp v8f32 v8i1 8 2 2 2
cast zext v8i64 v8i1 8 4 4 4
cast sext v8i64 v8i1 12 4 4 4
castL zext v8i64 v8i1 8 4 4 4
castL sext v8i64 v8i1 12 4 4 4
cast sitofp v8f64 v8i1 16 4 4 4
cast uitofp v8f64 v8i1 16 4 4 4
cast sitofp v4f32 v4i32 3 1 1 1
cast uitofp v4f32 v4i32 5 1 1 1
cast bitcast v4f32 v4i32 0 0 0 0
cast trunc v4i8 v4i32 3 1 1 1
cast trunc v4i16 v4i32 3 1 1 1
cast zext v4i64 v4i32 2 2 2 2
cast sext v4i64 v4i32 4 2 2 2
castL zext v4i64 v4i32 2 2 2 2
castL sext v4i64 v4i32 4 2 2 2
cast sitofp v4f64 v4i32 8 2 2 2
cast uitofp v4f64 v4i32 14 2 2 2
cast trunc v4i1 v4i32 0 0 0 0
cast fptosi v4i32 v4f32 4 1 1 1
cast fptoui v4i32 v4f32 8 1 1 1
cast bitcast v4i32 v4f32 0 0 0 0
cast fptosi v4i8 v4f32 6 1 1 1
cast fptoui v4i8 v4f32 6 1 1 1
cast fptosi v4i16 v4f32 5 1 1 1
cast fptoui v4i16 v4f32 5 1 1 1
cast fptosi v4i64 v4f32 29 1 1 1
cast fptoui v4i64 v4f32 29 1 1 1
cast fpext v4f64 v4f32 3 1 1 1
cast fptosi v4i1 v4f32 4 1 1 1
cast fptoui v4i1 v4f32 8 1 1 1
cast zext v4i32 v4i8 2 1 1 1
cast sext v4i32 v4i8 3 1 1 1
castL zext v4i32 v4i8 2 1 1 1
castL sext v4i32 v4i8 3 1 1 1
cast sitofp v4f32 v4i8 3 1 1 1
cast uitofp v4f32 v4i8 4 1 1 1
cast zext v4i16 v4i8 1 1 1 1
cast sext v4i16 v4i8 2 1 1 1
castL zext v4i16 v4i8 1 1 1 1
castL sext v4i16 v4i8 2 1 1 1
cast zext v4i64 v4i8 8 2 2 2
cast sext v4i64 v4i8 8 2 2 2
castL zext v4i64 v4i8 8 2 2 2
castL sext v4i64 v4i8 8 2 2 2
cast sitofp v4f64 v4i8 8 2 2 2
cast uitofp v4f64 v4i8 8 2 2 2
cast trunc v4i1 v4i8 2 1 1 1
cast zext v4i32 v4i16 1 1 1 1
cast sext v4i32 v4i16 2 1 1 1
castL zext v4i32 v4i16 1 1 1 1
castL sext v4i32 v4i16 2 1 1 1
cast sitofp v4f32 v4i16 3 1 1 1
cast uitofp v4f32 v4i16 4 1 1 1
cast trunc v4i8 v4i16 2 1 1 1
cast zext v4i64 v4i16 4 2 2 2
cast sext v4i64 v4i16 6 2 2 2
castL zext v4i64 v4i16 4 2 2 2
castL sext v4i64 v4i16 6 2 2 2
cast sitofp v4f64 v4i16 8 2 2 2
cast uitofp v4f64 v4i16 8 2 2 2
cast trunc v4i1 v4i16 1 1 1 1
cast trunc v4i32 v4i64 2 2 2 2
cast sitofp v4f32 v4i64 16 2 2 2
cast uitofp v4f32 v4i64 36 2 2 2
cast trunc v4i8 v4i64 8 2 2 2
cast trunc v4i16 v4i64 4 2 2 2
cast sitofp v4f64 v4i64 16 2 2 2
cast uitofp v4f64 v4i64 30 2 2 2
cast bitcast v4f64 v4i64 0 0 0 0
cast trunc v4i1 v4i64 2 2 2 2
cast fptosi v4i32 v4f64 8 2 2 2
cast fptoui v4i32 v4f64 16 2 2 2
cast fptrunc v4f32 v4f64 3 1 1 1
cast fptosi v4i8 v4f64 12 2 2 2
cast fptoui v4i8 v4f64 12 2 2 2
cast fptosi v4i16 v4f64 10 2 2 2
cast fptoui v4i16 v4f64 10 2 2 2
cast fptosi v4i64 v4f64 28 1 1 1
cast fptoui v4i64 v4f64 72 1 1 1
cast bitcast v4i64 v4f64 0 0 0 0
cast fptosi v4i1 v4f64 8 2 2 2
cast fptoui v4i1 v4f64 16 2 2 2
cast zext v4i32 v4i1 1 1 1 1
cast sext v4i32 v4i1 2 1 1 1
castL zext v4i32 v4i1 1 1 1 1
castL sext v4i32 v4i1 2 1 1 1
cast sitofp v4f32 v4i1 3 1 1 1
cast uitofp v4f32 v4i1 5 1 1 1
cast zext v4i8 v4i1 1 1 1 1
cast sext v4i8 v4i1 2 1 1 1
castL zext v4i8 v4i1 1 1 1 1
castL sext v4i8 v4i1 2 1 1 1
cast zext v4i16 v4i1 1 1 1 1
cast sext v4i16 v4i1 2 1 1 1
castL zext v4i16 v4i1 1 1 1 1
castL sext v4i16 v4i1 2 1 1 1
cast zext v4i64 v4i1 2 2 2 2
cast sext v4i64 v4i1 4 2 2 2
castL zext v4i64 v4i1 2 2 2 2
castL sext v4i64 v4i1 4 2 2 2
cast sitofp v4f64 v4i1 8 2 2 2
cast uitofp v4f64 v4i1 14 2 2 2
cast sitofp v2f64 v2i64 8 1 1 1
cast uitofp v2f64 v2i64 15 1 1 1
cast bitcast v2f64 v2i64 0 0 0 0
cast trunc v2i8 v2i64 4 1 1 1
cast trunc v2i16 v2i64 2 1 1 1
cast trunc v2i32 v2i64 1 1 1 1
cast sitofp v2f32 v2i64 8 1 1 1
cast uitofp v2f32 v2i64 18 1 1 1
cast trunc v2i1 v2i64 0 0 0 0
cast fptosi v2i64 v2f64 14 1 1 1
cast fptoui v2i64 v2f64 36 1 1 1
cast bitcast v2i64 v2f64 0 0 0 0
cast fptosi v2i8 v2f64 6 1 1 1
cast fptoui v2i8 v2f64 6 1 1 1
cast fptosi v2i16 v2f64 5 1 1 1
cast fptoui v2i16 v2f64 5 1 1 1
cast fptosi v2i32 v2f64 4 1 1 1
cast fptoui v2i32 v2f64 8 1 1 1
cast fptrunc v2f32 v2f64 1 1 1 1
cast fptosi v2i1 v2f64 7 1 1 1
cast fptoui v2i1 v2f64 7 1 1 1
cast zext v2i64 v2i8 4 1 1 1
cast sext v2i64 v2i8 4 1 1 1
castL zext v2i64 v2i8 4 1 1 1
castL sext v2i64 v2i8 4 1 1 1
cast sitofp v2f64 v2i8 4 1 1 1
cast uitofp v2f64 v2i8 4 1 1 1
cast zext v2i16 v2i8 1 1 1 1
cast sext v2i16 v2i8 2 1 1 1
castL zext v2i16 v2i8 1 1 1 1
castL sext v2i16 v2i8 2 1 1 1
cast zext v2i32 v2i8 2 1 1 1
cast sext v2i32 v2i8 3 1 1 1
castL zext v2i32 v2i8 2 1 1 1
castL sext v2i32 v2i8 3 1 1 1
cast sitofp v2f32 v2i8 3 1 1 1
cast uitofp v2f32 v2i8 4 1 1 1
cast trunc v2i1 v2i8 3 1 1 1
cast zext v2i64 v2i16 2 1 1 1
cast sext v2i64 v2i16 3 1 1 1
castL zext v2i64 v2i16 2 1 1 1
castL sext v2i64 v2i16 3 1 1 1
cast sitofp v2f64 v2i16 4 1 1 1
cast uitofp v2f64 v2i16 4 1 1 1
cast trunc v2i8 v2i16 2 1 1 1
cast zext v2i32 v2i16 1 1 1 1
cast sext v2i32 v2i16 2 1 1 1
castL zext v2i32 v2i16 1 1 1 1
castL sext v2i32 v2i16 2 1 1 1
cast sitofp v2f32 v2i16 3 1 1 1
cast uitofp v2f32 v2i16 4 1 1 1
cast trunc v2i1 v2i16 2 1 1 1
cast zext v2i64 v2i32 1 1 1 1
cast sext v2i64 v2i32 2 1 1 1
castL zext v2i64 v2i32 1 1 1 1
castL sext v2i64 v2i32 2 1 1 1
cast sitofp v2f64 v2i32 4 1 1 1
cast uitofp v2f64 v2i32 7 1 1 1
cast trunc v2i8 v2i32 3 1 1 1
cast trunc v2i16 v2i32 1 1 1 1
cast sitofp v2f32 v2i32 3 1 1 1
cast uitofp v2f32 v2i32 7 1 1 1
cast bitcast v2f32 v2i32 0 0 0 0
cast trunc v2i1 v2i32 1 1 1 1
cast fptosi v2i64 v2f32 14 1 1 1
cast fptoui v2i64 v2f32 14 1 1 1
cast fpext v2f64 v2f32 1 1 1 1
cast fptosi v2i8 v2f32 6 1 1 1
cast fptoui v2i8 v2f32 6 1 1 1
cast fptosi v2i16 v2f32 5 1 1 1
cast fptoui v2i16 v2f32 5 1 1 1
cast fptosi v2i32 v2f32 4 1 1 1
cast fptoui v2i32 v2f32 8 1 1 1
cast bitcast v2i32 v2f32 0 0 0 0
cast fptosi v2i1 v2f32 7 1 1 1
cast fptoui v2i1 v2f32 7 1 1 1
cast zext v2i64 v2i1 1 1 1 1
cast sext v2i64 v2i1 2 1 1 1
castL zext v2i64 v2i1 1 1 1 1
castL sext v2i64 v2i1 2 1 1 1
cast sitofp v2f64 v2i1 8 1 1 1
cast uitofp v2f64 v2i1 15 1 1 1
cast zext v2i8 v2i1 1 1 1 1
cast sext v2i8 v2i1 2 1 1 1
castL zext v2i8 v2i1 1 1 1 1
castL sext v2i8 v2i1 2 1 1 1
cast zext v2i16 v2i1 1 1 1 1
cast sext v2i16 v2i1 2 1 1 1
castL zext v2i16 v2i1 1 1 1 1
castL sext v2i16 v2i1 2 1 1 1
cast zext v2i32 v2i1 1 1 1 1
cast sext v2i32 v2i1 2 1 1 1
castL zext v2i32 v2i1 1 1 1 1
castL sext v2i32 v2i1 2 1 1 1
cast sitofp v2f32 v2i1 8 1 1 1
cast uitofp v2f32 v2i1 18 1 1 1
cast zext v32i16 v32i8 4 4 4 4
cast sext v32i16 v32i8 8 4 4 4
castL zext v32i16 v32i8 4 4 4 4
castL sext v32i16 v32i8 8 4 4 4
cast trunc v32i1 v32i8 0 0 0 0
cast trunc v32i8 v32i16 8 4 4 4
cast trunc v32i1 v32i16 8 4 4 4
cast zext v32i8 v32i1 2 1 1 1
cast sext v32i8 v32i1 4 1 1 1
castL zext v32i8 v32i1 2 1 1 1
castL sext v32i8 v32i1 4 1 1 1
cast zext v32i16 v32i1 4 4 4 4
cast sext v32i16 v32i1 8 4 4 4
castL zext v32i16 v32i1 4 4 4 4
castL sext v32i16 v32i1 8 4 4 4
cast zext v1i16 v1i8 1 1 1 1
cast sext v1i16 v1i8 1 1 1 1
castL zext v1i16 v1i8 1 1 1 1
castL sext v1i16 v1i8 1 1 1 1
cast zext v1i32 v1i8 1 1 1 1
cast sext v1i32 v1i8 1 1 1 1
castL zext v1i32 v1i8 1 1 1 1
castL sext v1i32 v1i8 1 1 1 1
cast zext v1i64 v1i8 1 1 1 1
cast sext v1i64 v1i8 1 1 1 1
castL zext v1i64 v1i8 1 1 1 1
castL sext v1i64 v1i8 1 1 1 1
cast sitofp v1f32 v1i8 4 2 2 2
cast uitofp v1f32 v1i8 4 2 2 2
cast sitofp v1f64 v1i8 4 2 2 2
cast uitofp v1f64 v1i8 4 2 2 2
cast trunc v1i1 v1i8 0 0 0 0
cast trunc v1i8 v1i16 0 0 0 0
cast zext v1i32 v1i16 1 1 1 1
cast sext v1i32 v1i16 1 1 1 1
castL zext v1i32 v1i16 1 1 1 1
castL sext v1i32 v1i16 1 1 1 1
cast zext v1i64 v1i16 1 1 1 1
cast sext v1i64 v1i16 1 1 1 1
castL zext v1i64 v1i16 1 1 1 1
castL sext v1i64 v1i16 1 1 1 1
cast sitofp v1f32 v1i16 4 2 2 2
cast uitofp v1f32 v1i16 4 2 2 2
cast sitofp v1f64 v1i16 4 2 2 2
cast uitofp v1f64 v1i16 4 2 2 2
cast trunc v1i1 v1i16 0 0 0 0
cast trunc v1i8 v1i32 0 0 0 0
cast trunc v1i16 v1i32 0 0 0 0
cast zext v1i64 v1i32 0 0 0 0
cast sext v1i64 v1i32 1 1 1 1
castL zext v1i64 v1i32 0 0 0 0
castL sext v1i64 v1i32 1 1 1 1
cast sitofp v1f32 v1i32 3 1 1 1
cast uitofp v1f32 v1i32 3 1 1 1
cast bitcast v1f32 v1i32 0 0 0 0
cast sitofp v1f64 v1i32 3 1 1 1
cast uitofp v1f64 v1i32 3 1 1 1
cast trunc v1i1 v1i32 0 0 0 0
cast trunc v1i8 v1i64 0 0 0 0
cast trunc v1i16 v1i64 0 0 0 0
cast trunc v1i32 v1i64 0 0 0 0
cast sitofp v1f32 v1i64 3 1 1 1
cast uitofp v1f32 v1i64 8 1 1 1
cast sitofp v1f64 v1i64 3 1 1 1
cast uitofp v1f64 v1i64 9 1 1 1
cast bitcast v1f64 v1i64 0 0 0 0
cast trunc v1i1 v1i64 0 0 0 0
cast fptosi v1i8 v1f32 4 1 1 1
cast fptoui v1i8 v1f32 4 1 1 1
cast fptosi v1i16 v1f32 4 1 1 1
cast fptoui v1i16 v1f32 4 1 1 1
cast fptosi v1i32 v1f32 4 1 1 1
cast fptoui v1i32 v1f32 4 1 1 1
cast bitcast v1i32 v1f32 0 0 0 0
cast fptosi v1i64 v1f32 4 1 1 1
cast fptoui v1i64 v1f32 4 1 1 1
cast fpext v1f64 v1f32 1 1 1 1
cast fptosi v1i1 v1f32 1 1 1 1
cast fptoui v1i1 v1f32 1 1 1 1
cast fptosi v1i8 v1f64 4 1 1 1
cast fptoui v1i8 v1f64 4 1 1 1
cast fptosi v1i16 v1f64 4 1 1 1
cast fptoui v1i16 v1f64 4 1 1 1
cast fptosi v1i32 v1f64 4 1 1 1
cast fptoui v1i32 v1f64 4 1 1 1
cast fptosi v1i64 v1f64 4 1 1 1
cast fptoui v1i64 v1f64 15 1 1 1
cast bitcast v1i64 v1f64 0 0 0 0
cast fptrunc v1f32 v1f64 1 1 1 1
cast fptosi v1i1 v1f64 1 1 1 1
cast fptoui v1i1 v1f64 1 1 1 1
cast zext v1i8 v1i1 1 1 1 1
cast sext v1i8 v1i1 1 1 1 1
castL zext v1i8 v1i1 1 1 1 1
castL sext v1i8 v1i1 1 1 1 1
cast zext v1i16 v1i1 1 1 1 1
cast sext v1i16 v1i1 1 1 1 1
castL zext v1i16 v1i1 1 1 1 1
castL sext v1i16 v1i1 1 1 1 1
cast zext v1i32 v1i1 1 1 1 1
cast sext v1i32 v1i1 1 1 1 1
castL zext v1i32 v1i1 1 1 1 1
castL sext v1i32 v1i1 1 1 1 1
cast zext v1i64 v1i1 1 1 1 1
cast sext v1i64 v1i1 1 1 1 1
castL zext v1i64 v1i1 1 1 1 1
castL sext v1i64 v1i1 1 1 1 1
cast sitofp v1f32 v1i1 1 1 1 1
cast uitofp v1f32 v1i1 1 1 1 1
cast sitofp v1f64 v1i1 1 1 1 1
cast uitofp v1f64 v1i1 1 1 1 1
"""
