"""The issue's 'done when': a Module with a Variable and a staged loop, saved by one
process from its source file, loaded by a fresh process after that file is deleted, gives
the results the original gave (the oracle: the saving process runs the same calls)."""

import json
import shutil
import subprocess
import sys
import textwrap

SOURCE = textwrap.dedent('''
    import autograph_py as ag

    class Accumulator(ag.Module):
        def __init__(self):
            super().__init__()
            self.total = ag.Variable(0.0, name="total")

        @ag.function(input_signature=[ag.TensorSpec([None], ag.float32, name="values")])
        def __call__(self, values):
            s = ag.constant(0.0)
            i = ag.constant(0)
            while i < ag.size(values):
                if values[i] < 0.0:
                    break
                s += values[i] * values[i]
                i += 1
            self.total.assign_add(s)
            return {"sum": s, "total": self.total.read_value()}
''')

CALLS = [[1.0, 2.0], [3.0, -1.0, 5.0], [], [0.5, 0.5, 0.5]]

SAVE = textwrap.dedent('''
    import json, sys
    import autograph_py as ag
    from user_model import Accumulator

    model = Accumulator()
    model(ag.constant([10.0]))
    ag.saved_model.save(model, sys.argv[1])
    calls = json.loads(sys.argv[2])
    print(json.dumps([{k: v.numpy().tolist() for k, v in model(ag.constant(c, ag.float32)).items()}
                      for c in calls]))
''')

LOAD = textwrap.dedent('''
    import importlib.util, json, sys
    import autograph_py as ag

    assert importlib.util.find_spec("user_model") is None, "the source must be gone"
    loaded = ag.saved_model.load(sys.argv[1])
    serve = loaded.signatures["serving_default"]
    calls = json.loads(sys.argv[2])
    results = []
    for i, c in enumerate(calls):  # the signature and the function take turns
        x = ag.constant(c, ag.float32)
        out = serve(values=x) if i % 2 else loaded(x)
        results.append({k: v.numpy().tolist() for k, v in out.items()})
    print(json.dumps(results))
''')


def _run(code, cwd, *args):
    done = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_fresh_process_without_the_source_gets_the_same_results(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    (work / "user_model.py").write_text(SOURCE)
    export = str(tmp_path / "exported")
    expected = _run(SAVE, work, export, json.dumps(CALLS))
    (work / "user_model.py").unlink()
    shutil.rmtree(work / "__pycache__", ignore_errors=True)
    assert _run(LOAD, work, export, json.dumps(CALLS)) == expected
