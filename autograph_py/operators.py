"""The module converted code calls as `ag__`: the runtime's staging operators plus
`converted_call`, which needs the converter and so lives on this side of the layers, and
`converted_from`, the fast path's dispatch in modules `autograph convert` wrote."""

import sys

from autograph_py import conversion
from autograph_py.conversion import converted_call  # noqa: F401
from autograph_py.fast_path import converted_from  # noqa: F401
from autograph_py.runtime.operators import *  # noqa: F401,F403

conversion.bind_operators(sys.modules[__name__])
