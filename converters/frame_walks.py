"""Reads of a frame's `f_back` go through the stack as written.

    frame.f_back  ->  ag__.f_back(frame)

Code that walks its callers' frames (logging's `findCaller` skipping its own module's
frames, gettext counting them for a warning's stack level, `bdb.Bdb.set_trace` setting
each frame's tracer) would meet, converted, the frames of the operators and of the
closures conversion generated (`if_body`, `loop_body`, ...). `ag__.f_back(frame)` is the
caller of `frame`'s function in the code as written (autograph_py/user_stack.py: our
frames skipped, a generated closure standing for its function), as `sys._getframe(n)` in
converted code already is. Only loads are rewritten (`f_back` is read-only), of any
object: the attribute is a frame's and nothing else's in practice, and for an object
that is not a frame `ag__.f_back` reads the attribute as Python would.
"""
import gast
from autograph_py.converters import census, templates
from autograph_py.converters.transformer import Transformer


class FrameWalkTransformer(Transformer):
    def visit_Attribute(self, node):
        node = self.generic_visit(node)
        if node.attr != 'f_back' or not isinstance(node.ctx, gast.Load):
            return node
        return templates.replace_as_expression('ag__.f_back(frame)', frame=node.value)


def transform(node, ctx):
    if not census.may_hold(ctx, attributes=('f_back',)):
        return node
    return FrameWalkTransformer(ctx).visit(node)
