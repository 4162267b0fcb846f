"""deploy/compose.yaml: the Compose Specification schema, then how the services fit together."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import pytest

from russian_poker.service.settings import load_settings
from tests.deploy.facts import (
    COMPOSE,
    DEPLOY,
    ROOT,
    cli_context,
    compose,
    dockerfile_stages,
    interpolate,
    interpolation_of,
    service_variables,
)

INSTANCES = ("api-1", "api-2")
# Values for the variables compose.yaml requires from the environment (or deploy/.env).
ENVIRONMENT = {"POSTGRES_PASSWORD": "pg-password-for-tests", "RUSSIAN_POKER_JWT_SECRET": "s" * 48}


def compose_spec_schema() -> dict[str, Any]:
    """The Compose Specification JSON schema that check-jsonschema vendors (offline)."""
    vendored = resources.files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json"
    schema: dict[str, Any] = json.loads(vendored.read_text())
    return schema


def services() -> dict[str, dict[str, Any]]:
    return compose()["services"]  # type: ignore[no-any-return]


def environment(service: dict[str, Any]) -> dict[str, str]:
    env = service.get("environment", {})
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {key: str(value) for key, value in env.items()}


def test_valid_against_the_compose_specification() -> None:
    schema = compose_spec_schema()
    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    errors = sorted(validator.iter_errors(compose()), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_the_schema_rejects_a_broken_file() -> None:
    """The validator is live: a misspelt key fails."""
    broken = {"services": {"api": {"image": "x", "depends_om": ["db"]}}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(compose_spec_schema()).validate(broken)


def test_services() -> None:
    assert set(services()) == {"postgres", "migrate", *INSTANCES, "proxy"}


def test_postgres_16_with_a_healthcheck_and_a_volume() -> None:
    postgres = services()["postgres"]
    assert re.fullmatch(r"postgres:16(\.\d+)?(-[a-z0-9]+)?", postgres["image"])
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])
    (volume,) = postgres["volumes"]
    name, target = volume.split(":")[:2]
    assert target == "/var/lib/postgresql/data"
    assert name in compose()["volumes"], "a named volume, declared at the top level"
    assert "ports" not in postgres, "the database is reachable only inside the project"


def test_one_image_built_from_the_repository() -> None:
    app = [services()[name] for name in ("migrate", *INSTANCES)]
    assert len({s["image"] for s in app}) == 1
    for service in app:
        build = service["build"]
        context = (DEPLOY / build["context"]).resolve()
        assert context == ROOT
        assert (context / build["dockerfile"]).is_file()


def test_migrate_runs_once_before_the_instances() -> None:
    migrate = services()["migrate"]
    assert migrate["command"] == ["migrate"]
    cli_context(migrate["command"])  # a real CLI command
    assert migrate["restart"] == "no", "one-shot"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    for name in INSTANCES:
        depends = services()[name]["depends_on"]
        assert depends["migrate"]["condition"] == "service_completed_successfully"
        assert depends["postgres"]["condition"] == "service_healthy"


def test_instances_serve_on_the_port_the_proxy_targets() -> None:
    upstreams = re.findall(
        r"^\s*server\s+([\w.-]+):(\d+)", (DEPLOY / "nginx.conf").read_text(), re.M
    )
    # Every upstream (the balanced one and the one by table) lists every instance.
    assert sorted({host for host, _ in upstreams}) == sorted(INSTANCES)
    assert len(upstreams) % len(INSTANCES) == 0
    for name in INSTANCES:
        instance = services()[name]
        params = cli_context(instance["command"]).params
        assert params["host"] == "0.0.0.0"
        assert {int(port) for _, port in upstreams} == {params["port"]}
        assert "ports" not in instance, "only the proxy is published"
        assert instance.get("stop_grace_period"), "time to drain live streams"


def test_proxy_waits_for_healthy_instances_and_mounts_its_config() -> None:
    proxy = services()["proxy"]
    for name in INSTANCES:
        assert proxy["depends_on"][name]["condition"] == "service_healthy"
    # service_healthy needs a healthcheck: the image's own HEALTHCHECK provides it.
    final = dockerfile_stages()[-1]
    assert any(i["instruction"] == "HEALTHCHECK" for i in final)
    (mount,) = proxy["volumes"]
    source, target, mode = mount.split(":")
    assert (COMPOSE.parent / source).resolve() == DEPLOY / "nginx.conf"
    assert target == "/etc/nginx/nginx.conf" and mode == "ro"
    listen = re.findall(r"^\s*listen\s+(\d+);", (DEPLOY / "nginx.conf").read_text(), re.M)
    (published,) = proxy["ports"]
    assert published.rsplit(":", 1)[1] == listen[0]
    assert "unprivileged" in proxy["image"], "nginx runs as non-root"


def test_service_environment_is_documented_and_accepted() -> None:
    """Every variable the app containers get is in the README and read by settings.py, and
    the resolved values pass the service's own start-up check, as production."""
    for name in ("migrate", *INSTANCES):
        env = environment(services()[name])
        unknown = set(env) - service_variables()
        assert not unknown, f"{name}: {unknown} not documented in the README / read by settings"
        resolved = {key: interpolate(value, ENVIRONMENT) for key, value in env.items()}
        settings = load_settings(resolved)
        assert settings.environment == "production"
        assert not settings.test_mode


def test_database_url_names_the_postgres_service() -> None:
    postgres = environment(services()["postgres"])
    url = urlsplit(interpolate(environment(services()["migrate"])["DATABASE_URL"], ENVIRONMENT))
    assert url.hostname == "postgres"
    assert url.username == postgres["POSTGRES_USER"]
    assert url.path == "/" + postgres["POSTGRES_DB"]
    assert url.password == interpolate(postgres["POSTGRES_PASSWORD"], ENVIRONMENT)


def test_secrets_come_from_the_environment_and_are_required() -> None:
    """No secret is written in the file, and none silently defaults: `${NAME:?message}`."""
    secrets = {
        "RUSSIAN_POKER_JWT_SECRET": environment(services()["api-1"])["RUSSIAN_POKER_JWT_SECRET"],
        "POSTGRES_PASSWORD": environment(services()["postgres"])["POSTGRES_PASSWORD"],
    }
    for name, value in secrets.items():
        assert interpolation_of(value) == (name, ":?"), f"{name}: {value}"
    url = environment(services()["api-1"])["DATABASE_URL"]
    password = re.fullmatch(r"postgresql://[^:/]+:(?P<password>.+)@[^@]+", url)
    assert password, url
    assert interpolation_of(password["password"]) == ("POSTGRES_PASSWORD", ":?")
    with pytest.raises(KeyError, match="RUSSIAN_POKER_JWT_SECRET"):
        interpolate(secrets["RUSSIAN_POKER_JWT_SECRET"], {})


def test_containers_are_hardened() -> None:
    for name in ("migrate", *INSTANCES, "proxy"):
        service = services()[name]
        assert service["read_only"] is True, name
        assert service["cap_drop"] == ["ALL"], name
        assert "no-new-privileges:true" in service["security_opt"], name
        assert "/tmp" in service["tmpfs"], name


def test_local_secrets_file_is_git_ignored() -> None:
    assert ".env" in (DEPLOY / ".gitignore").read_text().split()


def test_relative_paths_exist() -> None:
    for service in services().values():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                assert (COMPOSE.parent / Path(source)).exists(), source
