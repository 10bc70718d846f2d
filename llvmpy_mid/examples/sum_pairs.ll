; The example the README runs: a nested loop summing i*j for i, j < n, printed by main.
; Unnamed values and blocks, a loop without a preheader and a dead prototype give
; instnamer, loop-simplify, lcssa and strip-dead-prototypes something to do.

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"

declare i32 @printf(ptr, ...)

declare void @never_called()

define i32 @sum_pairs(i32 %0) {
  %2 = icmp sgt i32 %0, 0
  br i1 %2, label %3, label %exit

3:
  %4 = phi i32 [ 0, %1 ], [ %inner.sum, %latch ]
  %5 = phi i32 [ 0, %1 ], [ %i.next, %latch ]
  br label %inner

inner:
  %6 = phi i32 [ %4, %3 ], [ %inner.sum, %inner ]
  %7 = phi i32 [ 0, %3 ], [ %9, %inner ]
  %8 = mul i32 %5, %7
  %inner.sum = add i32 %6, %8
  %9 = add i32 %7, 1
  %10 = icmp eq i32 %9, %0
  br i1 %10, label %latch, label %inner

latch:
  %i.next = add i32 %5, 1
  %11 = icmp eq i32 %i.next, %0
  br i1 %11, label %exit, label %3

exit:
  %result = phi i32 [ 0, %1 ], [ %inner.sum, %latch ]
  ret i32 %result
}

define i32 @main() {
  %1 = call i32 @sum_pairs(i32 10)
  %2 = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %1)
  ret i32 0
}
