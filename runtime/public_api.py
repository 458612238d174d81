"""The runtime's user-facing names: what `import autograph_py as ag` re-exports (ops,
dtypes, tensors, graphs, sessions, variables, control flow, specs, errors, `Module`
and `optimizers`).

Contract: a plain module of explicit imports; `__all__` lists every public name.
`ag.random`, `ag.nn`, `ag.math`, `ag.linalg`, `ag.nest` and `ag.debugging` are namespaces
of their functions (like tf.random, tf.nn, tf.math, tf.linalg, tf.nest, tf.debugging):
`Namespace`s holding those names only, a missing name an error naming the namespace
(runtime/namespace.py). TensorFlow names refused on purpose (`SparseTensor`,
`RaggedTensor`) raise an AttributeError saying why (runtime/unsupported.py).
Names that shadow builtins (`abs`, `pow`, `range`, `print`) are the ops, as in TensorFlow.
"""

from autograph_py.runtime import data, dtypes, errors, nest_api
from autograph_py.runtime.context import executing_eagerly
from autograph_py.runtime.control_flow import cond, while_loop
from autograph_py.runtime.distribute import losses
from autograph_py.runtime.dtypes import (
    DType,
    as_dtype,
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    string,
    uint8,
)
from autograph_py.runtime.errors import InvalidArgumentError, OpError
from autograph_py.runtime.gradients.symbolic import gradients
from autograph_py.runtime.gradients.tape import GradientTape
from autograph_py.runtime.graph import (
    Graph,
    Operation,
    get_default_graph,
    name_scope,
    reset_default_graph,
)
from autograph_py.runtime.module import Module
from autograph_py.runtime.namespace import Namespace
from autograph_py.runtime.ops import (
    check_ops,
    linalg_ops,
    nn_loss_ops,
    nn_ops,
    random_ops,
    statistics_ops,
)
from autograph_py.runtime.ops.array_ops import (
    cast,
    concat,
    expand_dims,
    gather,
    rank,
    reshape,
    shape,
    size,
    squeeze,
    stack,
    transpose,
    unstack,
    where,
)
from autograph_py.runtime.ops.check_ops import Assert
from autograph_py.runtime.ops.core import (
    constant,
    convert_to_tensor,
    identity,
    placeholder,
    stop_gradient,
)
from autograph_py.runtime.ops.creation_ops import fill, ones, ones_like, zeros, zeros_like
from autograph_py.runtime.ops.creation_ops import range_ as range  # noqa: A004
from autograph_py.runtime.ops.indexing import strided_slice
from autograph_py.runtime.ops.linalg_ops import eye, matmul
from autograph_py.runtime.ops.logging_ops import print_ as print  # noqa: A004
from autograph_py.runtime.ops.manipulation_ops import boolean_mask, one_hot, pad, tile
from autograph_py.runtime.ops.math_ops import abs_ as abs  # noqa: A004
from autograph_py.runtime.ops.math_ops import (
    add,
    divide,
    equal,
    exp,
    floordiv,
    greater,
    greater_equal,
    less,
    less_equal,
    log,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    mod,
    multiply,
    negative,
    not_equal,
    sigmoid,
    sqrt,
    square,
    subtract,
    tanh,
)
from autograph_py.runtime.ops.math_ops import pow_ as pow  # noqa: A004
from autograph_py.runtime.ops.reduction_ops import (
    argmax,
    argmin,
    reduce_all,
    reduce_any,
    reduce_max,
    reduce_mean,
    reduce_min,
    reduce_prod,
    reduce_sum,
)
from autograph_py.runtime.ops.scan_ops import cumprod, cumsum
from autograph_py.runtime.ops.sequence_ops import linspace
from autograph_py.runtime.ops.sort_ops import argsort, sort, top_k
from autograph_py.runtime.ops.special_math_ops import einsum, norm, reduce_logsumexp
from autograph_py.runtime.ops.unary_math_ops import (
    ceil,
    clip_by_value,
    floor,
    is_finite,
    is_inf,
    is_nan,
    log1p,
    sign,
)
from autograph_py.runtime.ops.unary_math_ops import round as round  # noqa: A004
from autograph_py.runtime.optimizers import NAMESPACE as optimizers
from autograph_py.runtime.session import Session
from autograph_py.runtime.shapes import TensorShape
from autograph_py.runtime.tensor import Tensor, is_tensor
from autograph_py.runtime.tensor_array import TensorArray
from autograph_py.runtime.tensor_spec import TensorSpec
from autograph_py.runtime.unsupported import refuse
from autograph_py.runtime.variables import Variable

bool = bool_  # noqa: A001  (ag.bool, as tf.bool)

random = Namespace(
    "autograph_py.random",
    uniform=random_ops.uniform,
    normal=random_ops.normal,
    set_seed=random_ops.set_seed,
)
nn = Namespace(
    "autograph_py.nn",
    relu=nn_ops.relu,
    softmax=nn_ops.softmax,
    conv2d=nn_ops.conv2d,
    log_softmax=nn_loss_ops.log_softmax,
    sparse_softmax_cross_entropy_with_logits=(
        nn_loss_ops.sparse_softmax_cross_entropy_with_logits),
    sigmoid_cross_entropy_with_logits=nn_loss_ops.sigmoid_cross_entropy_with_logits,
    top_k=top_k,
    moments=statistics_ops.moments,
    compute_average_loss=losses.compute_average_loss,
)
# tf.math: the element-wise ops, reductions and scans TensorFlow keeps there (most are
# also top-level names, as in TF).
math = Namespace(
    "autograph_py.math",
    abs=abs, add=add, argmax=argmax, argmin=argmin, ceil=ceil, cumprod=cumprod,
    cumsum=cumsum, divide=divide, equal=equal, exp=exp, floor=floor, floordiv=floordiv,
    floormod=mod, greater=greater, greater_equal=greater_equal, is_finite=is_finite,
    is_inf=is_inf, is_nan=is_nan, less=less, less_equal=less_equal, log=log, log1p=log1p,
    log_softmax=nn_loss_ops.log_softmax, logical_and=logical_and, logical_not=logical_not,
    logical_or=logical_or, logical_xor=logical_xor, maximum=maximum, minimum=minimum,
    mod=mod, multiply=multiply, negative=negative, not_equal=not_equal, pow=pow,
    reduce_all=reduce_all, reduce_any=reduce_any, reduce_logsumexp=reduce_logsumexp,
    reduce_max=reduce_max, reduce_mean=reduce_mean, reduce_min=reduce_min,
    reduce_prod=reduce_prod, reduce_sum=reduce_sum, round=round, sigmoid=sigmoid, sign=sign,
    softmax=nn_ops.softmax, sqrt=sqrt, square=square, subtract=subtract, tanh=tanh,
    top_k=top_k, truediv=divide, reduce_std=statistics_ops.reduce_std,
    reduce_variance=statistics_ops.reduce_variance,
)
# tf.linalg (matmul and norm are also top-level names; adjoint is the transpose: real
# dtypes only).
linalg = Namespace(
    "autograph_py.linalg",
    adjoint=linalg_ops.matrix_transpose, band_part=linalg_ops.band_part,
    cholesky=linalg_ops.cholesky, det=linalg_ops.det, diag_part=linalg_ops.diag_part,
    eye=eye, inv=linalg_ops.inv, matmul=matmul, matrix_transpose=linalg_ops.matrix_transpose,
    norm=norm, set_diag=linalg_ops.set_diag, solve=linalg_ops.solve, trace=linalg_ops.trace,
)
nest = Namespace(
    "autograph_py.nest",
    assert_same_structure=nest_api.assert_same_structure, flatten=nest_api.flatten,
    is_nested=nest_api.is_nested, map_structure=nest_api.map_structure,
    pack_sequence_as=nest_api.pack_sequence_as,
)
debugging = Namespace(
    "autograph_py.debugging",
    Assert=check_ops.Assert,
    assert_equal=check_ops.assert_equal,
    assert_less=check_ops.assert_less,
    assert_greater=check_ops.assert_greater,
    assert_non_negative=check_ops.assert_non_negative,
    assert_positive=check_ops.assert_positive,
)

__all__ = [
    # dtypes and shapes
    "DType", "TensorShape", "as_dtype", "bool", "bool_", "dtypes", "float16", "float32",
    "float64", "int8", "int16", "int32", "int64", "string", "uint8",
    # tensors
    "Tensor", "constant", "convert_to_tensor", "identity", "is_tensor", "placeholder",
    # creation
    "eye", "fill", "ones", "ones_like", "range", "zeros", "zeros_like",
    # shapes and selection
    "cast", "concat", "expand_dims", "gather", "rank", "reshape", "shape", "size",
    "squeeze", "stack", "strided_slice", "transpose", "unstack", "where", "boolean_mask",
    "one_hot", "pad", "tile",
    # sorting
    "argsort", "sort", "top_k",
    # math
    "abs", "add", "ceil", "clip_by_value", "cumprod", "cumsum", "divide", "einsum",
    "floor", "is_finite", "is_inf", "is_nan", "linspace", "log1p", "norm",
    "reduce_logsumexp", "round", "sign",
    "equal", "exp", "floordiv", "greater", "greater_equal", "less",
    "less_equal", "log", "logical_and", "logical_not", "logical_or", "logical_xor",
    "matmul", "maximum", "minimum", "mod", "multiply", "negative", "not_equal", "pow",
    "sigmoid", "sqrt", "square", "subtract", "tanh",
    # reductions
    "argmax", "argmin", "reduce_all", "reduce_any", "reduce_max", "reduce_mean",
    "reduce_min", "reduce_prod", "reduce_sum",
    # namespaces, printing, assertions
    "Assert", "data", "debugging", "linalg", "math", "nest", "nn", "print", "random",
    # models and training
    "Module", "optimizers",
    # graphs, sessions, variables, control flow, gradients, specs, errors
    "GradientTape", "Graph", "InvalidArgumentError", "OpError", "Operation", "Session",
    "TensorArray", "TensorSpec", "Variable", "cond", "errors", "executing_eagerly",
    "get_default_graph", "gradients", "name_scope", "reset_default_graph", "stop_gradient",
    "while_loop",
]


def __getattr__(name):
    refuse(__name__, name)
