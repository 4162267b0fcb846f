"""deploy/k8s: every manifest against the Kubernetes API schemas (kubernetes-validate,
strict: unknown fields fail), then what the manifests must say about this service."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from russian_poker.service.settings import ConfigurationError, load_settings
from tests.deploy.facts import (
    K8S,
    app_routes,
    cli_context,
    image_user_id,
    k8s_documents,
    k8s_files,
    k8s_one,
    openapi_get_paths,
    service_variables,
)

# The oldest Kubernetes release still commonly run, and the newest the package knows.
VERSIONS = ("1.29", kubernetes_validate.utils.latest_version())
SECRET_KEYS = {"DATABASE_URL", "RUSSIAN_POKER_JWT_SECRET"}


def deployment() -> dict[str, Any]:
    return k8s_one("Deployment")


def job() -> dict[str, Any]:
    return k8s_one("Job")


def pod_spec(workload: dict[str, Any]) -> dict[str, Any]:
    return workload["spec"]["template"]["spec"]  # type: ignore[no-any-return]


def container(workload: dict[str, Any]) -> dict[str, Any]:
    (only,) = pod_spec(workload)["containers"]
    return only  # type: ignore[no-any-return]


def workloads() -> list[dict[str, Any]]:
    return [deployment(), job()]


def label_id(document: dict[str, Any]) -> str:
    return f"{document['kind']}/{document['metadata']['name']}"


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("document", k8s_documents(), ids=label_id)
def test_valid_against_the_kubernetes_schema(document: dict[str, Any], version: str) -> None:
    try:
        kubernetes_validate.validate(document, version, strict=True)
    except kubernetes_validate.ValidationError as error:
        path = "/".join(str(p) for p in error.path)
        pytest.fail(f"{label_id(document)} at {path}: {error.message}")


def test_the_schema_rejects_a_misspelt_field() -> None:
    """The validator is live and strict: an unknown field fails."""
    broken = yaml.safe_load(yaml.safe_dump(deployment()))
    broken["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, VERSIONS[-1], strict=True)


def test_kustomization_lists_every_manifest() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert kustomization["kind"] == "Kustomization"
    assert sorted(kustomization["resources"]) == sorted(p.name for p in k8s_files())
    assert kustomization["namespace"] == k8s_one("Namespace")["metadata"]["name"]
    images = {image["name"] for image in kustomization["images"]}
    for workload in workloads():
        assert container(workload)["image"].split(":")[0] in images


def test_names_are_unique() -> None:
    keys = [label_id(d) for d in k8s_documents()]
    assert len(keys) == len(set(keys)), keys


def test_deployment_runs_at_least_two_replicas_and_rolls_without_downtime() -> None:
    spec = deployment()["spec"]
    assert spec["replicas"] >= 2
    assert spec["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_probes_use_the_real_health_endpoints_on_the_served_port() -> None:
    api = container(deployment())
    ports = {port["name"]: port["containerPort"] for port in api["ports"]}
    served = cli_context(api["args"]).params["port"]
    expected = {
        "readinessProbe": "/health/ready",
        "livenessProbe": "/health/live",
        "startupProbe": "/health/live",
    }
    for probe, path in expected.items():
        get = api[probe]["httpGet"]
        assert get["path"] == path, probe
        assert get["path"] in openapi_get_paths(), f"{probe}: {path} is not in the OpenAPI"
        port = ports[get["port"]] if isinstance(get["port"], str) else get["port"]
        assert port == served, probe


def test_metrics_annotations_point_at_the_metrics_route() -> None:
    annotations = deployment()["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert annotations["prometheus.io/path"] in app_routes()
    served = cli_context(container(deployment())["args"]).params["port"]
    assert int(annotations["prometheus.io/port"]) == served


def test_containers_run_the_image_entrypoint_with_real_commands() -> None:
    """No `command:` override, so the image's ENTRYPOINT (the CLI) runs the `args`."""
    api, migrate = container(deployment()), container(job())
    assert "command" not in api and "command" not in migrate
    assert api["args"][0] == "serve"
    assert cli_context(api["args"]).params["host"] == "0.0.0.0"
    assert migrate["args"] == ["migrate"]
    cli_context(migrate["args"])
    assert api["image"] == migrate["image"], "the Job migrates for the image it ships with"
    assert not api["image"].endswith(":latest") and ":" in api["image"]


def test_migration_job_runs_once() -> None:
    spec = job()["spec"]
    assert spec.get("completions", 1) == 1
    assert spec.get("parallelism", 1) == 1
    assert pod_spec(job())["restartPolicy"] in ("Never", "OnFailure")
    assert spec["backoffLimit"] >= 1 and spec["activeDeadlineSeconds"] > 0


def test_resources_are_requested_and_limited() -> None:
    units = {"m": 0.001, "Mi": 2**20, "Gi": 2**30, "Ki": 2**10, "": 1}

    def quantity(value: str | int) -> float:
        text = str(value)
        suffix = next(s for s in ("Mi", "Gi", "Ki", "m", "") if text.endswith(s))
        return float(text[: len(text) - len(suffix)] if suffix else text) * units[suffix]

    for workload in workloads():
        resources = container(workload)["resources"]
        for name in ("cpu", "memory"):
            request = quantity(resources["requests"][name])
            limit = quantity(resources["limits"][name])
            assert 0 < request <= limit, f"{label_id(workload)} {name}"


def test_security_context() -> None:
    for workload in workloads():
        pod = pod_spec(workload)
        assert pod["securityContext"]["runAsNonRoot"] is True
        assert pod["securityContext"]["runAsUser"] == image_user_id()
        assert pod["securityContext"]["seccompProfile"]["type"] == "RuntimeDefault"
        assert pod["automountServiceAccountToken"] is False
        security = container(workload)["securityContext"]
        assert security["allowPrivilegeEscalation"] is False
        assert security["readOnlyRootFilesystem"] is True
        assert security["capabilities"]["drop"] == ["ALL"]
        assert not security["capabilities"].get("add")
        # With a read-only root, /tmp is the one writable place.
        mounts = {m["mountPath"]: m["name"] for m in container(workload)["volumeMounts"]}
        volumes = {v["name"]: v for v in pod["volumes"]}
        assert "emptyDir" in volumes[mounts["/tmp"]]


def test_termination_grace_leaves_time_to_drain_streams() -> None:
    pod = pod_spec(deployment())
    pre_stop = container(deployment())["lifecycle"]["preStop"]["exec"]["command"]
    assert pre_stop[0] == "sleep"
    assert pod["terminationGracePeriodSeconds"] >= int(pre_stop[1]) + 30


def test_service_routes_to_the_pods() -> None:
    service = k8s_one("Service")
    labels = deployment()["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    port_names = {p["name"] for p in container(deployment())["ports"]}
    for port in service["spec"]["ports"]:
        assert port["targetPort"] in port_names


def test_disruption_budget_covers_the_pods_and_allows_drains() -> None:
    budget = k8s_one("PodDisruptionBudget")["spec"]
    selector = deployment()["spec"]["selector"]["matchLabels"]
    assert budget["selector"]["matchLabels"] == selector
    replicas = deployment()["spec"]["replicas"]
    if "maxUnavailable" in budget:
        assert 1 <= budget["maxUnavailable"] < replicas
    else:
        assert 1 <= budget["minAvailable"] < replicas
    # Only the Deployment's pods match (not the migration Job's).
    job_labels = job()["spec"]["template"]["metadata"]["labels"]
    assert not selector.items() <= job_labels.items()


def configuration() -> tuple[dict[str, str], dict[str, str]]:
    config = k8s_one("ConfigMap")["data"]
    secret = k8s_one("Secret")["stringData"]
    return config, secret


def test_configuration_names_are_documented_and_read() -> None:
    config, secret = configuration()
    assert set(config) <= service_variables(), set(config) - service_variables()
    assert set(secret) == SECRET_KEYS
    assert not set(config) & SECRET_KEYS, "secrets belong in the Secret"
    for workload in workloads():
        sources = container(workload)["envFrom"]
        assert {s["configMapRef"]["name"] for s in sources if "configMapRef" in s} == {
            k8s_one("ConfigMap")["metadata"]["name"]
        }
        assert {s["secretRef"]["name"] for s in sources if "secretRef" in s} == {
            k8s_one("Secret")["metadata"]["name"]
        }
        for variable in container(workload).get("env", []):
            assert variable["name"] in service_variables(), variable["name"]


def test_configuration_values_pass_the_start_up_check() -> None:
    config, _ = configuration()
    settings = load_settings(
        {**config, "DATABASE_URL": "postgresql://u:p@db/x", "RUSSIAN_POKER_JWT_SECRET": "k" * 40}
    )
    assert settings.environment == "production"
    assert not settings.test_mode


def test_secret_holds_placeholders_the_service_refuses() -> None:
    """The shipped Secret is not usable: replacing it is a required step."""
    config, secret = configuration()
    for value in secret.values():
        assert "CHANGE-ME" in value
    with pytest.raises(ConfigurationError, match="RUSSIAN_POKER_JWT_SECRET"):
        load_settings({**config, **secret})
    assert "data" not in k8s_one("Secret"), "no base64-encoded values either"


def test_only_yaml_in_the_manifest_folder() -> None:
    assert {p.suffix for p in Path(K8S).iterdir()} == {".yaml"}
