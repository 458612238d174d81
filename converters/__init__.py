"""Source-to-source conversion of Python functions into the `ag__` staging protocol.

Pure transformation of gast trees: this package imports only the standard library and
gast. The entry points live in `converters.pipeline` (`convert_function`,
`convert_module`, `to_source`) and `converters.parser` (`parse_function`,
`parse_module`). docs/converters.md shows every construct before and after.
"""
