"""What the deploy files are checked against: the project's own facts, read from the source.

Everything here is read from the repository (README, settings, OpenAPI document, CLI,
pyproject, the deploy files themselves) so the deploy tests fail when either side drifts.
"""

from __future__ import annotations

import io
import json
import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import click
import yaml
from dockerfile_parse import DockerfileParser

from russian_poker.service.cli import main as cli
from russian_poker.service.settings import _VARIABLES

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
DOCKERFILE = DEPLOY / "Dockerfile"
COMPOSE = DEPLOY / "compose.yaml"
NGINX_CONF = DEPLOY / "nginx.conf"
YAMLLINT_CONF = DEPLOY / ".yamllint.yaml"

# Variables the image or the proxies may set that are not the service's configuration.
RUNTIME_VARIABLES = frozenset({"PATH", "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE"})


@cache
def documented_variables() -> frozenset[str]:
    """The variables of the README's Configuration table."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    names = re.findall(r"^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|", section, flags=re.MULTILINE)
    assert names, "the README's Configuration table lists no variables"
    return frozenset(names)


def read_variables() -> frozenset[str]:
    """The variables service/settings.py reads."""
    return frozenset(_VARIABLES)


def service_variables() -> frozenset[str]:
    """The variables a deployment may set for the service: documented and read."""
    return documented_variables() & read_variables()


@cache
def openapi_get_paths() -> frozenset[str]:
    """Paths that answer GET in the committed OpenAPI document."""
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text())
    return frozenset(path for path, item in document["paths"].items() if "get" in item)


@cache
def app_routes() -> frozenset[str]:
    """Every path the app routes, including those left out of the OpenAPI (``/metrics``)."""
    from russian_poker.service.app import create_app
    from russian_poker.service.settings import Settings

    app = create_app(Settings(jwt_secret="deploy-tests-only-" + "x" * 32))
    return frozenset(re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path) for route in app.routes)


@cache
def console_script() -> str:
    """The name of the project's CLI (``[project.scripts]``) that runs ``service.cli:main``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = [
        name
        for name, target in project["scripts"].items()
        if target == "russian_poker.service.cli:main"
    ]
    assert len(names) == 1, project["scripts"]
    return names[0]


def cli_context(args: list[str]) -> click.Context:
    """Parse ``args`` exactly as ``russian-poker ARGS`` would, down to the subcommand.

    Raises click's usage errors for an unknown command or option or a bad value.
    """
    name, *rest = args
    root = cli.make_context(console_script(), [name], resilient_parsing=False)
    command = cli.get_command(root, name)
    if command is None:
        raise click.UsageError(f"no such command: {name}")
    return command.make_context(name, rest, parent=root)


@cache
def dockerfile() -> DockerfileParser:
    return DockerfileParser(fileobj=io.BytesIO(DOCKERFILE.read_bytes()))


def dockerfile_stages() -> list[list[dict[str, Any]]]:
    """The Dockerfile's instructions (comments dropped), one list per stage."""
    stages: list[list[dict[str, Any]]] = []
    for instruction in dockerfile().structure:
        if instruction["instruction"] == "FROM":
            stages.append([])
        if instruction["instruction"] != "COMMENT" and stages:
            stages[-1].append(instruction)
    return stages


def exec_form(value: str) -> list[str]:
    """A JSON (exec) form ENTRYPOINT / CMD argument list."""
    parsed = json.loads(value)
    assert isinstance(parsed, list), value
    assert all(isinstance(item, str) for item in parsed), value
    return parsed


def image_user_id() -> int:
    """The numeric user the final stage runs as."""
    users = [i["value"] for i in dockerfile_stages()[-1] if i["instruction"] == "USER"]
    assert users, "the final stage sets no USER"
    return int(users[-1].split(":")[0])


def image_entrypoint() -> list[str]:
    final = dockerfile_stages()[-1]
    (entrypoint,) = [exec_form(i["value"]) for i in final if i["instruction"] == "ENTRYPOINT"]
    return entrypoint


def image_cmd() -> list[str]:
    final = dockerfile_stages()[-1]
    (cmd,) = [exec_form(i["value"]) for i in final if i["instruction"] == "CMD"]
    return cmd


@cache
def compose() -> dict[str, Any]:
    loaded = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(loaded, dict)
    return loaded


def k8s_files() -> list[Path]:
    """The Kubernetes manifests (every YAML file in deploy/k8s but the kustomization)."""
    return sorted(p for p in K8S.glob("*.yaml") if p.name != "kustomization.yaml")


@cache
def k8s_documents() -> tuple[dict[str, Any], ...]:
    documents: list[dict[str, Any]] = []
    for path in k8s_files():
        documents.extend(d for d in yaml.safe_load_all(path.read_text()) if d is not None)
    return tuple(documents)


def k8s_one(kind: str, name: str | None = None) -> dict[str, Any]:
    found = [
        d
        for d in k8s_documents()
        if d["kind"] == kind and (name is None or d["metadata"]["name"] == name)
    ]
    assert len(found) == 1, f"expected one {kind} {name or ''}, found {len(found)}"
    return found[0]


_INTERPOLATION = re.compile(
    r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\}"
)


def interpolate(value: str, environ: dict[str, str]) -> str:
    """Compose's ``${VAR}``, ``${VAR:-default}`` and ``${VAR:?error}`` substitution."""

    def substitute(match: re.Match[str]) -> str:
        name, op, arg = match["name"], match["op"], match["arg"]
        current = environ.get(name)
        if op in (":-", "-"):
            return current if current else arg
        if op in (":?", "?"):
            if not current:
                raise KeyError(f"{name}: {arg}")
            return current
        return current or ""

    return _INTERPOLATION.sub(substitute, value)


def interpolation_of(value: str) -> tuple[str, str | None] | None:
    """(variable, operator) when ``value`` is exactly one ``${...}`` substitution."""
    match = _INTERPOLATION.fullmatch(value)
    return (match["name"], match["op"]) if match else None
