"""The `autograph` command line (docs/cli.md): `command.main` is the entry point, one
module per job: reading inputs (`source`, `limits`), converting a file (`convert`, with
`keep`, `positions`, `skipped`, `valid`), folders and their units (`tree`, `units`,
`parallel`), writing outputs (`output`), `autograph graph` (`graph`, `signature`,
`render`) and `autograph export` (`export`, an ONNX model of a trace, following
`graph`'s rules). Importing the package imports nothing else."""


def main(argv=None):
    """`autograph ...` (the console script): `command.main`, imported when called."""
    from autograph_py.cli.command import main as run

    return run(argv)
