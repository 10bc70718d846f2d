"""``extract-blocks``: extracts groups of basic blocks named in a file into new
functions (LLVM ``lib/Transforms/IPO/BlockExtractor.cpp``).

``-extract-blocks-file`` lists lines ``funcname bb1[;bb2..]``; each line is one group
extracted with ``CodeExtractor``. ``-extract-blocks-erase-funcs`` then deletes the bodies
of the functions that existed before and makes every function external. Landing pads
shared with other invokes are split first so each invoke's unwind block can move with it.
"""

from __future__ import annotations

from typing import ClassVar

from llvmpy_mid.errors import FatalError
from llvmpy_mid.ir.basic_block import BasicBlock
from llvmpy_mid.ir.function import Function
from llvmpy_mid.ir.global_value import Linkage
from llvmpy_mid.ir.module import Module
from llvmpy_mid.passes.analysis import AnalysisManager
from llvmpy_mid.passes.options import OPTIONS
from llvmpy_mid.passes.pass_manager import Pass
from llvmpy_mid.passes.preserved import PreservedAnalyses
from llvmpy_mid.passes.statistics import Statistic
from llvmpy_mid.transform.utils.basic_block_utils import split_landing_pad_predecessors
from llvmpy_mid.transform.utils.code_extractor import CodeExtractor, CodeExtractorAnalysisCache

NUM_EXTRACTED = Statistic("block-extractor", "NumExtracted", "Number of basic blocks extracted")


def load_block_file(path: str) -> list[tuple[str, list[str]]]:
    """The ``(function, [block names])`` groups of an ``-extract-blocks-file``."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except OSError:
        raise FatalError("BlockExtractor couldn't load the file.") from None
    groups: list[tuple[str, list[str]]] = []
    for line in text.split("\n"):
        if not line:
            continue
        words = [w for w in line.split(" ") if w]
        if not words:
            continue
        if len(words) != 2:
            raise FatalError("Invalid line format, expecting lines like: 'funcname bb1[;bb2..]'")
        names = [n for n in words[1].split(";") if n]
        if not names:
            raise FatalError("Missing bbs name")
        groups.append((words[0], names))
    return groups


def _is_landing_pad(bb: BasicBlock) -> bool:
    first = bb.first_non_phi
    return first is not None and first.opcode == "landingpad"


def _split_landing_pad_preds(fn: Function) -> None:
    for bb in list(fn.blocks):
        for inst in list(bb):
            if inst.opcode != "invoke":
                continue
            parent = inst.parent
            if parent is None:
                continue
            lpad = inst.successors[1]
            term = parent.terminator
            split = any(
                _is_landing_pad(pred) and pred is not parent and term is not None and term.opcode == "invoke"
                for pred in lpad.predecessors
            )
            if split:
                split_landing_pad_predecessors(lpad, [parent], ".1", ".2", None, None, False)


class BlockExtractorPass(Pass[Module]):
    """Extracts the blocks listed in ``-extract-blocks-file`` (``-passes=extract-blocks``)."""

    name: ClassVar[str] = "extract-blocks"
    debug_type: ClassVar[str] = "block-extractor"

    def __init__(self, groups: list[list[BasicBlock]] | None = None, erase_functions: bool = False) -> None:
        self.groups = [list(g) for g in groups] if groups else []
        self.erase_functions = erase_functions

    def run(self, unit: Module, am: AnalysisManager[Module]) -> PreservedAnalyses:
        path = str(OPTIONS.value("extract-blocks-file") or "")
        by_name = load_block_file(path) if path else []
        changed = False
        functions = list(unit.functions)
        for fn in functions:
            _split_landing_pad_preds(fn)
        groups = list(self.groups)
        for fname, bb_names in by_name:
            target = unit.get_function(fname)
            if target is None:
                raise FatalError("Invalid function name specified in the input file")
            group: list[BasicBlock] = []
            for bb_name in bb_names:
                found = next((bb for bb in target.blocks if bb.name == bb_name), None)
                if found is None:
                    raise FatalError("Invalid block name specified in the input file")
                group.append(found)
            groups.append(group)
        for group in groups:
            to_extract: list[BasicBlock] = []
            for bb in group:
                if bb.parent is None or bb.parent.parent is not unit:
                    raise FatalError("Invalid basic block")
                to_extract.append(bb)
                term = bb.terminator
                if term is not None and term.opcode == "invoke":
                    to_extract.append(term.successors[1])
                NUM_EXTRACTED.add()
                changed = True
            if not group:
                continue
            fn0 = group[0].parent
            assert fn0 is not None
            cache = CodeExtractorAnalysisCache(fn0)
            CodeExtractor(to_extract).extract_code_region(cache)
        if self.erase_functions or bool(OPTIONS.value("extract-blocks-erase-funcs")):
            for fn in functions:
                fn.delete_body()
            for fn in unit.functions:
                fn.linkage = Linkage.EXTERNAL
            changed = True
        return PreservedAnalyses.none() if changed else PreservedAnalyses.all()


__all__ = ["NUM_EXTRACTED", "BlockExtractorPass", "load_block_file"]
