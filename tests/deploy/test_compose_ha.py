"""deploy/compose.ha.yaml, the high-availability override of compose.yaml: valid against the
Compose Specification, its Patroni nodes built with the very patroni.yml the Patroni drill
runs (benchmarks/patroni_drill.py), each node named and addressed as itself, and every
instance given the multi-host URL over both nodes."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import jsonschema
import yaml

from tests.deploy.facts import DEPLOY, ROOT, interpolate
from tests.deploy.test_compose import ENVIRONMENT, compose_spec_schema

HA = DEPLOY / "compose.ha.yaml"
HA_ENVIRONMENT = {
    **ENVIRONMENT,
    "PATRONI_REPLICATION_PASSWORD": "replication-password-for-tests",
    "PATRONI_REWIND_PASSWORD": "rewind-password-for-tests",
}


def _override() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(HA.read_text())
    return loaded


def test_valid_against_the_compose_specification() -> None:
    validator = jsonschema.Draft202012Validator(compose_spec_schema())
    errors = sorted(validator.iter_errors(_override()), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_the_nodes_run_the_drills_patroni_file() -> None:
    dockerfile = (DEPLOY / "patroni" / "Dockerfile").read_text()
    assert "COPY deploy/patroni/patroni.yml /etc/patroni/patroni.yml" in dockerfile
    drill = (ROOT / "benchmarks" / "patroni_drill.py").read_text()
    assert 'CONFIG = ROOT / "deploy" / "patroni" / "patroni.yml"' in drill
    config = yaml.safe_load((DEPLOY / "patroni" / "patroni.yml").read_text())
    assert config["bootstrap"]["dcs"]["synchronous_mode"] is True
    services = _override()["services"]
    for name in ("patroni1", "patroni2"):
        node = services[name]
        assert node["build"]["dockerfile"] == "deploy/patroni/Dockerfile"
        env = node["environment"]
        assert env["PATRONI_NAME"] == name
        assert env["PATRONI_POSTGRESQL_CONNECT_ADDRESS"] == f"{name}:5432"
        assert env["PATRONI_RESTAPI_CONNECT_ADDRESS"] == f"{name}:8008"
        assert env["PATRONI_ETCD3_HOSTS"] == "etcd1:2379,etcd2:2379,etcd3:2379"


def test_every_instance_reaches_both_nodes_for_a_writer() -> None:
    services = _override()["services"]
    assert services["postgres"]["profiles"] == ["single"]  # left out
    for name in ("migrate", "api-1", "api-2"):
        url = interpolate(services[name]["environment"]["DATABASE_URL"], HA_ENVIRONMENT)
        parts = urlsplit(url)
        assert parts.netloc.rsplit("@", 1)[1] == "patroni1:5432,patroni2:5432", url
        assert parse_qs(parts.query)["target_session_attrs"] == ["read-write"]
        depends = services[name]["depends_on"]
        assert (
            depends["patroni1"]["condition"]
            == depends["patroni2"]["condition"]
            == ("service_healthy")
        )
