#!/usr/bin/env python3
"""Checks that the imports of Sources/ and Tests/ match Package.swift and the layer order.

Fails (exit 1, one line per problem) when
  - a target imports a module it does not declare (used but undeclared),
  - a target declares a module it never imports (declared but unused; executables a test
    target runs are exempt),
  - a library imports a module the layer order forbids (same or higher layer),
  - a test target imports a layer above its library (except the fixture helpers NavIO and
    NavSynth), or a C module is used outside its layer,
  - a library has no test target <Name>Tests.
The layer order is the one of docs/architecture.md and the comment in Package.swift; change
all three together. Standard library only: `python3 scripts/check_layers.py` (make layers).
"""
import json
import os
import re
import subprocess
import sys

from check_output import finish  # scripts/check_output.py (the script's own folder is on sys.path)

# Lower number = lower layer. A library may import only modules of a strictly lower layer.
LAYERS = {
    "NavCore": 0,
    "NavSignal": 1, "NavSpectral": 1, "NavGeometry": 1, "NavSynth": 1, "NavRosbag": 1, "NavStatistics": 1,
    "NavGuidance": 2, "NavAids": 2,
    "NavMetrics": 3, "NavSim": 3,
    "NavIO": 4,
    "NavImport": 5,
    "NavReport": 6,
    "NavPipeline": 7,
    "navbench": 8, "navbench-bench": 8,
    "NavProcessPolicy": 0,
}
# Process policy of the executables (malloc tuning): only they and its own tests may import it.
EXECUTABLE_ONLY = {"NavProcessPolicy"}
# Same-layer imports that are part of the design (documented in docs/architecture.md).
ALLOWED_SAME_LAYER = set()
# C modules and the only targets that may import them.
C_MODULES = {"CHDF5": {"NavIO"}, "CZlib": {"NavIO"}, "CLibCrypto": {"NavIO"}, "CSQLite": {"NavIO"}, "CFFTW": {"NavSpectral"},
             "CBZip2": {"NavRosbag"}, "CLZ4": {"NavRosbag"}, "CZstd": {"NavRosbag"}}
# Modules a test target may import above its library: reading fixtures, making sessions.
TEST_HELPERS = {"NavIO", "NavSynth"}
# Library targets of test code only (under Tests/): shared test helpers. They may import
# NavCore and the test helpers, and only test targets may depend on them.
TEST_SUPPORT = {"NavTestSupport": {"NavCore", "NavIO"}}
# Modules of the toolchain, never declared.
SYSTEM = {"Foundation", "FoundationEssentials", "FoundationXML", "Glibc", "Darwin", "Dispatch", "Synchronization",
          "Testing", "XCTest", "os", "Musl"}
# Modules a product brings (product name -> modules).
PRODUCT_MODULES = {"Numerics": {"Numerics", "RealModule", "ComplexModule"}}

IMPORT = re.compile(r"^\s*(?:@testable\s+|@_exported\s+|@preconcurrency\s+)*(?:public\s+|package\s+|internal\s+)?import\s+(?:(?:struct|class|enum|func|protocol|typealias|var|let)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


def imports_of(folder):
    found = {}
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(root, name)
            with open(path, encoding="utf-8") as f:
                in_string = False  # inside a multi-line string literal (generated code)
                for lineno, line in enumerate(f, 1):
                    m = None if in_string else IMPORT.match(line)
                    if line.count('"""') % 2:
                        in_string = not in_string
                    if m and m.group(1) not in SYSTEM:
                        found.setdefault(m.group(1), f"{path}:{lineno}")
    return found


def main():
    # --package-json FILE: `swift package dump-package`'s output saved before a build holds SwiftPM's
    # lock (make test's layer check runs beside the build, scripts/test-steps.sh).
    if len(sys.argv) == 3 and sys.argv[1] == "--package-json":
        with open(sys.argv[2], encoding="utf-8") as f:
            package = json.load(f)
    else:
        package = json.loads(subprocess.run(["swift", "package", "dump-package"], check=True,
                                            capture_output=True, text=True).stdout)
    targets = {t["name"]: t for t in package["targets"]}
    problems = []
    for name, t in sorted(targets.items()):
        if t["type"] == "system":
            continue
        folder = t.get("path") or os.path.join("Tests" if t["type"] == "test" else "Sources", name)
        declared, provides = set(), {}
        for d in t["dependencies"]:
            kind, value = next(iter(d.items()))
            dep = value[0]
            declared.add(dep)
            for module in PRODUCT_MODULES.get(dep, {dep}):
                provides[module] = dep
        used = imports_of(folder)
        for module, where in sorted(used.items()):
            if module not in provides:
                problems.append(f"{where}: {name} imports {module}, which Package.swift does not declare for it")
        used_deps = {provides[m] for m in used if m in provides}
        for dep in sorted(declared & set(TEST_SUPPORT)):
            if t["type"] != "test":
                problems.append(f"Package.swift: {name} depends on the test support target {dep}; only test targets may")
        for dep in sorted(declared - used_deps):
            if t["type"] == "test" and targets.get(dep, {}).get("type") == "executable":
                continue  # a test target that runs the executable
            problems.append(f"Package.swift: {name} declares {dep} but no file of {folder} imports it")
        for module, where in sorted(used.items()):
            if module in EXECUTABLE_ONLY and t["type"] not in ("executable", "test"):
                problems.append(f"{where}: {name} imports {module}, the executables' process policy; no library may")
            if module in C_MODULES and name not in C_MODULES[module]:
                problems.append(f"{where}: {name} imports the C module {module}; only {', '.join(sorted(C_MODULES[module]))} may")
        if t["type"] == "test":
            subject = name[:-len("Tests")] if name.endswith("Tests") else None
            if subject in LAYERS:
                for module, where in sorted(used.items()):
                    if module in LAYERS and LAYERS[module] > LAYERS[subject] and module not in TEST_HELPERS:
                        problems.append(f"{where}: {name} imports {module}, a layer above {subject} "
                                        f"(layer order in docs/architecture.md)")
            continue
        if name in TEST_SUPPORT:
            for module, where in sorted(used.items()):
                if module in LAYERS and module not in TEST_SUPPORT[name]:
                    problems.append(f"{where}: the test support target {name} imports {module}; it may import only "
                                    f"{', '.join(sorted(TEST_SUPPORT[name]))}")
            continue
        if name not in LAYERS:
            problems.append(f"Package.swift: target {name} has no layer in scripts/check_layers.py and docs/architecture.md")
            continue
        for module, where in sorted(used.items()):
            if module in LAYERS and LAYERS[module] >= LAYERS[name] and (name, module) not in ALLOWED_SAME_LAYER:
                problems.append(f"{where}: {name} (layer {LAYERS[name]}) imports {module} (layer {LAYERS[module]}); "
                                f"the layer order in docs/architecture.md forbids it")
        if t["type"] == "regular" and name + "Tests" not in targets:
            problems.append(f"Package.swift: library {name} has no test target {name}Tests")
    return finish("layers", problems, f"{len([t for t in targets.values() if t['type'] != 'system'])} targets, imports match Package.swift and the layer order")


if __name__ == "__main__":
    sys.exit(main())
