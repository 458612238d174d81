"""DOT text as Graphviz itself reads it: the oracle of the picture tests.

`parse(dot_text)` runs the renderer `autograph graph` uses (the system `dot`, else
`graphviz-pure`; the [test] extra installs the latter, so one always exists) with
`-Tjson` and returns a `Picture`: nodes and clusters by name with their attributes, each
node's innermost cluster, each cluster's parent cluster, and the edges by node names.
A DOT text Graphviz rejects fails the test with Graphviz's message.
"""

import dataclasses
import json
import subprocess

from autograph_py.cli.render import renderer


def render(dot_text, fmt):
    command = renderer()
    assert command is not None, "no Graphviz renderer: install the [test] extra"
    result = subprocess.run([command, f"-T{fmt}"], input=dot_text.encode(), capture_output=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


@dataclasses.dataclass
class Picture:
    nodes: dict      # name -> attributes
    clusters: dict   # name -> attributes
    cluster_of: dict  # node name -> its innermost cluster's name, or None
    parent: dict     # cluster name -> the cluster holding it, or None
    edges: list      # (tail name, head name, attributes)


def parse(dot_text):
    data = json.loads(render(dot_text, "json"))
    objects = data.get("objects", [])
    by_id = {obj["_gvid"]: obj for obj in objects}
    clusters = {obj["name"]: obj for obj in objects if "nodes" in obj or "subgraphs" in obj
                or obj["name"].startswith("cluster")}
    nodes = {obj["name"]: obj for obj in objects if obj["name"] not in clusters}
    parent = dict.fromkeys(clusters)
    for cluster in clusters.values():
        for child in cluster.get("subgraphs", []):
            parent[by_id[child]["name"]] = cluster["name"]
    cluster_of = dict.fromkeys(nodes)
    # The innermost cluster holding a node is the one with the most ancestors.
    for cluster in sorted(clusters.values(), key=lambda c: _depth(c["name"], parent)):
        for node in cluster.get("nodes", []):
            cluster_of[by_id[node]["name"]] = cluster["name"]
    edges = [(by_id[e["tail"]]["name"], by_id[e["head"]]["name"], e)
             for e in data.get("edges", [])]
    return Picture(nodes, clusters, cluster_of, parent, edges)


def _depth(name, parent):
    depth = 0
    while parent[name] is not None:
        name, depth = parent[name], depth + 1
    return depth
