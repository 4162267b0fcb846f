"""yamllint over every YAML file in deploy/, and docs/deploy.md covering every deploy file."""

from __future__ import annotations

from pathlib import Path

import pytest
from yamllint import linter
from yamllint.config import YamlLintConfig

from tests.deploy.facts import DEPLOY, ROOT, YAMLLINT_CONF

YAML_FILES = sorted(p for p in DEPLOY.rglob("*") if p.suffix in (".yaml", ".yml"))


def test_there_is_yaml_to_lint() -> None:
    names = {p.relative_to(DEPLOY).as_posix() for p in YAML_FILES}
    assert {"compose.yaml", "k8s/deployment.yaml", "k8s/kustomization.yaml"} <= names


@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: p.relative_to(DEPLOY).as_posix())
def test_yamllint(path: Path) -> None:
    config = YamlLintConfig(file=str(YAMLLINT_CONF))
    problems = list(linter.run(path.read_text(), config, str(path)))
    assert not problems, "\n".join(
        f"{path.name}:{p.line}:{p.column}: [{p.level}] {p.message} ({p.rule})" for p in problems
    )


def test_deploy_guide_mentions_every_deploy_file() -> None:
    guide = (ROOT / "docs" / "deploy.md").read_text()
    files = [p for p in DEPLOY.rglob("*") if p.is_file() and p.name != ".gitignore"]
    for path in [*files, ROOT / ".dockerignore"]:
        name = path.relative_to(ROOT).as_posix()
        assert name in guide or path.name in guide, f"docs/deploy.md does not mention {name}"
