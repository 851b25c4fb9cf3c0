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
it, the walker's marker moves and the "said" line changes; no request, no console error, axe as above.

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


def check_view(browser, path, screenshots):
    """A `navbench view` page: loads alone, the slider is reached by Tab and moved by keyboard, and
    moving it moves the walker's marker and changes what the page says was said."""
    page, outside, console, load_seconds = open_page(browser, path)
    problems = loading_problems(outside, console)
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
    ap.add_argument("pages", nargs="*")
    args = ap.parse_args()
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
            for problem in check_view(browser, path, args.screenshots):
                print(f"check_report_page: {path}: {problem}", file=sys.stderr)
                failed = True
        browser.close()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
