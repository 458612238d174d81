"""The executor: a graph's ops compiled to generated Python (`executor.Plan`, whose
`code` is that source) and run. `schedule` orders the steps and names their values,
`expressions` and `python_scalars` write the operators (rank-0 integers and bools as
Python scalars), `fusion` blocks element-wise chains, `control` inlines If/While, and
`source` prints the plan's source."""
