"""The regulator's tools: replaying rounds through the rules, reconciling money."""
