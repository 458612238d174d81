"""Loops over the elements of a tensor as array operations (the vectorization pass).

A staged loop whose iterations depend on each other only through reductions, last-hit
assignments, appends and TensorArray writes is run as whole chunks of its iterations at
once: every iteration's values as one array (a "lane" each), then each loop variable's
final value from those arrays. The modules, in the order the pass uses them:

  values.py     what a value of the loop body is across iterations (invariant, an
                affine index, lanes, or a function of the loop variables)
  interpret.py  the body's records read as those values
  updates.py    how each loop variable changes: its update form
  emit.py       the Python lines running the chunks, printed before the loop
  lanes.py      the helpers those lines call (bounds-checked slices, exact reductions)

runtime/plan/passes/vectorize.py is the pass; docs/performance.md says which loops
vectorize and why the others do not.
"""
