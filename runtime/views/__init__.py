"""Views of a graph, each attaching its methods to `Graph` when imported (as
`autograph_py.runtime` does): `text` (`Graph.as_text`, one line per op), `lint`
(`Graph.lint`), `serialization` (`as_dict` / `from_dict`), `view` (the nested blocks
pictures draw) and `dot` (`Graph.to_dot`)."""
