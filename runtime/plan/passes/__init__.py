"""The plan compiler's passes (torch.fx's split: passes decide, a printer prints).

Each pass reads the scheduled steps of a plan, arranged by the inlining pass into
`Block`s of `Record`s (records.py), and writes its decisions onto them as annotations;
runtime/plan/printer.py then turns annotated records into lines and decides nothing.
pipeline.py runs them in order, each one optional but the kernels' names:

  inlining        If/While steps get the blocks of their subgraphs (inlining.py)
  python_scalars  rank-0 ints and bools held as Python scalars, Const values, the
                  `scalar_view`s loops read elements through (python_scalars.py)
  (kernels)       the global each kernel is bound to (naming.py)
  fusion          chains of element-wise ufuncs on large arrays (fusion.py)
  expressions     operators and direct indexing instead of kernel calls, folded into
  folding           their one reader, and where integers are wrapped (folding.py)
  buffers         ufuncs writing into dying buffers (`out=`) (buffers.py)
  loop_names      loop variables named after the user's variables (naming.py)

A new pass is a module with a `run(program)` reading and writing records, and a line in
pipeline.py; tests/runtime/plan/ checks each switched off and on against a reference
interpreter of the graph.
"""
