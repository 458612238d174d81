"""The on-disk side of `ag.saved_model`: a directory a stranger may have written, read
without ever running code from it.

One module per job:
- `format`: the names of the files, the format version, the limits, `SavedModelError`,
  bounded JSON reading and writing;
- `validation`: a serialized graph checked before anything is built from it (known ops,
  no cycle, consistent shapes and dtypes, sizes bounded);
- `variables_file`: Variable values in `variables.npz`, read header first, never
  unpickled;
- `inlining`: a loaded function's graph copied into the graph being built (a call from
  inside an `ag.function`).

What the objects in the directory mean (functions, signatures, the object tree) is
`autograph_py/saved_model/`, the layer that knows `ag.function`.
"""
