"""The module converted code calls as `ag__`: the runtime's staging operators plus
`converted` (`ag__.converted(f)(args)`, every call), which needs the converter and so
lives on this side of the layers, and the fast path's hand-over in modules `autograph
convert` wrote: `converted_twin` (the decorator on a function as written), `twin_below`
(on a conversion whose function's header reads its own name), and
`plain`, `types_of`, `type`, `stages` and `conversion` (its first line); `f_back`,
a frame's caller as written (converters/frame_walks.py)."""

import builtins as _builtins
import sys as _sys

from autograph_py import conversion as _conversion
from autograph_py.conversion import converted, converted_call  # noqa: F401
from autograph_py.fast_path import (  # noqa: F401
    conversion,
    converted_twin,
    plain,
    twin_below,
    types_of,
)
from autograph_py.fast_path import stages_call as stages  # noqa: F401
from autograph_py.runtime.operators import *  # noqa: F401,F403
from autograph_py.user_stack import f_back  # noqa: F401

_conversion.bind_operators(_sys.modules[__name__])

# The hand-over line's builtin where a converted module binds the name `type`.
type = _builtins.type
