"""Round trips of hand-written inputs that exercise every syntax feature:
``print_module(parse(text))`` must equal ``opt-19 -S`` on the same text (the
``; ModuleID`` line aside). The inputs cover globals with every property,
every instruction with every flag, metadata and debug records, and legacy
(typed-pointer, old intrinsic) syntax; the csmith and conformance round trips
live in ``test_roundtrip_*.py``."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from llvmpy_mid.asm.parser import parse

pytestmark = pytest.mark.skipif(shutil.which("opt-19") is None, reason="opt-19 is not installed")

GLOBALS = r"""
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

$c1 = comdat any
$c2 = comdat largest
$c3 = comdat nodeduplicate
$c4 = comdat samesize
$c5 = comdat exactmatch

%struct.A = type { i32, ptr, [2 x float] }
%struct.P = type <{ i8, i32 }>
%struct.O = type opaque
%0 = type { i64 }
%struct.Fwd = type { %struct.Later }
%struct.Later = type { i16 }

@g0 = global i32 0
@g1 = internal global i32 1, align 4
@g2 = private unnamed_addr constant [6 x i8] c"hello\00", align 1
@g3 = linkonce_odr dso_local global i64 3, comdat($c1)
@g4 = weak hidden global float 1.5
@g5 = external global i32
@g6 = extern_weak global ptr
@g7 = common global i32 0, align 4
@g8 = appending global [1 x ptr] [ptr @f1]
@g9 = thread_local global i32 0
@g10 = thread_local(initialexec) global i32 0
@g11 = thread_local(localdynamic) global i32 0
@g12 = thread_local(localexec) global i32 0
@g13 = dllexport global i32 0
@g14 = external dllimport global i32
@g15 = protected global i32 0, section "foo", partition "part"
@g16 = local_unnamed_addr global i32 0
@g17 = addrspace(1) global i32 0
@g18 = externally_initialized global i32 0
@g19 = global %struct.A { i32 1, ptr @g0, [2 x float] [float 1.0, float 2.0] }
@g20 = global %struct.P <{ i8 1, i32 2 }>
@g21 = global { i32, i8 } { i32 5, i8 6 }
@g22 = global <4 x i32> <i32 1, i32 2, i32 3, i32 4>
@g23 = global [3 x i32] zeroinitializer
@g24 = global ptr getelementptr inbounds ([6 x i8], ptr @g2, i64 0, i64 2)
@g25 = global i64 ptrtoint (ptr @g0 to i64)
@g26 = global ptr blockaddress(@f1, %bb)
@g27 = global i32 0, code_model "large"
@g28 = global i32 0, no_sanitize_address, no_sanitize_hwaddress, sanitize_memtag, sanitize_address_dyninit
@g29 = global i32 0 #0
@g30 = global ptr @g31
@g31 = global ptr @g30
@g32 = global %0 { i64 7 }
@g33 = global %struct.Fwd zeroinitializer
@g34 = global [2 x [2 x i8]] [[2 x i8] c"ab", [2 x i8] c"cd"]
@g35 = global double 0x7FF0000000000000
@g36 = global x86_fp80 0xK3FFF8000000000000000
@g37 = global fp128 0xL00000000000000003FFF000000000000
@g38 = global ppc_fp128 0xM3FF00000000000000000000000000000
@g39 = global half 0xH3C00
@g40 = global bfloat 0xR3F80
@g41 = global i128 170141183460469231731687303715884105727
@g42 = global i1 true
@g43 = global ptr dso_local_equivalent @f2
@g44 = global ptr no_cfi @f2
@g45 = global [2 x ptr] [ptr @g0, ptr null]
@g46 = global i8 -1
@g47 = global float -0.000000e+00
@g48 = global double 3.140000e+00
@g49 = global <2 x double> <double 1.0, double 2.5>
@g50 = global target("spirv.Event") zeroinitializer
@g51 = global ptr addrspace(3) null
@g52 = global { ptr addrspace(1) } { ptr addrspace(1) @g17 }
@g53 = global i32 0, !dbg !0, !foo !1
@0 = global i32 42
@1 = global i32 43

@a1 = alias i32, ptr @g0
@a2 = internal alias i32, ptr @g1
@a3 = weak_odr hidden alias i64, ptr @g3
@a4 = alias i8, getelementptr (i8, ptr @g2, i64 1)
@i1 = ifunc void (), ptr @resolver

define ptr @resolver() {
  ret ptr @f2
}

define void @f1() {
entry:
  br label %bb
bb:
  ret void
}

declare void @f2()

attributes #0 = { "foo"="bar" }

!llvm.dbg.cu = !{}
!0 = !{i32 1}
!1 = !{!"x"}
"""

INSTS = r"""
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

%struct.S = type { i32, float }
@g = global i32 0
@fp = global ptr null

declare i32 @ext(i32, ...)
declare void @sink(ptr)
declare i32 @__gxx_personality_v0(...)
declare float @llvm.fabs.f32(float)

define internal fastcc i32 @arith(i32 %a, i32 %b, float %x, float %y, <4 x i32> %v, <4 x float> %vf) #0 {
  %1 = add nuw nsw i32 %a, %b
  %2 = sub nsw i32 %1, 3
  %3 = mul nuw i32 %2, %b
  %4 = udiv exact i32 %3, 2
  %5 = sdiv i32 %4, 3
  %6 = urem i32 %5, 7
  %7 = srem i32 %6, 5
  %8 = shl nuw nsw i32 %7, 1
  %9 = lshr exact i32 %8, 1
  %10 = ashr i32 %9, 2
  %11 = and i32 %10, 255
  %12 = or disjoint i32 %11, 256
  %13 = xor i32 %12, -1
  %f1 = fadd fast float %x, %y
  %f2 = fsub nnan ninf float %f1, 1.000000e+00
  %f3 = fmul reassoc nsz arcp contract afn float %f2, %y
  %f4 = fdiv float %f3, 2.0
  %f5 = frem float %f4, 3.0
  %f6 = fneg nnan float %f5
  %c1 = icmp eq i32 %13, 0
  %c2 = fcmp fast olt float %f6, 0.0
  %c3 = fcmp uno float %f6, %f6
  %vc = icmp slt <4 x i32> %v, zeroinitializer
  %s = select i1 %c1, i32 %13, i32 0
  %sf = select nnan i1 %c2, float %f6, float 1.0
  %vs = select <4 x i1> %vc, <4 x i32> %v, <4 x i32> <i32 1, i32 2, i32 3, i32 4>
  %t = trunc nuw nsw i32 %s to i8
  %z = zext nneg i8 %t to i64
  %se = sext i8 %t to i16
  %ft = fptrunc double 1.5 to float
  %fe = fpext float %ft to double
  %fu = fptoui float %ft to i32
  %fs = fptosi float %ft to i32
  %uf = uitofp nneg i32 %fu to float
  %sff = sitofp i32 %fs to double
  %pi = ptrtoint ptr @g to i64
  %ip = inttoptr i64 %pi to ptr
  %bc = bitcast i32 %s to float
  %asc = addrspacecast ptr %ip to ptr addrspace(1)
  %ee = extractelement <4 x i32> %v, i32 0
  %ie = insertelement <4 x i32> %v, i32 %ee, i64 1
  %sv = shufflevector <4 x i32> %v, <4 x i32> %ie, <4 x i32> <i32 0, i32 5, i32 poison, i32 7>
  %sv2 = shufflevector <4 x i32> %v, <4 x i32> poison, <2 x i32> zeroinitializer
  %fr = freeze i32 %s
  %abs = call float @llvm.fabs.f32(float %x)
  %agg = insertvalue %struct.S undef, i32 %fr, 0
  %agg2 = insertvalue %struct.S %agg, float %abs, 1
  %ev = extractvalue %struct.S %agg2, 1
  %nest = insertvalue { i32, { i8, i64 } } poison, i64 %z, 1, 1
  %nev = extractvalue { i32, { i8, i64 } } %nest, 1, 0
  ret i32 %fr
}

define void @memory(ptr %p, i32 %n) {
entry:
  %a1 = alloca i32
  %a2 = alloca i32, i32 %n, align 16
  %a3 = alloca [4 x i8], align 1, addrspace(5)
  %a4 = alloca inalloca i32
  %a5 = alloca swifterror ptr
  %a6 = alloca <3 x float>
  %l1 = load i32, ptr %p
  %l2 = load volatile i32, ptr %p, align 1
  %l3 = load atomic i32, ptr %p seq_cst, align 4
  %l4 = load atomic volatile i64, ptr %p syncscope("singlethread") acquire, align 8
  %l5 = load ptr, ptr %p, align 8, !nonnull !0
  store i32 1, ptr %p
  store volatile i32 2, ptr %p, align 2
  store atomic i32 3, ptr %p release, align 4
  store atomic volatile i32 4, ptr %p syncscope("agent") monotonic, align 4
  %cx = cmpxchg ptr %p, i32 0, i32 1 acq_rel monotonic
  %cx2 = cmpxchg weak volatile ptr %p, i32 0, i32 1 syncscope("singlethread") seq_cst seq_cst, align 8
  %rmw1 = atomicrmw add ptr %p, i32 1 seq_cst
  %rmw2 = atomicrmw volatile xchg ptr %p, i32 1 monotonic, align 8
  %rmw3 = atomicrmw fadd ptr %p, float 1.0 seq_cst
  %rmw4 = atomicrmw umax ptr %p, i32 1 syncscope("wavefront") acquire, align 4
  %rmw5 = atomicrmw uinc_wrap ptr %p, i32 1 release
  %rmw6 = atomicrmw xchg ptr %p, ptr null seq_cst
  fence acquire
  fence syncscope("singlethread") seq_cst
  %gep1 = getelementptr i8, ptr %p, i64 1
  %gep2 = getelementptr inbounds [4 x i32], ptr %p, i64 0, i64 2
  %gep3 = getelementptr inbounds nuw %struct.S, ptr %p, i32 0, i32 1
  %gep4 = getelementptr nusw i8, ptr %p, i32 %n
  %gep5 = getelementptr i32, <2 x ptr> zeroinitializer, <2 x i64> <i64 1, i64 2>
  %gep6 = getelementptr i32, ptr %p, <2 x i64> <i64 0, i64 1>
  %gep7 = getelementptr { i32, [4 x i8] }, ptr %p, i64 0, i32 1, i64 3
  ret void
}

define i32 @control(i32 %x, ptr %addr) personality ptr @__gxx_personality_v0 {
entry:
  switch i32 %x, label %def [
    i32 0, label %a
    i32 1, label %b
    i32 -5, label %a
  ]
a:
  br label %merge
b:
  %v = invoke i32 @ext(i32 1) to label %merge unwind label %lpad
def:
  indirectbr ptr %addr, [label %a, label %b]
merge:
  %p = phi i32 [ 0, %a ], [ %v, %b ], [ %q, %loop ]
  br label %loop
loop:
  %q = add i32 %p, 1
  %c = icmp ult i32 %q, 10
  br i1 %c, label %merge, label %exit
exit:
  ret i32 %q
lpad:
  %lp = landingpad { ptr, i32 } cleanup catch ptr @g filter [1 x ptr] [ptr @fp]
  resume { ptr, i32 } %lp
}

define void @calls(ptr %fnp, i32 %x) {
  %1 = call i32 (i32, ...) @ext(i32 1, i32 2)
  %2 = tail call i32 (i32, ...) @ext(i32 noundef %x) #1
  call void @sink(ptr %fnp)
  notail call void @sink(ptr nonnull align 8 dereferenceable(16) %fnp)
  call fastcc void %fnp(i32 %x)
  call void asm sideeffect "nop", ""()
  %3 = call i32 asm "mov $1, $0", "=r,r"(i32 %x)
  %4 = call i32 asm alignstack inteldialect "mov eax, $1", "=r,r,~{dirflag}"(i32 %x)
  call void @sink(ptr %fnp) [ "deopt"(i32 1, i32 %x) ]
  %f = call nnan float @llvm.fabs.f32(float 1.0)
  %5 = call zeroext i8 @ret8()
  %6 = call addrspace(0) i32 (i32, ...) @ext(i32 3)
  ret void
}

declare i8 @ret8()

define void @unreach() noreturn {
  unreachable
}

define void @eh() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @sink(ptr null) to label %cont unwind label %cs
cs:
  %cs1 = catchswitch within none [label %handler] unwind to caller
handler:
  %cp = catchpad within %cs1 [ptr null, i32 64, ptr null]
  catchret from %cp to label %cont
cont:
  invoke void @sink(ptr null) to label %done unwind label %cleanup
cleanup:
  %cl = cleanuppad within none []
  cleanupret from %cl unwind to caller
done:
  ret void
}

define void @callbr_test(i32 %x) {
  callbr void asm "", "r,!i"(i32 %x) to label %normal [label %indirect]
normal:
  ret void
indirect:
  ret void
}

define i32 @vaarg(ptr %ap) {
  %v = va_arg ptr %ap, i32
  ret i32 %v
}

attributes #0 = { nounwind readnone }
attributes #1 = { cold }

!0 = !{}
"""

MD = r"""
define void @f(i32 %x, ptr %p) !dbg !5 {
entry:
  %a = alloca i32, align 4, !DIAssignID !30
    #dbg_declare(ptr %a, !9, !DIExpression(), !10)
    #dbg_value(i32 %x, !9, !DIExpression(DW_OP_plus_uconst, 8, DW_OP_stack_value), !10)
    #dbg_value(!DIArgList(i32 %x, i32 %y), !9, !DIExpression(DW_OP_LLVM_arg, 0, DW_OP_LLVM_arg, 1, DW_OP_plus, DW_OP_stack_value), !10)
    #dbg_assign(i32 %x, !9, !DIExpression(), !30, ptr %a, !DIExpression(), !10)
    #dbg_label(!31, !10)
  %y = add i32 %x, 1, !dbg !10
    #dbg_value(i32 %y, !9, !DIExpression(DW_OP_LLVM_fragment, 0, 16), !DILocation(line: 9, column: 2, scope: !5))
  store i32 %y, ptr %p, align 4, !tbaa !20, !noalias !25
  br label %loop, !llvm.loop !40
loop:
  ret void, !dbg !11
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!llvm.ident = !{!12}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "clang version 19", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, enums: !2, retainedTypes: !2, globals: !2, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "t.c", directory: "/tmp", checksumkind: CSK_MD5, checksum: "0123456789abcdef0123456789abcdef")
!2 = !{}
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !8)
!6 = !DISubroutineType(types: !7)
!7 = !{null, !13, !14}
!8 = !{!9}
!9 = !DILocalVariable(name: "x", arg: 1, scope: !5, file: !1, line: 3, type: !13)
!10 = !DILocation(line: 4, column: 7, scope: !5)
!11 = !DILocation(line: 5, scope: !15, inlinedAt: !10)
!12 = !{!"clang version 19"}
!13 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!14 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !13, size: 64)
!15 = distinct !DILexicalBlock(scope: !5, file: !1, line: 4, column: 3)
!20 = !{!21, !21, i64 0}
!21 = !{!"int", !22, i64 0}
!22 = !{!"omnipotent char", !23, i64 0}
!23 = !{!"Simple C/C++ TBAA"}
!25 = !{!26}
!26 = distinct !{!26, !27, !"scope"}
!27 = distinct !{!27, !"domain"}
!30 = distinct !DIAssignID()
!31 = !DILabel(scope: !5, name: "lab", file: !1, line: 7)
!40 = distinct !{!40, !41, !42}
!41 = !{!"llvm.loop.mustprogress"}
!42 = !{!"llvm.loop.unroll.disable"}
!50 = !DICompositeType(tag: DW_TAG_structure_type, name: "S", file: !1, line: 1, size: 64, elements: !51, identifier: "_ZTS1S")
!51 = !{!52}
!52 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !50, file: !1, line: 1, baseType: !13, size: 32, flags: DIFlagPublic)
!53 = !DISubrange(count: 4, lowerBound: 0)
!54 = !DIEnumerator(name: "E", value: -1)
!55 = !DIEnumerator(name: "U", value: 18446744073709551615, isUnsigned: true)
!56 = !DIGlobalVariableExpression(var: !57, expr: !DIExpression())
!57 = distinct !DIGlobalVariable(name: "g", scope: !0, file: !1, line: 2, type: !13, isLocal: false, isDefinition: true)
!58 = !DINamespace(name: "ns", scope: null)
!59 = !DITemplateTypeParameter(name: "T", type: !13)
!60 = !DITemplateValueParameter(name: "N", type: !13, value: i32 3)
!61 = !DIImportedEntity(tag: DW_TAG_imported_module, scope: !0, entity: !58, file: !1, line: 1)
!62 = !GenericDINode(tag: DW_TAG_variable, header: "hdr", operands: {!1, null, !2})
!63 = !DILexicalBlockFile(scope: !15, file: !1, discriminator: 2)
!64 = !DIMacro(type: DW_MACINFO_define, line: 1, name: "X", value: "1")
!65 = !DIMacroFile(line: 1, file: !1, nodes: !2)
!66 = !DIStringType(name: "s", size: 64)
!67 = !DIModule(scope: null, name: "M", includePath: "/inc")
!68 = !DICommonBlock(scope: !5, declaration: null, name: "c")
!69 = !DIObjCProperty(name: "p", setter: "setP:", getter: "p", attributes: 5, type: !13)
!70 = !DIGenericSubrange(count: !DIExpression(DW_OP_constu, 4), lowerBound: !DIExpression(DW_OP_constu, 0), stride: !DIExpression(DW_OP_constu, 4))
!71 = !DIBasicType(tag: DW_TAG_unspecified_type, name: "decltype(nullptr)")
!72 = !DISubprogram(name: "decl", scope: !1, file: !1, line: 9, type: !6, flags: DIFlagPrototyped, spFlags: DISPFlagOptimized)
!named = !{!50, !53, !54, !55, !56, !58, !59, !60, !61, !62, !63, !64, !65, !66, !67, !68, !69, !70, !71, !72}
"""

LEGACY = r"""
%struct.S = type { i32, i8* }
@g = global i32* null
@h = global %struct.S* null
@k = global i8 addrspace(1)* null
@fp = global void (i32)* null
@arr = global [2 x i8*] [i8* bitcast (i32** @g to i8*), i8* null]

declare void @llvm.memcpy.p0i8.p0i8.i64(i8*, i8*, i64, i1)
declare void @llvm.lifetime.start.p0i8(i64, i8* nocapture)
declare i8* @llvm.stacksave()
declare void @llvm.dbg.value(metadata, metadata, metadata)
declare void @llvm.dbg.declare(metadata, metadata, metadata)

define void @f(i32* %p, %struct.S* byval(%struct.S) %s) {
entry:
  %a = alloca i8*, align 8
  %x = load i32, i32* %p
  %c = bitcast i32* %p to i8*
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* %c, i8* %c, i64 4, i1 false)
  call void @llvm.lifetime.start.p0i8(i64 4, i8* %c)
  %sp = call i8* @llvm.stacksave()
  %q = getelementptr %struct.S, %struct.S* %s, i32 0, i32 1
  %fn = load void (i32)*, void (i32)** @fp
  call void %fn(i32 %x)
  ret void
}
"""

MISC = r"""
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
module asm "\09.globl foo"
module asm "foo: ret"

%T = type { i32, i64 }
$cf = comdat any
@0 = private global i32 1
@"quoted global\22x" = global i32 2
@1 = global ptr @0
@ta = thread_local(localdynamic) alias i32, ptr @0
@ifn = ifunc i32 (i32), ptr @resolver

define ptr @resolver() {
  ret ptr @f1
}

define i32 @f1(i32 %x) {
  ret i32 %x
}

define void @attrs(ptr sret(%T) align 8 %s, ptr byref(i32) %b, i32 range(i32 0, 10) %r, ptr initializes((0, 4), (8, 12)) %in, float nofpclass(nan inf) %f, ptr dereferenceable_or_null(8) align(16) %d, i32 zeroext %z, ptr nocapture readonly noalias nonnull %nn, ptr "custom"="1" %cs) #0 {
  ret void
}

define cc 42 i32 @cconv(i32 %x) #1 section ".s" comdat($cf) align 32 gc "statepoint-example" prefix i32 7 prologue i8 5 {
  ret i32 %x
}

define void @"quoted fn"(i32 %"arg with space") {
"entry block":
  %"a b" = add i32 %"arg with space", 1
  br label %"next\22"
"next\22":
  ret void
}

define void @ba(i1 %c) {
entry:
  %p = select i1 %c, ptr blockaddress(@ba, %t), ptr blockaddress(@ba, %f)
  indirectbr ptr %p, [label %t, label %f]
t:
  ret void
f:
  ret void
}

define void @calls() {
  call void dso_local_equivalent @f2()
  call void no_cfi @f2()
  call void @f2() #2
  ret void
}

declare void @f2()
declare void @allocs(i64, i64) allocsize(0,1) allockind("alloc,zeroed") "alloc-family"="malloc"

define void @ul(i32 %x) {
entry:
  %a = add i32 %x, 1
  %b = add i32 %x, 2
  br label %bb
bb:
  ret void
}



attributes #0 = { alignstack=8 vscale_range(1,16) uwtable(sync) memory(argmem: readwrite, inaccessiblemem: read) "no-trapping-math"="true" nounwind }
attributes #1 = { noinline optnone }
attributes #2 = { builtin cold }

!llvm.ident = !{!1}
!llvm.module.flags = !{!2, !3}
!0 = !{}
!1 = !{!"clang version 19.1.0"}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 8, !"PIC Level", i32 2}
"""

FEATURES = {"globals": GLOBALS, "instructions": INSTS, "metadata": MD, "legacy": LEGACY, "misc": MISC}


@pytest.mark.parametrize("name", sorted(FEATURES))
def test_feature_round_trip_matches_opt(name: str, tmp_path: Path) -> None:
    from llvmpy_mid.asm.printer import print_module

    text = FEATURES[name]
    path = tmp_path / "in.ll"
    path.write_text(text)
    done = subprocess.run(["opt-19", "-S", str(path), "-o", "-"], capture_output=True, text=True, check=True)
    ours = print_module(parse(text, None, str(path)))
    assert ours.split("\n", 1)[1] == done.stdout.split("\n", 1)[1]
