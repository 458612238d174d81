"""What the passes annotate: a plan's steps as `Record`s in `Block`s, and the `Program`.

Contract: a `Block` is a run of records (one per scheduled `Step`, in order) and the names
it hands on; an inlined If's record holds its two branch blocks, an inlined While's its
condition block (None for a rotated loop, which tests a loop variable) and body block,
and its `Loop`. Every other field is a pass's decision (the pass that sets it in its
comment); the printer (runtime/plan/printer.py) reads them and decides nothing.
`Program` holds what concerns the whole generated function.
"""

from dataclasses import dataclass, field

from autograph_py.runtime.plan.expressions import Expression
from autograph_py.runtime.plan.python_scalars import is_python_scalar
from autograph_py.runtime.plan.schedule import Step

IFS = frozenset({"If", "StatefulIf"})
WHILES = frozenset({"While"})
SCALAR_INDEXING = frozenset({"GatherV2", "StridedSlice"})


@dataclass(eq=False)
class Loop:
    """An inlined While (inlining): its loop variables are its outputs' names."""

    test: int | None           # the loop variable a rotated loop tests, else None
    limit: int | None          # maximum_iterations
    counter: str | None        # the iteration counter's name, with a limit
    views: dict = field(default_factory=dict)  # python_scalars: array -> its scalar_view


@dataclass(eq=False)
class Record:
    step: Step
    blocks: tuple = ()                  # inlining: (then, else) or (cond or None, body)
    loop: Loop | None = None            # inlining: an inlined While
    kernel: str | None = None           # naming: the global its kernel (or ufunc) is
    ufunc: object = None                # naming: the element-wise ufunc it calls, if any
    view: str | None = None             # python_scalars: a scalar_view of its input 0
    # folding: the expression replacing the kernel call, its operands as {0}, {1}, ...
    expression: Expression | None = None
    modes: tuple = ()                   # folding: each operand as Python (True), numpy
                                        #   (False) or as held (None)
    fold: bool = False                  # folding: its expression is inlined into the next
    wrap: tuple | None = None           # folding: bounds of an integer to wrap when bound
    out: str | None = None              # buffers: the dying input a ufunc writes into
    chain: list | None = None           # fusion: the records of the chain it starts
    in_run: bool = False                # fusion: a later link of a chain
    in_place: bool = False              # buffers: a chain fills its dying source
    attrs: dict | str | None = None     # naming: attr -> source, or one `**` global
    chain_names: dict | None = None     # naming: a chain's locals and its dtype global
    vector: list | None = None          # vectorize: the lines running the loop as arrays
    vector_reason: str | None = None    # vectorize: why a loop is not vectorized

    @property
    def op(self):
        return self.step.op

    @property
    def control(self):
        return bool(self.blocks)


@dataclass(eq=False)
class Block:
    records: list
    outputs: list                       # the names it hands on (never folded)


@dataclass(eq=False)
class Program:
    plan: object
    namer: object
    enabled: frozenset
    block: Block = None
    held: dict = field(default_factory=dict)       # python_scalars: name -> numpy dtype
    constants: dict = field(default_factory=dict)  # python_scalars: Const name -> value
    numpy_constants: dict = field(default_factory=dict)  # its numpy scalar's global
    scalars: set = field(default_factory=set)      # rank-0 values: never `del`eted
    operands: set = field(default_factory=set)     # folding: what operators read
    namespace: dict = field(default_factory=dict)  # the generated function's globals
    uses_errstate: bool = False                    # folding, fusion: warnings off once
    loops: list = field(default_factory=list)      # vectorize: the While records seen
    helpers: dict = field(default_factory=dict)    # vectorize: helper -> its global
    # vectorize: a rank-0 feed -> the name keeping its array (kernels read it as fed)
    feed_arrays: dict = field(default_factory=dict)
    producers: dict | None = None  # vectorize: value name -> the op making it (on first use)

    def holds(self, tensor):
        """Whether a value of `tensor` is held as a Python scalar."""
        return "python_scalars" in self.enabled and is_python_scalar(tensor)


def walk(block):
    """Every record of `block` and of the blocks inlined in it, in program order."""
    for record in block.records:
        yield record
        for inner in record.blocks:
            if inner is not None:
                yield from walk(inner)
