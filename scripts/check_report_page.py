#!/usr/bin/env python3
"""Opens navbench's report.html pages in a real browser (Debian's headless Chromium, driven by
Playwright from the project venv; no browser is downloaded) and checks what a reader needs:

- the page loads with no console error, no page error and no request leaving the file itself
  (no CDN, font or script from elsewhere; every figure is inside the page);
- the caveats box, the Findings and every heading and table of the summary.md beside it and of
  its route pages (routes/*.md) are there; every table has column headers and a caption;
- keyboard: Tab reaches the first collapsed table section and Enter opens it;
- axe-core (bundled by the PyPI package axe-playwright-python) finds no serious or critical
  accessibility violation;
- a screenshot of the top of the page is written (--screenshots FOLDER; looked at, never compared).

Prints one line per page (size, load time, tables, violations by impact); exit 1 on a problem.

With --view PAGE (a `navbench view` page): the slider is reached by Tab, End and the arrow keys move
it, the walker's marker moves and the "said" line changes; no request, no console error, axe as above;
--loads N opens it N times and prints every load time and their median, --max-view-mb M fails a
larger page.

Every figure (report pages and --figure pages) whose legend has several entries (`<g class="legend-entry">`)
must tell them apart by something besides colour: a dash pattern, a marker shape or a symbol (issue 51:
colour is never the only channel).

--long-navigation SRC OUT [--hours H] writes OUT, a navigation trace of H hours (3 by default) made
from the navigation trace SRC (the input of the 3-hour view measured by `make page-check-long`,
docs/benchmarks.md): SRC's walk as it is, then its IMU (100 Hz), compass and BLE repeated until H
hours, with annotation streams over the whole span (a step every 0.55 s, a turn every 20 s) so the
view has every kind of event to keep; then exits.

Usage: .venv/bin/python scripts/check_report_page.py [--screenshots DIR] [--view VIEW.html]… REPORT.html…
(needs `make deps-browser`: Debian's chromium and scripts/requirements-browser.txt).
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import sys
import time

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright


def long_navigation(src, out, hours):
    """A navigation trace of `hours` from `src` (see the module's docstring); atomic (written beside, renamed)."""
    import h5py
    import numpy as np

    tmp = out + ".tmp"
    shutil.copyfile(src, tmp)
    span = hours * 3600.0
    with h5py.File(tmp, "r+") as f:
        for group in ("imu", "compass", "ble"):
            if group not in f:
                continue
            g = f[group]
            t = g["timestamps"][...]
            period = (t[-1] - t[0]) + (t[1] - t[0] if len(t) > 1 else 1.0)
            copies = int(np.ceil(span / period))
            times = np.concatenate([t + k * period for k in range(copies)])
            keep = times <= t[0] + span
            columns = {name: g[name][...] for name in g if isinstance(g[name], h5py.Dataset) and g[name].shape[:1] == t.shape}
            for name, values in columns.items():
                whole = times if name == "timestamps" else np.concatenate([values] * copies)
                attrs = dict(g[name].attrs)
                del g[name]
                d = g.create_dataset(name, data=whole[keep], chunks=True, compression="gzip", compression_opts=4)
                for k, v in attrs.items():
                    d.attrs[k] = v
        t0 = f["imu/timestamps"][0]
        annotations = f.require_group("annotations")
        for name, every, label in (("steps", 0.55, "step"), ("turns", 20.0, "turn")):
            start = t0 + np.arange(0.0, span, every)
            g = annotations.create_group(name)
            g.attrs["kind"] = "instants"
            g.attrs["source"] = "synthetic (scripts/check_report_page.py --long-navigation)"
            g.create_dataset("timestamps", data=start).attrs["units"] = "s"
            g.create_dataset("end", data=start).attrs["units"] = "s"
            labels = [f"{label} {k + 1}" for k in range(len(start))]
            g.create_dataset("label", data=np.array(labels, dtype=h5py.string_dtype("utf-8")))
        f.attrs["session_id"] = f"{f.attrs['session_id']}-{hours:g}h"
    os.replace(tmp, out)


def legend_problems(page):
    """Figures whose legend entries (`g.legend-entry`) differ by colour alone: per entry its
    non-colour signature (dash patterns, marker shapes, symbols and text of its marks, without the
    label); two entries of one figure with the same signature but different colours are a problem
    (the same signature and colour is one style used twice, e.g. a CI's low and high bound)."""
    same = page.evaluate(
        """() => [...document.querySelectorAll('svg')].map(svg => {
            const entries = [...svg.querySelectorAll('g.legend-entry')];
            const signature = e => [...e.querySelectorAll('[data-mark], line, polyline, path, rect, circle')]
                .filter(m => !m.closest('text'))
                .map(m => [m.tagName, m.getAttribute('stroke-dasharray') || '', m.getAttribute('d') ? m.getAttribute('d').replace(/[-\d.]+/g, 'n') : '',
                           m.getAttribute('stroke-width') || '', m.getAttribute('data-mark') || ''].join(':')).join('|')
                + '|' + [...e.querySelectorAll('text[data-mark], tspan[data-mark]')].map(t => t.textContent).join('');
            const colour = e => [...e.querySelectorAll('line, polyline, path, rect, circle')].map(m => (m.getAttribute('stroke') || '') + '/' + (m.getAttribute('fill') || '')).join('|');
            const seen = new Map();
            for (const e of entries) {
                const s = signature(e), c = colour(e);
                // The same style twice (a CI's two bounds) tells nothing apart; only a colour difference alone is a problem.
                if (seen.has(s) && seen.get(s)[1] !== c) return [svg.getAttribute('aria-label') || '', seen.get(s)[0], e.textContent.trim()];
                if (!seen.has(s)) seen.set(s, [e.textContent.trim(), c]);
            }
            return null;}).filter(x => x)"""
    )
    problems = [f"legend entries '{a[:60]}' and '{b[:60]}' differ by colour alone (figure '{name[:80]}')" for name, a, b in same]
    # A figure drawing series in several colours (lines, boxes) must have legend entries to compare.
    unmarked = page.evaluate(
        """() => [...document.querySelectorAll('figure svg')].filter(svg => {
            const colours = new Set([...svg.querySelectorAll('polyline'), ...svg.querySelectorAll('rect[fill-opacity]')]
                .map(m => m.getAttribute('stroke') || m.getAttribute('fill')).filter(c => c && c !== 'none'));
            return colours.size > 1 && svg.querySelectorAll('g.legend-entry').length < 2;
        }).map(svg => svg.getAttribute('aria-label') || '')"""
    )
    problems += [f"a figure drawing several colours without legend entries to tell them apart ('{name[:80]}')" for name in unmarked]
    return problems



def markdown_outline(summary):
    """Headings and the number of pipe tables of a navbench summary.md."""
    headings, tables, previous = [], 0, ""
    for line in pathlib.Path(summary).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            headings.append(line.lstrip("#").strip())
        if line.startswith("|") and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", line.strip()) and previous.startswith("|"):
            tables += 1
        previous = line
    return headings, tables


def open_page(browser, path):
    """A new page on `path` that lets no request leave the file: (page, requests refused, console
    errors, load seconds)."""
    url = pathlib.Path(path).resolve().as_uri()
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    outside, console = [], []

    def route(r):
        u = r.request.url
        if u == url or u.startswith("data:"):
            r.continue_()
        else:
            outside.append(u)
            r.abort()

    page.route("**/*", route)
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: console.append(str(e)))
    start = time.monotonic()
    page.goto(url, wait_until="load")
    return page, outside, console, time.monotonic() - start


def loading_problems(outside, console):
    problems = []
    if outside:
        problems.append(f"{len(outside)} request(s) leaving the file, first {outside[0]}")
    if console:
        problems.append(f"console error: {console[0]}")
    return problems


def check_page(browser, path, screenshots):
    page, outside, console, load_seconds = open_page(browser, path)
    problems = loading_problems(outside, console)

    folder = os.path.dirname(path)
    headings, tables = markdown_outline(os.path.join(folder, "summary.md"))
    for route_page in sorted(pathlib.Path(folder, "routes").glob("*.md")):
        h, t = markdown_outline(route_page)
        headings += h
        tables += t
    shown = page.eval_on_selector_all("h1, h2, h3, h4", "els => els.map(e => e.textContent.trim())")
    missing = [h for h in headings if h not in shown]
    if missing:
        problems.append(f"{len(missing)} heading(s) of summary.md or its route pages missing, first '{missing[0]}'")
    if not page.query_selector("[role=note]#caveats"):
        problems.append("no caveats box (role=note, id caveats)")
    facts = page.evaluate(
        """() => [...document.querySelectorAll('table')].map(t => ({
            headers: t.querySelectorAll('thead th[scope=col]').length,
            caption: !!t.querySelector('caption') && t.querySelector('caption').textContent.trim().length > 0}))"""
    )
    if len(facts) != tables:
        problems.append(f"{len(facts)} tables, summary.md and its route pages have {tables}")
    if any(f["headers"] == 0 or not f["caption"] for f in facts):
        problems.append("a table without column headers or caption")
    images = page.evaluate(
        """() => [...document.querySelectorAll('figure')].map(f => {
            const g = f.querySelector('svg, img');
            return {alt: g ? (g.getAttribute('aria-label') || g.getAttribute('alt')) : null,
                    ok: !!g && g.getBoundingClientRect().width > 0};})"""
    )
    if any(not i["ok"] for i in images):
        problems.append("a figure without a drawn SVG or image")
    if any(not (i["alt"] or "").strip() for i in images):
        problems.append("a figure without a text alternative")
    # Each figure's text alternative states its finding (issue 51): numbers, not a file path or the fallback.
    vague = [
        i["alt"]
        for i in images
        if (i["alt"] or "").strip()
        and (
            not re.search(r"\d", i["alt"])
            or re.fullmatch(r"[\w./-]+\.svg", i["alt"].strip())
            or "(its numbers are in the section's tables)" in i["alt"]
        )
    ]
    if vague:
        problems.append(f"{len(vague)} figure(s) whose text alternative states no finding, first '{vague[0][:120]}'")
    problems += legend_problems(page)
    if page.evaluate("() => document.body.innerText.includes('figure not in this page')"):
        problems.append("a figure of the Markdown is missing from the page")

    dangling = page.evaluate(
        "() => [...document.querySelectorAll('a[href^=\"#\"]')].map(a => a.getAttribute('href').slice(1)).filter(id => !document.getElementById(id))"
    )
    if dangling:
        problems.append(f"{len(dangling)} in-page link(s) to no element, first #{dangling[0]}")
    unlinked = page.evaluate(
        "() => { const h = document.getElementById('findings'); if (!h) return 0; let e = h.nextElementSibling;"
        " while (e && e.tagName !== 'UL' && !/^H[1-6]$/.test(e.tagName)) e = e.nextElementSibling;"
        " return e && e.tagName === 'UL' ? [...e.children].filter(li => !li.querySelector('a[href^=\"#\"]')).length : 0; }"
    )
    if unlinked:
        problems.append(f"{unlinked} Findings line(s) without a link to their evidence")

    # Keyboard: Tab until the first closed <details>' summary has focus, then Enter opens it.
    closed = page.evaluate("() => [...document.querySelectorAll('details:not([open]) > summary')].length")
    if closed:
        focused = False
        for _ in range(400):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement && document.activeElement.matches('details:not([open]) > summary')"):
                focused = True
                break
        if not focused:
            problems.append("Tab never reached a collapsed table section")
        else:
            page.keyboard.press("Enter")
            if not page.evaluate("() => document.activeElement.parentElement.open"):
                problems.append("Enter did not open the focused table section")

    results = Axe().run(page)
    violations = results.response.get("violations", [])
    by_impact = {}
    for v in violations:
        by_impact[v.get("impact")] = by_impact.get(v.get("impact"), 0) + 1
    for v in violations:
        if v.get("impact") not in ("serious", "critical"):
            print(f"check_report_page: {path}: axe {v.get('impact')} (not failing): {v['id']} ({v['help']})")
    bad = [v for v in violations if v.get("impact") in ("serious", "critical")]
    for v in bad[:5]:
        node = v["nodes"][0]["target"] if v.get("nodes") else ""
        problems.append(f"axe {v['impact']}: {v['id']} ({v['help']}) at {node}")

    if screenshots:
        os.makedirs(screenshots, exist_ok=True)
        name = pathlib.Path(path).parent.name + "-" + pathlib.Path(path).stem + ".png"
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=os.path.join(screenshots, name))
    page.close()
    size = os.path.getsize(path)
    print(
        f"check_report_page: {path}: {size / 1e6:.2f} MB, loaded in {load_seconds:.2f} s, {len(facts)} tables, "
        f"{len(images)} figures, axe violations {json.dumps(by_impact, sort_keys=True)}"
        + ("" if not problems else f"; {len(problems)} problem(s)")
    )
    return problems


def check_view(browser, path, screenshots, loads=1, max_mb=None):
    """A `navbench view` page: loads alone, the slider is reached by Tab and moved by keyboard, and
    moving it moves the walker's marker and changes what the page says was said. With `loads` > 1
    the page is opened that many times more (fresh pages) and every load time printed with their
    median (docs/benchmarks.md); `max_mb`: a page larger than that is a problem (a size, never a time)."""
    extra = []
    for _ in range(loads - 1 if loads > 1 else 0):
        p, _, _, seconds = open_page(browser, path)
        p.close()
        extra.append(seconds)
    page, outside, console, load_seconds = open_page(browser, path)
    problems = loading_problems(outside, console)
    if max_mb is not None and os.path.getsize(path) > max_mb * 1e6:
        problems.append(f"{os.path.getsize(path) / 1e6:.2f} MB, over {max_mb:g} MB")
    if extra:
        times = sorted(extra + [load_seconds])
        print(f"check_report_page: {path}: {len(times)} loads: " + ", ".join(f"{t:.2f}" for t in extra + [load_seconds])
              + f" s; median {times[len(times) // 2]:.2f} s; load average {os.getloadavg()[0]:.2f}")
    for _ in range(50):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement && document.activeElement.id === 't'"):
            break
    else:
        problems.append("Tab never reached the time slider")
    state = "() => [document.getElementById('pose').getAttribute('cx'), document.getElementById('said').textContent, document.getElementById('now').textContent]"
    before = page.evaluate(state)
    page.keyboard.press("End")
    after = page.evaluate(state)
    if before[0] == after[0]:
        problems.append("End on the slider did not move the walker's marker")
    if before[1] == after[1]:
        problems.append("End on the slider did not change what was said")
    page.keyboard.press("Home")
    for _ in range(30):
        page.keyboard.press("ArrowRight")
    stepped = page.evaluate(state)
    if stepped[2] == before[2]:
        problems.append("the arrow keys did not move the slider")
    results = Axe().run(page)
    violations = results.response.get("violations", [])
    for v in violations:
        if v.get("impact") in ("serious", "critical"):
            node = v["nodes"][0]["target"] if v.get("nodes") else ""
            problems.append(f"axe {v['impact']}: {v['id']} ({v['help']}) at {node}")
        else:
            print(f"check_report_page: {path}: axe {v.get('impact')} (not failing): {v['id']} ({v['help']})")
    if screenshots:
        os.makedirs(screenshots, exist_ok=True)
        page.screenshot(path=os.path.join(screenshots, pathlib.Path(path).stem + "-view.png"))
    page.close()
    print(
        f"check_report_page: {path}: view, {os.path.getsize(path) / 1e6:.2f} MB, loaded in {load_seconds:.2f} s; "
        f"slider {before[2]} → {after[2]}, said '{after[1][:60]}'" + ("" if not problems else f"; {len(problems)} problem(s)")
    )
    return problems


def check_figure(browser, path, screenshots):
    """A `navbench plot` page: loads alone, its figure has a name, its table has headers, axe is clean."""
    page, outside, console, _ = open_page(browser, path)
    problems = loading_problems(outside, console)
    if not page.evaluate("() => !!document.querySelector('figure svg[role=img][aria-label]')"):
        problems.append("the figure has no role=img with a name")
    if not page.evaluate("() => document.querySelectorAll('table thead th[scope=col]').length > 0 && !!document.querySelector('table caption')"):
        problems.append("the data table has no column headers or caption")
    problems += legend_problems(page)
    for v in Axe().run(page).response.get("violations", []):
        if v.get("impact") in ("serious", "critical"):
            problems.append(f"axe {v['impact']}: {v['id']} ({v['help']})")
    if screenshots:
        os.makedirs(screenshots, exist_ok=True)
        page.screenshot(path=os.path.join(screenshots, pathlib.Path(path).stem + "-figure.png"))
    page.close()
    print(f"check_report_page: {path}: figure" + ("" if not problems else f"; {len(problems)} problem(s)"))
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--screenshots")
    ap.add_argument("--view", action="append", default=[], help="a navbench view page (repeatable)")
    ap.add_argument("--figure", action="append", default=[], help="a navbench plot page (repeatable)")
    ap.add_argument("--loads", type=int, default=1, help="open each view page this many times and print the load times")
    ap.add_argument("--max-view-mb", type=float, help="a view page larger than this many MB fails")
    ap.add_argument("--long-navigation", nargs=2, metavar=("SRC", "OUT"))
    ap.add_argument("--hours", type=float, default=3.0)
    ap.add_argument("pages", nargs="*")
    args = ap.parse_args()
    if args.long_navigation:
        long_navigation(*args.long_navigation, args.hours)
        return
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        sys.exit("check_report_page: no chromium on PATH (make deps-browser installs Debian's)")
    failed = False
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        for path in args.pages:
            for problem in check_page(browser, path, args.screenshots):
                print(f"check_report_page: {path}: {problem}", file=sys.stderr)
                failed = True
        for path in args.figure:
            for problem in check_figure(browser, path, args.screenshots):
                print(f"check_report_page: {path}: {problem}", file=sys.stderr)
                failed = True
        for path in args.view:
            for problem in check_view(browser, path, args.screenshots, args.loads, args.max_view_mb):
                print(f"check_report_page: {path}: {problem}", file=sys.stderr)
                failed = True
        browser.close()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
