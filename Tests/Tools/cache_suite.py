#!/usr/bin/env python3
"""make cache-tests: the public HTTP cache suite (http-tests/cache-tests) run against HTTPCacheBehavior.

The suite tests a cache by sending requests through it to its own origin server and checking what the origin
received and what came back. Here the cache is this package's client: a front server (this script) takes each
request of the suite's client and hands it, as one JSON line, to the CacheSuiteProxy executable, which sends it to
the origin through a NetworkClient with HTTPCacheBehavior and a real transport, and hands the response back. Nothing
of the suite is re-expressed: its own client, origin and checks run unchanged (Node.js, no npm package needed).

    Tests/Tools/cache_suite.py [--suite DIR] [--mode private|shared] [--transport default|urlsession] [--id TEST]

Without --suite the suite is cloned into .build/cache-tests at the pinned commit (network needed once). The summary
counts the required and optimal tests the client runs (the suite's own dependency rule applies: a test whose
dependency failed counts as failed), all of them and those applicable to the mode: a private cache is not held to
the tests the suite skips for browsers (browser_skip: shared-cache rules) nor to CDN-only ones; a shared cache is
not held to the CDN-only ones (CDN-Cache-Control, RFC 9213, is for CDNs).
"""
import argparse
import base64
import http.server
import json
import os
import queue
import socket
import subprocess
import sys
import tempfile
import threading
import time

SUITE_URL = "https://github.com/http-tests/cache-tests"
SUITE_COMMIT = "b55b8bda3dbb8c927c04e85bd8d496a8caa3e4ba"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "upgrade", "host",
              "content-length", "trailer"}


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(port, process, what):
    for _ in range(200):
        if process.poll() is not None:
            sys.exit(f"cache-tests: {what} exited ({process.returncode})")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"cache-tests: {what} did not listen on port {port}")


def suite_checkout(path):
    if path:
        return path
    target = os.path.join(ROOT, ".build", "cache-tests")
    if not os.path.isdir(os.path.join(target, ".git")):
        subprocess.run(["git", "clone", "-q", SUITE_URL, target], check=True)
    subprocess.run(["git", "-C", target, "checkout", "-q", SUITE_COMMIT], check=True)
    return target


class Worker:
    """The CacheSuiteProxy process: one JSON line per request on its input, one per response on its output."""

    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.lock = threading.Lock()
        self.waiting = {}
        self.next_id = 0
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            answer = json.loads(line)
            box = self.waiting.pop(answer["id"], None)
            if box is not None:
                box.put(answer)

    def call(self, method, target, headers, body):
        box = queue.Queue()
        with self.lock:
            self.next_id += 1
            exchange = {"id": self.next_id, "method": method, "target": target, "headers": headers,
                        "body": base64.b64encode(body).decode()}
            self.waiting[self.next_id] = box
            self.process.stdin.write((json.dumps(exchange) + "\n").encode())
            self.process.stdin.flush()
        return box.get(timeout=60)


def front_server(worker):
    class Front(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def relay(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            headers = [[name, value] for name, value in self.headers.items() if name.lower() not in HOP_BY_HOP]
            answer = worker.call(self.command, self.path, headers, body)
            status = answer["status"]
            self.send_response_only(status, answer.get("reason"))
            for name, value in answer["headers"]:
                if name.lower() not in HOP_BY_HOP:
                    self.send_header(name, value)
            data = base64.b64decode(answer["body"])
            if status >= 200 and status not in (204, 304):
                self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD" and status >= 200 and status not in (204, 304):
                self.wfile.write(data)

        def __getattr__(self, name):
            if name.startswith("do_"):
                return self.relay
            raise AttributeError(name)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Front)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


SUMMARY = r"""
import fs from 'fs'
import { pathToFileURL } from 'url'
const [suite, resultsFile, mode] = process.argv.slice(-3)
const tests = (await import(pathToFileURL(`${suite}/tests/index.mjs`))).default
const { determineTestResult, resultTypes } = await import(pathToFileURL(`${suite}/test-engine/lib/results.mjs`))
const results = JSON.parse(fs.readFileSync(resultsFile, 'utf8'))
const views = { all: () => true,
  applicable: t => mode === 'shared' ? !t.cdn_only : !t.cdn_only && !t.browser_skip }
const out = {}
for (const [view, keep] of Object.entries(views)) {
  const counts = { passed: 0, total: 0, failed: [] }
  for (const suite of tests) for (const test of suite.tests) {
    const kind = test.kind || 'required'
    if (kind === 'check' || test.browser_only || !keep(test)) continue
    counts.total++
    const result = determineTestResult(tests, test.id, results)
    if (result === resultTypes.pass) counts.passed++
    else counts.failed.push(`${kind} ${test.id} ${result[2]} ${JSON.stringify(results[test.id] === true ? '' : (results[test.id] || ['untested'])[1] || '')}`)
  }
  out[view] = counts
}
console.log(JSON.stringify(out))
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", help="a checkout of http-tests/cache-tests (cloned when absent)")
    parser.add_argument("--mode", choices=["private", "shared"], default="private")
    parser.add_argument("--transport", choices=["default", "urlsession"], default="default")
    parser.add_argument("--id", default="", help="one test, with the suite's request and response dump")
    parser.add_argument("--results", help="write the suite's JSON results here")
    args = parser.parse_args()
    suite = suite_checkout(args.suite)
    binary = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True, capture_output=True,
                            text=True).stdout.strip()
    origin_port = free_port()
    pidfile = tempfile.NamedTemporaryFile(suffix=".pid", delete=False).name
    environment = dict(os.environ, npm_config_protocol="http", npm_config_port=str(origin_port),
                       npm_config_pidfile=pidfile)
    origin = subprocess.Popen(["node", "test-engine/server/server.mjs"], cwd=suite, env=environment,
                              stdout=subprocess.DEVNULL)
    worker = None
    try:
        wait_for(origin_port, origin, "the suite's origin server")
        worker = Worker([os.path.join(binary, "CacheSuiteProxy"), "--origin", f"http://127.0.0.1:{origin_port}",
                         "--mode", args.mode, "--transport", args.transport])
        front = front_server(worker)
        base = f"http://127.0.0.1:{front.server_address[1]}"
        environment = dict(os.environ, npm_config_base=base, npm_config_id=args.id, npm_package_config_id="")
        run = subprocess.run(["node", "--no-warnings", "test-engine/cli.mjs"], cwd=suite, env=environment,
                             capture_output=True, text=True)
        if args.id:
            print(run.stdout, run.stderr)
            return
        if run.returncode != 0:
            sys.exit(f"cache-tests: the suite's client failed: {run.stderr[-2000:]}")
        results = args.results or os.path.join(tempfile.mkdtemp(), "results.json")
        with open(results, "w") as file:
            file.write(run.stdout)
        summary = subprocess.run(["node", "--input-type=module", "-e", SUMMARY, os.path.abspath(suite), results,
                                  args.mode], check=True, capture_output=True, text=True)
        counts = json.loads(summary.stdout)
        for view, numbers in counts.items():
            print(f"cache-tests ({args.mode} cache, {args.transport} transport, {view}): {numbers['passed']} of "
                  f"{numbers['total']} required and optimal tests passed")
        for line in counts["applicable"]["failed"]:
            print(f"    not passed: {line}")
    finally:
        if worker:
            worker.process.stdin.close()
            worker.process.terminate()
        origin.terminate()
        origin.wait()
        os.unlink(pidfile)


if __name__ == "__main__":
    main()
