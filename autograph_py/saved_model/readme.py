"""`README.md` of a saved model: what is inside, for people (never read back)."""


def readme(manifest):
    lines = ["# autograph_py saved model", "",
             f"Written by {manifest['written_by']}, saved-model format version "
             f"{manifest['version']}. Load it with:", "",
             "```python", "import autograph_py as ag", "loaded = ag.saved_model.load(path)",
             "```", "", "## Signatures", ""]
    concretes = manifest["concrete_functions"]
    for key, sig in manifest["signatures"].items():
        specs = concretes[sig["concrete_function"]]["inputs"]
        inputs = ", ".join(f"{n}: {_spec(s)}" for n, s in zip(sig["inputs"], specs))
        outputs = ", ".join(name for name, _ in sig["outputs"])
        lines.append(f"- `{key}({inputs})` -> {{{outputs}}}")
    lines += ["", "## Functions", ""]
    for fn in manifest["functions"]:
        for index in fn["concrete_functions"]:
            inputs = ", ".join(f"{s['name']}: {_spec(s)}" for s in concretes[index]["inputs"])
            lines.append(f"- `{fn['name']}({inputs})`")
    lines += ["", "## Variables", ""]
    lines += [f"- `{v['name']}`: {_spec(v)}{'' if v['trainable'] else ' (not trainable)'}"
              for v in manifest["variables"]]
    lines += ["", "## Files", "",
              "- `saved_model.json`: this manifest, read by `ag.saved_model.load`",
              "- `graphs.json`: one serialized graph per traced function",
              "- `variables.npz`: the Variables' values", ""]
    return "\n".join(lines)


def _spec(spec):
    shape = spec["shape"]
    dims = "?" if shape is None else "[" + ", ".join("None" if d is None else str(d)
                                                     for d in shape) + "]"
    return f"{spec['dtype']}{dims}"
