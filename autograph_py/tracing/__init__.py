"""`ag.function`'s modules, one job each (docs/architecture.md): `function` (the
Function front: binding arguments, methods, input signatures, inlining, the trace lock),
`trace_key` (the key of a call and the subtype relation), `function_cache` (the one
cache of traces), `trace` (running the Python function on placeholders in a FuncGraph),
`concrete_function` (the compiled plan of one trace) and `retrace_warnings`."""
