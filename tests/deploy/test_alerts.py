"""deploy/prometheus/alerts.yaml: Prometheus rule groups whose every alert is complete and
names only metrics the service exports."""

from __future__ import annotations

import re
from typing import Any

import yaml
from prometheus_client import REGISTRY

import russian_poker.service.reports.monitor  # noqa: F401  (registers the RTP gauges)
from russian_poker.service import observability
from tests.deploy.facts import DEPLOY

ALERTS = DEPLOY / "prometheus" / "alerts.yaml"
_DURATION = re.compile(r"^[0-9]+[smhd]$")


def exported() -> set[str]:
    names: set[str] = set()
    for metric in REGISTRY.collect():
        names.add(metric.name)
        if metric.type == "counter":  # exposed with the suffix, collected without it
            names.add(f"{metric.name}_total")
        names.update(sample.name for sample in metric.samples)
    return names


def test_every_alert_rule_is_complete_and_names_exported_metrics() -> None:
    assert observability.COMMANDS is not None
    document: dict[str, Any] = yaml.safe_load(ALERTS.read_text())
    rules = [rule for group in document["groups"] for rule in group["rules"]]
    assert {r["alert"] for r in rules} >= {"RussianPokerRtpOutsideBand"}
    known = exported()
    for rule in rules:
        assert set(rule) <= {"alert", "expr", "for", "labels", "annotations"}, rule
        assert _DURATION.match(rule["for"]), rule
        assert rule["labels"]["severity"] in ("warning", "critical")
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]
        assert rule["expr"].count("(") == rule["expr"].count(")")
        for name in re.findall(r"\brussian_poker_[a-z_]+", rule["expr"]):
            assert name in known, f"{rule['alert']}: {name} is not a metric the service exports"
    band = next(r for r in rules if r["alert"] == "RussianPokerRtpOutsideBand")
    assert "russian_poker_rtp_outside_band" in band["expr"]
