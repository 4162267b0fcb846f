"""Audit bundles: a window of play as signed files a lab verifies offline (docs/audit-bundle.md)."""
