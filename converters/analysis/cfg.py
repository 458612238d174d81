"""Control-flow graph of one function body, at statement granularity.

A simple statement is one node; a compound statement is one node for its head (the test
of `if`/`while`, the iterable of `for`, the items of `with`, the `try` itself, each
`except` clause) followed by the nodes of its blocks. A `for` target is a node of
its own between the head and the body: the loop binds it only when there is an item.
`break`, `continue`, `return` and `raise` jump where Python sends them (raise: to the
exit). An exception may leave any statement: of a `try` body to its handlers, of a `try`
to its `finally` block, of a `with` body to the statement after the `with`, whose
manager may swallow it. Each `case` of a `match` may run after its head. Nested
functions are single nodes of their parent's graph and get graphs of their own.

`Graph.stmt_next[id(stmt)]` is the set of nodes control can reach right after `stmt`
(for a compound statement: the first nodes outside it), which is what "live after" and
"defined after" need; `Graph.inside[id(stmt)]` is the set of nodes `stmt` consists of.
`Graph.head_scopes(calls)` is the activity of each node's statement (or head), computed
with the `activity` memo the graph was built with (`build_all(tree, memo)`: valid while
the tree is unchanged).
"""
import gast
from autograph_py.converters.analysis import activity

_FUNCTIONS = (gast.FunctionDef, gast.AsyncFunctionDef)
_LOOPS = (gast.For, gast.AsyncFor, gast.While)


class Node:
    def __init__(self, ast_node):
        self.ast_node = ast_node
        self.next = set()
        self.prev = set()

    def __repr__(self):
        return f'Node({type(self.ast_node).__name__}@{getattr(self.ast_node, "lineno", "?")})'


class Graph:
    def __init__(self, function, memo=None):
        self.function = function
        self.memo = {} if memo is None else memo
        self.entry = Node(function)
        self.exit = Node(None)
        self.nodes = [self.entry]
        self.head = {}  # id(ast node) -> Node for that statement (or its head)
        self.stmt_next = {}
        self.inside = {}  # id(statement) -> frozenset of the Nodes it consists of
        self._scopes_without_calls = None

    def head_scopes(self, calls=None):
        """{node: `activity.head_scope` of its statement} for the nodes between entry and
        exit, knowing the local functions' `calls`. Without any (most functions), which
        is what liveness and reaching definitions both ask, it is computed once."""
        if calls:
            return self._head_scopes(calls)
        if self._scopes_without_calls is None:
            self._scopes_without_calls = self._head_scopes(None)
        return self._scopes_without_calls

    def _head_scopes(self, calls):
        return {node: activity.head_scope(node.ast_node, calls, self.memo)
                for node in self.nodes
                if node is not self.entry and node is not self.exit}

    def release(self):
        """Unlink the nodes, once the analyses are done: their links are cycles, which
        only the cyclic garbage collector frees, with the whole tree the nodes hold."""
        for node in self.nodes:
            node.next = node.prev = None
        self.__dict__.clear()

    def connect(self, a, b):
        a.next.add(b)
        b.prev.add(a)


class _Loop:
    def __init__(self, head):
        self.head = head
        self.breaks = set()


class _Builder:
    def __init__(self, function, memo):
        self.graph = Graph(function, memo)
        self.leaves = {self.graph.entry}
        self.loops = []
        self.spans = []  # (statement, first node index, end node index)

    def add(self, ast_node):
        node = Node(ast_node)
        self.graph.nodes.append(node)
        self.graph.head[id(ast_node)] = node
        for leaf in self.leaves:
            self.graph.connect(leaf, node)
        self.leaves = {node}
        return node

    def block(self, stmts):
        for stmt in stmts:
            start = len(self.graph.nodes)
            getattr(self, 'stmt_' + type(stmt).__name__, self.add)(stmt)
            # Nodes are appended in order, so a statement's are those added meanwhile.
            self.spans.append((stmt, start, len(self.graph.nodes)))

    def stmt_If(self, node):
        head = self.add(node)
        self.block(node.body)
        after_body, self.leaves = self.leaves, {head}
        self.block(node.orelse)
        self.leaves |= after_body

    def stmt_While(self, node):
        head = self.add(node)
        loop = _Loop(head)
        self.loops.append(loop)
        if isinstance(node, (gast.For, gast.AsyncFor)):
            self.add(node.target)  # bound only when an item comes, not on exit
        self.block(node.body)
        for leaf in self.leaves:
            self.graph.connect(leaf, head)
        self.loops.pop()
        self.leaves = {head}
        self.block(node.orelse)
        self.leaves |= loop.breaks

    stmt_For = stmt_AsyncFor = stmt_While

    def stmt_Break(self, node):
        self.loops[-1].breaks.add(self.add(node))
        self.leaves = set()

    def stmt_Continue(self, node):
        self.graph.connect(self.add(node), self.loops[-1].head)
        self.leaves = set()

    def stmt_Return(self, node):
        self.graph.connect(self.add(node), self.graph.exit)
        self.leaves = set()

    stmt_Raise = stmt_Return

    def stmt_With(self, node):
        start = len(self.graph.nodes)
        self.add(node)
        self.block(node.body)
        # The manager's `__exit__` may swallow an exception raised anywhere in the body
        # (`contextlib.suppress`): control then goes on after the `with` from any point
        # of it, as from a `try` body to its handlers. What the body binds is only maybe
        # bound after it, and what follows may read what the body was about to rebind.
        self.leaves |= set(self.graph.nodes[start:])

    stmt_AsyncWith = stmt_With

    def stmt_Try(self, node):
        start = len(self.graph.nodes)
        self.add(node)
        self.block(node.body)
        may_raise = set(self.graph.nodes[start:])
        self.block(node.orelse)
        ends = self.leaves
        for handler in node.handlers:
            self.leaves = may_raise
            self.add(handler)
            self.block(handler.body)
            ends |= self.leaves
        if node.finalbody:
            # An exception raised anywhere before it (one no handler catches, or raised
            # in a handler or the `else`) runs the `finally` block too: it may read what
            # the try was about to rebind, and a `break`/`continue`/`return` in it
            # swallows the exception. Going on after the `try` from there is a path
            # Python takes only in that case: a sound approximation (maybe bound, live).
            ends = ends | set(self.graph.nodes[start:])
        self.leaves = ends
        self.block(node.finalbody)

    def stmt_Match(self, node):
        head = self.add(node)
        ends = {head}  # no case may match
        for case in node.cases:
            self.leaves = {head}
            self.block(case.body)
            ends |= self.leaves
        self.leaves = ends

    def build(self):
        self.block(self.graph.function.body)
        for leaf in self.leaves:
            self.graph.connect(leaf, self.graph.exit)
        self.graph.nodes.append(self.graph.exit)
        for stmt, start, end in self.spans:
            inside = frozenset(self.graph.nodes[start:end])
            self.graph.inside[id(stmt)] = inside
            self.graph.stmt_next[id(stmt)] = {s for n in inside for s in n.next
                                              if s not in inside}
        return self.graph


def build(function, memo=None):
    """The CFG of one FunctionDef."""
    return _Builder(function, memo).build()


def build_all(tree, memo=None):
    """CFGs of every function in `tree` (including `tree` itself)."""
    return [build(n, memo) for n in _definitions(tree)]


_BLOCKS = ('body', 'orelse', 'finalbody', 'handlers', 'cases')


def _definitions(tree):
    """The function definitions in `tree` (itself included). They are statements, so
    only blocks are entered (bodies, handlers, match cases), never expressions."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, _FUNCTIONS):
            yield node
        fields = node.__dict__
        for name in _BLOCKS:
            block = fields.get(name)
            if isinstance(block, list):  # not a Lambda's or IfExp's body
                todo.extend(block)
