"""Fill the template of docs/performance.md with the numbers of one run.

Contract: `render(template, run)` returns the page: the template's text as written, each
placeholder replaced by what `run` measured. `run` is what `performance_doc.py` saves
(docs/performance.json): `command`, `environment`, `rows` (each tagged with its
`benchmark`), `seconds` per module and `failed` ({module: error}). The template's prose
carries no measured number of its own (tests/test_performance_doc.py checks that); every
number on the page comes from a placeholder:

- `{{table MODULE}}`: the module's rows as a table, headed by the command that made them
  and the environment line. A module that failed in the run gets one line saying so.
- `{{MODULE | WORKLOAD | MODE | FIELD}}`: one value of one row (FIELD defaults to
  `median`). In WORKLOAD or MODE a `*` stands for any text (for names that carry a
  count, such as the corpus's number of functions); the two must name exactly one row. FIELD is
  `median`, `ratio`, `spread`, `tf` (TensorFlow's median), `vs_tf` (ours / TF), `note`,
  or any number the row carries (`best_seconds`, `lines_per_second`, ...: a name ending
  in `seconds` is a time, in `ratio` a ratio).
- `{{MODULE | WORKLOAD | MODE | FIELD OP BOUND}}` (OP one of `<= >= < >`, BOUND a
  number with an optional unit: ns µs ms s MB % x): the value and whether this run met
  the target, e.g. `1.84x (target ≤ 3x: met)`.
- `{{command}}`, `{{environment}}`, `{{run}}` (each module: rows, seconds, status).
- `{{appendix}}`: a table for each module of the run that no `{{table}}` names, so a new
  benchmark is never lost; without this placeholder they are added at the end.

A placeholder that names no row, an unknown module, field or syntax raises
`TemplateError` listing every bad placeholder at once: the page never silently shows a
gap. A value from a module that failed in the run reads "not measured (... failed)".
"""

import re

from _harness import format_seconds, format_value
from _suite import environment_line

PLACEHOLDER = re.compile(r"\{\{([^{}]*)\}\}")
_TARGET = re.compile(r"^(?P<field>\w+)\s*(?P<op><=|>=|<|>)\s*(?P<number>[\d.,]+)\s*"
                     r"(?P<unit>ns|µs|us|ms|s|MB|%|x)?$")
# A measured number in prose: a number with a unit of time, size, share or ratio, or a
# rate. Workload sizes (`10,000 ints`, `1e6`, `128x256`) and design constants in other
# units (`256 KiB`) are not measurements and pass.
_MEASURED = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s?(?:ns|µs|us|ms|s|MB|GB|%|x)(?!\w)"
                       r"|\d[\d,]*(?:\.\d+)?\s+lines (?:per|a) second")
_SCALE = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0, "MB": 1e6, "%": 0.01,
          "x": 1.0, None: 1.0}
_COMPARE = {"<=": (float.__le__, "≤"), ">=": (float.__ge__, "≥"), "<": (float.__lt__, "<"),
            ">": (float.__gt__, ">")}


class TemplateError(ValueError):
    """Placeholders the run cannot fill (all of them, one per line)."""


class NotMeasured(Exception):
    """A value this run has no number for, and why (rendered into the page)."""


def placeholders(template):
    return [m.group(1).strip() for m in PLACEHOLDER.finditer(template)]


def tabled_modules(template):
    return {p.split()[1] for p in placeholders(template)
            if p.startswith("table ") and len(p.split()) == 2}


def placeholder_module(text):
    """The module a placeholder reads from, or None (command, environment, ...)."""
    if text in ("command", "environment", "run", "appendix"):
        return None
    if text.startswith("table "):
        return text.split(None, 1)[1].strip()
    parts = [p.strip() for p in text.split("|")]
    if len(parts) not in (3, 4):
        raise ValueError(f"{{{{{text}}}}}: expected MODULE | WORKLOAD | MODE [| FIELD], "
                         "table MODULE, command, environment, run or appendix")
    return parts[0]


def measured_numbers(text):
    """The measured numbers `text` states outside its placeholders (the template's
    prose must state none: every number on the page comes from the run)."""
    return _MEASURED.findall(PLACEHOLDER.sub("", text))


def check_template(template, modules):
    """Raise TemplateError unless every placeholder parses and names one of `modules`,
    and the prose states no measured number (cheap: run before the benchmarks, whose
    rows `render` then checks)."""
    errors = [f"a measured number in the prose: {n!r}" for n in measured_numbers(template)]
    for text in placeholders(template):
        try:
            module = placeholder_module(text)
        except ValueError as error:
            errors.append(error.args[0])
            continue
        if module is not None and module not in modules:
            errors.append(f"{{{{{text}}}}}: no benchmark module {module!r}")
    if errors:
        raise TemplateError("\n".join(errors))


def render(template, run):
    errors = []

    def fill(match):
        try:
            return _fill(match.group(1).strip(), template, run)
        except NotMeasured as reason:
            return f"not measured ({reason})"
        except (KeyError, ValueError) as error:
            errors.append(f"{{{{{match.group(1).strip()}}}}}: {error.args[0]}")
            return ""

    page = PLACEHOLDER.sub(fill, template)
    if "{{appendix}}" not in template:
        page = page.rstrip("\n") + "\n\n" + _appendix(template, run) + "\n"
    if errors:
        raise TemplateError("\n".join(errors))
    return page


def _fill(text, template, run):
    if text == "command":
        return f"`{run['command']}`"
    if text == "environment":
        return environment_line(run["environment"])
    if text == "run":
        return _run_table(run)
    if text == "appendix":
        return _appendix(template, run)
    module = placeholder_module(text)
    if text.startswith("table "):
        return module_table(module, run)
    parts = [p.strip() for p in text.split("|")]
    workload, mode = parts[1:3]
    field = parts[3] if len(parts) == 4 else "median"
    target = _TARGET.match(field)
    if target is None:
        return field_text(find_row(run, module, workload, mode), field)
    try:
        return _target(find_row(run, module, workload, mode), target)
    except NotMeasured as reason:
        return f"not measured ({reason}; {_goal(target)})"


def _known(run, module):
    if module in run["failed"]:
        raise NotMeasured(f"`{module}` failed in this run")
    if module not in run["seconds"]:
        raise ValueError(f"no module {module!r} in this run (ran: "
                         f"{', '.join(sorted(run['seconds'])) or 'none'})")


def _matches(pattern, name):
    """`*` stands for any text (names that carry a count); nothing else is special."""
    return re.fullmatch(".*".join(map(re.escape, pattern.split("*"))), name) is not None


def find_row(run, module, workload, mode):
    _known(run, module)
    rows = [r for r in run["rows"] if r["benchmark"] == module]
    found = [r for r in rows if _matches(workload, r["workload"]) and _matches(mode, r["mode"])]
    if len(found) != 1:
        names = sorted({f"{r['workload']} | {r['mode']}" for r in rows})
        raise KeyError(f"{len(found)} rows of {module} match; its rows: {'; '.join(names)}")
    return found[0]


def field_number(row, field):
    """The field's value as a number (seconds, bytes, a ratio, a fraction)."""
    if field in ("tf", "vs_tf"):
        if row.get("tf_mode") is None:
            raise ValueError(f"the row {row['workload']} | {row['mode']} has no "
                             "TensorFlow comparison")
        if row["tf_seconds"] is None:
            raise NotMeasured("TensorFlow not installed" if row["tensorflow"] == "not installed"
                              else "TensorFlow failed")
        return row["tf_seconds"] if field == "tf" else row["seconds"] / row["tf_seconds"]
    key = {"median": "seconds" if row.get("seconds") is not None else "bytes"}.get(field, field)
    if key not in row:
        raise ValueError(f"no field {field!r} (fields: median, ratio, spread, tf, vs_tf, "
                         f"note, {', '.join(k for k in row if k not in _BASE_KEYS)})")
    if row[key] is None:
        raise NotMeasured(f"no {field} in this row")
    return row[key]


_BASE_KEYS = {"benchmark", "workload", "mode", "seconds", "bytes", "spread", "reference",
              "ratio", "tensorflow", "tf_mode", "tf_seconds", "note"}


def field_text(row, field):
    if field == "note":
        return row["note"]
    value = field_number(row, field)
    if field == "median":
        return format_value(row)
    if field == "spread":
        return f"{value:.0%}"
    if field in ("tf",) or field.endswith("seconds"):
        return format_seconds(value)
    if _ratio_like(field):
        return f"{value:.3g}x"
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _ratio_like(field):
    return field in ("ratio", "vs_tf") or field.endswith("ratio")


def _goal(target):
    """`target ≤ 3x`, as the template wrote the bound (a ratio's bare number gets x)."""
    unit = target["unit"] or ("x" if _ratio_like(target["field"]) else "")
    spaced = unit if unit in ("", "x", "%") else " " + unit
    return f"target {_COMPARE[target['op']][1]} {target['number']}{spaced}"


def _target(row, target):
    """The value and whether it meets the bound: `1.84x (target ≤ 3x: met)`."""
    field = target["field"]
    bound = float(target["number"].replace(",", "")) * _SCALE[target["unit"]]
    met = _COMPARE[target["op"]][0](float(field_number(row, field)), bound)
    return f"{field_text(row, field)} ({_goal(target)}: {'met' if met else 'not met'})"


def table_heading(module, run):
    return (f"*`benchmarks/{module}.py`, {run['seconds'][module]:.0f} s of the run made by "
            f"`{run['command']}`; {environment_line(run['environment'])}.*")


def module_table(module, run):
    if module not in run["seconds"]:
        _known(run, module)
    if module in run["failed"]:
        return (f"*`benchmarks/{module}.py` failed in the run made by `{run['command']}` "
                f"({run['failed'][module]}): no numbers.*")
    rows = [r for r in run["rows"] if r["benchmark"] == module]
    return table_heading(module, run) + "\n\n" + rows_table(rows)


def rows_table(rows):
    """The rows as markdown; TensorFlow's columns only when some row has a comparison."""
    with_tf = any(r.get("tf_mode") for r in rows)
    head = "| workload | mode | median | spread | ratio | reference |"
    rule = "| --- | --- | ---: | ---: | ---: | --- |"
    if with_tf:
        head += " TensorFlow mode | TF median | ours / TF |"
        rule += " --- | ---: | ---: |"
    lines = [head, rule]
    for r in rows:
        mode = r["mode"] + (f" ({r['note']})" if r.get("note") else "")
        cells = [r["workload"], mode, format_value(r),
                 "—" if r["spread"] is None else f"{r['spread']:.0%}",
                 "—" if r["ratio"] is None else f"{r['ratio']:.3g}", r["reference"] or "—"]
        if with_tf:
            cells += _tf_cells(r)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _tf_cells(r):
    if not r.get("tf_mode"):
        return ["—", "—", "—"]
    if r["tf_seconds"] is not None:
        return [r["tf_mode"], format_seconds(r["tf_seconds"]),
                f"{r['seconds'] / r['tf_seconds']:.3g}"]
    status = "not installed" if r["tensorflow"] == "not installed" else "failed"
    return [r["tf_mode"], status, "—"]


def _run_table(run):
    lines = ["| module | rows | seconds | result |", "| --- | ---: | ---: | --- |"]
    for module, seconds in run["seconds"].items():
        count = sum(r["benchmark"] == module for r in run["rows"])
        result = f"failed: {run['failed'][module]}" if module in run["failed"] else "ok"
        lines.append(f"| `{module}` | {count} | {seconds:.0f} | {result} |")
    lines.append(f"| all | {len(run['rows'])} | {sum(run['seconds'].values()):.0f} | |")
    return "\n".join(lines)


def _appendix(template, run):
    left = [m for m in run["seconds"] if m not in tabled_modules(template)]
    if not left:
        return "Every module of the run has its section above."
    return "\n\n".join(f"### `{m}`\n\n{module_table(m, run)}" for m in left)
