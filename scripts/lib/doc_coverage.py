"""Counts the public declarations of the given modules that have no doc comment of their own, or
that throw without their doc comment saying so.

    python3 scripts/lib/doc_coverage.py SEARCH_DIR MODULE...

Reads the symbol graphs the documentation build wrote under SEARCH_DIR (`MODULE.symbols.json`,
and `MODULE@OTHER.symbols.json` for extensions of other modules' types), newest first, and lists
every public or open symbol declared in this repository whose doc comment is missing or was only
inherited from a protocol, and every throwing one whose comment never says what it throws. Exits 1 when there is any, 2 when a module has no
symbol graph (the documentation build did not run).
"""

import json
import pathlib
import sys


def graphs_of(search_dir: pathlib.Path, module: str) -> list[pathlib.Path]:
    """The newest build's symbol graph files of `module`: the main one and its extension files."""
    mains = sorted(search_dir.rglob(f"{module}.symbols.json"), key=lambda p: p.stat().st_mtime, reverse=True)
    if not mains:
        return []
    folder = mains[0].parent
    return [mains[0]] + sorted(folder.glob(f"{module}@*.symbols.json"))


def throws(symbol: dict) -> bool:
    """Whether the declaration itself throws (a `throws` outside its parameter list, not a closure
    parameter's)."""
    depth = 0
    for fragment in symbol.get("declarationFragments", []):
        spelling = fragment.get("spelling", "")
        if fragment.get("kind") == "keyword" and spelling == "throws" and depth == 0:
            return True
        depth += spelling.count("(") - spelling.count(")")
    return False


def undocumented(graph: dict, sources: pathlib.Path) -> list[str]:
    """`file:line: Kind name` for each public symbol of this repository without its own doc comment,
    and how many public symbols of this repository the graph has."""
    found, checked = [], 0
    for symbol in graph.get("symbols", []):
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        if "::SYNTHESIZED::" in symbol["identifier"]["precise"]:
            continue
        location = symbol.get("location")
        if location is None:
            continue
        path = pathlib.Path(location["uri"].removeprefix("file://"))
        if sources not in path.parents:
            continue
        checked += 1
        comment = symbol.get("docComment") or {}
        text = "\n".join(line.get("text", "") for line in comment.get("lines", []))
        # A comment from elsewhere (the protocol requirement it implements) is inherited, not its own.
        own = comment.get("uri") == location["uri"] and text.strip()
        problem = None
        if not own:
            problem = "no doc comment"
        elif throws(symbol) and "throw" not in text.lower():
            problem = "throws, but its doc comment does not say what or when (- Throws:)"
        if problem:
            line = location["position"]["line"] + 1
            name = ".".join(symbol["pathComponents"])
            found.append(f"{path.relative_to(sources.parent)}:{line}: {symbol['kind']['displayName']} {name}: {problem}")
    return found, checked


def main() -> int:
    search_dir = pathlib.Path(sys.argv[1])
    modules = sys.argv[2:]
    sources = (pathlib.Path(__file__).resolve().parent.parent.parent / "Sources").resolve()
    missing = []
    total_public = 0
    for module in modules:
        files = graphs_of(search_dir, module)
        if not files:
            print(f"no symbol graph of {module} under {search_dir}: run the documentation build first", file=sys.stderr)
            return 2
        seen = set()
        module_missing = []
        for file in files:
            graph = json.loads(file.read_text())
            entries, checked = undocumented(graph, sources)
            total_public += checked
            for entry in entries:
                if entry not in seen:
                    seen.add(entry)
                    module_missing.append(entry)
        print(f"{module}: {len(module_missing)} public declarations without a (complete) doc comment")
        missing += module_missing
    for entry in sorted(missing):
        print(f"  {entry}")
    if missing:
        print(f"{len(missing)} public declarations have no doc comment: document each (what it is, its parameters, what it throws).",
              flush=True)
        return 1
    print(f"all {total_public} public declarations have their own doc comment")
    return 0


if __name__ == "__main__":
    sys.exit(main())
