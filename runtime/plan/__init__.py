"""The executor: a graph's ops compiled to generated Python (`executor.Plan`, whose
`code` is that source) and run. `schedule` orders the steps and names their values;
`passes/` decide how each step runs (If/While inlined, rank-0 integers and bools as
Python scalars, operators folded, buffers reused, element-wise chains fused, loop
variables named after the user's), with the helpers `expressions`, `python_scalars` and
`fusion` writing the pieces; `printer` prints the annotated steps and `source` compiles
the function around them."""
