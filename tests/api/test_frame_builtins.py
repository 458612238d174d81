"""Builtins that read the frame calling them (`globals()`, `locals()`, `vars()`, `dir()`,
`eval`, `exec`) run in the converted function's own frame, not in `converted_call`'s
(issue 24, real code: crypt's import sets `globals()['METHOD_' + name]`), and
`locals()`/`vars()`/`dir()` leave out what only conversion put in that frame.
"""

import pytest

import autograph_py as ag
from tests.api.modes import MODES, assert_same, run_mode

ALL_MODES = MODES + ("jax",)
OFFSET = 10


@pytest.fixture(autouse=True)
def _converted_path(monkeypatch):
    # Plain values must run the converted code, not the function as written.
    monkeypatch.setenv("AUTOGRAPH_FAST_PATH", "0")


def sets_a_global(name):
    globals()["set_by_" + name] = 1


def lists_its_locals(a):
    b = a + 1
    return sorted(locals()), sorted(vars()), dir(), b


def lists_locals_before_a_name_is_bound(a):
    names = dir()
    if a > 0:
        c = 1
    else:
        c = 2
    return names, c


def evaluates_with_its_names(x):
    y = x * 2
    if x > 1:
        y = y + 1
    return eval("x + y + OFFSET")


def executes_into_a_namespace(x):
    namespace = {"x": x}
    exec("z = x * 3", globals(), namespace)
    return namespace["z"]


def lists_a_name_only_a_block_binds(a):
    if a > 0:
        c = 1  # noqa: F841 -- read through locals() only
    return sorted(locals())


def test_globals_is_the_functions_module():
    ag.to_graph(sets_a_global)("converted")
    assert globals().pop("set_by_converted") == 1


# Names are strings, which a jax.jit function cannot return; exec runs Python values.
CASES = [
    (lists_its_locals, (1,), MODES),
    (lists_locals_before_a_name_is_bound, (1,), MODES),
    (evaluates_with_its_names, (0,), ALL_MODES),
    (evaluates_with_its_names, (3,), ALL_MODES),
    (executes_into_a_namespace, (2,), ("python",)),
]


@pytest.mark.parametrize("fn, args, mode", [
    pytest.param(fn, args, mode, id=f"{fn.__name__}-{args}-{mode}")
    for fn, args, modes in CASES for mode in modes])
def test_converted_matches_python(fn, args, mode):
    assert_same(fn(*args), run_mode(mode, fn, args))


@pytest.mark.parametrize("mode", ("python", "eager"))
def test_locals_after_a_block_lists_what_the_block_bound(mode):
    # The call reads every name (activity), so the `if` carries `c` out of its block.
    assert_same(lists_a_name_only_a_block_binds(1),
                run_mode(mode, lists_a_name_only_a_block_binds, (1,)))
    assert_same(lists_a_name_only_a_block_binds(-1),
                run_mode(mode, lists_a_name_only_a_block_binds, (-1,)))


@pytest.mark.parametrize("mode", ("graph", "function"))
def test_locals_after_a_staged_block_is_the_staging_rule(mode):
    # Python lists `c` on one path only: staged, both branches must bind it.
    with pytest.raises(ValueError, match="'c' is defined in only one branch"):
        run_mode(mode, lists_a_name_only_a_block_binds, (1,))


def test_to_code_calls_frame_readers_in_the_functions_frame():
    code = ag.to_code(evaluates_with_its_names)
    assert "eval('x + y + OFFSET', None, ag__.user_locals(locals(), (" in code
    code = ag.to_code(lists_its_locals)
    assert "ag__.user_locals(locals(), (" in code
