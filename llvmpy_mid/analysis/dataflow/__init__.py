"""The data-flow framework and the classic bit-vector analyses built on it.

``framework`` (the solver), ``variables`` (SSA values and memory variables),
``expressions`` (the expressions the expression analyses number), ``liveness``,
``reaching_definitions``, ``available_expressions``, ``anticipated_expressions``,
``lazy_code_motion`` and ``printer`` (``format_dataflow``, ``format_lcm`` and
the ``print<...>`` passes). Import the submodules directly; this package
imports nothing itself so that ``llvmpy-opt`` starts fast.
"""
