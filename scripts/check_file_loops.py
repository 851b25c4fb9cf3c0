#!/usr/bin/env python3
"""Checks that no new file-level dependency loop appears inside a Swift module.

For each module folder under Sources/ (C modules, a name starting with C and a
module.modulemap, are skipped) it builds a graph of the module's .swift files: A -> B when A
mentions, as a whole word, a top-level name B declares. A top-level name is a `struct`, `class`,
`enum`, `protocol`, `actor`, `typealias`, `func`, `let` or `var` at column 0 (access modifiers
and attributes before it allowed); `extension X` does not declare X. What a simple lexer can
tell is used: comments and string literals are left out (the code of `\\(…)` interpolations
is kept), a name after `.` is a member and a name right before `:` a label (`rotation:`), not
mentions; `private`/`fileprivate` names are not visible to other files, and a name the
mentioning file declares itself is its own. A property used without `self.` inside a type can
still look like a mention of a top-level name of the same spelling: rename one, or accept it.

A loop is a strongly connected component of two or more files (Tarjan's algorithm). Loops that
exist today are listed in scripts/file_loops_allowed.txt (one per line: the files, relative to
Sources/, sorted and joined by " <-> "); that list may only shrink. Fails (exit 1, one line per
problem) when
  - a loop not in the list appears (or a listed loop gains files),
  - a listed loop is gone or has lost files (the list must then be edited to match),
so a loop cut is recorded and cannot grow back unnoticed.

Standard library only:
  python3 scripts/check_file_loops.py              # check
  python3 scripts/check_file_loops.py --explain    # also print, per loop, each edge and a name that makes it
  python3 scripts/check_file_loops.py --list       # print the loops of the tree in the list's format
  python3 scripts/check_file_loops.py --root DIR   # check DIR/Sources instead of this repository's
"""
import argparse
import os
import re
import sys

from check_output import finish  # scripts/check_output.py (the script's own folder is on sys.path)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
ALLOWLIST = os.path.join(HERE, "file_loops_allowed.txt")
SEP = " <-> "

# Code state: what starts a comment or a string literal, or a parenthesis (for interpolations).
CODE = re.compile(r'//|/\*|(#*)("""|")|[()]')
COMMENT_EDGE = re.compile(r"/\*|\*/")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
MODIFIER = (r"(?:@[A-Za-z_]\w*(?:\([^)\n]*\))?|public|package|internal|open|final|indirect|static|dynamic|lazy"
            r"|nonisolated(?:\(unsafe\))?|(?:public|package|internal|private|fileprivate)\(set\)"
            r"|private|fileprivate)")
DECL = re.compile(r"^((?:" + MODIFIER + r"\s+)*)(struct|class|enum|protocol|actor|typealias|func|let|var)\s+"
                  r"(`?[A-Za-z_]\w*`?|\([^)\n]*\))")


def blank(s):
    """`s` with every character but newlines replaced by a space (keeps lines and columns)."""
    return re.sub(r"[^\n]", " ", s)


def mask(src):
    """The source with comments and string-literal text blanked; interpolated code kept."""
    out, n, i = [], len(src), 0
    # Frames: ("code", paren depth, in interpolation) or ("str", hashes, multi-line).
    stack = [["code", 0, False]]
    string_res = {}
    while i < n:
        top = stack[-1]
        if top[0] == "code":
            m = CODE.search(src, i)
            if not m:
                out.append(src[i:])
                break
            out.append(src[i:m.start()])
            tok = m.group(0)
            if tok == "//":
                j = src.find("\n", m.end())
                j = n if j < 0 else j
                out.append(blank(src[m.start():j]))
                i = j
            elif tok == "/*":  # nested block comments
                depth, k = 1, m.end()
                while depth and k < n:
                    e = COMMENT_EDGE.search(src, k)
                    if not e:
                        k = n
                        break
                    depth += 1 if e.group(0) == "/*" else -1
                    k = e.end()
                out.append(blank(src[m.start():k]))
                i = k
            elif tok == "(":
                top[1] += 1
                out.append(tok)
                i = m.end()
            elif tok == ")":
                if top[2] and top[1] == 0:  # end of an interpolation: back into the string
                    stack.pop()
                    out.append(" ")
                else:
                    top[1] = max(0, top[1] - 1)
                    out.append(tok)
                i = m.end()
            else:
                stack.append(["str", len(m.group(1)), m.group(2) == '"""'])
                out.append(blank(tok))
                i = m.end()
        else:
            hashes, multi = top[1], top[2]
            key = (hashes, multi)
            if key not in string_res:
                h = "#" * hashes
                close = re.escape(('"""' if multi else '"') + h)
                interp = re.escape("\\" + h + "(")
                escape = r"|\\." if hashes == 0 else ""
                newline = "" if multi else r"|\n"
                string_res[key] = re.compile(interp + escape + "|" + close + newline, re.S)
            m = string_res[key].search(src, i)
            if not m:
                out.append(blank(src[i:]))
                break
            out.append(blank(src[i:m.start()]))
            tok = m.group(0)
            if tok.endswith("("):
                stack.append(["code", 0, True])
                out.append(blank(tok))
            elif tok == "\n":  # unterminated one-line string: recover at the line end
                stack.pop()
                out.append(tok)
            elif tok.startswith("\\"):
                out.append(blank(tok))
            else:
                stack.pop()
                out.append(blank(tok))
            i = m.end()
    return "".join(out)


def declarations(masked):
    """(visible names, all names) declared at the top level of a masked file."""
    visible, every = set(), set()
    for line in masked.split("\n"):
        m = DECL.match(line)
        if not m:
            continue
        modifiers = re.findall(r"@?\w+(?:\([^)]*\))?", m.group(1))  # private(set) stays whole
        private = "private" in modifiers or "fileprivate" in modifiers
        target = m.group(3)
        names = IDENT.findall(target) if target.startswith("(") else [target.strip("`")]
        for name in names:
            if name == "_":
                continue
            every.add(name)
            if not private:
                visible.add(name)
    return visible, every


def mentions(masked):
    """Names the file mentions as a whole word: not after `.` (a member), not right before `:`
    (an argument label, a parameter or a typed binding: `rotation:`)."""
    found = set()
    for m in IDENT.finditer(masked):
        s, e = m.start(), m.end()
        if s and masked[s - 1] == ".":
            continue
        if masked.startswith(":", e):
            continue
        found.add(m.group(0))
    return found


def module_graph(folder):
    """file (relative to Sources/) -> {file it depends on: a name that makes the edge}."""
    files = []
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        files += [os.path.join(root, f) for f in sorted(names) if f.endswith(".swift")]
    info = {}
    for path in files:
        with open(path, encoding="utf-8") as f:
            masked = mask(f.read())
        visible, every = declarations(masked)
        info[path] = (visible, every, mentions(masked))
    declared_in = {}
    for path, (visible, _, _) in info.items():
        for name in visible:
            declared_in.setdefault(name, []).append(path)
    sources = os.path.dirname(folder)
    rel = {p: os.path.relpath(p, sources).replace(os.sep, "/") for p in files}
    graph = {}
    for path, (_, every, used) in info.items():
        edges = {}
        for name in sorted(used - every):
            for other in declared_in.get(name, ()):
                if other != path:
                    edges.setdefault(rel[other], name)
        graph[rel[path]] = edges
    return graph


def strongly_connected(graph):
    """Tarjan's algorithm (iterative); components of two or more nodes, each sorted."""
    index, low, on_stack, stack, result = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == node:
                        break
                if len(component) > 1:
                    result.append(sorted(component))
    return result


def current_loops(root):
    """{loop line: (graph of its module, files)} for every module under root/Sources."""
    sources = os.path.join(root, "Sources")
    if not os.path.isdir(sources):
        sys.exit(f"file_loops: {sources}: no such folder (--root names the folder holding Sources/)")
    loops = {}
    for module in sorted(os.listdir(sources)):
        folder = os.path.join(sources, module)
        if not os.path.isdir(folder):
            continue
        if module.startswith("C") and os.path.exists(os.path.join(folder, "module.modulemap")):
            continue
        graph = module_graph(folder)
        for component in strongly_connected(graph):
            loops[SEP.join(component)] = (graph, component)
    return loops


def read_allowlist(path):
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                lines.append(SEP.join(sorted(p.strip() for p in line.split("<->"))))
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=REPO, help="folder holding Sources/ (default: this repository)")
    parser.add_argument("--allowlist", default=ALLOWLIST, help="the loops allowed (default: scripts/file_loops_allowed.txt)")
    parser.add_argument("--explain", action="store_true", help="print each loop's edges with a name that makes each")
    parser.add_argument("--list", action="store_true", help="print the current loops in the allowlist's format and exit 0")
    args = parser.parse_args()

    loops = current_loops(args.root)
    if args.list:
        for line in sorted(loops):
            print(line)
        return 0
    if args.explain:
        for line in sorted(loops):
            graph, files = loops[line]
            print(f"loop ({len(files)} files): {line}")
            for a in files:
                for b, name in sorted(graph[a].items()):
                    if b in files:
                        print(f"  {a} -> {b}  ({name})")
    allowed = read_allowlist(args.allowlist)
    shown = os.path.relpath(args.allowlist, REPO) if args.allowlist.startswith(REPO + os.sep) else args.allowlist
    allowed_sets = {line: set(line.split(SEP)) for line in allowed}
    problems, explained = [], set()
    for line in sorted(loops):
        if line in allowed_sets:
            continue
        files = set(loops[line][1])
        inside = sorted(a for a, s in allowed_sets.items() if s < files)
        around = sorted(a for a, s in allowed_sets.items() if files < s and a not in loops)
        if inside:
            explained.update(inside)
            problems.append(f"loop grew, cut it back (the list may only shrink): {line} (was: {' | '.join(inside)})")
        elif around:
            explained.update(around)
            problems.append(f"loop shrank, write it in {shown} instead of the longer line: {line} (was: {' | '.join(around)})")
        else:
            problems.append(f"new loop, cut it (it is not in {shown}): {line}")
    for line in allowed:
        if line not in loops and line not in explained:
            problems.append(f"loop gone, remove it from {shown}: {line}")
    if len(set(allowed)) != len(allowed) or allowed != sorted(allowed):
        problems.append(f"{shown}: lines must be sorted and unique")
    return finish("file_loops", problems, f"{len(loops)} file loop(s), all in {shown}, none gone", "; see the edges with --explain")


if __name__ == "__main__":
    sys.exit(main())
