"""Shared lowering of jump statements (`break`, `continue`, `return`) inside a block.

`JumpLowering(...).lower(stmts)` returns the statements with every jump replaced by the
caller's replacement (typically assignments to flags) and with the code a jump would
have skipped made conditional. Two rewrites, the quiet one first:

* An `if` one of whose branches always jumps takes the rest of the block into its other
  branch (`if c: continue` + rest  ->  `if not c: rest`): no flag needed.
* Otherwise the rest of the block is guarded by `if not <flag>:`.

A block is a *tail* when nothing of the region runs after it (the end of a loop
body, the end of a function); jumps in tail blocks need not set a flag, which is what
lets `continue` at the end of a loop body simply disappear. Compound statements are
entered as the caller allows (return lowering enters loops, break lowering does not);
`try` blocks are entered (they are never staged); jumps inside `match` cannot be lowered
and raise ConversionError naming the jump, the construct and the line.
"""
import gast
from autograph_py.converters import anno, templates, traversal
from autograph_py.converters.transformer import locate

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)
_LOOPS = (gast.For, gast.AsyncFor, gast.While)


def find_jumps(nodes, jump_type, enter_loops):
    """The jump statements of `jump_type` that belong to this level of code, in the
    order they are written."""
    found = []
    # A stack, not a recursive closure: a closure calling itself is a reference cycle,
    # which keeps what it saw alive until the cyclic garbage collector runs.
    todo = list(reversed(nodes)) if isinstance(nodes, list) else [nodes]
    while todo:
        node = todo.pop()
        if isinstance(node, jump_type):
            found.append(node)
        if isinstance(node, _SCOPES) or (isinstance(node, _LOOPS) and not enter_loops):
            continue
        todo += reversed([child for child in traversal.children(node)
                          if isinstance(child, traversal.BLOCK_ITEMS)])  # jumps are statements
    return found


def negate(test):
    return locate(gast.UnaryOp(op=gast.Not(), operand=test), test)


class JumpLowering:
    """Lowers the jumps of one region (a loop body or a function body).

    `replace(jump, tail)` returns the statements standing for `jump`; when `tail` is
    false they must set the flag. `flag()` returns the flag's name (created on first
    use); `on_loop(loop)` is called for each loop entered that contains a jump.
    """

    def __init__(self, ctx, jump_type, replace, flag, enter_loops=False, on_loop=None):
        self.ctx = ctx
        self.jump_type = jump_type
        self.replace = replace
        self.flag = flag
        self.enter_loops = enter_loops
        self.on_loop = on_loop

    def _jumps(self, node):
        return find_jumps(node, self.jump_type, self.enter_loops)

    def always_jumps(self, stmts):
        return any(self._always_jumps(s) for s in stmts)

    def _always_jumps(self, stmt):
        if isinstance(stmt, gast.If):
            if isinstance(stmt.test, gast.Constant):  # `if 1:` runs only one branch
                return self.always_jumps(stmt.body if stmt.test.value else stmt.orelse)
            return self.always_jumps(stmt.body) and self.always_jumps(stmt.orelse)
        if isinstance(stmt, gast.Try):  # an exception no handler catches is no fall-through
            return self.always_jumps(stmt.finalbody) or (
                (self.always_jumps(stmt.body) or self.always_jumps(stmt.orelse)) and
                all(self.always_jumps(h.body) for h in stmt.handlers))
        if isinstance(stmt, gast.While):  # `while True:` without `break` never falls out
            return (isinstance(stmt.test, gast.Constant) and bool(stmt.test.value) and
                    not anno.hasanno(stmt, anno.Basic.BREAK_LOWERED) and
                    not find_jumps(stmt.body, gast.Break, enter_loops=False))
        return isinstance(stmt, (self.jump_type, gast.Raise))

    def lower(self, stmts, tail=True):
        out = []
        for i, stmt in enumerate(stmts):
            rest = stmts[i + 1:]
            if isinstance(stmt, self.jump_type):
                return out + locate(self.replace(stmt, tail), stmt)
            if not self._jumps(stmt):
                out.append(stmt)
                continue
            if isinstance(stmt, gast.If) and (self.always_jumps(stmt.body) or
                                              self.always_jumps(stmt.orelse)):
                return out + [self._absorb_rest(stmt, rest, tail)]
            out.append(self._lower_compound(stmt, tail and not rest))
            if rest:
                out.extend(self._guard(self.lower(rest, tail)))
            return out
        return out

    def _absorb_rest(self, node, rest, tail):
        """`if` with a branch that always jumps: the rest runs in the other branch."""
        if not self.always_jumps(node.body):
            node.body = node.body + rest
        if not self.always_jumps(node.orelse):
            node.orelse = node.orelse + rest
        return self._lower_if(node, tail)

    def _lower_if(self, node, tail):
        node.body = self.lower(node.body, tail)
        node.orelse = self.lower(node.orelse, tail)
        if not node.body and node.orelse:
            node.test, node.body, node.orelse = negate(node.test), node.orelse, []
        if not node.body:
            node.body = [locate(gast.Pass(), node)]
        return node

    def _lower_compound(self, node, tail):
        if isinstance(node, gast.If):
            return self._lower_if(node, tail)
        if isinstance(node, (gast.With, gast.AsyncWith)):
            node.body = self.lower(node.body, tail) or [locate(gast.Pass(), node)]
            return node
        if isinstance(node, _LOOPS):
            node.body = self.lower(node.body, tail=False) or [locate(gast.Pass(), node)]
            self.on_loop(node)
            return node
        if isinstance(node, gast.Try):
            return self._lower_try(node, tail)
        jump = self._jumps(node)[0]
        raise self.ctx.error(jump, f"'{type(jump).__name__.lower()}' inside "
                                   f"'{type(node).__name__.lower()}' is not supported")

    def _lower_try(self, node, tail):
        """Try blocks are never staged, so their jumps become plain flag assignments.

        A jump in the try body skips the `else` block, which is therefore guarded;
        `finally` runs after a jump in Python too, so it is lowered as it is. A jump in
        the `finally` block itself is refused: in Python it also discards the exception
        in flight, which a flag assignment cannot do (PEP 765 deprecates it).
        """
        final_jumps = self._jumps(node.finalbody)
        if final_jumps:
            jump = type(final_jumps[0]).__name__.lower()
            raise self.ctx.error(final_jumps[0], (
                f"'{jump}' inside 'finally' is not supported: it discards an exception "
                f"raised in the 'try' (PEP 765 deprecates it), which converted code cannot "
                f"do; move the '{jump}' after the 'try' statement"))
        body_jumps = bool(self._jumps(node.body))
        node.body = self.lower(node.body, tail and not node.orelse) or [
            locate(gast.Pass(), node)]
        for handler in node.handlers:
            handler.body = self.lower(handler.body, tail) or [locate(gast.Pass(), handler)]
        node.orelse = self.lower(node.orelse, tail)
        if body_jumps and node.orelse:
            node.orelse = self._guard(node.orelse)
        node.finalbody = self.lower(node.finalbody, tail)
        return node

    def _guard(self, stmts):
        if not stmts:
            return []
        guard = templates.replace('''
            if not flag:
                body
        ''', flag=self.flag(), body=stmts)
        return locate(guard, stmts[0])
