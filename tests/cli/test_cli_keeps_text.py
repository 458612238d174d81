"""`autograph convert` changes only what conversion changes: text outside converted
function bodies is byte-identical, a statement conversion kept is the user's text
(comments included), comments of converted statements sit where those statements went,
and the result behaves as the original. The function as written that the fast path runs is
the user's text plus one line (the hand-over of a staging call to its conversion); the
other tests read the output without it (`conversions_only`)."""

import ast
import difflib
import re

import numpy as np
import pytest

import autograph_py as ag
from tests.cli.conftest import FIXTURES, conversions_only, convert_and_import

IMPORT = "from autograph_py import operators as __ag__"


@pytest.fixture(scope="module")
def output():
    from tests.cli.conftest import run_autograph
    result = run_autograph("convert", FIXTURES / "comments.py")
    assert (result.returncode, result.stderr) == (0, "")
    return result.stdout


@pytest.fixture(scope="module")
def converted(output):
    return conversions_only(output)


def test_the_copies_as_written_are_the_users_text(output):
    original = (FIXTURES / "comments.py").read_text()
    tree = ast.parse(original)
    lines = original.splitlines(keepends=True)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name != "untouched":
            as_written = "".join(lines[node.lineno - 1:node.end_lineno])
            decorators = "".join(lines[node.decorator_list[0].lineno - 1:node.lineno - 1]
                                 if node.decorator_list else [])
            # The one line added: the hand-over of a staging call to the conversion.
            without_handover = HANDOVER.sub("", output)
            assert (f"{decorators}@__ag__.converted_twin({node.name})\n{as_written}"
                    in without_handover)


HANDOVER = re.compile(r"^[ \t]*if (.* and )?__ag__\.stages\(.*\): "
                      r"return __ag__\.conversion\(\)\(.*\)\n", re.M)


def _line_with(text, fragment):
    [line] = [line for line in text.splitlines() if fragment in line]
    return line


def test_text_outside_converted_bodies_is_byte_identical(converted):
    original = (FIXTURES / "comments.py").read_text()
    tree = ast.parse(original)
    bodies = set()  # lines of the bodies of the functions conversion changed
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name != "untouched":
            bodies.update(range(node.body[0].lineno, node.end_lineno + 1))
    before, after = original.splitlines(), converted.splitlines()
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    changed = {i + 1 for tag, i1, i2, _, _ in matcher.get_opcodes() if tag != "equal"
               for i in range(i1, i2)}
    assert changed and changed <= bodies
    inserted = [line for tag, _, _, j1, j2 in matcher.get_opcodes() if tag != "equal"
                for line in after[j1:j2]]
    assert IMPORT in inserted


def test_a_function_with_nothing_to_convert_is_exactly_as_written(converted):
    original = (FIXTURES / "comments.py").read_text()
    start = original.index("def untouched")
    assert original[start:original.index("\n\n\n", start)] in converted


def test_decorators_signature_and_docstring_are_the_users_text(converted):
    original = (FIXTURES / "comments.py").read_text()
    start = original.index("@functools.lru_cache")
    assert original[start:original.index("    # before the if")] in converted


def test_comments_of_kept_statements_stay_on_them(converted):
    assert _line_with(converted, "# on the assignment") == "        x = limit  # on the assignment"
    assert _line_with(converted, "# doubled") == "        x = x * 2  # doubled"
    assert _line_with(converted, "# the result") == "    return x  # the result"
    assert _line_with(converted, "# the sum") == "    s = 0  # the sum"


def test_comments_of_converted_statements_go_with_what_they_became(converted):
    lines = converted.splitlines()
    # The comment in front of the `if` is in front of the first statement made from it.
    first_made = lines.index("    # before the if") + 1
    assert lines[first_made] == "    def get_state():"
    # The comment at the end of the `if` line ends the call that stages it.
    assert _line_with(converted, "# on the if").startswith("    __ag__.if_stmt(x > limit,")
    assert _line_with(converted, "# every item").startswith("    __ag__.for_stmt(items,")
    assert lines[lines.index("        # before the continue test") + 1].strip().startswith("def ")


def test_every_comment_of_a_surviving_statement_is_kept(converted):
    original = (FIXTURES / "comments.py").read_text()
    comments = [line[line.index("#"):] for line in original.splitlines() if "#" in line]
    dropped = ["# skip negatives"]  # on a `continue`, which conversion removes
    assert [c for c in comments if c not in converted] == dropped


@pytest.fixture(scope="module")
def modules(tmp_path_factory):
    return convert_and_import("comments.py", tmp_path_factory.mktemp("comments"))


@pytest.mark.parametrize("x", [3, 7, 12])
def test_converted_functions_behave_as_the_original(modules, x):
    plain, converted_module = modules
    assert converted_module.clipped(x) == plain.clipped(x)
    items = [x, -x, 2 * x, -1]
    assert converted_module.total(items) == plain.total(items)
    eager = converted_module.total(ag.constant(items))
    assert int(eager) == plain.total(items)
    with ag.Graph().as_default():
        values = ag.placeholder(ag.int32, shape=(None,))
        symbolic = converted_module.total(values)
        with ag.Session() as sess:
            assert sess.run(symbolic, {values: np.array(items)}) == plain.total(items)
    assert ag.function(converted_module.total)(ag.constant(items)).numpy() == \
        plain.total(items)


def test_multi_line_strings_keep_their_value_when_moved(run_cli, tmp_path, import_file):
    # The `if` body moves one level deeper (into a closure): its string's continuation
    # lines must not be re-indented, and neither may those outside it.
    source = tmp_path / "strings.py"
    source.write_text(
        "class A:\n"
        "    def m(self, x):\n"
        '        s = "abc\\\n'
        '  def"\n'
        "        t = '''x\n"
        "    y'''\n"
        "        if x > 0:\n"
        '            u = """p\n'
        '  q"""\n'
        "            x = (x, u)\n"
        "        return x, s, t\n")
    result = run_cli("convert", source, "-o", tmp_path / "strings_ag.py")
    assert (result.returncode, result.stderr) == (0, "")
    converted, plain = import_file(tmp_path / "strings_ag.py"), import_file(source)
    for x in (1, -1):
        assert converted.A().m(x) == plain.A().m(x)
